package recipe

import (
	"fmt"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/extract"
	"ctxscope/engine/memory/llm"
)

// Extractors names the extractors a build can use: the tagged offline
// extractor (the default), the earlier first-person patterns, and a model
// behind an OpenAI-compatible endpoint.
var Extractors = []string{"offline", "patterns", "llm"}

// Spec chooses a build's parts.
type Spec struct {
	// Extractor is one of Extractors; "" is "offline".
	Extractor string
	Embedder  embed.Provider
	// Compat builds with the released code's parameters (a buffer of 5,
	// noise as a group, no merges) rather than the paper's. The paper's
	// build with the built-in static word vectors groups turns within
	// cluster.StaticEps rather than the paper's 0.3.
	Compat bool
	// Model returns the client of the llm extractor; it is asked only
	// for that extractor.
	Model func() (*llm.Client, error)
	// Logf receives the builder's lines (rejected items, skipped steps);
	// nil discards them.
	Logf func(format string, args ...any)
}

// Builder returns the builder s chooses.
func (s Spec) Builder() (*memory.Builder, error) {
	cfg := cluster.PaperConfig()
	if s.Compat {
		cfg = cluster.CodeConfig()
	} else if embed.NeedsCentering(s.Embedder) {
		cfg.Eps = cluster.StaticEps // the paper's 0.3 is for a sentence encoder
	}
	b := &memory.Builder{Extractor: extract.Tagged{}, Embedder: s.Embedder, Writer: cluster.Offline{}, Config: cfg, Merge: !s.Compat, Logf: s.Logf}
	switch s.Extractor {
	case "", "offline":
	case "patterns":
		b.Extractor = extract.Offline{}
	case "llm":
		if s.Model == nil {
			return nil, fmt.Errorf("the llm extractor needs a model endpoint")
		}
		c, err := s.Model()
		if err != nil {
			return nil, err
		}
		e := &llm.Extractor{Client: c, Logf: s.Logf}
		b.Extractor, b.Reviewer, b.Writer = e, e, &llm.Writer{Client: c, Logf: s.Logf}
	default:
		return nil, fmt.Errorf("unknown extractor %q (want offline, patterns or llm)", s.Extractor)
	}
	return b, nil
}
