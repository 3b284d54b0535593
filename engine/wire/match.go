package wire

import (
	"strings"

	"ctxscope/engine/session"
)

// Prompt is what a thread's first request asks: the first text of a user
// message that is not context the agent injected. Both a log and the wire
// hold it, however each splits the message.
func Prompt(t *session.Thread) string {
	reqs := session.BuildRequests(t)
	if len(reqs) == 0 {
		return ""
	}
	for _, m := range reqs[0].Input() {
		if m.Role != session.RoleUser {
			continue
		}
		for _, b := range m.Blocks {
			if b.Type != session.BlockText {
				continue
			}
			if p := strings.TrimSpace(session.WithoutInjected(b.Text)); p != "" {
				return p
			}
		}
	}
	return ""
}

// Match returns the recorded conversation, among wires, of thread t of
// log session s: one whose first request asks what t's does, preferring
// one whose thread names s (the proxy names a conversation's thread by the
// session id the agent sends in its headers). It returns nil when none
// matches.
func Match(s *session.Session, t *session.Thread, wires []*session.Session) *session.Session {
	prompt := Prompt(t)
	if prompt == "" {
		return nil
	}
	var byPrompt *session.Session
	for _, w := range wires {
		m := w.Main()
		if m == nil || Prompt(m) != prompt {
			continue
		}
		if m.ID == s.ID || m.ID == t.ID {
			return w
		}
		if byPrompt == nil {
			byPrompt = w
		}
	}
	return byPrompt
}
