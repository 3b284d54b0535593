package report

import (
	"sort"
	"time"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// Report summarises one session.
type Report struct {
	File    string         `json:"file"`
	Format  session.Format `json:"format"`
	Version int            `json:"version"`
	Agent   string         `json:"agent"`
	Session string         `json:"session"`
	Title   string         `json:"title"`
	Started time.Time      `json:"started"`

	Threads  int            `json:"threads"`
	Entries  int            `json:"entries"`
	ByKind   map[string]int `json:"entriesByKind"`
	Messages int            `json:"messages"`
	ByRole   map[string]int `json:"messagesByRole"`
	// ByOrigin counts messages whose source type differs from their role,
	// such as pi's bashExecution.
	ByOrigin map[string]int `json:"messagesByOrigin"`

	ToolCalls        int            `json:"toolCalls"`
	ToolCallsByName  map[string]int `json:"toolCallsByName"`
	ToolResults      int            `json:"toolResults"`
	ToolErrors       int            `json:"toolErrors"`
	Unanswered       int            `json:"callsWithoutResult"`
	UnansweredByName map[string]int `json:"callsWithoutResultByName"`
	ThinkingBlocks   int            `json:"thinkingBlocks"`
	// OpaqueBlocks counts payloads no one can read (encrypted reasoning),
	// which no text counter counts; OpaqueBytes is their size.
	OpaqueBlocks int `json:"opaqueBlocks"`
	OpaqueBytes  int `json:"opaqueBytes"`
	Images       int `json:"images"`

	Requests int `json:"requests"`
	// Tokens is the size of every message of the session, per counter.
	Tokens map[string]int `json:"tokens"`
	// RequestTokens lists each request's input size, per counter, for the
	// main thread.
	RequestTokens []RequestTokens `json:"requestTokens"`
	// Usage sums what providers reported, each response counted once;
	// WithUsage is how many responses reported any.
	Usage     session.Usage `json:"usage"`
	WithUsage int           `json:"responsesWithUsage"`
	// Recorded is the totals the agent itself recorded for the session,
	// which may cover calls the file holds no response for.
	Recorded *session.Recorded `json:"recorded,omitempty"`
	// Calibration fits reported ≈ overhead + ratio × counted online over
	// every thread; requestTokens[].calibrated are its predictions.
	Calibration *tokens.Calibration `json:"calibration,omitempty"`
	// InputLacks names what the log does not hold of a request (say,
	// "the tool schemas"), "" when it holds it whole or that is not known.
	InputLacks string `json:"inputLacks,omitempty"`

	Compactions []Compaction         `json:"compactions"`
	Episodes    []cwl.Segment        `json:"episodes"`
	Errors      int                  `json:"errors"`
	Warnings    int                  `json:"warnings"`
	Diagnostics []session.Diagnostic `json:"diagnostics"`
}

// RequestTokens is one request's input size under each counter.
type RequestTokens struct {
	Request  int            `json:"request"`
	Line     int            `json:"line"`
	Tokens   map[string]int `json:"tokens"`
	Reported int            `json:"reported,omitempty"`
	// Calibrated is the input predicted from the requests before this
	// one (see Report.Calibration).
	Calibrated int `json:"calibrated"`
	// Source says where the input's figures come from: SourceRequestRecord,
	// SourceTranscript or SourceEstimated, whose Remainder is the part the
	// provider counted beyond the log's messages, estimated from usage.
	Source    string `json:"source"`
	Remainder int    `json:"remainder,omitempty"`
}

// Compaction is a compaction marker of the source agent.
type Compaction struct {
	Line         int       `json:"line"`
	EntryID      string    `json:"entryId"`
	Time         time.Time `json:"time"`
	TokensBefore int       `json:"tokensBefore"`
	// NextRequest is the index of the first request after it, -1 if none.
	NextRequest int    `json:"nextRequest"`
	Thread      string `json:"thread"`
	Summary     string `json:"summary"`
}

// Compactions lists the compaction entries of t, each with the index of
// the first of reqs (t's requests) that follows it.
func Compactions(t *session.Thread, reqs []*session.Request) []Compaction {
	out := []Compaction{}
	for _, e := range t.Entries {
		if e.Kind != session.EntryCompaction || e.Compaction == nil {
			continue
		}
		next := sort.Search(len(reqs), func(i int) bool { return reqs[i].Entry.Line > e.Line })
		if next == len(reqs) {
			next = -1
		}
		out = append(out, Compaction{Line: e.Line, EntryID: e.ID, Time: e.Time, TokensBefore: e.Compaction.TokensBefore,
			NextRequest: next, Thread: t.ID, Summary: e.Compaction.Summary})
	}
	return out
}

// Build summarises s, measuring tokens with each ledger.
func Build(s *session.Session, ledgers ...*tokens.Ledger) *Report {
	r := &Report{
		File: s.Source, Format: s.Format, Version: s.Version, Agent: s.Agent,
		Session: s.ID, Title: s.Title, Started: s.Started, Threads: len(s.Threads), Recorded: s.Recorded,
		ByKind: map[string]int{}, ByRole: map[string]int{}, ByOrigin: map[string]int{},
		ToolCallsByName: map[string]int{}, UnansweredByName: map[string]int{},
		Tokens: map[string]int{}, Diagnostics: s.Diagnostics,
		Compactions: []Compaction{}, Episodes: []cwl.Segment{}, RequestTokens: []RequestTokens{},
	}
	if r.Diagnostics == nil {
		r.Diagnostics = []session.Diagnostic{}
	}
	for _, d := range s.Diagnostics {
		if d.Severity == session.SeverityError {
			r.Errors++
		} else {
			r.Warnings++
		}
	}
	for _, t := range s.Threads {
		r.countThread(t, ledgers)
	}
	if main := s.Main(); main != nil {
		r.measureMain(main, ledgers)
		r.calibrate(s, ledgers)
	}
	return r
}

// calibrate fits the provider's usage on the counts of the estimator (or
// the first counter) over every thread, and gives each request of the
// main thread its calibrated input.
func (r *Report) calibrate(s *session.Session, ledgers []*tokens.Ledger) {
	if len(ledgers) == 0 {
		return
	}
	l := ledgers[0]
	for _, x := range ledgers {
		if x.Counter().Name() == "estimate" {
			l = x
		}
	}
	threads, cal := Calibrate(s.Threads, l)
	r.Calibration = &cal
	var main []tokens.Prediction
	for _, tc := range threads {
		if tc.Thread != s.Main() {
			continue
		}
		main = tc.Predictions
		for k, p := range tc.Predictions {
			if k < len(r.RequestTokens) {
				r.RequestTokens[k].Calibrated = p.Tokens
			}
		}
	}
	r.setSources(s, main)
}

func (r *Report) countThread(t *session.Thread, ledgers []*tokens.Ledger) {
	answered := map[string]bool{}
	var calls []*session.Block
	for _, e := range t.Entries {
		r.Entries++
		r.ByKind[string(e.Kind)]++
		m := e.Message
		if m == nil {
			continue
		}
		r.Messages++
		r.ByRole[string(m.Role)]++
		if m.Origin != "" {
			r.ByOrigin[m.Origin]++
		}
		r.addUsage(m.Usage)
		for _, l := range ledgers {
			r.Tokens[l.Counter().Name()] += l.Message(m)
		}
		for i := range m.Blocks {
			if b := &m.Blocks[i]; r.countBlock(b, answered) {
				calls = append(calls, b)
			}
		}
	}
	for _, c := range calls {
		if !answered[c.ToolCallID] {
			r.Unanswered++
			r.UnansweredByName[c.ToolName]++
		}
	}
}

// addUsage adds a message's reported usage, when it has some.
func (r *Report) addUsage(u *session.Usage) {
	if u == nil {
		return
	}
	r.WithUsage++
	r.Usage.Add(*u)
}

// countBlock counts block b, marks the call a tool result answers in
// answered, and reports whether b is a tool call.
func (r *Report) countBlock(b *session.Block, answered map[string]bool) (call bool) {
	switch b.Type {
	case session.BlockToolCall:
		r.ToolCalls++
		r.ToolCallsByName[b.ToolName]++
		return true
	case session.BlockToolResult:
		r.ToolResults++
		answered[b.ToolCallID] = true
		if b.IsError {
			r.ToolErrors++
		}
		for _, c := range b.Content {
			if c.Type == session.BlockImage {
				r.Images++
			}
		}
	case session.BlockThinking:
		r.ThinkingBlocks++
	case session.BlockOpaque:
		r.OpaqueBlocks++
		r.OpaqueBytes += b.Size
	case session.BlockImage:
		r.Images++
	}
	return false
}

func (r *Report) measureMain(t *session.Thread, ledgers []*tokens.Ledger) {
	reqs := session.BuildRequests(t)
	r.Requests = len(reqs)
	per := make([]RequestTokens, len(reqs))
	for i, q := range reqs {
		per[i] = RequestTokens{Request: i, Line: q.Entry.Line, Tokens: map[string]int{}}
		if u := q.Entry.Message.Usage; u != nil {
			per[i].Reported = u.Prompt()
		}
	}
	for _, l := range ledgers {
		for i, p := range Timeline(reqs, l) {
			per[i].Tokens[l.Counter().Name()] = p.Tokens
		}
	}
	r.RequestTokens = per

	r.Compactions = append(r.Compactions, Compactions(t, reqs)...)
	r.Episodes = append(r.Episodes, cwl.SegmentMessages(ActivePath(t))...)
}

// ActivePath returns the messages on the path from the root to the
// thread's current leaf, in order, as the agent last held them (before any
// compaction is applied).
func ActivePath(t *session.Thread) []*session.Message {
	tr := session.NewTree(t)
	leaf := tr.Leaf()
	if leaf < 0 {
		return nil
	}
	var out []*session.Message
	for _, i := range tr.PathTo(leaf) {
		if m := t.Entries[i].Message; m != nil {
			out = append(out, m)
		}
	}
	return out
}
