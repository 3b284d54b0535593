package memory

import (
	"strings"

	"ctxscope/engine/session"
)

// SessionPassages returns the user and assistant text messages of an
// imported agent session as passages, thread by thread: the entry id is
// the passage id, the role the speaker, the thread's position (from 1)
// the session number. Tool calls, tool results and thinking are left out;
// they are the agent's work, not the conversation.
func SessionPassages(s *session.Session) []Passage {
	var out []Passage
	for ti, th := range s.Threads {
		for _, e := range th.Entries {
			m := e.Message
			if e.Kind != session.EntryMessage || m == nil || m.Excluded {
				continue
			}
			if m.Role != session.RoleUser && m.Role != session.RoleAssistant {
				continue
			}
			var parts []string
			for _, b := range m.Blocks {
				if b.Type == session.BlockText && strings.TrimSpace(b.Text) != "" {
					parts = append(parts, b.Text)
				}
			}
			if len(parts) == 0 {
				continue
			}
			t := m.Time
			if t.IsZero() {
				t = e.Time
			}
			p := Passage{ID: e.ID, Session: ti + 1, Speaker: string(m.Role), Text: strings.Join(parts, "\n"), Time: t}
			if !t.IsZero() {
				p.Stamp = t.Format("3:04 pm on 2 January, 2006")
			}
			out = append(out, p)
		}
	}
	return out
}
