package cli

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"ctxscope/engine/cwl"
	"ctxscope/engine/cwl/protocol"
	"ctxscope/engine/ingest"
	"ctxscope/engine/ingest/pi"
	"ctxscope/engine/inputfile"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

var cwlCommand = command{
	name:    "cwl",
	args:    "filter --policy pi-cwl|paper --budget N [--context-window W] HISTORY.json | validate FILE",
	summary: "run one CWL eviction pass over a message history, or check its delimiter protocol",
	run:     runCWL,
}

func runCWL(env *Env, args []string) error {
	if len(args) == 0 {
		return usageError("need a subcommand: filter or validate")
	}
	switch args[0] {
	case "filter":
		return runCWLFilter(env, args[1:])
	case "validate":
		return runCWLValidate(env, args[1:])
	}
	return usageError("unknown subcommand %q (want filter or validate)", args[0])
}

// runCWLFilter prints one pass in the conformance-vector format:
// {tokensBefore, tokensAfter, threshold, chunkStats, view}.
func runCWLFilter(env *Env, args []string) error {
	fs := newFlags("cwl filter", env.Stderr)
	policy := fs.String("policy", cwl.PolicyPaper, "eviction policy: paper or pi-cwl")
	budget := fs.String("budget", "", "token budget: tokens (20000, 50k) or a percentage of the window (50%); default 80000")
	window := fs.Int("context-window", 400_000, "the model's context window in tokens; ≤ 0 disables the filter")
	tokenizer := fs.String("tokenizer", "estimate", "token counter: estimate, o200k or cl100k")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("need exactly one HISTORY.json")
	}
	var limit *cwl.Limit
	if *budget != "" {
		if limit, err = cwl.ParseLimit(*budget); err != nil {
			return usageError("%v", err)
		}
	}
	counter, err := tokens.ByName(*tokenizer)
	if err != nil {
		return usageError("%v", err)
	}
	if *policy != cwl.PolicyPiCWL && *policy != cwl.PolicyPaper {
		return usageError("unknown policy %q (want paper or pi-cwl)", *policy)
	}
	msgs, err := loadHistory(pos[0])
	if err != nil {
		return err
	}
	l := tokens.NewLedger(counter)
	switch *policy {
	case cwl.PolicyPiCWL:
		return writeJSON(env.Stdout, cwl.FilterPiCWL(msgs, *window, limit, l))
	default:
		return writeJSON(env.Stdout, cwl.FilterPaper(msgs, *window, limit, l))
	}
}

// loadHistory reads a message history and returns its messages indexed as
// in the file. Anything the importer had to skip is an error, since the
// view's indices must match the file's.
func loadHistory(path string) ([]*session.Message, error) {
	raw, err := inputfile.ReadAll(path, 0)
	if err != nil {
		return nil, err
	}
	var s *session.Session
	if t := bytes.TrimLeft(raw, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '[' {
		s, err = pi.Importer{}.Import(bytes.NewReader(raw), path) // a bare AgentMessage array
	} else {
		s, err = ingest.Read(bytes.NewReader(raw), path)
	}
	if err != nil {
		return nil, err
	}
	var errs []string
	for _, d := range s.Diagnostics {
		if d.Severity == session.SeverityError {
			errs = append(errs, d.String())
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	t := s.Main()
	if t == nil {
		return nil, nil
	}
	msgs := make([]*session.Message, len(t.Entries))
	for i, e := range t.Entries {
		if e.ID != "m"+strconv.Itoa(i) || e.Message == nil {
			// Not a bare message array: a session file, whose active path
			// is the history.
			return activeMessages(t), nil
		}
		msgs[i] = e.Message
	}
	return msgs, nil
}

// activeMessages returns the input of the thread's last request plus what
// follows it: the messages on the path to the current leaf.
func activeMessages(t *session.Thread) []*session.Message {
	tr := session.NewTree(t)
	var out []*session.Message
	for _, i := range tr.PathTo(tr.Leaf()) {
		if e := t.Entries[i]; e.Kind == session.EntryMessage && e.Message != nil && !e.Message.Excluded {
			out = append(out, e.Message)
		}
	}
	return out
}

// runCWLValidate prints the delimiter protocol findings of a session.
func runCWLValidate(env *Env, args []string) error {
	fs := newFlags("cwl validate", env.Stderr)
	asJSON := fs.Bool("json", false, "print the findings as JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("need exactly one FILE")
	}
	s, err := ingest.ReadFile(pos[0])
	if err != nil {
		return err
	}
	var diags []session.Diagnostic
	findings := []protocol.Finding{}
	for _, t := range s.Threads {
		var msgs []*session.Message
		var entries []*session.Entry
		tr := session.NewTree(t)
		for _, i := range tr.PathTo(tr.Leaf()) {
			if e := t.Entries[i]; e.Kind == session.EntryMessage && e.Message != nil {
				msgs, entries = append(msgs, e.Message), append(entries, e)
			}
		}
		fs := protocol.Validate(msgs)
		findings = append(findings, fs...)
		diags = append(diags, protocol.Diagnostics(fs, entries, pos[0])...)
	}
	if *asJSON {
		return writeJSON(env.Stdout, findings)
	}
	for _, d := range diags {
		fmt.Fprintln(env.Stdout, d)
	}
	fmt.Fprintf(env.Stdout, "%d finding(s)\n", len(diags))
	return nil
}
