package otlp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"ctxscope/engine/ingest/internal/fuzzcheck"
	"ctxscope/engine/session"
)

var t0 = time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)

// spanSpec describes one span of a test trace.
type spanSpec struct {
	id, parent string
	name       string
	at         int // seconds after t0
	attrs      map[string]any
	events     []namedEvent
}

// namedEvent is one span event of a test span, in order.
type namedEvent struct {
	name  string
	attrs map[string]any
}

// traceLine encodes spans of one trace as an OTLP/JSON line.
func traceLine(t *testing.T, trace string, specs ...spanSpec) []byte {
	t.Helper()
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "test-agent")
	ss := rs.ScopeSpans().AppendEmpty()
	for _, sp := range specs {
		s := ss.Spans().AppendEmpty()
		s.SetTraceID(traceID(trace))
		s.SetSpanID(spanID(sp.id))
		if sp.parent != "" {
			s.SetParentSpanID(spanID(sp.parent))
		}
		s.SetName(sp.name)
		s.SetStartTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(sp.at) * time.Second)))
		s.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(sp.at)*time.Second + 500*time.Millisecond)))
		if err := s.Attributes().FromRaw(sp.attrs); err != nil {
			t.Fatal(err)
		}
		for _, ev := range sp.events {
			e := s.Events().AppendEmpty()
			e.SetName(ev.name)
			e.Attributes().FromRaw(ev.attrs)
		}
	}
	b, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func traceID(s string) pcommon.TraceID {
	var id pcommon.TraceID
	copy(id[:], s)
	return id
}

func spanID(s string) pcommon.SpanID {
	var id pcommon.SpanID
	copy(id[:], s)
	return id
}

func read(t *testing.T, lines ...[]byte) []*session.Session {
	t.Helper()
	var out []*session.Session
	err := Importer{}.ImportEach(bytes.NewReader(bytes.Join(lines, []byte("\n"))), "trace.otlp.jsonl", func(s *session.Session) error {
		out = append(out, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// digest is a session's messages in a form a table test compares.
func digest(s *session.Session) []string {
	var out []string
	for _, e := range s.Main().Entries {
		var parts []string
		for _, b := range e.Message.Blocks {
			switch b.Type {
			case session.BlockToolCall:
				parts = append(parts, "call "+b.ToolCallID+" "+b.ToolName+string(b.Arguments))
			case session.BlockToolResult:
				var texts []string
				for _, c := range b.Content {
					texts = append(texts, c.Text)
				}
				parts = append(parts, "result "+b.ToolCallID+" "+strings.Join(texts, ""))
			default:
				parts = append(parts, string(b.Type)+" "+b.Text)
			}
		}
		out = append(out, string(e.Message.Role)+": "+strings.Join(parts, " | "))
	}
	return out
}

const (
	sys   = `[{"type":"text","content":"You are a weather agent."}]`
	turn1 = `[{"role":"user","parts":[{"type":"text","content":"Weather in Paris?"}]}]`
	out1  = `[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"get_weather","arguments":{"city":"Paris"}}],"finish_reason":"tool_call"}]`
	turn2 = `[{"role":"user","parts":[{"type":"text","content":"Weather in Paris?"}]},` +
		`{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"get_weather","arguments":{"city":"Paris"}}]},` +
		`{"role":"tool","parts":[{"type":"tool_call_response","id":"call_1","response":"rainy, 14°C"}]}]`
	out2 = `[{"role":"assistant","parts":[{"type":"text","content":"It is rainy, 14°C."}],"finish_reason":"stop"}]`
)

// TestConversationFromCurrentConventions reads a two-call tool-using
// conversation written with the 1.37 message attributes: each call's
// input adds only what is new, the tool result comes from the second
// call's input, and each answer carries its call's usage.
func TestConversationFromCurrentConventions(t *testing.T) {
	line := traceLine(t, "trace-one-000001",
		spanSpec{id: "agent001", name: "invoke_agent weather", at: 0, attrs: map[string]any{attrOperation: "invoke_agent", attrAgentName: "weather", attrConversation: "conv-1"}},
		spanSpec{id: "chat0001", parent: "agent001", name: "chat gpt-4o", at: 1, attrs: map[string]any{attrOperation: "chat", attrProvider: "openai", attrRequestModel: "gpt-4o",
			attrResponseModel: "gpt-4o-2024-08-06", attrResponseID: "chatcmpl-1", attrInputTokens: int64(120), attrOutputTokens: int64(20), attrCacheRead: int64(100),
			attrSystemInstructions: sys, attrInputMessages: turn1, attrOutputMessages: out1}},
		spanSpec{id: "tool0001", parent: "agent001", name: "execute_tool get_weather", at: 2, attrs: map[string]any{attrOperation: "execute_tool", attrToolName: "get_weather",
			attrToolCallID: "call_1", attrToolResult: "rainy, 14°C"}},
		spanSpec{id: "chat0002", parent: "agent001", name: "chat gpt-4o", at: 3, attrs: map[string]any{attrOperation: "chat", attrProvider: "openai", attrRequestModel: "gpt-4o",
			attrInputTokens: "160", attrOutputTokens: 9.0, attrReasoning: int64(4), attrSystemInstructions: sys, attrInputMessages: turn2, attrOutputMessages: out2,
			attrFinishReasons: []any{"stop"}}},
	)
	ss := read(t, line)
	if len(ss) != 1 {
		t.Fatalf("%d sessions", len(ss))
	}
	s := ss[0]
	want := []string{
		"system: text You are a weather agent.",
		"user: text Weather in Paris?",
		`assistant: call call_1 get_weather{"city":"Paris"}`,
		"tool: result call_1 rainy, 14°C",
		"assistant: text It is rainy, 14°C.",
	}
	if got := digest(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.ID != "conv-1" || s.Format != session.FormatOTLP || s.Agent != "test-agent" || !strings.HasPrefix(s.Title, "weather: ") {
		t.Errorf("session %q format %q agent %q title %q", s.ID, s.Format, s.Agent, s.Title)
	}
	first, second := s.Main().Entries[2].Message, s.Main().Entries[4].Message
	if u := first.Usage; u == nil || *u != (session.Usage{Input: 20, CacheRead: 100, Output: 20}) {
		t.Errorf("first call's usage %+v: input_tokens includes the 100 cached", u)
	}
	if u := second.Usage; u == nil || u.Input != 160 || u.Output != 9 || u.Reasoning != 4 {
		t.Errorf("second call's usage %+v", u)
	}
	if first.Model != "gpt-4o-2024-08-06" || first.Provider != "openai" || first.ID != "chatcmpl-1" || first.StopReason != "tool_call" || second.Model != "gpt-4o" || second.StopReason != "stop" {
		t.Errorf("call metadata: %+v / %+v", first, second)
	}
	if len(s.Diagnostics) != 0 {
		t.Errorf("diagnostics: %v", s.Diagnostics)
	}
}

// TestToolResultFromItsSpan checks that a tool call no later call sent
// back takes the result its execute_tool span recorded.
func TestToolResultFromItsSpan(t *testing.T) {
	line := traceLine(t, "trace-two-000002",
		spanSpec{id: "chat0001", name: "chat", at: 1, attrs: map[string]any{attrOperation: "chat", attrConversation: "c2", attrInputMessages: turn1, attrOutputMessages: out1}},
		spanSpec{id: "tool0001", name: "execute_tool get_weather", at: 2, attrs: map[string]any{attrOperation: "execute_tool", attrToolCallID: "call_1", attrToolResult: `{"sky":"rain"}`, attrConversation: "c2"}},
	)
	got := digest(read(t, line)[0])
	if want := `tool: result call_1 {"sky":"rain"}`; len(got) != 3 || got[2] != want {
		t.Fatalf("messages %q, want the span's result last", got)
	}
}

// TestLegacyEventsAndLogs reads the message events of conventions before
// 1.37, once as span events and once as log records tied to the span.
func TestLegacyEventsAndLogs(t *testing.T) {
	events := []namedEvent{
		{evSystem, map[string]any{"content": "Be brief."}},
		{evUser, map[string]any{"content": "Weather in Paris?"}},
		{evChoice, map[string]any{"index": int64(0), "finish_reason": "tool_calls", "message": `{"tool_calls":[{"id":"call_x","type":"function","function":{"name":"get_weather","arguments":"{\"location\":\"Paris\"}"}}]}`}},
	}
	want := []string{"system: text Be brief.", "user: text Weather in Paris?", `assistant: call call_x get_weather{"location":"Paris"}`}
	spanEvents := traceLine(t, "trace-leg-000003", spanSpec{id: "chat0001", name: "chat gpt-4o", at: 1, attrs: map[string]any{attrOperation: "chat", attrInputTokens: int64(31)}, events: events})
	if got := digest(read(t, spanEvents)[0]); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("span events:\n%s", strings.Join(got, "\n"))
	}

	bare := traceLine(t, "trace-log-000004", spanSpec{id: "chat0001", name: "chat gpt-4o", at: 1, attrs: map[string]any{attrOperation: "chat"}})
	ld := plog.NewLogs()
	lrs := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords()
	for _, ev := range events {
		lr := lrs.AppendEmpty()
		lr.SetEventName(ev.name)
		lr.SetTraceID(traceID("trace-log-000004"))
		lr.SetSpanID(spanID("chat0001"))
		lr.Body().SetEmptyMap().FromRaw(ev.attrs)
	}
	logs, err := (&plog.JSONMarshaler{}).MarshalLogs(ld)
	if err != nil {
		t.Fatal(err)
	}
	s := read(t, logs, bare, logs)[0] // the logs sent twice, as a retrying exporter does
	if got := digest(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log records:\n%s", strings.Join(got, "\n"))
	}
}

// TestOpenLLMetryAttributes reads OpenLLMetry's indexed attributes.
func TestOpenLLMetryAttributes(t *testing.T) {
	line := traceLine(t, "trace-oll-000005", spanSpec{id: "chat0001", name: "openai.chat", at: 1, attrs: map[string]any{
		"gen_ai.system": "openai", "gen_ai.request.model": "gpt-4o-mini", "gen_ai.usage.prompt_tokens": int64(50), "gen_ai.usage.completion_tokens": int64(7),
		"gen_ai.prompt.0.role": "system", "gen_ai.prompt.0.content": "Be brief.",
		"gen_ai.prompt.1.role": "user", "gen_ai.prompt.1.content": "List files",
		"gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.finish_reason": "tool_calls",
		"gen_ai.completion.0.tool_calls.0.id": "c1", "gen_ai.completion.0.tool_calls.0.name": "ls", "gen_ai.completion.0.tool_calls.0.arguments": `{"path":"."}`,
	}})
	s := read(t, line)[0]
	want := []string{"system: text Be brief.", "user: text List files", `assistant: call c1 ls{"path":"."}`}
	if got := digest(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("messages:\n%s", strings.Join(got, "\n"))
	}
	if u := s.Main().Entries[2].Message.Usage; u == nil || u.Input != 50 || u.Output != 7 {
		t.Errorf("usage %+v", u)
	}
	if p := s.Main().Entries[2].Message.Provider; p != "openai" {
		t.Errorf("provider %q from gen_ai.system", p)
	}
}

// TestNoContentRecorded checks that calls recorded without content keep
// their usage and say why the text is missing.
func TestNoContentRecorded(t *testing.T) {
	line := traceLine(t, "trace-bar-000006",
		spanSpec{id: "chat0001", name: "chat", at: 1, attrs: map[string]any{attrOperation: "chat", attrInputTokens: int64(10), attrOutputTokens: int64(2)}},
		spanSpec{id: "chat0002", name: "chat", at: 2, attrs: map[string]any{attrOperation: "chat", attrInputTokens: int64(30), attrOutputTokens: int64(3)}})
	s := read(t, line)[0]
	if n := len(s.Main().Entries); n != 2 || s.Main().Entries[1].Message.Usage.Input != 30 {
		t.Fatalf("%d entries", n)
	}
	if len(s.Diagnostics) != 1 || !strings.Contains(s.Diagnostics[0].Message, "2 model calls record no message content") || s.Diagnostics[0].Line != 1 {
		t.Errorf("diagnostics %v", s.Diagnostics)
	}
}

// TestConversationsAndBadLines checks grouping by conversation across
// traces, a trace that names none, and a line that is not OTLP.
func TestConversationsAndBadLines(t *testing.T) {
	a1 := traceLine(t, "trace-a1-0000001", spanSpec{id: "chat0001", name: "chat", at: 1, attrs: map[string]any{attrOperation: "chat", attrConversation: "A", attrInputMessages: turn1, attrOutputMessages: out1}})
	b := traceLine(t, "trace-b--0000001", spanSpec{id: "chat0001", name: "chat", at: 2, attrs: map[string]any{attrOperation: "chat", attrInputMessages: turn1}})
	a2 := traceLine(t, "trace-a2-0000001", spanSpec{id: "chat0001", name: "chat", at: 3, attrs: map[string]any{attrOperation: "chat", attrConversation: "A", attrInputMessages: turn2, attrOutputMessages: out2}})
	ss := read(t, a1, []byte(`{"not":"otlp"}`), b, a2)
	if len(ss) != 2 || ss[0].ID != "A" || len(ss[0].Main().Entries) != 4 {
		t.Fatalf("%d sessions; first %q with %d entries", len(ss), ss[0].ID, len(ss[0].Main().Entries))
	}
	d := ss[0].Diagnostics
	if len(d) != 1 || d[0].Line != 2 || d[0].Severity != session.SeverityError {
		t.Errorf("diagnostics %v: want the line 2 error", d)
	}
}

// TestSpoolerFilesATraceUnderItsConversation checks that spans of a trace
// that name no conversation are filed with the one their trace named in
// an earlier export, and read back into that conversation.
func TestSpoolerFilesATraceUnderItsConversation(t *testing.T) {
	sp := NewSpooler()
	first := traceLine(t, "trace-sp-0000001", spanSpec{id: "chat0001", name: "chat", at: 1, attrs: map[string]any{attrOperation: "chat", attrConversation: "C", attrInputMessages: turn1, attrOutputMessages: out1}})
	later := traceLine(t, "trace-sp-0000001", spanSpec{id: "tool0001", name: "execute_tool", at: 2, attrs: map[string]any{attrOperation: "execute_tool", attrToolCallID: "call_1", attrToolResult: "rainy"}})
	other := traceLine(t, "trace-zz-0000009", spanSpec{id: "chat0009", name: "chat", at: 9, attrs: map[string]any{attrOperation: "chat"}})
	var spool []byte
	for _, line := range [][]byte{first, later} {
		groups, n, err := sp.Split(Traces, line, true)
		if err != nil || n != 1 || len(groups) != 1 || groups["C"] == nil {
			t.Fatalf("split: %v, %d spans, groups %v", err, n, len(groups))
		}
		spool = append(append(spool, groups["C"]...), '\n')
	}
	groups, _, _ := sp.Split(Traces, other, true)
	if _, ok := groups[traceID("trace-zz-0000009").String()]; !ok {
		t.Errorf("a trace naming no conversation is not filed under itself: %v", groups)
	}
	ss := read(t, spool)
	if len(ss) != 1 || ss[0].ID != "C" {
		t.Fatalf("%d sessions", len(ss))
	}
	if got := digest(ss[0]); len(got) != 3 || got[2] != "tool: result call_1 rainy" {
		t.Errorf("messages %q", got)
	}
	// Log records of the trace follow it.
	ld := plog.NewLogs()
	lr := ld.ResourceLogs().AppendEmpty().ScopeLogs().AppendEmpty().LogRecords().AppendEmpty()
	lr.SetEventName(evUser)
	lr.SetTraceID(traceID("trace-sp-0000001"))
	lr.SetSpanID(spanID("chat0001"))
	logs, _ := (&plog.JSONMarshaler{}).MarshalLogs(ld)
	if groups, n, err := sp.Split(Logs, logs, true); err != nil || n != 1 || groups["C"] == nil {
		t.Errorf("logs: %v %d %v", err, n, groups)
	}
	// The protobuf encoding splits the same way.
	td, _ := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces(first)
	pb, _ := (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
	if groups, n, err := NewSpooler().Split(Traces, pb, false); err != nil || n != 1 || groups["C"] == nil {
		t.Errorf("protobuf: %v %d %v", err, n, groups)
	}
	if _, _, err := sp.Split(Traces, []byte("not protobuf"), false); err == nil {
		t.Error("garbage decoded")
	}
}

// TestWholeFileRequest reads one pretty-printed request, and a JSON Lines
// file whose first line is broken.
func TestWholeFileRequest(t *testing.T) {
	line := traceLine(t, "trace-pp-0000001", spanSpec{id: "chat0001", name: "chat", at: 1, attrs: map[string]any{attrOperation: "chat", attrConversation: "P", attrInputMessages: turn1, attrOutputMessages: out1}})
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, line, "", "  "); err != nil {
		t.Fatal(err)
	}
	if ss := read(t, pretty.Bytes()); len(ss) != 1 || ss[0].ID != "P" || len(ss[0].Main().Entries) != 2 {
		t.Fatalf("pretty-printed: %d sessions", len(ss))
	}
	ss := read(t, []byte(`{"resourceSpans": [`), line)
	if len(ss) != 1 || len(ss[0].Diagnostics) != 1 || ss[0].Diagnostics[0].Line != 1 {
		t.Fatalf("broken first line: %d sessions, diagnostics %v", len(ss), ss[0].Diagnostics)
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		head string
		want bool
	}{
		{`{"resourceSpans":[]}`, true},
		{"\n {\"resourceLogs\":[]}", true},
		{`{"role":"user","content":"resourceSpans"}`, false},
		{`[{"resourceSpans":[]}]`, false},
	} {
		if got := (Importer{}).Sniff([]byte(tc.head)); got != tc.want {
			t.Errorf("Sniff(%q) = %v", tc.head, got)
		}
	}
}

// FuzzImport checks the importers' promise on OTLP input: no panic, and
// every diagnostic names its file and, for errors, its line.
func FuzzImport(f *testing.F) {
	fuzzcheck.Seed(f, "otlp")
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102030405060708","name":"chat","attributes":[{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"hi\"}]}]"}}]}]}]}]}`))
	// An agent's own events: Codex's and Claude Code's.
	f.Add([]byte(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"observedTimeUnixNano":"1","attributes":[{"key":"event.name","value":{"stringValue":"codex.tool_result"}},{"key":"conversation.id","value":{"stringValue":"c"}},{"key":"call_id","value":{"stringValue":"x"}},{"key":"arguments","value":{"stringValue":"{}"}}]}]}]}]}`))
	f.Add([]byte(`{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"timeUnixNano":"5","body":{"stringValue":"claude_code.tool_decision"},"attributes":[{"key":"session.id","value":{"stringValue":"s"}},{"key":"tool_use_id","value":{"stringValue":"t"}}]},{"timeUnixNano":"9","body":{"stringValue":"claude_code.api_request"},"attributes":[{"key":"session.id","value":{"stringValue":"s"}},{"key":"duration_ms","value":{"stringValue":"-3"}}]}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		err := Importer{}.ImportEach(bytes.NewReader(data), "fuzz.otlp.jsonl", func(s *session.Session) error {
			n++
			fuzzcheck.Check(t, s, false)
			return nil
		})
		// A file of no readable request fails, naming where.
		if err != nil && (n > 0 || !strings.HasPrefix(err.Error(), "fuzz.otlp.jsonl:")) {
			t.Fatalf("%d sessions, then %v", n, err)
		}
	})
}

// TestToolCallResponseContent reads what a tool call response gives the
// model: a string, the texts of a list of text blocks (the Anthropic SDK's
// record of a tool result), or any other JSON as written.
func TestToolCallResponseContent(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want []string
	}{
		{`"plain output"`, []string{"plain output"}},
		{`[{"type":"text","text":"one"},{"type":"text","text":"two"}]`, []string{"one", "two"}},
		{`[{"type":"text","text":"one"},{"type":"image"}]`, []string{`[{"type":"text","text":"one"},{"type":"image"}]`}},
		{`{"output":"x"}`, []string{`{"output":"x"}`}},
		{`[]`, []string{`[]`}},
	} {
		var got []string
		for _, b := range responseContent(json.RawMessage(tc.raw)) {
			got = append(got, b.Text)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("responseContent(%s) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

// TestToolDefinitions reads gen_ai.tool.definitions as the schema blocks
// of the system message, each named by its tool in either form the
// clients write, and refuses what is not a list.
func TestToolDefinitions(t *testing.T) {
	blocks, err := toolDefinitions(json.RawMessage(`[{"type":"function","name":"read","parameters":{"type":"object"}},` +
		`{"type":"function","function":{"name":"bash"}}, {"description":"no name"}]`))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range blocks {
		names = append(names, b.ToolName)
	}
	if strings.Join(names, ",") != "read,bash,(unnamed tool)" || blocks[0].Text != `{"type":"function","name":"read","parameters":{"type":"object"}}` {
		t.Errorf("blocks %+v", blocks)
	}
	if _, err := toolDefinitions(json.RawMessage(`{"name":"read"}`)); err == nil {
		t.Error("an object was taken for a list of tools")
	}
}

// TestCachedTokenAliases reads the cached part of a call's input under
// each name clients give it, and takes it out of the input, which counts
// the whole prompt.
func TestCachedTokenAliases(t *testing.T) {
	for _, tc := range []struct {
		attrs       map[string]any
		in, r, w    int
		description string
	}{
		{map[string]any{"gen_ai.usage.input_tokens": int64(100), "gen_ai.usage.cache_read.input_tokens": int64(60), "gen_ai.usage.cache_creation.input_tokens": int64(10)}, 30, 60, 10, "the conventions"},
		{map[string]any{"gen_ai.usage.input_tokens": int64(100), "gen_ai.usage.cache_read.input_tokens": int64(60), "gen_ai.usage.cache_write.input_tokens": int64(10)}, 30, 60, 10, "the Anthropic SDK"},
		{map[string]any{"gen_ai.usage.input_tokens": int64(100), "gen_ai.usage.cache_read_input_tokens": int64(60), "gen_ai.usage.cache_creation_input_tokens": int64(10)}, 30, 60, 10, "OpenLLMetry's older names"},
		{map[string]any{"gen_ai.usage.input_tokens": int64(100)}, 100, 0, 0, "none cached"},
	} {
		u := usageOf(tc.attrs)
		if u == nil || u.Input != tc.in || u.CacheRead != tc.r || u.CacheWrite != tc.w {
			t.Errorf("%s: usage %+v, want input %d, cache read %d, write %d", tc.description, u, tc.in, tc.r, tc.w)
		}
	}
}

// TestCodexEvents reads Codex's telemetry, log records in no span that
// name their conversation: the prompt, a response's usage (its input
// counts the cached tokens), the tool run after it as its call and the
// call's result, and a diagnostic saying what such a session lacks.
func TestCodexEvents(t *testing.T) {
	rec := func(ts int, attrs string) string {
		return fmt.Sprintf(`{"timeUnixNano":"%d000000000","eventName":"event otel/src/events/session_telemetry.rs:1","body":{},"attributes":[%s,{"key":"conversation.id","value":{"stringValue":"conv-1"}}]}`, ts, attrs)
	}
	kv := func(k, v string) string { return fmt.Sprintf(`{"key":%q,"value":{"stringValue":%q}}`, k, v) }
	line := `{"resourceLogs":[{"resource":{"attributes":[` + kv("service.name", "codex_exec") + `]},"scopeLogs":[{"logRecords":[` + strings.Join([]string{
		rec(1, kv("event.name", "codex.user_prompt")+","+kv("prompt", "fix the adder")),
		rec(2, kv("event.name", "codex.sse_event")+","+kv("event.kind", "response.created")),
		rec(3, kv("event.name", "codex.sse_event")+","+kv("event.kind", "response.completed")+","+kv("input_token_count", "100")+","+kv("cached_token_count", "60")+","+kv("output_token_count", "7")),
		rec(4, kv("event.name", "codex.tool_result")+","+kv("call_id", "c1")+","+kv("tool_name", "exec_command")+","+kv("arguments", `{"cmd":"cat a"}`)+","+kv("output", "a's text")+","+kv("success", "true")),
		rec(5, kv("event.name", "codex.tool_result")+","+kv("call_id", "c2")+","+kv("tool_name", "apply_patch")+","+kv("arguments", "*** Begin Patch")+","+kv("output", "failed")+","+kv("success", "false")),
	}, ",") + `]}]}]}`
	var sessions []*session.Session
	if err := (Importer{}).ImportEach(strings.NewReader(line+"\n"), "codex.otlp.jsonl", func(s *session.Session) error { sessions = append(sessions, s); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 1 || sessions[0].ID != "conv-1" || sessions[0].Agent != "codex_exec" {
		t.Fatalf("sessions %+v", sessions)
	}
	s := sessions[0]
	var got []string
	for _, e := range s.Main().Entries {
		got = append(got, contentOf(e.Message))
	}
	want := []string{"user text:fix the adder", `assistant call:c1:exec_command:{"cmd":"cat a"} call:c2:apply_patch:"*** Begin Patch"`,
		"tool result:c1:a's text", "tool result(error):c2:failed"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if u := s.Main().Entries[1].Message.Usage; u == nil || u.Input != 40 || u.CacheRead != 60 || u.Output != 7 {
		t.Errorf("usage %+v", u)
	}
	if len(s.Diagnostics) == 0 || !strings.Contains(s.Diagnostics[0].Message, "not the system and developer messages") {
		t.Errorf("diagnostics %+v", s.Diagnostics)
	}
}

// contentOf is a short digest of a message for TestCodexEvents.
func contentOf(m *session.Message) string {
	var parts []string
	for _, b := range m.Blocks {
		switch b.Type {
		case session.BlockText:
			parts = append(parts, "text:"+b.Text)
		case session.BlockToolCall:
			parts = append(parts, "call:"+b.ToolCallID+":"+b.ToolName+":"+string(b.Arguments))
		case session.BlockToolResult:
			kind := "result"
			if b.IsError {
				kind = "result(error)"
			}
			parts = append(parts, kind+":"+b.ToolCallID+":"+b.Content[0].Text)
		}
	}
	return string(m.Role) + " " + strings.Join(parts, " ")
}

// TestClaudeCodeEvents reads Claude Code's telemetry: records whose body
// names the event, in no span, by session.id. A call decided while its
// request streamed (before the request's event) and one decided after it
// both belong to that request, by its start (time less duration); a
// result that comes before its request's event follows the request's
// answer; a result is only the size the tool returned.
func TestClaudeCodeEvents(t *testing.T) {
	kv := func(k, v string) string { return fmt.Sprintf(`{"key":%q,"value":{"stringValue":%q}}`, k, v) }
	seq := 0
	rec := func(ms int, name string, attrs ...string) string {
		seq++
		attrs = append(attrs, kv("session.id", "s-1"), kv("event.sequence", fmt.Sprint(seq)))
		return fmt.Sprintf(`{"timeUnixNano":"%d000000","body":{"stringValue":"claude_code.%s"},"attributes":[%s]}`, 1000000+ms, name, strings.Join(attrs, ","))
	}
	request := func(ms, dur int, in string) string {
		return rec(ms, "api_request", kv("input_tokens", in), kv("output_tokens", "5"), kv("cache_read_tokens", "10"), kv("duration_ms", fmt.Sprint(dur)))
	}
	records := []string{
		rec(0, "user_prompt", kv("prompt", "fix it")),
		rec(15, "tool_decision", kv("tool_use_id", "t1"), kv("tool_name", "Read")), // while request 1 streams
		request(20, 19, "100"), // request 1: 1..20
		rec(21, "assistant_response", kv("response", "Reading.")),
		rec(25, "tool_result", kv("tool_use_id", "t1"), kv("tool_name", "Read"), kv("tool_input", `{"file_path":"a"}`), kv("tool_result_size_bytes", "65"), kv("success", "true")),
		request(40, 10, "120"), // request 2: 30..40
		rec(41, "tool_decision", kv("tool_use_id", "t2"), kv("tool_name", "Bash")), // after request 2's event
		rec(45, "tool_decision", kv("tool_use_id", "t3"), kv("tool_name", "Edit")), // request 3 streams: 44..50
		rec(46, "tool_result", kv("tool_use_id", "t2"), kv("tool_name", "Bash"), kv("tool_input", `{"command":"ls"}`), kv("tool_result_size_bytes", "9"), kv("success", "false")),
		rec(47, "tool_result", kv("tool_use_id", "t3"), kv("tool_name", "Edit"), kv("tool_input", `{"file_path":"a"}`), kv("tool_result_size_bytes", "3"), kv("success", "true")),
		request(50, 6, "140"),
	}
	line := `{"resourceLogs":[{"resource":{"attributes":[` + kv("service.name", "claude-code") + `]},"scopeLogs":[{"logRecords":[` + strings.Join(records, ",") + `]}]}]}`
	var sessions []*session.Session
	if err := (Importer{}).ImportEach(strings.NewReader(line+"\n"), "claude.otlp.jsonl", func(s *session.Session) error { sessions = append(sessions, s); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 1 || sessions[0].ID != "s-1" {
		t.Fatalf("sessions %+v", sessions)
	}
	var got []string
	for _, e := range sessions[0].Main().Entries {
		got = append(got, contentOf(e.Message))
	}
	want := []string{"user text:fix it",
		`assistant text:Reading. call:t1:Read:{"file_path":"a"}`,
		"tool result:t1:[not in Claude Code's telemetry: the tool returned 65 bytes]",
		`assistant call:t2:Bash:{"command":"ls"}`,
		"tool result(error):t2:[not in Claude Code's telemetry: the tool returned 9 bytes]",
		`assistant call:t3:Edit:{"file_path":"a"}`,
		"tool result:t3:[not in Claude Code's telemetry: the tool returned 3 bytes]"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if u := sessions[0].Main().Entries[1].Message.Usage; u == nil || u.Input != 100 || u.CacheRead != 10 || u.Output != 5 {
		t.Errorf("usage %+v", u)
	}
}

// TestUnknownPartsSaid keeps a part of a type the reader does not know as
// its JSON, and says so once, however many calls repeat it.
func TestUnknownPartsSaid(t *testing.T) {
	in := `[{"role":"user","parts":[{"type":"text","content":"hi"},{"type":"hologram","content":"x"}]}]`
	out := `[{"role":"assistant","parts":[{"type":"text","content":"hello"}]}]`
	call := func(id string, at int) spanSpec {
		return spanSpec{id: id, name: "chat m", at: at, attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.conversation.id": "u",
			"gen_ai.input.messages": in, "gen_ai.output.messages": out}}
	}
	ss := read(t, traceLine(t, "t1", call("a", 0), call("b", 2)))
	if len(ss) != 1 {
		t.Fatalf("%d sessions", len(ss))
	}
	kept := false
	for _, e := range ss[0].Main().Entries {
		for _, b := range e.Message.Blocks {
			kept = kept || b.Text == `{"type":"hologram","content":"x"}`
		}
	}
	said := 0
	for _, d := range ss[0].Diagnostics {
		if strings.Contains(d.Message, `parts of a type not read, kept as their JSON: "hologram"`) {
			said++
		}
	}
	if !kept || said != 1 {
		t.Errorf("kept %v, said %d times: %+v", kept, said, ss[0].Diagnostics)
	}
}

// TestCodexParallelCalls places calls Codex runs at once in the order it
// decided on them (the model's), whatever order their runs end in, and
// reads each completion once (Codex logs it twice, once with its usage).
func TestCodexParallelCalls(t *testing.T) {
	kv := func(k, v string) string { return fmt.Sprintf(`{"key":%q,"value":{"stringValue":%q}}`, k, v) }
	rec := func(ts int, attrs ...string) string {
		attrs = append(attrs, kv("conversation.id", "conv-2"))
		return fmt.Sprintf(`{"observedTimeUnixNano":"%d000000","attributes":[%s]}`, ts, strings.Join(attrs, ","))
	}
	done := func(ts int, extra ...string) string {
		return rec(ts, append([]string{kv("event.name", "codex.sse_event"), kv("event.kind", "response.completed")}, extra...)...)
	}
	run := func(ts int, id, cmd string) string {
		return rec(ts, kv("event.name", "codex.tool_result"), kv("call_id", id), kv("tool_name", "exec_command"), kv("arguments", `{"cmd":"`+cmd+`"}`), kv("output", cmd+" out"), kv("success", "true"))
	}
	records := []string{
		rec(1, kv("event.name", "codex.user_prompt"), kv("prompt", "read both")),
		done(2, kv("input_token_count", "50"), kv("output_token_count", "9")),
		done(3),
		rec(4, kv("event.name", "codex.tool_decision"), kv("call_id", "a"), kv("tool_name", "exec_command")),
		rec(5, kv("event.name", "codex.tool_decision"), kv("call_id", "b"), kv("tool_name", "exec_command")),
		run(6, "b", "cat b"),
		run(7, "a", "cat a"),
	}
	line := `{"resourceLogs":[{"scopeLogs":[{"logRecords":[` + strings.Join(records, ",") + `]}]}]}`
	s, err := Importer{}.Import(strings.NewReader(line+"\n"), "codex.otlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range s.Main().Entries {
		got = append(got, contentOf(e.Message))
	}
	want := []string{"user text:read both", `assistant call:a:exec_command:{"cmd":"cat a"} call:b:exec_command:{"cmd":"cat b"}`,
		"tool result:b:cat b out", "tool result:a:cat a out"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
