package serve

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
	"ctxscope/engine/store"
)

// recordedSession is a real Claude Code session with tool calls and the
// usage the provider reported; the test sends it as GenAI spans.
const recordedSession = "../../testdata/shared/sessions/claude-code/claude-code-viewer__1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"

// otelParts writes a message's content as GenAI message parts.
func otelParts(m *session.Message) []map[string]any {
	var parts []map[string]any
	for _, b := range m.Blocks {
		switch b.Type {
		case session.BlockText:
			parts = append(parts, map[string]any{"type": "text", "content": b.Text})
		case session.BlockThinking:
			if !b.Redacted {
				parts = append(parts, map[string]any{"type": "reasoning", "content": b.Text})
			}
		case session.BlockToolCall:
			parts = append(parts, map[string]any{"type": "tool_call", "id": b.ToolCallID, "name": b.ToolName, "arguments": json.RawMessage(b.Arguments)})
		case session.BlockToolResult:
			parts = append(parts, map[string]any{"type": "tool_call_response", "id": b.ToolCallID, "response": blockText(b.Content)})
		}
	}
	return parts
}

func blockText(bs []session.Block) string {
	var sb strings.Builder
	for _, b := range bs {
		sb.WriteString(b.Text)
	}
	return sb.String()
}

// otelMessages writes messages as gen_ai.input.messages does.
func otelMessages(t *testing.T, ms []*session.Message) string {
	t.Helper()
	out := make([]map[string]any, 0, len(ms))
	for _, m := range ms {
		out = append(out, map[string]any{"role": string(m.Role), "parts": otelParts(m)})
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// contentDigest is what a GenAI trace can carry of a message: its role and
// the digest of each text, reasoning, tool call and tool result.
func contentDigest(m *session.Message) string {
	var parts []string
	for _, b := range m.Blocks {
		switch b.Type {
		case session.BlockText:
			parts = append(parts, "text:"+b.Text)
		case session.BlockThinking:
			if !b.Redacted {
				parts = append(parts, "thinking:"+b.Text)
			}
		case session.BlockToolCall:
			var args any
			json.Unmarshal(b.Arguments, &args)
			norm, _ := json.Marshal(args)
			parts = append(parts, "call:"+b.ToolCallID+":"+b.ToolName+":"+string(norm))
		case session.BlockToolResult:
			parts = append(parts, "result:"+b.ToolCallID+":"+blockText(b.Content))
		}
	}
	return string(m.Role) + " " + strings.Join(parts, " | ")
}

// emitCalls sends, through the OpenTelemetry SDK, one chat span per model
// call of msgs[:upto] (input: every message before the call; output: the
// call's answer, with its usage) and an execute_tool span per tool call.
func emitCalls(t *testing.T, tp *sdktrace.TracerProvider, msgs []*session.Message, from, upto int, conv string) {
	t.Helper()
	tracer := tp.Tracer("ctxscope-test-replay")
	ctx, agent := tracer.Start(context.Background(), "invoke_agent claude-code", trace.WithAttributes(
		attribute.String("gen_ai.operation.name", "invoke_agent"), attribute.String("gen_ai.agent.name", "claude-code"),
		attribute.String("gen_ai.conversation.id", conv)))
	for i := from; i < upto; i++ {
		m := msgs[i]
		if m.Role != session.RoleAssistant {
			continue
		}
		attrs := []attribute.KeyValue{
			attribute.String("gen_ai.operation.name", "chat"), attribute.String("gen_ai.provider.name", "anthropic"),
			attribute.String("gen_ai.request.model", m.Model), attribute.String("gen_ai.conversation.id", conv),
			attribute.String("gen_ai.input.messages", otelMessages(t, msgs[:i])),
			attribute.String("gen_ai.output.messages", otelMessages(t, []*session.Message{m})),
		}
		if u := m.Usage; u != nil {
			attrs = append(attrs, attribute.Int("gen_ai.usage.input_tokens", u.Prompt()), attribute.Int("gen_ai.usage.output_tokens", u.Output),
				attribute.Int("gen_ai.usage.cache_read.input_tokens", u.CacheRead), attribute.Int("gen_ai.usage.cache_creation.input_tokens", u.CacheWrite))
		}
		_, span := tracer.Start(ctx, "chat "+m.Model, trace.WithAttributes(attrs...), trace.WithTimestamp(m.Time))
		span.End(trace.WithTimestamp(m.Time.Add(time.Second)))
		for _, call := range m.ToolCalls() {
			_, tool := tracer.Start(ctx, "execute_tool "+call.ToolName, trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
				attribute.String("gen_ai.tool.name", call.ToolName), attribute.String("gen_ai.tool.call.id", call.ToolCallID),
				attribute.String("gen_ai.conversation.id", conv)), trace.WithTimestamp(m.Time.Add(time.Second)))
			tool.End(trace.WithTimestamp(m.Time.Add(2 * time.Second)))
		}
	}
	agent.End()
	if err := tp.ForceFlush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestOTelSDKTraceBecomesASessionLive sends a recorded multi-turn,
// tool-using agent run through the official OpenTelemetry SDK's OTLP/HTTP
// exporter to serve's receiver, in two exports: after the first the
// session exists with the first half, after the second it has grown to
// the whole run, with the same messages, tool calls and usage as the
// recording.
func TestOTelSDKTraceBecomesASessionLive(t *testing.T) {
	src, err := ingest.ReadFile(recordedSession)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []*session.Message
	for _, e := range src.Main().Entries {
		if e.Message != nil && len(contentDigest(e.Message)) > len(e.Message.Role)+1 {
			msgs = append(msgs, e.Message)
		}
	}
	calls := 0
	for _, m := range msgs {
		if m.Role == session.RoleAssistant {
			calls++
		}
	}
	if calls < 4 || len(src.Main().Entries) < 10 {
		t.Fatalf("the recording has %d model calls", calls)
	}
	dir := t.TempDir()
	s := startIn(t, dir)
	st, err := store.Open(dir) // a reader beside the server, as the CLI is
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u, _ := url.Parse(base(s))
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpoint(u.Host), otlptracehttp.WithInsecure(),
		otlptracehttp.WithHeaders(map[string]string{tokenHeader: s.token}))
	if err != nil {
		t.Fatal(err)
	}
	res := resource.NewSchemaless(attribute.String("service.name", "claude-code-replay"))
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp), sdktrace.WithResource(res))
	defer tp.Shutdown(context.Background())

	const conv = "1af7fc5e-recorded"
	half := len(msgs) / 2
	for half < len(msgs) && msgs[half-1].Role != session.RoleAssistant {
		half++ // end the first export after a model call
	}
	emitCalls(t, tp, msgs, 0, half, conv)
	first := importedSession(t, s, st, conv)
	emitCalls(t, tp, msgs, half, len(msgs), conv)
	whole := importedSession(t, s, st, conv)
	if n1, n2 := len(first.Main().Entries), len(whole.Main().Entries); n1 == 0 || n2 <= n1 {
		t.Fatalf("%d entries after the first export, %d after the second: the session did not grow", n1, n2)
	}

	var got []string
	var gotUsage []session.Usage
	for _, e := range whole.Main().Entries {
		got = append(got, contentDigest(e.Message))
		if e.Message.Role == session.RoleAssistant && e.Message.Usage != nil {
			gotUsage = append(gotUsage, *e.Message.Usage)
		}
	}
	var want []string
	var wantUsage []session.Usage
	for _, m := range msgs {
		want = append(want, contentDigest(m))
		if m.Role == session.RoleAssistant && m.Usage != nil {
			wantUsage = append(wantUsage, session.Usage{Input: m.Usage.Input, Output: m.Usage.Output, CacheRead: m.Usage.CacheRead, CacheWrite: m.Usage.CacheWrite})
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d messages, the recording has %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("message %d:\n got %.300s\nwant %.300s", i, got[i], want[i])
		}
	}
	t.Logf("%d messages, %d model calls with usage (first %+v) matched the recording", len(want), len(wantUsage), wantUsage[0])
	if fmt.Sprint(gotUsage) != fmt.Sprint(wantUsage) {
		t.Errorf("usage:\n got %v\nwant %v", gotUsage, wantUsage)
	}
	if whole.Format != session.FormatOTLP || whole.Agent != "claude-code-replay" {
		t.Errorf("format %q agent %q", whole.Format, whole.Agent)
	}
}

// importedSession returns the stored session of conversation conv, read
// through the API as the page would list it, then loaded whole.
func importedSession(t *testing.T, s *Server, st *store.Store, conv string) *session.Session {
	t.Helper()
	req, _ := http.NewRequest("POST", base(s)+"/api/call/Sessions/List", bytes.NewReader([]byte("[]")))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(tokenHeader, s.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list []struct {
		Key    string `json:"key"`
		ID     string `json:"id"`
		Format string `json:"format"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	for _, l := range list {
		if l.ID == conv {
			sess, err := st.Load(l.Key)
			if err != nil {
				t.Fatal(err)
			}
			return sess
		}
	}
	t.Fatalf("no session %q among %+v", conv, list)
	return nil
}

// TestOTLPReceiverEncodingsAndChecks posts OTLP/JSON (plain and gzipped)
// and checks the receiver's answers: the empty export response, 401
// without a token, a bearer token accepted, 415 for another media type,
// 400 for a body that is not an export request.
func TestOTLPReceiverEncodingsAndChecks(t *testing.T) {
	dir := t.TempDir()
	s := startIn(t, dir)
	body := `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"json-agent"}}]},"scopeSpans":[{"spans":[` +
		`{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"0102030405060708","name":"chat m","startTimeUnixNano":"1764064800000000000","endTimeUnixNano":"1764064801000000000",` +
		`"attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.conversation.id","value":{"stringValue":"json-conv"}},` +
		`{"key":"gen_ai.input.messages","value":{"stringValue":"[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"hello\"}]}]"}},` +
		`{"key":"gen_ai.usage.input_tokens","value":{"intValue":"12"}}]}]}]}]}`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(body))
	zw.Close()
	for _, tc := range []struct {
		name, ctype, encoding string
		auth                  func(*http.Request)
		body                  []byte
		status                int
		reply                 string
	}{
		{"json", "application/json", "", func(r *http.Request) { r.Header.Set(tokenHeader, s.token) }, []byte(body), 200, "{}"},
		{"gzip and a bearer token", "application/json", "gzip", func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+s.token) }, gz.Bytes(), 200, "{}"},
		{"no token", "application/json", "", func(*http.Request) {}, []byte(body), 401, ""},
		{"text/plain", "text/plain", "", func(r *http.Request) { r.Header.Set(tokenHeader, s.token) }, []byte(body), 415, ""},
		{"not an export", "application/json", "", func(r *http.Request) { r.Header.Set(tokenHeader, s.token) }, []byte(`{"resourceSpans":7}`), 400, ""},
	} {
		req, _ := http.NewRequest("POST", base(s)+"/v1/traces", bytes.NewReader(tc.body))
		req.Header.Set("Content-Type", tc.ctype)
		if tc.encoding != "" {
			req.Header.Set("Content-Encoding", tc.encoding)
		}
		tc.auth(req)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || (tc.reply != "" && string(got) != tc.reply) {
			t.Errorf("%s: %d %s; want %d %s", tc.name, resp.StatusCode, got, tc.status, tc.reply)
		}
	}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sess := importedSession(t, s, st, "json-conv")
	if n := len(sess.Main().Entries); n != 2 || sess.Agent != "json-agent" {
		t.Errorf("%d entries, agent %q: the same export twice is one call", n, sess.Agent)
	}
}
