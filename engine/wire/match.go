package wire

import (
	"strings"

	"ctxscope/engine/session"
)

// Prompt is what a thread's first request asks: the first text of a user
// message before the thread's first response that is not context the
// agent injected. Both a log and the wire hold it, however each splits
// the message.
func Prompt(t *session.Thread) string {
	for _, e := range t.Entries {
		m := e.Message
		if e.Kind != session.EntryMessage || m == nil {
			continue
		}
		if m.Role == session.RoleAssistant && m.Origin != session.OriginEcho {
			return "" // the first response came first
		}
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

// Candidate is a recorded conversation as matching needs it: its key, the
// id of its thread (the session id the agent sent, when it sent one) and
// its prompt.
type Candidate struct {
	Key, Thread, Prompt string
}

// CandidateOf summarises a recorded conversation, key naming it.
func CandidateOf(key string, w *session.Session) Candidate {
	m := w.Main()
	if m == nil {
		return Candidate{Key: key}
	}
	return Candidate{Key: key, Thread: m.ID, Prompt: Prompt(m)}
}

// Match returns the key of the recorded conversation, among cands, of
// thread t of log session s: one whose first request asks what t's does,
// preferring one whose thread names s (the proxy names a conversation's
// thread by the session id the agent sends in its headers). It reports
// false when none matches.
func Match(s *session.Session, t *session.Thread, cands []Candidate) (string, bool) {
	prompt := Prompt(t)
	if prompt == "" {
		return "", false
	}
	byPrompt, found := "", false
	for _, c := range cands {
		if c.Prompt != prompt {
			continue
		}
		if c.Thread == s.ID || c.Thread == t.ID {
			return c.Key, true
		}
		if !found {
			byPrompt, found = c.Key, true
		}
	}
	return byPrompt, found
}
