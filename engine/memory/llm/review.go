package llm

import (
	"context"
	"fmt"
	"strings"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/kg"
	"ctxscope/engine/memory/temporal"
)

// Review runs the session review over the relations written from the
// session. Items naming unknown relations, lacking fields or carrying a
// time that is not absolute are rejected one by one.
func (e *Extractor) Review(ctx context.Context, session []memory.Passage, g *kg.Graph, rels []*kg.Relation) (memory.Review, error) {
	if len(session) == 0 {
		return memory.Review{}, nil
	}
	var dialogue, entities, relations strings.Builder
	for _, p := range session {
		fmt.Fprintf(&dialogue, "%s: %s\n", p.Speaker, p.Text)
	}
	known := map[string]bool{}
	seen := map[string]bool{}
	for _, r := range rels {
		known[r.ID] = true
		for _, id := range []string{r.Subject, r.Object} {
			if ent, ok := g.Entity(id); ok && !seen[id] {
				seen[id] = true
				fmt.Fprintf(&entities, "- id=%s, name=%s\n", id, ent.Name)
			}
		}
		fmt.Fprintf(&relations, " - id=%s %s %s %s | time=%s; condition=%s\n", r.ID, name(g, r.Subject), r.Predicate, name(g, r.Object), r.TimeString(), r.Condition)
	}
	where := fmt.Sprintf("session %d review", session[0].Session)
	prompt := fmt.Sprintf(reviewPrompt, session[len(session)-1].Stamp, dialogue.String(), entities.String(), relations.String())
	obj, err := e.Client.JSON(ctx, prompt, 0.1, 3)
	if err != nil {
		return memory.Review{}, err
	}
	return memory.Review{Add: e.reviewAdds(where, obj), Update: e.reviewUpdates(where, obj, known), Deny: e.reviewDenies(where, obj, known)}, nil
}

func name(g *kg.Graph, id string) string {
	if e, ok := g.Entity(id); ok {
		return e.Name
	}
	return id
}

// absolute checks a review time: empty or an absolute value.
func absolute(s string) (temporal.Value, bool) {
	if s == "" {
		return temporal.Value{}, true
	}
	return temporal.Parse(s)
}

func (e *Extractor) reviewAdds(where string, obj fields) []memory.Triple {
	items, err := list(obj, "add")
	if err != nil {
		e.reject(where, "add: %v", err)
		return nil
	}
	var out []memory.Triple
	for i, raw := range items {
		r, err := record(raw, []string{"source", "relation_type", "target"}, []string{"time", "condition"})
		if err != nil {
			e.reject(where, "add %d: %v", i, err)
			continue
		}
		v, ok := absolute(r["time"])
		if !ok {
			e.reject(where, "add %d: time %q is not absolute", i, r["time"])
			continue
		}
		out = append(out, memory.Triple{Subject: r["source"], Predicate: r["relation_type"], Object: r["target"], Time: v, Condition: r["condition"]})
	}
	return out
}

func (e *Extractor) reviewUpdates(where string, obj fields, known map[string]bool) []memory.Update {
	items, err := list(obj, "update")
	if err != nil {
		e.reject(where, "update: %v", err)
		return nil
	}
	var out []memory.Update
	for i, raw := range items {
		r, err := record(raw, []string{"relation_id"}, []string{"relation_type", "time", "condition"})
		if err != nil {
			e.reject(where, "update %d: %v", i, err)
			continue
		}
		if !known[r["relation_id"]] {
			e.reject(where, "update %d: unknown relation %q", i, r["relation_id"])
			continue
		}
		u := memory.Update{RelationID: r["relation_id"], Predicate: r["relation_type"]}
		if t, ok := r["time"]; ok {
			if _, ok := absolute(t); !ok {
				e.reject(where, "update %d: time %q is not absolute", i, t)
				continue
			}
			u.Time = &t
		}
		if c, ok := r["condition"]; ok {
			u.Condition = &c
		}
		out = append(out, u)
	}
	return out
}

func (e *Extractor) reviewDenies(where string, obj fields, known map[string]bool) []string {
	items, err := list(obj, "deny")
	if err != nil {
		e.reject(where, "deny: %v", err)
		return nil
	}
	var out []string
	for i, raw := range items {
		r, err := record(raw, []string{"relation_id"}, nil)
		if err != nil {
			e.reject(where, "deny %d: %v", i, err)
			continue
		}
		if !known[r["relation_id"]] {
			e.reject(where, "deny %d: unknown relation %q", i, r["relation_id"])
			continue
		}
		out = append(out, r["relation_id"])
	}
	return out
}
