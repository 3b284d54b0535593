package proxyrec

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"ctxscope/engine/proxy"
	"ctxscope/engine/session"
)

// line is one record of a test file: a request body and response body of
// api with status.
func line(t *testing.T, seq int, api proxy.API, status int, req, res string) string {
	t.Helper()
	r := proxy.Record{Version: proxy.RecordVersion, Seq: seq, Conversation: "c-1", API: api, Method: "POST", Status: status,
		Request: proxy.Body{Text: req, Bytes: int64(len(req))}, Response: proxy.Body{Text: res, Bytes: int64(len(res))}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func read(t *testing.T, lines ...string) *session.Session {
	t.Helper()
	text := strings.Join(lines, "\n") + "\n"
	if !(Importer{}).Sniff([]byte(text)) {
		t.Fatal("not sniffed as a record file")
	}
	s, err := Importer{}.Import(strings.NewReader(text), "c-1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// shape is what a test checks of a thread: each request's input roles
// (s system, u user, a assistant, e echo, t tool) and its response's
// usage input.
func shape(s *session.Session) []string {
	var out []string
	for _, q := range session.BuildRequests(s.Main()) {
		var b strings.Builder
		for _, m := range q.Input() {
			switch {
			case m.Origin == session.OriginEcho:
				b.WriteByte('e')
			default:
				b.WriteByte(string(m.Role)[0])
			}
		}
		if u := q.Entry.Message.Usage; u != nil {
			b.WriteString(" " + strconv.Itoa(u.Prompt()))
		}
		if q.Entry.Message.Error != "" {
			b.WriteString(" error")
		}
		out = append(out, b.String())
	}
	return out
}

const (
	chat1 = `{"model":"m","tools":[{"type":"function","function":{"name":"read","parameters":{}}}],"messages":[{"role":"system","content":"be brief"},{"role":"user","content":"fix it"}]}`
	chat2 = `{"model":"m","tools":[{"type":"function","function":{"name":"read","parameters":{}}}],"messages":[{"role":"system","content":"be brief"},{"role":"user","content":"fix it"},` +
		`{"role":"assistant","content":"reading","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{\"path\": \"a\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"text of a"}]}`
	// chat2edited is chat2 with the assistant's words changed by the agent.
	chat2edited = `{"model":"m","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"fix it"},` +
		`{"role":"assistant","content":"READING","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"text of a"}]}`
	chatStream1 = "data: {\"id\":\"x1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"read\"}}]}\n\n" +
		"data: {\"id\":\"x1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ing\",\"tool_calls\":[{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"read\",\"arguments\":\"{\\\"path\\\":\"}}]}}]}\n\n" +
		"data: {\"id\":\"x1\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"a\\\"}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\n" +
		"data: {\"id\":\"x1\",\"choices\":[],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":9,\"prompt_tokens_details\":{\"cached_tokens\":40}}}\n\ndata: [DONE]\n\n"
	chatWhole2 = `{"id":"x2","choices":[{"index":0,"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}],"usage":{"prompt_tokens":150,"completion_tokens":2}}`
)

// TestThreadFollowsTheBodies checks how consecutive requests become one
// thread: the context they repeat is shared, a response the agent sends
// back is the response's own entry, a failed exchange is a request with
// its error, and where the agent rewrote its history the thread branches
// and the rewritten message is an echo, not a request.
func TestThreadFollowsTheBodies(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string
	}{
		{"a conversation that grows", []string{
			line(t, 1, proxy.APIChat, 200, chat1, chatStream1),
			line(t, 2, proxy.APIChat, 200, chat2, chatWhole2),
		}, []string{"su 100", "suat 150"}},
		{"a failed exchange, then its retry", []string{
			line(t, 1, proxy.APIChat, 529, chat1, `{"error":"overloaded"}`),
			line(t, 2, proxy.APIChat, 200, chat1, chatStream1),
			line(t, 3, proxy.APIChat, 200, chat2, chatWhole2),
		}, []string{"su error", "su 100", "suat 150"}},
		{"history the agent rewrote", []string{
			line(t, 1, proxy.APIChat, 200, chat1, chatStream1),
			line(t, 2, proxy.APIChat, 200, chat2edited, chatWhole2),
		}, []string{"su 100", "suet 150"}},
	} {
		s := read(t, tc.lines...)
		if got := shape(s); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: requests %q, want %q", tc.name, got, tc.want)
		}
		if s.Format != session.FormatProxy || s.ID != "c-1" {
			t.Errorf("%s: format %s id %s", tc.name, s.Format, s.ID)
		}
	}
	// The first request's system message holds the prompt and the tool's
	// schema as sent, named by its tool.
	s := read(t, line(t, 1, proxy.APIChat, 200, chat1, chatStream1))
	sys := session.BuildRequests(s.Main())[0].Input()[0]
	if sys.Origin != session.OriginRequestShape || len(sys.Blocks) != 2 || sys.Blocks[1].ToolName != "read" ||
		session.SectionOf(sys, &sys.Blocks[1]) != session.SectionToolSchema {
		t.Errorf("system message %+v", sys)
	}
	resp := session.BuildRequests(s.Main())[0].Entry.Message
	if len(resp.Blocks) != 2 || resp.Blocks[0].Text != "reading" || string(resp.Blocks[1].Arguments) != `{"path":"a"}` || resp.Usage.CacheRead != 40 {
		t.Errorf("assembled response %+v usage %+v", resp.Blocks, resp.Usage)
	}
}

// TestResponsesOfEachAPI assembles a streamed response of each API into
// its message and usage.
func TestResponsesOfEachAPI(t *testing.T) {
	for _, tc := range []struct {
		api          proxy.API
		body         string
		text, call   string // the message's text and its call's name:arguments
		input, cache int
		output       int
	}{
		{proxy.APIAnthropic, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m1\",\"model\":\"claude\",\"content\":[],\"usage\":{\"input_tokens\":10,\"cache_read_input_tokens\":90,\"output_tokens\":1}}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n" +
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Read\",\"input\":{}}}\n\n" +
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"file_path\\\":\\\"a\\\"}\"}}\n\n" +
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":7}}\n\n" +
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n", "hi", `Read:{"file_path":"a"}`, 10, 90, 7},
		{proxy.APIResponses, "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r1\"}}\n\n" +
			"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"id\":\"r1\",\"model\":\"gpt\",\"status\":\"completed\",\"output\":[" +
			"{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"hi\"}]},{\"type\":\"function_call\",\"call_id\":\"c1\",\"name\":\"exec_command\",\"arguments\":\"{\\\"cmd\\\":\\\"ls\\\"}\"}]," +
			"\"usage\":{\"input_tokens\":100,\"input_tokens_details\":{\"cached_tokens\":90},\"output_tokens\":7}}}\n\n", "hi", `exec_command:{"cmd":"ls"}`, 10, 90, 7},
		{proxy.APIGemini, "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"h\"}]}}]}\n\n" +
			"data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"i\"},{\"functionCall\":{\"name\":\"read_file\",\"args\":{\"path\":\"a\"}}}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":100,\"cachedContentTokenCount\":90,\"candidatesTokenCount\":7}}\n\n",
			"hi", `read_file:{"path":"a"}`, 10, 90, 7},
		{proxy.APIChat, chatStream1, "reading", `read:{"path":"a"}`, 60, 40, 9},
	} {
		r := readResponse(tc.api, []byte(tc.body))
		if r.message == nil || r.usage == nil {
			t.Errorf("%s: no message or usage", tc.api)
			continue
		}
		var text, call string
		for _, b := range r.message.Blocks {
			switch b.Type {
			case session.BlockText:
				text += b.Text
			case session.BlockToolCall:
				call = b.ToolName + ":" + string(canonical(b.Arguments))
			}
		}
		if u := r.usage; text != tc.text || call != tc.call || u.Input != tc.input || u.CacheRead != tc.cache || u.Output != tc.output {
			t.Errorf("%s: text %q call %s usage %+v", tc.api, text, call, u)
		}
	}
}

// TestBodiesNotKeptWhole checks the diagnostics of a request the proxy
// kept truncated or that is not JSON: the exchange is still a request.
func TestBodiesNotKeptWhole(t *testing.T) {
	r := proxy.Record{Version: 1, Seq: 1, Conversation: "c-1", API: proxy.APIChat, Status: 200,
		Request: proxy.Body{Text: `{"messages":[{"role":"us`, Bytes: 1 << 30, Truncated: true}, Response: proxy.Body{Text: chatWhole2}}
	b, _ := json.Marshal(r)
	s := read(t, string(b), line(t, 2, proxy.APIChat, 200, `not json`, chatWhole2))
	if n := len(session.BuildRequests(s.Main())); n != 2 || len(s.Diagnostics) != 2 {
		t.Errorf("%d requests, diagnostics %v", n, s.Diagnostics)
	}
	for _, d := range s.Diagnostics {
		if d.File == "" || d.Line == 0 {
			t.Errorf("diagnostic without a location: %+v", d)
		}
	}
}
