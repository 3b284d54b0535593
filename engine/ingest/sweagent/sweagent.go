// Package sweagent imports SWE-agent trajectories (.traj): one JSON object
// per task instance whose history holds the messages the model saw.
//
// Both generations are read. SWE-agent 1.x writes OpenAI-style
// function-calling messages (assistant tool_calls, role "tool" replies
// naming tool_call_ids); 0.x writes text actions, where the assistant's
// reply holds its command as text and the observation comes back as a user
// message. A text action keeps its text as the model saw it, and gains an
// implicit tool call (the action, named by its first word, counted as part
// of the text); the observation that follows it is that call's result, a
// tool message, so that eviction can treat it as the tool output it is
// rather than as a user turn, which it never evicts. Demonstrations (0.x
// messages marked is_demo) stay user text. The title is the problem
// statement's first line, never a demonstration's. The file is streamed:
// the history is read message by message and the per-step trajectory, a
// copy of it with observations and states, is skipped.
package sweagent

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"ctxscope/engine/ingest/internal/jsondoc"
	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/openai"
	"ctxscope/engine/session"
)

// Importer reads SWE-agent trajectories. The zero value is ready to use.
type Importer struct{}

// Format returns [session.FormatSWEAgent].
func (Importer) Format() session.Format { return session.FormatSWEAgent }

// Sniff reports whether head looks like a trajectory, by its keys: an
// object with a trajectory, or with a history and SWE-agent's environment,
// info or replay configuration; never an OpenHands evaluation line (which
// has an instance_id and an instruction) or a mini-swe-agent trajectory
// (messages and a trajectory_format).
func (Importer) Sniff(head []byte) bool {
	sh := jsondoc.ReadShape(head, "")
	if sh.Array || sh.Has("trajectory_format", "messages", "instance_id", "instruction", "issue") {
		return false
	}
	return sh.Has("trajectory") || (sh.Has("history") && sh.Has("environment", "info", "replay_config"))
}

// historyMessage is the part of a history message beyond the chat format.
type historyMessage struct {
	Role        string   `json:"role"`
	MessageType string   `json:"message_type"`
	ToolCallIDs []string `json:"tool_call_ids"`
	Agent       string   `json:"agent"`
	Action      string   `json:"action"`
	IsDemo      bool     `json:"is_demo"`
}

// reader reads one trajectory's history.
type reader struct {
	s    *session.Session
	file string
	// action is the implicit call of the latest text action, waiting for
	// its observation, and actionName its command's name.
	action, actionName string
	// problem is the problem statement, the title's source.
	problem string
}

// Import reads one trajectory.
func (Importer) Import(r io.Reader, name string) (*session.Session, error) {
	t := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s := &session.Session{ID: norm.BaseID(name), Format: session.FormatSWEAgent, Agent: "swe-agent", Source: name, Threads: []*session.Thread{t}}
	rd := &reader{s: s, file: name}
	d := jsondoc.New(r)
	err := d.Object(func(key string) error {
		switch key {
		case "history":
			return d.Array(func(int) error {
				raw, line, err := d.Raw()
				if err != nil {
					return err
				}
				rd.add(raw, line)
				return nil
			})
		case "info":
			return readInfo(d, s)
		case "replay_config":
			return rd.replayConfig(d)
		}
		return d.Skip()
	})
	if err != nil {
		norm.Diag(s, name, d.Line(), session.SeverityError, "%s; the rest of the file was not read", norm.JSONError(err))
	}
	if len(t.Entries) == 0 && err == nil {
		norm.Diag(s, name, 1, session.SeverityWarning, "the trajectory has no history")
	}
	if s.Title == "" {
		s.Title = problemTitle(rd.problem)
	}
	norm.Finish(s)
	return s, nil
}

// replayConfig reads the problem statement of a 1.x replay configuration,
// a JSON object or a string holding one.
func (rd *reader) replayConfig(d *jsondoc.Doc) error {
	var raw json.RawMessage
	if err := d.Decode(&raw); err != nil {
		return err
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		raw = json.RawMessage(str)
	}
	var rc struct {
		ProblemStatement struct {
			Text string `json:"text"`
		} `json:"problem_statement"`
	}
	if json.Unmarshal(raw, &rc) == nil && rc.ProblemStatement.Text != "" {
		rd.problem = rc.ProblemStatement.Text
	}
	return nil
}

// problemTitle returns the first line of a problem statement, or of the
// issue text a task message quotes ("ISSUE:\n<text>").
func problemTitle(text string) string {
	if _, issue, ok := strings.Cut(text, "ISSUE:\n"); ok {
		text = issue
	}
	return norm.TaskTitle(text)
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

// add converts one history message.
func (rd *reader) add(raw json.RawMessage, line int) {
	s, file := rd.s, rd.file
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
	id := "h" + strconv.Itoa(len(t.Entries))
	switch {
	case m.Role == session.RoleAssistant && hm.Action != "" && len(m.ToolCalls()) == 0:
		rd.action, rd.actionName = id+"-action", commandName(hm.Action)
		m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: rd.action, ToolName: rd.actionName,
			Arguments: commandArguments(hm.Action), Implicit: true})
	case m.Role == session.RoleUser && rd.action != "" && !hm.IsDemo && hm.MessageType != "system_prompt":
		m = &session.Message{Role: session.RoleTool, Blocks: []session.Block{{Type: session.BlockToolResult, ToolCallID: rd.action,
			ToolName: rd.actionName, Content: m.Blocks}}}
		rd.action = ""
	case m.Role == session.RoleUser && !hm.IsDemo && rd.problem == "":
		rd.problem = firstText(m)
	}
	e := &session.Entry{ID: id, Line: line, Kind: session.EntryMessage, Type: hm.MessageType, Message: m}
	if hm.MessageType == "" {
		e.Type = "message"
	}
	if hm.IsDemo {
		e.Type = "demonstration"
	}
	if k := len(t.Entries); k > 0 {
		e.ParentID = t.Entries[k-1].ID
	}
	t.Entries = append(t.Entries, e)
}

// commandName names a text action by its first word ("edit", "open",
// "find_file", or a shell command).
func commandName(action string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(action), " ")
	name, _, _ = strings.Cut(name, "\n")
	if name == "" {
		return "command"
	}
	return name
}

// commandArguments writes a text action as a call's arguments.
func commandArguments(action string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"command": strings.TrimSpace(action)})
	return b
}

// firstText returns a message's first text.
func firstText(m *session.Message) string {
	for _, b := range m.Blocks {
		if b.Type == session.BlockText && strings.TrimSpace(b.Text) != "" {
			return b.Text
		}
	}
	return ""
}
