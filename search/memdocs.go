package search

import (
	"context"
	"strings"
	"time"

	"ctxscope/engine/memory/memstore"
	"ctxscope/engine/store"
)

// locomoTime is the layout of LoCoMo's session date_time, such as
// "1:56 pm on 8 May, 2023".
const locomoTime = "3:04 pm on 2 January, 2006"

// parseMemoryTime reads a memory timestamp in RFC 3339 or LoCoMo's
// layout; anything else gives the zero time.
func parseMemoryTime(s string) time.Time {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t
	}
	if t, err := time.Parse(locomoTime, strings.Replace(strings.Replace(s, "am", "AM", 1), "pm", "PM", 1)); err == nil {
		return t
	}
	if t, err := time.Parse(locomoTime, s); err == nil {
		return t
	}
	return time.Time{}
}

// turnInfo is what a memory document borrows from the passage it was
// read from: who spoke, when, in which session of the conversation.
type turnInfo struct {
	speaker, session string
	time             time.Time
}

func turnInfos(ps []memstore.Passage) map[string]turnInfo {
	out := make(map[string]turnInfo, len(ps))
	for _, p := range ps {
		out[p.ID] = turnInfo{speaker: p.Speaker, session: p.Session, time: passageTime(p)}
	}
	return out
}

// passageTime is the passage's absolute time, else its stamp parsed.
func passageTime(p memstore.Passage) time.Time {
	if t, err := time.Parse(time.RFC3339Nano, p.Time); err == nil {
		return t
	}
	return parseMemoryTime(p.Timestamp)
}

// PassageDocs returns the documents of a memory set's passages.
func PassageDocs(set string, ps []memstore.Passage) []Doc {
	out := make([]Doc, 0, len(ps))
	for _, p := range ps {
		out = append(out, Doc{ID: "mem:" + set + "#p/" + p.ID, Kind: KindPassage, Set: set, Entry: p.ID, Speaker: p.Speaker,
			DialogSession: p.Session, Time: passageTime(p), Text: p.Text})
	}
	return out
}

// TripleDocs returns the documents of a memory set's relations, written
// as "subject predicate object", with their time and condition. A
// triple's speaker, session and time are those of the passage it was read
// from (turns maps passage ids to them); a triple from a session review
// has its session only.
func TripleDocs(set string, rs []memstore.Relation, names map[string]string, turns map[string]turnInfo) []Doc {
	out := make([]Doc, 0, len(rs))
	for _, r := range rs {
		parts := []string{nameOr(names, r.Source), r.Type, nameOr(names, r.Target)}
		if r.Time != "" {
			parts = append(parts, "time: "+r.Time)
		}
		if r.Condition != "" {
			parts = append(parts, "condition: "+r.Condition)
		}
		d := Doc{ID: "mem:" + set + "#r/" + r.ID, Kind: KindTriple, Set: set, Entry: r.ID, DialogSession: r.Session, Text: strings.Join(parts, " ")}
		if t, ok := turns[r.PassageID]; ok {
			d.Speaker, d.Time = t.speaker, t.time
		}
		out = append(out, d)
	}
	return out
}

func nameOr(names map[string]string, id string) string {
	if n, ok := names[id]; ok {
		return n
	}
	return id
}

// ExperienceDocs returns the documents of a memory set's experience items.
// An item's speaker, session and time are those of its first source turn.
func ExperienceDocs(set string, xs []memstore.Experience, turns map[string]turnInfo) []Doc {
	out := make([]Doc, 0, len(xs))
	for _, x := range xs {
		d := Doc{ID: "mem:" + set + "#x/" + x.ID, Kind: KindExperience, Set: set, Entry: x.ID, Text: x.Content}
		if len(x.SourceQAIDs) > 0 {
			if t, ok := turns[x.SourceQAIDs[0]]; ok {
				d.Speaker, d.DialogSession, d.Time = t.speaker, t.session, t.time
			}
		}
		out = append(out, d)
	}
	return out
}

// memoryDocs reads every searchable item of a memory set.
func memoryDocs(ctx context.Context, st *store.Store, set string) ([]Doc, error) {
	tables := memstore.TablesOf(st)
	ps, err := tables.Passages(ctx, set)
	if err != nil {
		return nil, err
	}
	es, err := tables.Entities(ctx, set)
	if err != nil {
		return nil, err
	}
	names := make(map[string]string, len(es))
	for _, e := range es {
		names[e.ID] = e.Name
	}
	rs, err := tables.Relations(ctx, set, "")
	if err != nil {
		return nil, err
	}
	xs, err := tables.Experiences(ctx, set)
	if err != nil {
		return nil, err
	}
	turns := turnInfos(ps)
	docs := PassageDocs(set, ps)
	docs = append(docs, TripleDocs(set, rs, names, turns)...)
	return append(docs, ExperienceDocs(set, xs, turns)...), nil
}
