package realagents

import (
	"encoding/json"
	"math"
	"testing"

	"ctxscope/engine/modeltest"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// bodyCounter counts a request body with counter c as ctxscope counts a
// context: what the agent's log can hold of it (its messages), and apart,
// the rest (the tool schemas, each tool's JSON object as sent, and for
// some agents the system prompt).
type bodyCounter func(t *testing.T, c tokens.Counter, body []byte) (messages, rest int)

// compareInputs checks that each request's input as ctxscope reads it
// from the log counts, in o200k tokens, within tolerance (a fraction) of
// the body the server received: its messages, and the rest too when lacks
// is "" (the log holds everything). Otherwise lacks names the rest, whose
// size is stated.
func compareInputs(t *testing.T, name string, th *session.Thread, all []modeltest.Request, marker string, count bodyCounter, lacks string, tolerance float64) {
	t.Helper()
	c, err := tokens.ByName("o200k")
	if err != nil {
		t.Fatal(err)
	}
	sent := modelCalls(all, marker)
	got := session.BuildRequests(th)
	worst, unlogged := 0.0, 0
	for k := range min(len(got), len(sent)) {
		read := inputTokens(c, got[k])
		want, rest := count(t, c, sent[k].Body)
		if lacks == "" {
			want += rest
		} else {
			unlogged = rest
		}
		// One message's framing of slack: an agent may send as one message
		// what its log holds as two (Gemini CLI's session context and the
		// prompt), the same text.
		off := math.Abs(float64(read-want)) / float64(want)
		worst = max(worst, off)
		if off > tolerance && abs(read-want) > c.Tokens(nil, 0) {
			t.Errorf("%s: request %d: ctxscope's input counts %d o200k tokens, what the log can hold of the body %d (%.2f%% off)", name, k, read, want, 100*off)
		}
	}
	if lacks == "" {
		t.Logf("%s: each request's input within %.3f%% of the body sent (o200k)", name, 100*worst)
	} else {
		t.Logf("%s: each request's messages within %.3f%% of those sent (o200k); the log lacks %s, %d tokens a request", name, 100*worst, lacks, unlogged)
	}
}

// anthropicBodyTokens counts a Messages request body: the system blocks
// and each message's text, tool calls (name and arguments) and tool
// results; and apart, the tool schemas. (ctxscope reads Claude Code's
// system blocks and tool schemas into one system message.)
func anthropicBodyTokens(t *testing.T, c tokens.Counter, body []byte) (int, int) {
	t.Helper()
	var req struct {
		System   json.RawMessage   `json:"system"`
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	text := func(s string) int { return textUnits(c, s) }
	system, tools := 0, 0
	var sys []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(req.System, &sys) != nil {
		var s string
		json.Unmarshal(req.System, &s)
		sys = append(sys, struct {
			Text string `json:"text"`
		}{s})
	}
	for _, b := range sys {
		system += text(b.Text)
	}
	for _, tool := range req.Tools {
		tools += text(string(tool)) // as sent: compact, not HTML-escaped
	}
	// One system message holds both: its framing counts once, with the
	// system blocks.
	total := 0
	if system+tools > 0 {
		total += c.Tokens(nil, system)
	}
	for _, m := range req.Messages {
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			total += c.Tokens(nil, text(s))
			continue
		}
		var blocks []struct {
			Type    string          `json:"type"`
			Text    string          `json:"text"`
			Name    string          `json:"name"`
			Input   json.RawMessage `json:"input"`
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(m.Content, &blocks)
		units := 0
		for _, b := range blocks {
			switch b.Type {
			case "text":
				units += text(b.Text)
			case "tool_use":
				units += c.Units(nil, &session.Block{Type: session.BlockToolCall, ToolName: b.Name, Arguments: b.Input})
			case "tool_result":
				var rs string
				if json.Unmarshal(b.Content, &rs) != nil {
					var parts []struct {
						Text string `json:"text"`
					}
					json.Unmarshal(b.Content, &parts)
					for _, p := range parts {
						rs += p.Text
					}
				}
				units += text(rs)
			}
		}
		total += c.Tokens(nil, units)
	}
	return total, tools
}

// inputTokens counts request q's input with counter c, message by message,
// as ctxscope's ledger does.
func inputTokens(c tokens.Counter, q *session.Request) int {
	total := 0
	for _, m := range q.Input() {
		if m.Excluded || len(m.Blocks) == 0 {
			continue
		}
		units := 0
		for i := range m.Blocks {
			units += c.Units(m, &m.Blocks[i])
		}
		total += c.Tokens(m, units)
	}
	return total
}

// chatBodyTokens counts a Chat Completions request body with counter c as
// ctxscope counts a context: each message's text, tool calls (name and
// arguments) and tool results; and apart, the tool schemas (each tool's
// JSON object as sent), which no message holds.
func chatBodyTokens(t *testing.T, c tokens.Counter, body []byte) (messages, tools int) {
	return chatBody(t, c, body, true)
}

// chatBodyTokensNoSystem is chatBodyTokens for an agent whose log holds no
// system prompt: the system messages count with the tool schemas.
func chatBodyTokensNoSystem(t *testing.T, c tokens.Counter, body []byte) (messages, rest int) {
	return chatBody(t, c, body, false)
}

func chatBody(t *testing.T, c tokens.Counter, body []byte, systemLogged bool) (messages, tools int) {
	t.Helper()
	var req struct {
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			ToolCalls []struct {
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	text := func(s string) int { return textUnits(c, s) }
	for _, tool := range req.Tools {
		tools += text(string(tool))
	}
	if tools > 0 {
		tools = c.Tokens(nil, tools)
	}
	for _, m := range req.Messages {
		units := 0
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			units += text(s)
		} else {
			var parts []struct {
				Text string `json:"text"`
			}
			json.Unmarshal(m.Content, &parts)
			for _, p := range parts {
				units += text(p.Text)
			}
		}
		for _, tc := range m.ToolCalls {
			units += c.Units(nil, &session.Block{Type: session.BlockToolCall, ToolName: tc.Function.Name, Arguments: json.RawMessage(tc.Function.Arguments)})
		}
		if m.Role == "system" && !systemLogged {
			tools += c.Tokens(nil, units)
			continue
		}
		messages += c.Tokens(nil, units)
	}
	return messages, tools
}

// responsesBodyTokens counts a Responses request body: its instructions,
// each message's text, each function or custom call (name and arguments)
// and each call's output; and apart, the tool schemas.
func responsesBodyTokens(t *testing.T, c tokens.Counter, body []byte) (messages, tools int) {
	t.Helper()
	var req struct {
		Instructions string            `json:"instructions"`
		Tools        []json.RawMessage `json:"tools"`
		Input        []struct {
			Type      string          `json:"type"`
			Content   json.RawMessage `json:"content"`
			Name      string          `json:"name"`
			Arguments string          `json:"arguments"`
			Input     string          `json:"input"`
			Output    json.RawMessage `json:"output"`
		} `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	text := func(s string) int { return textUnits(c, s) }
	for _, tool := range req.Tools {
		tools += text(string(tool))
	}
	if tools > 0 {
		tools = c.Tokens(nil, tools)
	}
	if req.Instructions != "" {
		messages += c.Tokens(nil, text(req.Instructions))
	}
	for _, it := range req.Input {
		units := 0
		switch it.Type {
		case "message":
			var parts []struct {
				Text string `json:"text"`
			}
			json.Unmarshal(it.Content, &parts)
			for _, p := range parts {
				units += text(p.Text)
			}
		case "function_call":
			units += c.Units(nil, &session.Block{Type: session.BlockToolCall, ToolName: it.Name, Arguments: json.RawMessage(it.Arguments)})
		case "custom_tool_call":
			arg, _ := json.Marshal(it.Input)
			units += c.Units(nil, &session.Block{Type: session.BlockToolCall, ToolName: it.Name, Arguments: arg})
		case "function_call_output", "custom_tool_call_output":
			var s string
			if json.Unmarshal(it.Output, &s) != nil {
				s = string(it.Output)
			}
			units += text(s)
		default:
			continue
		}
		messages += c.Tokens(nil, units)
	}
	return messages, tools
}

// geminiBodyTokens counts a generateContent request body: each content's
// text, function calls (name and arguments) and function responses; and
// apart, the system instruction and the tool schemas, which Gemini CLI's
// chat log does not hold.
func geminiBodyTokens(t *testing.T, c tokens.Counter, body []byte) (messages, rest int) {
	t.Helper()
	var req struct {
		SystemInstruction struct {
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		} `json:"systemInstruction"`
		Tools    []json.RawMessage `json:"tools"`
		Contents []struct {
			Parts []struct {
				Text         string `json:"text"`
				FunctionCall *struct {
					Name string          `json:"name"`
					Args json.RawMessage `json:"args"`
				} `json:"functionCall"`
				FunctionResponse *struct {
					Response struct {
						Output string `json:"output"`
					} `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	text := func(s string) int { return textUnits(c, s) }
	for _, p := range req.SystemInstruction.Parts {
		rest += text(p.Text)
	}
	for _, tool := range req.Tools {
		rest += text(string(tool))
	}
	if rest > 0 {
		rest = c.Tokens(nil, rest)
	}
	for _, content := range req.Contents {
		units := 0
		for _, p := range content.Parts {
			switch {
			case p.FunctionCall != nil:
				units += c.Units(nil, &session.Block{Type: session.BlockToolCall, ToolName: p.FunctionCall.Name, Arguments: p.FunctionCall.Args})
			case p.FunctionResponse != nil:
				units += text(p.FunctionResponse.Response.Output)
			default:
				units += text(p.Text)
			}
		}
		messages += c.Tokens(nil, units)
	}
	return messages, rest
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// textUnits is the size of text as one text block, in c's units.
func textUnits(c tokens.Counter, text string) int {
	return c.Units(nil, &session.Block{Type: session.BlockText, Text: text})
}
