package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/openai"
	"ctxscope/engine/session"
)

// sample is the part of an Inspect sample that normalization needs.
type sample struct {
	ID          json.RawMessage   `json:"id"`
	Epoch       int               `json:"epoch"`
	Messages    []json.RawMessage `json:"messages"`
	Events      []sampleEvent     `json:"events"`
	Attachments map[string]string `json:"attachments"`
	ModelUsage  map[string]usage  `json:"model_usage"`
}

// sampleEvent is the part of a transcript event that matters: a model
// event's output message id and usage.
type sampleEvent struct {
	Event     string          `json:"event"`
	Timestamp string          `json:"timestamp"`
	Output    json.RawMessage `json:"output"`
}

// modelOutput is a model event's output.
type modelOutput struct {
	Choices []struct {
		Message struct {
			ID string `json:"id"`
		} `json:"message"`
	} `json:"choices"`
	Usage *usage `json:"usage"`
}

// usage is Inspect's ModelUsage.
type usage struct {
	Input     int `json:"input_tokens"`
	Output    int `json:"output_tokens"`
	CacheRead int `json:"input_tokens_cache_read"`
	CacheW    int `json:"input_tokens_cache_write"`
	Reasoning int `json:"reasoning_tokens"`
}

// normalized converts Inspect's usage, whose input includes the cache's
// tokens when the provider counts them so.
func (u *usage) normalized() session.Usage {
	out := session.Usage{Input: u.Input - u.CacheRead - u.CacheW, CacheRead: u.CacheRead, CacheWrite: u.CacheW, Output: u.Output, Reasoning: u.Reasoning}
	if out.Input < 0 {
		out.Input = u.Input
	}
	return out
}

// message is an Inspect ChatMessage.
type message struct {
	ID         string          `json:"id"`
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Model      string          `json:"model"`
	ToolCallID string          `json:"tool_call_id"`
	Function   string          `json:"function"`
	Error      *struct {
		Message string `json:"message"`
	} `json:"error"`
	ToolCalls []struct {
		ID        string          `json:"id"`
		Function  string          `json:"function"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"tool_calls"`
}

// contentPart is one part of a message's content.
type contentPart struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	Reasoning string `json:"reasoning"`
	Redacted  bool   `json:"redacted"`
}

// logInfo is what the log's header says about every sample.
type logInfo struct {
	Task  string `json:"task"`
	Model string `json:"model"`
}

// convertSample turns one raw sample into a session; file and line locate
// it in diagnostics.
func convertSample(raw json.RawMessage, file string, line int, info logInfo) *session.Session {
	t := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s := &session.Session{Format: session.FormatInspect, Agent: "inspect", Source: file, Threads: []*session.Thread{t}, Size: int64(len(raw))}
	if info.Model != "" {
		s.Agent = "inspect " + info.Model
	}
	var sm sample
	if err := json.Unmarshal(raw, &sm); err != nil {
		s.ID = norm.BaseID(file)
		norm.Diag(s, file, line, session.SeverityError, "sample: %s; skipped", norm.JSONError(err))
		return s
	}
	s.ID = fmt.Sprintf("%s/%s_epoch_%d", norm.BaseID(file), bytes.Trim(sm.ID, `"`), sm.Epoch)
	if info.Task != "" {
		s.Title = info.Task + " sample " + string(bytes.Trim(sm.ID, `"`))
	}
	for i, rm := range sm.Messages {
		rm = resolve(rm, sm.Attachments, func(hash string) {
			norm.Diag(s, file, line, session.SeverityWarning, "message %d refers to a missing attachment %s", i, hash)
		})
		m, id, err := convertMessage(rm)
		if err != nil {
			norm.Diag(s, file, line, session.SeverityError, "message %d: %v; skipped", i, err)
			continue
		}
		e := &session.Entry{ID: id, Line: line, Kind: session.EntryMessage, Type: "message", Message: m}
		if e.ID == "" {
			e.ID = "m" + strconv.Itoa(i)
		}
		if k := len(t.Entries); k > 0 {
			e.ParentID = t.Entries[k-1].ID
		}
		t.Entries = append(t.Entries, e)
	}
	applyUsage(t, sm.Events)
	if len(sm.ModelUsage) > 0 {
		rec := &session.Recorded{From: "sample.model_usage"}
		for _, mu := range sm.ModelUsage {
			rec.Usage.Add(mu.normalized())
		}
		s.Recorded = rec
	}
	for _, ev := range sm.Events {
		if ts := norm.Time(ev.Timestamp); !ts.IsZero() {
			s.Started = ts
			break
		}
	}
	norm.Finish(s)
	return s
}

// convertMessage converts one ChatMessage and returns it with its id.
func convertMessage(raw json.RawMessage) (*session.Message, string, error) {
	var im message
	if err := json.Unmarshal(raw, &im); err != nil {
		return nil, "", fmt.Errorf("%s", norm.JSONError(err))
	}
	blocks := content(im.Content)
	m := &session.Message{Model: im.Model}
	switch im.Role {
	case "system":
		m.Role, m.Blocks = session.RoleSystem, blocks
	case "user":
		m.Role, m.Blocks = session.RoleUser, blocks
	case "assistant":
		m.Role, m.Blocks = session.RoleAssistant, blocks
		for _, tc := range im.ToolCalls {
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: tc.ID, ToolName: tc.Function, Arguments: openai.Arguments(tc.Arguments)})
		}
	case "tool":
		m.Role = session.RoleTool
		b := session.Block{Type: session.BlockToolResult, ToolCallID: im.ToolCallID, ToolName: im.Function, Content: blocks}
		if im.Error != nil {
			b.IsError = true
			if len(b.Content) == 0 {
				b.Content = norm.Text(im.Error.Message)
			}
		}
		m.Blocks = []session.Block{b}
	case "":
		return nil, "", fmt.Errorf("message without a role")
	default:
		return nil, "", fmt.Errorf("unknown message role %q", im.Role)
	}
	return m, im.ID, nil
}

// content converts a message's content: a string or a list of text,
// reasoning and media parts.
func content(raw json.RawMessage) []session.Block {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return openai.Content(raw)
	}
	var parts []contentPart
	if json.Unmarshal(raw, &parts) != nil {
		return openai.Content(raw)
	}
	out := make([]session.Block, 0, len(parts))
	for _, p := range parts {
		switch p.Type {
		case "text":
			out = append(out, session.Block{Type: session.BlockText, Text: p.Text})
		case "reasoning":
			if p.Redacted { // encrypted reasoning
				out = append(out, session.Block{Type: session.BlockOpaque, Size: len(p.Reasoning)})
			} else {
				out = append(out, session.Block{Type: session.BlockThinking, Text: p.Reasoning})
			}
		case "image", "audio", "video", "document":
			out = append(out, session.Block{Type: session.BlockImage})
		default:
			out = append(out, session.Block{Type: session.BlockText, Text: p.Text})
		}
	}
	return out
}

// applyUsage gives each model event's usage to the assistant message it
// produced: by message id when the log records ids, else in order.
func applyUsage(t *session.Thread, events []sampleEvent) {
	byID := map[string]*session.Message{}
	var assistants []*session.Message
	for _, e := range t.Entries {
		if e.Message != nil && e.Message.Role == session.RoleAssistant {
			byID[e.ID] = e.Message
			assistants = append(assistants, e.Message)
		}
	}
	k := 0
	for _, ev := range events {
		var out modelOutput
		if ev.Event != "model" || json.Unmarshal(ev.Output, &out) != nil || out.Usage == nil {
			continue
		}
		var m *session.Message
		if len(out.Choices) > 0 && out.Choices[0].Message.ID != "" {
			m = byID[out.Choices[0].Message.ID]
		} else if k < len(assistants) {
			m = assistants[k]
		}
		k++
		if m == nil || m.Usage != nil {
			continue
		}
		u := out.Usage.normalized()
		m.Usage = &u
	}
}
