// Package sweagent imports SWE-agent trajectories (.traj): one JSON object
// per task instance whose history holds the messages the model saw.
//
// Both generations are read. SWE-agent 1.x writes OpenAI-style
// function-calling messages (assistant tool_calls, role "tool" replies
// naming tool_call_ids); 0.x writes text actions, where the assistant's
// reply holds its command as text and the observation comes back as a user
// message. The text actions are kept as the model saw them: text, not
// tool calls. The file is streamed: the history is read message by
// message and the per-step trajectory, a copy of it with observations and
// states, is skipped.
package sweagent

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"ctxscope/engine/ingest/internal/jsondoc"
	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/openai"
	"ctxscope/engine/session"
)

// Importer reads SWE-agent trajectories. The zero value is ready to use.
type Importer struct{}

// Format returns [session.FormatSWEAgent].
func (Importer) Format() session.Format { return session.FormatSWEAgent }

// Sniff reports whether head looks like a trajectory: a JSON object whose
// keys include trajectory or history next to SWE-agent's own fields.
func (Importer) Sniff(head []byte) bool {
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	hasTraj := bytes.Contains(head, []byte(`"trajectory"`)) || bytes.Contains(head, []byte(`"history"`))
	own := bytes.Contains(head, []byte(`"observation"`)) || bytes.Contains(head, []byte(`"message_type"`)) ||
		bytes.Contains(head, []byte(`"thought"`)) || bytes.Contains(head, []byte(`"environment"`))
	return hasTraj && own && !bytes.Contains(head, []byte(`"source"`))
}

// historyMessage is the part of a history message beyond the chat format.
type historyMessage struct {
	Role        string   `json:"role"`
	MessageType string   `json:"message_type"`
	ToolCallIDs []string `json:"tool_call_ids"`
	Agent       string   `json:"agent"`
}

// Import reads one trajectory.
func (Importer) Import(r io.Reader, name string) (*session.Session, error) {
	t := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s := &session.Session{ID: norm.BaseID(name), Format: session.FormatSWEAgent, Agent: "swe-agent", Source: name, Threads: []*session.Thread{t}}
	d := jsondoc.New(r)
	err := d.Object(func(key string) error {
		switch key {
		case "history":
			return d.Array(func(int) error {
				raw, line, err := d.Raw()
				if err != nil {
					return err
				}
				addMessage(s, name, raw, line)
				return nil
			})
		case "info":
			return readInfo(d, s)
		}
		return d.Skip()
	})
	if err != nil {
		norm.Diag(s, name, d.Line(), session.SeverityError, "%s; the rest of the file was not read", norm.JSONError(err))
	}
	if len(t.Entries) == 0 && err == nil {
		norm.Diag(s, name, 1, session.SeverityWarning, "the trajectory has no history")
	}
	norm.Finish(s)
	return s, nil
}

// readInfo takes the exit status into the session title's fallback.
func readInfo(d *jsondoc.Doc, s *session.Session) error {
	var info struct {
		ExitStatus string `json:"exit_status"`
	}
	if err := d.Decode(&info); err != nil {
		return err
	}
	if info.ExitStatus != "" {
		s.Agent = "swe-agent (" + info.ExitStatus + ")"
	}
	return nil
}

func addMessage(s *session.Session, file string, raw json.RawMessage, line int) {
	m, err := openai.Message(raw)
	if err != nil {
		norm.Diag(s, file, line, session.SeverityError, "history %v; skipped", err)
		return
	}
	var hm historyMessage
	_ = json.Unmarshal(raw, &hm) // the chat decoding above has validated raw
	if hm.MessageType != "" && s.Version == 0 {
		s.Version = 1
	}
	if m.Role == session.RoleTool && len(m.Blocks) == 1 && m.Blocks[0].ToolCallID == "" && len(hm.ToolCallIDs) > 0 {
		m.Blocks[0].ToolCallID = hm.ToolCallIDs[0]
		if len(hm.ToolCallIDs) > 1 {
			norm.Diag(s, file, line, session.SeverityWarning, "an observation answers %d tool calls; linked to the first", len(hm.ToolCallIDs))
		}
	}
	t := s.Main()
	e := &session.Entry{ID: "h" + strconv.Itoa(len(t.Entries)), Line: line, Kind: session.EntryMessage, Type: hm.MessageType, Message: m}
	if hm.MessageType == "" {
		e.Type = "message"
	}
	if k := len(t.Entries); k > 0 {
		e.ParentID = t.Entries[k-1].ID
	}
	t.Entries = append(t.Entries, e)
}
