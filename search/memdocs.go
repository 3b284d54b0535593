package search

import (
	"context"
	"strings"
	"time"

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

// PassageDocs returns the documents of a memory set's passages.
func PassageDocs(set string, ps []store.Passage) []Doc {
	out := make([]Doc, 0, len(ps))
	for _, p := range ps {
		out = append(out, Doc{ID: "mem:" + set + "#p/" + p.ID, Kind: KindPassage, Set: set, Entry: p.ID, Speaker: p.Speaker,
			Time: parseMemoryTime(p.Timestamp), Text: p.Text})
	}
	return out
}

// TripleDocs returns the documents of a memory set's relations, written
// as "subject predicate object", with their time and condition.
func TripleDocs(set string, rs []store.Relation, names map[string]string) []Doc {
	out := make([]Doc, 0, len(rs))
	for _, r := range rs {
		parts := []string{nameOr(names, r.Source), r.Type, nameOr(names, r.Target)}
		if r.Time != "" {
			parts = append(parts, "time: "+r.Time)
		}
		if r.Condition != "" {
			parts = append(parts, "condition: "+r.Condition)
		}
		out = append(out, Doc{ID: "mem:" + set + "#r/" + r.ID, Kind: KindTriple, Set: set, Entry: r.ID, Text: strings.Join(parts, " ")})
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
func ExperienceDocs(set string, xs []store.Experience) []Doc {
	out := make([]Doc, 0, len(xs))
	for _, x := range xs {
		out = append(out, Doc{ID: "mem:" + set + "#x/" + x.ID, Kind: KindExperience, Set: set, Entry: x.ID, Text: x.Content})
	}
	return out
}

// memoryDocs reads every searchable item of a memory set.
func memoryDocs(ctx context.Context, st *store.Store, set string) ([]Doc, error) {
	ps, err := st.Passages(ctx, set)
	if err != nil {
		return nil, err
	}
	es, err := st.Entities(ctx, set)
	if err != nil {
		return nil, err
	}
	names := make(map[string]string, len(es))
	for _, e := range es {
		names[e.ID] = e.Name
	}
	rs, err := st.Relations(ctx, set, "")
	if err != nil {
		return nil, err
	}
	xs, err := st.Experiences(ctx, set)
	if err != nil {
		return nil, err
	}
	docs := PassageDocs(set, ps)
	docs = append(docs, TripleDocs(set, rs, names)...)
	return append(docs, ExperienceDocs(set, xs)...), nil
}
