package proxy

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"strings"
)

// ConversationKey names the conversation a request body of api belongs
// to: its API and its first user message, which every later request of
// the same conversation repeats. An agent's side conversations (a title
// or a subagent) start with other words, and so are conversations of
// their own. A body that is no request of the API is "unparsed".
func ConversationKey(api API, body []byte) string {
	first := firstUserMessage(api, body)
	if first == nil {
		return "unparsed"
	}
	h := sha256.New()
	h.Write([]byte(string(api) + "\x00"))
	var v any
	if json.Unmarshal(first, &v) != nil {
		h.Write(first)
	}
	writeTexts(h, v)
	return shortAPI(api) + "-" + hex.EncodeToString(h.Sum(nil)[:8])
}

// writeTexts writes the text of a message's content: a string, or the
// "text" of its parts, in order. The rest (cache markers an agent moves
// from request to request, part ids) does not name the conversation.
func writeTexts(h io.Writer, v any) {
	switch x := v.(type) {
	case string:
		io.WriteString(h, x)
		h.Write([]byte{0})
	case []any:
		for _, e := range x {
			writeTexts(h, e)
		}
	case map[string]any:
		if t, ok := x["text"].(string); ok {
			writeTexts(h, t)
		}
	}
}

func shortAPI(api API) string {
	switch api {
	case APIAnthropic:
		return "anthropic"
	case APIChat:
		return "chat"
	case APIResponses:
		return "responses"
	case APIGemini:
		return "gemini"
	}
	return "other"
}

// firstUserMessage returns the raw first user message of a request body.
func firstUserMessage(api API, body []byte) json.RawMessage {
	type msg struct {
		Role    string          `json:"role"`
		Type    string          `json:"type"`
		Content json.RawMessage `json:"content"`
		Parts   json.RawMessage `json:"parts"`
	}
	var req struct {
		Messages []msg           `json:"messages"`
		Input    json.RawMessage `json:"input"`
		Contents []msg           `json:"contents"`
	}
	if json.Unmarshal(body, &req) != nil {
		return nil
	}
	switch api {
	case APIAnthropic, APIChat:
		for _, m := range req.Messages {
			if m.Role == "user" {
				return m.Content
			}
		}
	case APIResponses:
		if s := bytes.TrimSpace(req.Input); len(s) > 0 && s[0] == '"' {
			return s
		}
		var items []msg
		json.Unmarshal(req.Input, &items)
		for _, it := range items {
			if it.Role == "user" && (it.Type == "" || it.Type == "message") {
				return it.Content
			}
		}
	case APIGemini:
		for _, c := range req.Contents {
			if c.Role == "user" || c.Role == "" {
				return c.Parts
			}
		}
	}
	return nil
}

// sessionHeaders keeps the request headers that name a session or a
// conversation (Codex's session_id, Claude Code's session header), and no
// other: never one that could hold a credential.
func sessionHeaders(h map[string][]string) map[string]string {
	var out map[string]string
	for name, vs := range h {
		n := strings.ToLower(name)
		if !(strings.Contains(n, "session") || strings.Contains(n, "conversation")) || len(vs) == 0 {
			continue
		}
		if strings.Contains(n, "auth") || strings.Contains(n, "key") || strings.Contains(n, "token") || strings.Contains(n, "cookie") || strings.Contains(n, "secret") {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		v := vs[0]
		if len(v) > 200 {
			v = v[:200]
		}
		out[n] = strings.ToValidUTF8(v, "\uFFFD")
	}
	return out
}
