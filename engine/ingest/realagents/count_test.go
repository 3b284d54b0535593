package realagents

import (
	"encoding/json"
	"testing"

	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// anthropicBodyTokens counts a Messages request body with counter c as
// ctxscope counts a context: the system blocks and the tool schemas (each
// tool's JSON object) as one system message, then each message's text,
// tool calls (name and arguments) and tool results.
func anthropicBodyTokens(t *testing.T, c tokens.Counter, body []byte) int {
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
	text := func(s string) int { return c.Units(nil, &session.Block{Type: session.BlockText, Text: s}) }
	system := 0
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
		system += text(string(tool)) // as sent: compact, not HTML-escaped
	}
	total := 0
	if system > 0 {
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
	return total
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
	t.Helper()
	var req struct {
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
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
	text := func(s string) int { return c.Units(nil, &session.Block{Type: session.BlockText, Text: s}) }
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
		messages += c.Tokens(nil, units)
	}
	return messages, tools
}
