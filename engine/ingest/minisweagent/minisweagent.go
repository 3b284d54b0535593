// Package minisweagent imports mini-swe-agent trajectories (*.traj.json):
// one JSON object with the run's info (exit status, submission, model
// stats, configuration) and its messages, in the OpenAI chat format with
// an extra field of mini-swe-agent's own.
//
// Normalization:
//   - In tool-call mode the assistant's tool_calls and the role "tool"
//     observations are tool calls and results as they are. In text mode
//     (mini-swe-agent 1.x, and 2.x text models) the assistant writes its
//     command in a code block (```bash in 1.x, ```mswea_bash_command in
//     2.x): each action (2.x records them in extra.actions; in 1.x the one
//     code block of the reply is the action) is an implicit tool call of
//     the message, counted as its text, and the user message that answers
//     it (the command's output, <returncode>…) is that call's result: a
//     tool message, which eviction may remove, not a user turn. A reply
//     without exactly one action gets format feedback, which stays user
//     text.
//   - An assistant message's extra.response is the provider's response:
//     its usage (LiteLLM's, whose prompt tokens include the cache's) and
//     model; the cost is extra.cost, or the response's usage.cost.
//   - A format error's feedback is user text marked as such; the final
//     "exit" message is kept as metadata with the exit status.
//   - extra.timestamp (Unix seconds) times each message.
package minisweagent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"ctxscope/engine/ingest/internal/jsondoc"
	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/ingest/openai"
	"ctxscope/engine/session"
)

// Importer reads mini-swe-agent trajectories. The zero value is ready to
// use.
type Importer struct{}

// Format returns [session.FormatMiniSWE].
func (Importer) Format() session.Format { return session.FormatMiniSWE }

// Sniff reports whether head is a trajectory: an object whose keys include
// its trajectory_format, or messages next to an info; or a bare list of
// its messages, told from other chats by mini-swe-agent's command blocks
// or observations.
func (Importer) Sniff(head []byte) bool {
	sh := jsondoc.ReadShape(head, "messages")
	if sh.Array { // the bare message list some tools save
		return sh.ElementHas("role") && sh.ElementHas("content") &&
			(bytes.Contains(head, []byte("```mswea_bash_command")) || bytes.Contains(head, []byte("<returncode>")))
	}
	if strings.HasPrefix(sh.Strings["trajectory_format"], "mini-swe-agent") {
		return true
	}
	// Its messages are chat messages: an export of another agent's
	// {info, messages} (OpenCode's, whose messages are {info, parts}) is
	// not mini-swe-agent's.
	return sh.Has("messages") && sh.Has("info") && !sh.Has("trajectory", "history") &&
		sh.ElementHas("role") && !sh.ElementHas("parts", "info")
}

// message is a chat message with mini-swe-agent's extra.
type message struct {
	Role  string `json:"role"`
	Extra *extra `json:"extra"`
}

type extra struct {
	Actions []struct {
		Command    string `json:"command"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"actions"`
	Response      *response `json:"response"`
	Cost          *float64  `json:"cost"`
	Timestamp     float64   `json:"timestamp"`
	Returncode    *int      `json:"returncode"`
	RawOutput     *string   `json:"raw_output"`
	InterruptType string    `json:"interrupt_type"`
	ExitStatus    string    `json:"exit_status"`
}

// response is the part of a LiteLLM ModelResponse that matters.
type response struct {
	ID    string `json:"id"`
	Model string `json:"model"`
	Usage *struct {
		Prompt     int `json:"prompt_tokens"`
		Completion int `json:"completion_tokens"`
		CacheRead  int `json:"cache_read_input_tokens"`
		CacheWrite int `json:"cache_creation_input_tokens"`
		Prompts    *struct {
			Cached int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
		Completions *struct {
			Reasoning int `json:"reasoning_tokens"`
		} `json:"completion_tokens_details"`
		Cost float64 `json:"cost"` // what OpenRouter charged, when it says
	} `json:"usage"`
}

// info is the part of a trajectory's info that matters.
type info struct {
	ExitStatus  string `json:"exit_status"`
	MiniVersion string `json:"mini_version"`
	ModelStats  struct {
		InstanceCost float64 `json:"instance_cost"`
		APICalls     int     `json:"api_calls"`
	} `json:"model_stats"`
}

// reader reads one trajectory's messages.
type reader struct {
	s    *session.Session
	file string
	// pending are the implicit calls of the latest text-mode response,
	// waiting for their outputs in order.
	pending []session.Block
}

// Import reads one trajectory.
func (Importer) Import(r io.Reader, name string) (*session.Session, error) {
	t := &session.Thread{ID: "main", Kind: session.ThreadMain}
	s := &session.Session{ID: norm.BaseID(strings.TrimSuffix(name, ".traj.json")), Format: session.FormatMiniSWE, Agent: "mini-swe-agent",
		Source: name, Threads: []*session.Thread{t}}
	rd := &reader{s: s, file: name}
	var inf info
	d := jsondoc.New(r)
	messages := func() error {
		return d.Array(func(int) error {
			raw, line, err := d.Raw()
			if err != nil {
				return err
			}
			rd.add(raw, line)
			return nil
		})
	}
	first, err := d.Peek()
	if first == '[' {
		err = messages()
	} else {
		err = d.Object(func(key string) error {
			switch key {
			case "messages":
				return messages()
			case "info":
				return d.Decode(&inf)
			case "instance_id":
				var id any
				if err := d.Decode(&id); err != nil {
					return err
				}
				s.ID = fmt.Sprint(id)
				return nil
			}
			return d.Skip()
		})
	}
	if err != nil {
		norm.Diag(s, name, d.Line(), session.SeverityError, "%s; the rest of the file was not read", norm.JSONError(err))
	}
	if inf.MiniVersion != "" {
		s.Agent = "mini-swe-agent " + inf.MiniVersion
	}
	if st := inf.ModelStats; st.APICalls > 0 || st.InstanceCost > 0 {
		s.Recorded = &session.Recorded{Usage: session.Usage{Cost: st.InstanceCost}, Calls: st.APICalls, From: "info.model_stats"}
	}
	if len(t.Entries) == 0 && err == nil {
		norm.Diag(s, name, 1, session.SeverityWarning, "the trajectory has no messages")
	}
	for _, e := range t.Entries { // the task is the first user message
		if e.Message != nil && e.Message.IsUser() {
			s.Title = norm.TaskTitle(textOf(e.Message))
			break
		}
	}
	norm.Finish(s)
	return s, nil
}

// add converts one message.
func (rd *reader) add(raw json.RawMessage, line int) {
	var mm message
	if err := json.Unmarshal(raw, &mm); err != nil {
		norm.Diag(rd.s, rd.file, line, session.SeverityError, "message: %s; skipped", norm.JSONError(err))
		return
	}
	ex := mm.Extra
	if ex == nil {
		ex = &extra{}
	}
	ts := unixTime(ex.Timestamp)
	if mm.Role == "exit" {
		e := rd.entry(line, ts, "exit", nil)
		e.Kind, e.Value, e.Raw = session.EntryMeta, ex.ExitStatus, append(json.RawMessage(nil), raw...)
		return
	}
	m, err := openai.Message(raw)
	if err != nil {
		norm.Diag(rd.s, rd.file, line, session.SeverityError, "%v; skipped", err)
		return
	}
	m.Time = ts
	typ := mm.Role
	switch {
	case m.Role == session.RoleAssistant:
		rd.assistant(m, ex)
	case m.Role == session.RoleUser && len(rd.pending) > 0 && ex.InterruptType == "":
		call := rd.pending[0]
		rd.pending = rd.pending[1:]
		m = &session.Message{Role: session.RoleTool, Time: ts, Blocks: []session.Block{{Type: session.BlockToolResult,
			ToolCallID: call.ToolCallID, ToolName: call.ToolName, Content: m.Blocks, IsError: ex.Returncode != nil && *ex.Returncode != 0}}}
		typ = "observation"
	case m.Role == session.RoleTool && ex.Returncode != nil && *ex.Returncode != 0:
		for i := range m.Blocks {
			m.Blocks[i].IsError = true
		}
	case ex.InterruptType != "":
		typ = strings.ToLower(ex.InterruptType)
	}
	rd.entry(line, ts, typ, m)
}

// assistant completes a response: its usage, model and cost, and in text
// mode the implicit calls of its actions.
func (rd *reader) assistant(m *session.Message, ex *extra) {
	rd.pending = nil
	if len(m.ToolCalls()) == 0 {
		commands := make([]string, 0, len(ex.Actions))
		for _, a := range ex.Actions {
			commands = append(commands, a.Command)
		}
		if len(ex.Actions) == 0 {
			if found := codeBlocks.FindAllStringSubmatch(textOf(m), -1); len(found) == 1 {
				commands = append(commands, strings.TrimSpace(found[0][1]))
			}
		}
		for i, command := range commands {
			args, _ := json.Marshal(map[string]string{"command": command})
			call := session.Block{Type: session.BlockToolCall, ToolCallID: "action-" + strconv.Itoa(len(rd.s.Main().Entries)) + "-" + strconv.Itoa(i),
				ToolName: "bash", Arguments: args, Implicit: true}
			m.Blocks = append(m.Blocks, call)
			rd.pending = append(rd.pending, call)
		}
	}
	if r := ex.Response; r != nil {
		m.ID, m.Model = r.ID, r.Model
		if u := r.Usage; u != nil {
			read := u.CacheRead
			if read == 0 && u.Prompts != nil {
				read = u.Prompts.Cached
			}
			m.Usage = &session.Usage{Input: u.Prompt - read - u.CacheWrite, CacheRead: read, CacheWrite: u.CacheWrite, Output: u.Completion}
			if u.Completions != nil {
				m.Usage.Reasoning = u.Completions.Reasoning
			}
		}
	}
	cost := 0.0
	if ex.Cost != nil {
		cost = *ex.Cost
	} else if r := ex.Response; r != nil && r.Usage != nil {
		cost = r.Usage.Cost
	}
	if cost > 0 {
		if m.Usage == nil {
			m.Usage = &session.Usage{}
		}
		m.Usage.Cost = cost
	}
}

// codeBlocks finds the command blocks of a text-mode reply: ```bash
// (mini-swe-agent 1.x) or ```mswea_bash_command (2.x).
var codeBlocks = regexp.MustCompile("(?s)```(?:bash|mswea_bash_command)\\s*\\n(.*?)\\n```")

// textOf joins a message's text blocks.
func textOf(m *session.Message) string {
	var parts []string
	for _, b := range m.Blocks {
		if b.Type == session.BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// entry appends an entry chained to the previous one.
func (rd *reader) entry(line int, ts time.Time, typ string, m *session.Message) *session.Entry {
	t := rd.s.Main()
	e := &session.Entry{ID: "m" + strconv.Itoa(len(t.Entries)), Line: line, Time: ts, Kind: session.EntryMessage, Type: typ, Message: m}
	if k := len(t.Entries); k > 0 {
		e.ParentID = t.Entries[k-1].ID
	}
	t.Entries = append(t.Entries, e)
	return e
}

// unixTime converts Unix seconds, 0 for none.
func unixTime(sec float64) time.Time {
	if sec <= 0 || math.IsNaN(sec) || math.IsInf(sec, 0) || sec > 1e11 {
		return time.Time{}
	}
	whole, frac := math.Modf(sec)
	return time.Unix(int64(whole), int64(frac*1e9)).UTC()
}
