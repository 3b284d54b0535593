package realagents

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"ctxscope/engine/modeltest"
	"ctxscope/engine/session"
	"ctxscope/engine/wire"
)

// compareThread checks ctxscope's reading of thread th against the model
// calls of the scripted conversation marker that the server received:
// one LLM request per call, each response's usage as the server reported
// it, the tool calls as the server made them (with the arguments the
// model received back), and each call's result exactly as the agent sent
// it.
func compareThread(t *testing.T, name string, th *session.Thread, all []modeltest.Request, marker string) {
	t.Helper()
	sent := modelCalls(all, marker)
	got := session.BuildRequests(th)
	if len(got) != len(sent) {
		t.Errorf("%s: ctxscope reads %d LLM requests, the server received %d", name, len(got), len(sent))
	}
	for k := range min(len(got), len(sent)) {
		u, want := got[k].Entry.Message.Usage, sent[k].Usage
		if u == nil || u.Input != want.Input || u.CacheRead != want.CacheRead || u.Output != want.Output {
			t.Errorf("%s: request %d: usage %+v, the server reported %+v", name, k, u, want)
		}
	}

	var calls, results []*session.Block
	for _, e := range th.Entries {
		if e.Message == nil || e.Message.Origin == session.OriginEcho {
			continue // an echo is the agent's copy of a response, not the model's calls
		}
		for i := range e.Message.Blocks {
			switch b := &e.Message.Blocks[i]; b.Type {
			case session.BlockToolCall:
				calls = append(calls, b)
			case session.BlockToolResult:
				results = append(results, b)
			}
		}
	}
	var made []modeltest.Call
	resultsSent := map[string]string{}
	callsSent := map[string]json.RawMessage{}
	for _, r := range sent {
		made = append(made, r.Calls...)
		for id, text := range r.ToolResults() {
			resultsSent[id] = text
		}
		for id, args := range r.ToolCallsSent() {
			callsSent[id] = args
		}
	}
	if len(calls) != len(made) {
		t.Errorf("%s: ctxscope reads %d tool calls, the server made %d", name, len(calls), len(made))
	}
	for i := range min(len(calls), len(made)) {
		// The arguments to hold are those the model received back in its
		// context (an agent may add defaults to what the model wrote, and
		// its log holds those), or, read from the wire, those the model
		// wrote.
		c, m := calls[i], made[i]
		var args, back, wrote any
		json.Unmarshal(c.Arguments, &args)
		b, _ := json.Marshal(m.Input)
		json.Unmarshal(b, &wrote)
		want, ok := callsSent[m.ID]
		if !ok {
			want = b // the last call: no request carried it back
		}
		json.Unmarshal(want, &back)
		if c.ToolCallID != m.ID || c.ToolName != m.Name || !(reflect.DeepEqual(args, back) || reflect.DeepEqual(args, wrote)) {
			t.Errorf("%s: call %d: %s %s %s; the model made %s %s and received back %s", name, i, c.ToolCallID, c.ToolName, c.Arguments, m.ID, m.Name, want)
		}
	}
	lastCalls := map[string]bool{}
	if len(sent) > 0 {
		for _, c := range sent[len(sent)-1].Calls {
			lastCalls[c.ID] = true
		}
	}
	byID := map[string]*session.Block{}
	for _, r := range results {
		byID[r.ToolCallID] = r
	}
	total := 0
	for _, m := range made {
		r, ok := byID[m.ID]
		sentText, wasSent := resultsSent[m.ID]
		switch {
		case !wasSent && lastCalls[m.ID]:
			// A call of the last response (a subagent's complete_task)
			// ends the run: no request carries its result back, and a
			// reading of the wire has none.
		case !ok:
			t.Errorf("%s: the result of %s (%s) is not read", name, m.ID, m.Name)
		case !wasSent:
			t.Errorf("%s: the agent never sent the result of %s (%s)", name, m.ID, m.Name)
		default:
			if read := resultText(r); read != sentText {
				t.Errorf("%s: the result of %s (%s) as read, %.200q, is not what was sent, %.200q", name, m.ID, m.Name, read, sentText)
			}
			total += len(sentText)
		}
	}
	t.Logf("%s: %d requests, %d tool calls, %d bytes of results, each as sent", name, len(sent), len(made), total)
}

// resultText is a tool result's text as read.
func resultText(b *session.Block) string {
	var parts []string
	for _, c := range b.Content {
		if c.Type == session.BlockText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// modelCalls are the requests of all that the server answered as the
// scripted conversation marker, but those the agent sent again with the
// same body (it gave up waiting, as Copilot CLI does on a loaded machine,
// and retried): the agent never saw their answers, and its log holds only
// the retry.
func modelCalls(all []modeltest.Request, marker string) []modeltest.Request {
	var out []modeltest.Request
	for _, r := range all {
		if r.Task != marker {
			continue
		}
		if n := len(out); n > 0 && bytes.Equal(out[n-1].Body, r.Body) {
			out[n-1] = r // the retry stands for both
			continue
		}
		out = append(out, r)
	}
	return out
}

// compareTotals checks that where the agent recorded its own totals, the
// usage of the session's responses, each counted once, adds up to them.
// It reports whether the agent recorded any.
func compareTotals(t *testing.T, s *session.Session) bool {
	t.Helper()
	if s.Recorded == nil {
		return false
	}
	var sum session.Usage
	for _, th := range s.Threads {
		for _, q := range session.BuildRequests(th) {
			if u := q.Entry.Message.Usage; u != nil {
				sum.Input += u.Input
				sum.CacheRead += u.CacheRead
				sum.CacheWrite += u.CacheWrite
				sum.Output += u.Output
			}
		}
	}
	r := s.Recorded.Usage
	if sum.Input != r.Input || sum.CacheRead != r.CacheRead || sum.CacheWrite != r.CacheWrite || sum.Output != r.Output {
		t.Errorf("the responses add up to %+v; the agent recorded %+v (%s)", sum, r, s.Recorded.From)
	} else {
		t.Logf("the responses add up to the agent's own totals (%s)", s.Recorded.From)
	}
	return true
}

// logReading is what a test knows of an agent's log: how to count a body
// as the log can hold it (count; wireCount, when set, for the proxy's
// reading of the whole body), what it lacks of each request (lacks, ""
// for nothing, with tolerance), and the blocks the wire holds that the
// log lacks (wireLacks) and the other way round (wireExtra).
type logReading struct {
	count, wireCount     bodyCounter
	lacks                string
	tolerance            float64
	wireLacks, wireExtra func(wire.Part) bool
}

// checkThread checks thread th of the log session s, the conversation
// marker, against what the server received (calls, results, usage, each
// request's input) and against the proxy's recording of it (every body as
// sent, read back whole; the log beside the wire).
func checkThread(t *testing.T, name string, s *session.Session, th *session.Thread, marker string, srv *modeltest.Server, rec recording, r logReading) {
	t.Helper()
	compareThread(t, name, th, srv.Requests(), marker)
	compareInputs(t, name, th, srv.Requests(), marker, r.count, r.lacks, r.tolerance)
	wc := r.wireCount
	if wc == nil {
		wc = r.count
	}
	compareRecords(t, name, rec, srv, marker, wc, 0.005)
	compareWire(t, name, s, th, rec, r.wireLacks, r.wireExtra)
}
