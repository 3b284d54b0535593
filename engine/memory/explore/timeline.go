package explore

import (
	"sort"
	"time"

	"ctxscope/engine/memory"
)

// Session is one session of the conversation a memory was built from.
type Session struct {
	N        int       `json:"n"`
	Stamp    string    `json:"stamp"`
	Time     time.Time `json:"time,omitzero"`
	Passages int       `json:"passages"`
}

// Timeline is what a time slider needs: the sessions in order and how
// the relations' times are distributed.
type Timeline struct {
	Sessions []Session `json:"sessions"`
	// ByGran counts relations by the granularity of their time: "day",
	// "month", "season", "year", "text" (a time that does not
	// normalize) and "none".
	ByGran map[string]int `json:"byGran"`
	// First and Last bound the normalized times.
	First time.Time `json:"first,omitzero"`
	Last  time.Time `json:"last,omitzero"`
}

// TimelineOf returns m's timeline.
func TimelineOf(m *memory.Memory) Timeline {
	out := Timeline{Sessions: []Session{}, ByGran: map[string]int{}}
	at := map[int]int{}
	for _, p := range m.Passages {
		i, ok := at[p.Session]
		if !ok {
			i = len(out.Sessions)
			at[p.Session] = i
			out.Sessions = append(out.Sessions, Session{N: p.Session, Stamp: p.Stamp, Time: p.Time})
		}
		out.Sessions[i].Passages++
	}
	sort.SliceStable(out.Sessions, func(i, j int) bool { return out.Sessions[i].N < out.Sessions[j].N })
	if m.Graph == nil {
		return out
	}
	for _, r := range m.Graph.Relations() {
		switch {
		case !r.Time.IsZero():
			out.ByGran[r.Time.Gran.String()]++
			if out.First.IsZero() || r.Time.Time.Before(out.First) {
				out.First = r.Time.Time
			}
			if r.Time.Time.After(out.Last) {
				out.Last = r.Time.Time
			}
		case r.TimeText != "":
			out.ByGran["text"]++
		default:
			out.ByGran["none"]++
		}
	}
	return out
}
