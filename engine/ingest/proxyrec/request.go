package proxyrec

import (
	"bytes"
	"strings"

	json "github.com/segmentio/encoding/json"

	"ctxscope/engine/proxy"
	"ctxscope/engine/session"
)

// request is a request body read into messages: the system message (the
// system prompt and tool schemas), then the conversation.
type request struct {
	system   *session.Message
	messages []*session.Message
	model    string
	layout   *Layout // where its messages stand in the body
}

// readRequest reads a request body of api, valid JSON, with the
// messages memo has. A body that is not a request of the API reads as no
// messages.
func readRequest(api proxy.API, body string, memo *messageMemo) request {
	switch api {
	case proxy.APIAnthropic:
		return anthropicRequest(body, memo)
	case proxy.APIChat:
		return chatRequest(body, memo)
	case proxy.APIResponses:
		return responsesRequest(body, memo)
	case proxy.APIGemini:
		return geminiRequest(body, memo)
	}
	return request{}
}

// systemMessage is the request's system message: its prompt's text blocks
// and one block per tool schema, as the body carries it (compact JSON),
// named by the tool's name.
func systemMessage(prompt []string, tools []json.RawMessage, name func(json.RawMessage) string) *session.Message {
	var blocks []session.Block
	for _, p := range prompt {
		if p != "" {
			blocks = append(blocks, session.Block{Type: session.BlockText, Text: p})
		}
	}
	for _, t := range tools {
		var c bytes.Buffer
		if json.Compact(&c, t) != nil {
			c.Write(t)
		}
		blocks = append(blocks, session.Block{Type: session.BlockText, Text: c.String(), ToolName: cmpOr(name(t), "(unnamed tool)")})
	}
	if len(blocks) == 0 {
		return nil
	}
	return &session.Message{Role: session.RoleSystem, Origin: session.OriginRequestShape, Blocks: blocks}
}

// nameField reads a tool's name: its "name", or its function's.
func nameField(t json.RawMessage) string {
	var v struct {
		Name     string `json:"name"`
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	json.Unmarshal(t, &v)
	return cmpOr(v.Name, v.Function.Name)
}

// arguments returns a tool call's arguments as JSON: an object as it is,
// a string holding JSON as that JSON, another string as a JSON string.
func arguments(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		if json.Valid([]byte(s)) && strings.TrimSpace(s) != "" {
			return json.RawMessage(s)
		}
		b, _ := json.Marshal(s)
		return b
	}
	return append(json.RawMessage(nil), raw...)
}

// TextBlocks reads content that is a string or an array of parts with
// text, as the blocks a reader of a request makes of it (engine/evict
// places its decisions by them).
func TextBlocks(raw json.RawMessage) []session.Block {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return nil
		}
		return []session.Block{{Type: session.BlockText, Text: s}}
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var out []session.Block
	for _, p := range parts {
		switch {
		case p.Text != "" || p.Type == "text" || p.Type == "input_text" || p.Type == "output_text":
			out = append(out, session.Block{Type: session.BlockText, Text: p.Text})
		case strings.Contains(p.Type, "image"):
			out = append(out, session.Block{Type: session.BlockImage})
		}
	}
	return out
}

func cmpOr(s, def string) string {
	if s != "" {
		return s
	}
	return def
}
