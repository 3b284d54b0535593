package gemini

import (
	"encoding/json"
	"io"
	"strconv"

	"ctxscope/engine/ingest/internal/jsondoc"
	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// content is one turn of a checkpoint: the Gemini API's own history.
type content struct {
	Role  string `json:"role"`
	Parts []part `json:"parts"`
}

// readCheckpoint reads a checkpoint turn by turn. A user turn that holds
// function responses is the results of the calls before it: a tool
// message.
func readCheckpoint(r io.Reader, name string) *session.Session {
	s := newSession(name)
	t := s.Main()
	d := jsondoc.New(r)
	err := d.Array(func(i int) error {
		raw, line, err := d.Raw()
		if err != nil {
			return err
		}
		var c content
		if err := json.Unmarshal(raw, &c); err != nil {
			norm.Diag(s, name, line, session.SeverityError, "turn: %s; skipped", norm.JSONError(err))
			return nil
		}
		m := turn(&c)
		e := &session.Entry{ID: "t" + strconv.Itoa(i), Line: line, Kind: session.EntryMessage, Type: c.Role, Message: m}
		if len(t.Entries) > 0 {
			e.ParentID = t.Entries[len(t.Entries)-1].ID
		}
		t.Entries = append(t.Entries, e)
		return nil
	})
	if err != nil {
		norm.Diag(s, name, d.Line(), session.SeverityError, "%s; the rest of the file was not read", norm.JSONError(err))
	}
	norm.Finish(s)
	return s
}

// turn converts one checkpoint turn.
func turn(c *content) *session.Message {
	m := &session.Message{Role: session.RoleUser}
	if c.Role == "model" {
		m.Role, m.Provider = session.RoleAssistant, "google"
	}
	for _, p := range c.Parts {
		switch {
		case p.FunctionCall != nil:
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolCall, ToolCallID: p.FunctionCall.ID, ToolName: p.FunctionCall.Name,
				Arguments: norm.NonNull(p.FunctionCall.Args)})
		case p.Response != nil:
			m.Role = session.RoleTool
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockToolResult, ToolCallID: p.Response.ID, ToolName: p.Response.Name,
				Content: norm.Text(responseText(p.Response.Response))})
		case p.InlineData != nil:
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockImage, MIME: p.InlineData.MIMEType})
		case p.Thought:
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockThinking, Text: p.Text})
		case p.Text != "":
			m.Blocks = append(m.Blocks, session.Block{Type: session.BlockText, Text: p.Text})
		}
	}
	return m
}
