package otlp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"ctxscope/engine/ingest/otlp/otlptest"
	"ctxscope/engine/session"
)

// exportPlan shapes the exports streamPlan writes for one conversation.
type exportPlan struct {
	calls      int     // model calls
	perExport  int     // spans per export at most
	swap       float64 // the chance that an export comes after the next
	retry      float64 // the chance that an export is sent twice
	lateLog    float64 // the chance that a call's messages come as log records, in a later export
	dropResult float64 // the chance that the next call's input leaves a tool result out (the span's fills it)
	bare       float64 // the chance that a call records no content
	agent      bool    // Codex's own events besides the spans
}

// streamPlan writes the exports of one agent conversation, as exporters
// send them: the spans of model calls (each input the whole history) and
// tool runs, in batches, some late, some twice.
func streamPlan(rng *rand.Rand, p exportPlan) []export {
	const conv = "conv-stream"
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	td := ptrace.NewTraces()
	ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	var logs []plog.Logs
	history := []string{`{"role":"user","parts":[{"type":"text","content":"Fix the failing test."}]}`}
	for i := range p.calls {
		s := ss.Spans().AppendEmpty()
		s.SetTraceID(pcommon.TraceID{byte(i / 3), 7})
		s.SetSpanID(pcommon.SpanID{byte(i >> 8), byte(i), 1})
		s.SetName("chat model")
		s.SetStartTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(3*i) * time.Second)))
		s.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(3*i+1) * time.Second)))
		at := s.Attributes()
		at.PutStr(attrOperation, "chat")
		at.PutStr(attrConversation, conv)
		at.PutInt(attrInputTokens, int64(100+10*i))
		at.PutInt(attrOutputTokens, 9)
		calls := 1 + rng.IntN(2)
		var out []string
		for c := range calls {
			out = append(out, fmt.Sprintf(`{"type":"tool_call","id":"c%d_%d","name":"bash","arguments":{"command":"ls %d"}}`, i, c, i))
		}
		output := `{"role":"assistant","parts":[` + strings.Join(out, ",") + `]}`
		switch r := rng.Float64(); {
		case r < p.bare:
		case r < p.bare+p.lateLog:
			// The messages as log records of the span, sent later.
			ld := plog.NewLogs()
			lrs := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords()
			lr := lrs.AppendEmpty()
			lr.SetEventName(evUser)
			lr.SetSpanID(s.SpanID())
			lr.SetTraceID(s.TraceID())
			lr.Body().SetEmptyMap().PutStr("content", fmt.Sprintf("turn %d", i))
			logs = append(logs, ld)
		default:
			at.PutStr(attrInputMessages, "["+strings.Join(history, ",")+"]")
			at.PutStr(attrOutputMessages, "["+output+"]")
		}
		history = append(history, output)
		for c := range calls {
			id := fmt.Sprintf("c%d_%d", i, c)
			t := ss.Spans().AppendEmpty()
			t.SetTraceID(s.TraceID())
			t.SetSpanID(pcommon.SpanID{byte(i >> 8), byte(i), 2, byte(c)})
			t.SetName("execute_tool bash")
			t.SetStartTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(3*i+1) * time.Second)))
			t.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(3*i+2) * time.Second)))
			t.Attributes().PutStr(attrOperation, "execute_tool")
			t.Attributes().PutStr(attrToolCallID, id)
			t.Attributes().PutStr(attrToolResult, "file "+id)
			if rng.Float64() >= p.dropResult {
				history = append(history, fmt.Sprintf(`{"role":"tool","parts":[{"type":"tool_call_response","id":%q,"response":"file %s"}]}`, id, id))
			}
		}
	}
	// Batches of spans in order, then the disorder exporters make.
	var exports []export
	all := ss.Spans()
	for from := 0; from < all.Len(); {
		n := 1 + rng.IntN(p.perExport)
		part := ptrace.NewTraces()
		dst := part.ResourceSpans().AppendEmpty()
		dst.Resource().Attributes().PutStr("service.name", "stream-agent")
		pss := dst.ScopeSpans().AppendEmpty()
		for k := from; k < min(from+n, all.Len()); k++ {
			all.At(k).CopyTo(pss.Spans().AppendEmpty())
		}
		from += n
		body, _ := (&ptrace.ProtoMarshaler{}).MarshalTraces(part)
		exports = append(exports, export{Traces, body})
		if len(logs) > 0 && rng.IntN(2) == 0 {
			body, _ := (&plog.ProtoMarshaler{}).MarshalLogs(logs[0])
			exports = append(exports, export{Logs, body})
			logs = logs[1:]
		}
	}
	for _, ld := range logs {
		body, _ := (&plog.ProtoMarshaler{}).MarshalLogs(ld)
		exports = append(exports, export{Logs, body})
	}
	if p.agent {
		for i := range p.calls {
			exports = append(exports, export{Logs, codexEvent(i)})
		}
	}
	for i := 0; i+1 < len(exports); i++ {
		if rng.Float64() < p.swap {
			exports[i], exports[i+1] = exports[i+1], exports[i]
			i++
		}
	}
	var out []export
	for _, e := range exports {
		out = append(out, e)
		if rng.Float64() < p.retry {
			out = append(out, e)
		}
	}
	return out
}

// export is one OTLP/HTTP export request: its signal and protobuf body.
type export struct {
	sig  Signal
	body []byte
}

// codexEvent is an export of one of Codex's own events (a tool's result)
// of the conversation, the i-th.
func codexEvent(i int) []byte {
	ld := plog.NewLogs()
	rl := ld.ResourceLogs().AppendEmpty()
	rl.Resource().Attributes().PutStr("service.name", "codex_exec")
	lr := rl.ScopeLogs().AppendEmpty().LogRecords().AppendEmpty()
	lr.SetTimestamp(pcommon.NewTimestampFromTime(time.Date(2026, 11, 27, 9, 0, i, 0, time.UTC)))
	at := lr.Attributes()
	at.PutStr("event.name", evCodexTool)
	at.PutStr(attrCodexConversation, "conv-codex")
	at.PutStr("call_id", fmt.Sprintf("x%d", i))
	at.PutStr("tool_name", "exec_command")
	at.PutStr("arguments", `{"cmd":"ls"}`)
	at.PutStr("output", "a b")
	at.PutStr("success", "true")
	body, _ := (&plog.ProtoMarshaler{}).MarshalLogs(ld)
	return body
}

// checkStream feeds exports through a receiver's path (a Spooler's
// split, the line appended to its conversation's file, the file's
// Stream) and checks, after each, that the Stream's sessions are those
// ImportEach reads from the file, and that each update kept only entries
// the previous one held. It returns how many entries the updates kept and
// wrote.
func checkStream(t *testing.T, exports []export) (kept, written int) {
	t.Helper()
	dir := t.TempDir()
	sp := NewSpooler()
	streams := map[string]*Stream{}
	latest := map[string]*session.Session{}
	before := map[string][]string{} // each session's entries as JSON, as last returned
	for n, e := range exports {
		groups, _, err := sp.Split(e.sig, e.body, false)
		if err != nil {
			t.Fatalf("export %d: %v", n, err)
		}
		for key, line := range groups {
			if key == "" {
				continue
			}
			path := filepath.Join(dir, "spool-"+key+".otlp.jsonl")
			f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(append(line, '\n'))
			f.Close()
			var ups []Update
			if st := streams[path]; st != nil {
				ups, err = st.Add(line)
			} else {
				streams[path], ups, err = OpenStream(path)
			}
			if err != nil {
				t.Fatalf("export %d: %v", n, err)
			}
			for _, u := range ups {
				entries := u.Session.Main().Entries
				for i := range u.Kept {
					if got := entryJSON(t, entries[i]); got != before[u.Session.ID][i] {
						t.Fatalf("export %d: session %s kept entry %d, which changed:\n%s\nwas\n%s", n, u.Session.ID, i, got, before[u.Session.ID][i])
					}
				}
				kept += u.Kept
				written += len(entries) - u.Kept
				before[u.Session.ID] = nil
				for _, e := range entries {
					before[u.Session.ID] = append(before[u.Session.ID], entryJSON(t, e))
				}
				latest[u.Session.ID] = u.Session
			}
			want := map[string]*session.Session{}
			data, _ := os.ReadFile(path)
			if err := (Importer{}).ImportEach(bytes.NewReader(data), path, func(s *session.Session) error { want[s.ID] = s; return nil }); err != nil {
				t.Fatal(err)
			}
			for id, w := range want {
				if !reflect.DeepEqual(latest[id], w) {
					got, _ := json.MarshalIndent(latest[id], "", " ")
					exp, _ := json.MarshalIndent(w, "", " ")
					t.Fatalf("export %d: session %s from the stream:\n%.3000s\nfrom the file:\n%.3000s", n, id, got, exp)
				}
			}
		}
	}
	return kept, written
}

func entryJSON(t *testing.T, e *session.Entry) string {
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestStreamMatchesImport holds a Stream to reading its file whole: for
// exports in order, late, retried, with messages in late log records,
// with results only the tool spans recorded, with calls of no content,
// and beside an agent's own events.
func TestStreamMatchesImport(t *testing.T) {
	plans := map[string]exportPlan{
		"in order":          {calls: 12, perExport: 3},
		"one span each":     {calls: 8, perExport: 1},
		"late exports":      {calls: 12, perExport: 2, swap: 0.3},
		"retried":           {calls: 10, perExport: 3, retry: 0.3},
		"late log records":  {calls: 10, perExport: 2, lateLog: 0.3},
		"results from runs": {calls: 10, perExport: 2, dropResult: 0.5},
		"no content":        {calls: 6, perExport: 2, bare: 0.5},
		"with agent events": {calls: 6, perExport: 2, agent: true},
		"all at once":       {calls: 12, perExport: 4, swap: 0.2, retry: 0.2, lateLog: 0.2, dropResult: 0.3, bare: 0.1, agent: true},
	}
	for name, p := range plans {
		t.Run(name, func(t *testing.T) {
			for seed := range uint64(20) {
				checkStream(t, streamPlan(rand.New(rand.NewPCG(seed, 1)), p))
			}
		})
	}
}

// TestStreamKeepsWhatItRead checks that exports in order cost only what
// they add: of a conversation exported a turn at a time, each update
// rewrites at most the entry of the last call's tool result, which the
// next call's input replaces.
func TestStreamKeepsWhatItRead(t *testing.T) {
	sp := NewSpooler()
	path := filepath.Join(t.TempDir(), "conv.otlp.jsonl")
	var st *Stream
	for turn := range 50 {
		groups, _, err := sp.Split(Traces, otlptest.AgentTurn("conv-keep", turn, 1), false)
		if err != nil {
			t.Fatal(err)
		}
		line := groups["conv-keep"]
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		f.Write(append(line, '\n'))
		f.Close()
		var ups []Update
		if st == nil {
			st, ups, err = OpenStream(path)
		} else {
			ups, err = st.Add(line)
		}
		if err != nil || len(ups) != 1 {
			t.Fatalf("turn %d: %d updates, %v", turn, len(ups), err)
		}
		n := len(ups[0].Session.Main().Entries)
		if turn > 0 && n-ups[0].Kept > 3 {
			t.Fatalf("turn %d: %d entries, %d kept: the update rewrote more than the turn", turn, n, ups[0].Kept)
		}
	}
	if st.rereads != 1 {
		t.Errorf("the file was read %d times, want once (when opened)", st.rereads)
	}
	if st.conv == nil || len(st.b.spans) != 100 {
		t.Fatalf("the stream holds %d spans", len(st.b.spans))
	}
	for _, s := range st.b.spans {
		if s.attrs != nil && attrString(s.attrs, attrOperation) != "execute_tool" {
			t.Fatal("a model call's span still holds its messages after it was read")
		}
	}
}

// TestStreamBadLine checks that a line that is no export request reads as
// ImportEach reads it: a diagnostic with its line on the first session.
func TestStreamBadLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conv.otlp.jsonl")
	sp := NewSpooler()
	groups, _, _ := sp.Split(Traces, otlptest.AgentTurn("conv-bad", 0, 2), false)
	os.WriteFile(path, append(groups["conv-bad"], '\n'), 0o600)
	st, _, err := OpenStream(path)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	f.WriteString("{\"not\": \"otlp\"}\n")
	f.Close()
	ups, err := st.Add([]byte(`{"not": "otlp"}`))
	if err != nil || len(ups) != 1 {
		t.Fatalf("%d updates, %v", len(ups), err)
	}
	d := ups[0].Session.Diagnostics
	if len(d) == 0 || d[0].Line != 2 || !strings.Contains(d[0].Message, "skipped") {
		t.Errorf("diagnostics %+v, want line 2 skipped", d)
	}
}

// FuzzStream holds a Stream to its file's reading over plans the fuzzer
// shapes.
func FuzzStream(f *testing.F) {
	f.Add(uint64(1), uint8(6), uint8(2), uint8(30), uint8(30), uint8(30), uint8(30), uint8(10), false)
	f.Add(uint64(7), uint8(12), uint8(1), uint8(0), uint8(0), uint8(0), uint8(90), uint8(0), true)
	f.Fuzz(func(t *testing.T, seed uint64, calls, per, swap, retry, lateLog, drop, bare uint8, agent bool) {
		p := exportPlan{calls: 1 + int(calls%16), perExport: 1 + int(per%5), swap: float64(swap%101) / 100, retry: float64(retry%101) / 100,
			lateLog: float64(lateLog%51) / 100, dropResult: float64(drop%101) / 100, bare: float64(bare%51) / 100, agent: agent}
		checkStream(t, streamPlan(rand.New(rand.NewPCG(seed, 2)), p))
	})
}
