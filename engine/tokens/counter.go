package tokens

import (
	"fmt"

	"ctxscope/engine/session"
)

// Counter measures messages in tokens.
type Counter interface {
	// Name is the counter's stable name: "estimate", "o200k" or "cl100k".
	Name() string
	// Units returns the additive size of block b of message m, in the
	// counter's own unit.
	Units(m *session.Message, b *session.Block) int
	// Tokens turns the summed units of a message's blocks into tokens. It is
	// called only for messages that keep at least one block.
	Tokens(m *session.Message, units int) int
	// Weight returns the fractional token share of units, for breakdowns
	// that must add up to Tokens.
	Weight(units int) float64
}

// Names lists the counters [ByName] knows, the default first.
var Names = []string{"estimate", "o200k", "cl100k"}

// ByName returns the counter with the given name. BPE counters load their
// tables on first use, which takes a few hundred milliseconds.
func ByName(name string) (Counter, error) {
	switch name {
	case "", "estimate":
		return Estimator{}, nil
	case "o200k", "o200k_base":
		return BPE("o200k_base")
	case "cl100k", "cl100k_base":
		return BPE("cl100k_base")
	}
	return nil, fmt.Errorf("tokens: unknown counter %q (want one of estimate, o200k, cl100k)", name)
}
