package search

import (
	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
)

// Episode is an episode an agent declared with CWL delimiter calls on the
// active branch of one thread, as the index holds it.
type Episode struct {
	Thread      string
	Name        string
	Kind        string // cwl.KindExpl or cwl.KindAct
	Description string
	StartEntry  string // id of the entry holding the start delimiter's result
}

// Episodes finds the episodes that delimiter calls declare on the active
// branch of each thread of ss.
func Episodes(ss *session.Session) []Episode {
	var out []Episode
	for _, t := range ss.Threads {
		tr := session.NewTree(t)
		leaf := tr.Leaf()
		if leaf < 0 {
			continue
		}
		var msgs []*session.Message
		var entries []*session.Entry
		for _, i := range tr.PathTo(leaf) {
			if e := t.Entries[i]; e.Message != nil {
				msgs, entries = append(msgs, e.Message), append(entries, e)
			}
		}
		for _, sg := range cwl.SegmentMessages(msgs) {
			out = append(out, Episode{Thread: t.ID, Name: sg.Name, Kind: sg.Kind, Description: sg.Description, StartEntry: entries[sg.Start].ID})
		}
	}
	return out
}

// declaresEpisodes reports whether e calls the delimiter tool or holds its
// result: only a session with such an entry has episodes, and only then
// does a sync read it whole to find them.
func declaresEpisodes(e *session.Entry) bool {
	if e.Message == nil {
		return false
	}
	for _, b := range e.Message.Blocks {
		if (b.Type == session.BlockToolCall || b.Type == session.BlockToolResult) && cwl.IsDelimiter(b.ToolName) {
			return true
		}
	}
	return false
}
