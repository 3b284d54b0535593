package debug

import "ctxscope/engine/session"

// ThreadInfo describes one thread of a session for the thread picker.
type ThreadInfo struct {
	Index  int                `json:"index"`
	ID     string             `json:"id"`
	Kind   session.ThreadKind `json:"kind"`
	Parent string             `json:"parent,omitempty"`
	// ParentIndex is the index of the parent thread, -1 for none.
	ParentIndex int    `json:"parentIndex"`
	Title       string `json:"title,omitempty"`
	Entries     int    `json:"entries"`
	Requests    int    `json:"requests"`
	// Branches counts the tips of the thread's entry tree: 1 for a linear
	// thread, more where the agent's history forked (pi's /tree).
	Branches int `json:"branches"`
	// Depth is how many parents the thread has.
	Depth int `json:"depth"`
}

// Threads lists a session's threads, main thread first, each with its
// request and branch counts.
func Threads(s *session.Session) []ThreadInfo {
	index := map[string]int{}
	for i, t := range s.Threads {
		index[t.ID] = i
	}
	out := make([]ThreadInfo, 0, len(s.Threads))
	for i, t := range s.Threads {
		info := ThreadInfo{Index: i, ID: t.ID, Kind: t.Kind, Parent: t.ParentID, ParentIndex: -1, Title: t.Title,
			Entries: len(t.Entries), Requests: countRequests(t), Branches: len(session.NewTree(t).Leaves())}
		if p, ok := index[t.ParentID]; ok && p != i {
			info.ParentIndex = p
		}
		out = append(out, info)
	}
	for i := range out {
		seen := map[int]bool{i: true}
		for p := out[i].ParentIndex; p >= 0 && !seen[p]; p = out[p].ParentIndex {
			seen[p] = true
			out[i].Depth++
		}
	}
	return out
}

// countRequests counts a thread's LLM requests: its assistant messages
// that reached the model.
func countRequests(t *session.Thread) int {
	n := 0
	for _, e := range t.Entries {
		if e.Kind == session.EntryMessage && e.Message != nil && !e.Message.Excluded && e.Message.Role == session.RoleAssistant {
			n++
		}
	}
	return n
}
