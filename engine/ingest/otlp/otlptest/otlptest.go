// Package otlptest writes OTLP exports for tests and benchmarks: hostile
// ones, and an agent's turns.
package otlptest

import (
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// AmplifyingExport is an OTLP/JSON export of one resource with a 1 MiB
// attribute and spans spans spread over convs traces, each naming no
// conversation: the shape that once made the receiver copy the resource
// per span (1.46 MB in, 8 GB held).
func AmplifyingExport(spans, convs int) []byte {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "amplifier")
	rs.Resource().Attributes().PutStr("padding", strings.Repeat("x", 1<<20))
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName(strings.Repeat("s", 64<<10))
	for i := range spans {
		s := ss.Spans().AppendEmpty()
		var tid [16]byte
		binary.BigEndian.PutUint64(tid[8:], uint64(i%convs)+1)
		s.SetTraceID(pcommon.TraceID(tid))
		var sid [8]byte
		binary.BigEndian.PutUint64(sid[:], uint64(i)+1)
		s.SetSpanID(pcommon.SpanID(sid))
		s.SetName("chat m")
	}
	b, _ := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
	return b
}

// AgentTurn is an OTLP/protobuf export of one turn of an agent's
// conversation conv: its model calls from to from+calls-1, each a chat
// span whose input is the conversation's whole history (as the GenAI
// conventions record it) and whose output is a tool call, each followed
// by the tool's execute_tool span with its result.
func AgentTurn(conv string, from, calls int) []byte {
	td := ptrace.NewTraces()
	ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	var trace pcommon.TraceID
	copy(trace[:], conv)
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	call := func(i int) string {
		return fmt.Sprintf(`{"role":"assistant","parts":[{"type":"tool_call","id":"c%d","name":"bash","arguments":{"command":"go test ./pager/... -run TestPage%d"}}]}`, i, i)
	}
	result := func(i int) string {
		return fmt.Sprintf(`{"role":"tool","parts":[{"type":"tool_call_response","id":"c%d","response":"--- FAIL: TestPage%d (0.00s)\nFAIL"}]}`, i, i)
	}
	history := []string{`{"role":"user","parts":[{"type":"text","content":"Fix the failing test in pager.go and run the suite."}]}`}
	for i := 0; i < from; i++ {
		history = append(history, call(i), result(i))
	}
	for i := from; i < from+calls; i++ {
		s := ss.Spans().AppendEmpty()
		s.SetTraceID(trace)
		s.SetSpanID(pcommon.SpanID{byte(i >> 8), byte(i), 1})
		s.SetName("chat model")
		s.SetStartTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*i) * time.Second)))
		s.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*i+1) * time.Second)))
		at := s.Attributes()
		at.PutStr("gen_ai.operation.name", "chat")
		at.PutStr("gen_ai.conversation.id", conv)
		at.PutStr("gen_ai.input.messages", "["+strings.Join(history, ",")+"]")
		at.PutStr("gen_ai.output.messages", "["+call(i)+"]")
		at.PutInt("gen_ai.usage.input_tokens", int64(1000+40*i))
		at.PutInt("gen_ai.usage.output_tokens", 60)
		history = append(history, call(i), result(i))
		t := ss.Spans().AppendEmpty()
		t.SetTraceID(trace)
		t.SetSpanID(pcommon.SpanID{byte(i >> 8), byte(i), 2})
		t.SetName("execute_tool bash")
		t.SetStartTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*i+1) * time.Second)))
		t.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*i+2) * time.Second)))
		t.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
		t.Attributes().PutStr("gen_ai.tool.call.id", fmt.Sprintf("c%d", i))
		t.Attributes().PutStr("gen_ai.conversation.id", conv)
		t.Attributes().PutStr("gen_ai.tool.call.result", "--- FAIL")
	}
	body, err := (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
	if err != nil {
		panic(err) // traces built here always marshal
	}
	return body
}

// UsageTurn is an OTLP/protobuf export of one model call of conversation
// conv, the turn-th, recorded without content (only its usage), and its
// tool's execute_tool span without a result: what an instrumentation
// sends with content capture off, the same size at every turn.
func UsageTurn(conv string, turn int) []byte {
	td := ptrace.NewTraces()
	ss := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty()
	var trace pcommon.TraceID
	copy(trace[:], conv)
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	s := ss.Spans().AppendEmpty()
	s.SetTraceID(trace)
	s.SetSpanID(pcommon.SpanID{byte(turn >> 16), byte(turn >> 8), byte(turn), 1})
	s.SetName("chat model")
	s.SetStartTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*turn) * time.Second)))
	s.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*turn+1) * time.Second)))
	s.Attributes().PutStr("gen_ai.operation.name", "chat")
	s.Attributes().PutStr("gen_ai.conversation.id", conv)
	s.Attributes().PutInt("gen_ai.usage.input_tokens", int64(1000+40*turn))
	s.Attributes().PutInt("gen_ai.usage.output_tokens", 60)
	t := ss.Spans().AppendEmpty()
	t.SetTraceID(trace)
	t.SetSpanID(pcommon.SpanID{byte(turn >> 16), byte(turn >> 8), byte(turn), 2})
	t.SetName("execute_tool bash")
	t.SetStartTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*turn+1) * time.Second)))
	t.SetEndTimestamp(pcommon.NewTimestampFromTime(t0.Add(time.Duration(2*turn+2) * time.Second)))
	t.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
	t.Attributes().PutStr("gen_ai.conversation.id", conv)
	body, err := (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
	if err != nil {
		panic(err) // traces built here always marshal
	}
	return body
}
