package debug

import "ctxscope/engine/cwl"

// Options are what a replay can be prepared with besides its [Params]:
// the choices the debugger's view leaves at their defaults, which the
// command line's replay and sweep take as flags. The zero value is the
// debugger's replay.
type Options struct {
	// Tools classifies tool calls by name (search, read, shell, edit,
	// durable); nil for cwl's built-in table.
	Tools *cwl.Classifier
	// Prices is one price table for every request; zero for each
	// request's model's price in the bundled catalog.
	Prices cwl.Prices
	// Compact sizes the compact policy's summary and what it keeps.
	Compact cwl.CompactOptions
}

// Use runs fn with the prepared replayer and the run options of p, under
// the lock that keeps the replay's timelines one at a time, for a caller
// that works with cwl's own results (the command line prints them) rather
// than the views this package shapes for the debugger.
func (r *Replay) Use(p Params, fn func(rep *cwl.Replayer, o cwl.RunOptions) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return fn(r.rep, r.runOptions(p))
}
