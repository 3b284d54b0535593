package llm

import (
	"context"
	"fmt"
	"strings"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/temporal"
)

// Extractor is the model-backed [memory.Extractor] and [memory.Reviewer]:
// entities, then relations restricted to them, then one temporal
// normalization per relation, as the reference does, with every item
// validated. Logf receives each rejection with its reason.
type Extractor struct {
	Client *Client
	Logf   func(format string, args ...any)
}

// Name returns "llm:" and the model.
func (e *Extractor) Name() string { return "llm:" + e.Client.Model }

func (e *Extractor) reject(where, format string, args ...any) {
	if e.Logf != nil {
		e.Logf("%s: rejected: %s", where, fmt.Sprintf(format, args...))
	}
}

// window renders a passage as the prompts show it.
func window(p memory.Passage) string {
	return fmt.Sprintf("Date/Time: %s\nSpeaker %s says: %s", p.Stamp, p.Speaker, p.Text)
}

// Extract reads one passage. Up to three attempts are made while no valid
// relation comes back, as in the reference.
func (e *Extractor) Extract(ctx context.Context, p memory.Passage) (memory.Extraction, error) {
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		ex, err := e.extractOnce(ctx, p)
		if err != nil {
			last = err
			continue
		}
		if len(ex.Triples) > 0 {
			return ex, nil
		}
	}
	if last != nil {
		return memory.Extraction{}, last
	}
	return memory.Extraction{}, nil
}

func (e *Extractor) extractOnce(ctx context.Context, p memory.Passage) (memory.Extraction, error) {
	w := window(p)
	obj, err := e.Client.JSON(ctx, fmt.Sprintf(entityPrompt, w), 0.2, 1)
	if err != nil {
		return memory.Extraction{}, err
	}
	ents := e.entities(p.ID, obj)
	if len(ents) == 0 {
		return memory.Extraction{}, nil
	}
	obj, err = e.Client.JSON(ctx, fmt.Sprintf(relationPrompt, strings.Join(ents, ", "), w), 0.4, 1)
	if err != nil {
		return memory.Extraction{}, err
	}
	ex := memory.Extraction{Entities: ents, Triples: e.relations(p.ID, obj, ents)}
	for i := range ex.Triples {
		ex.Triples[i].Time = e.time(ctx, p, ex.Triples[i])
	}
	return ex, nil
}

func (e *Extractor) entities(where string, obj fields) []string {
	items, err := list(obj, "entities")
	if err != nil {
		e.reject(where, "entities: %v", err)
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for i, raw := range items {
		var s string
		if err := unmarshal(raw, &s); err != nil || strings.TrimSpace(s) == "" {
			e.reject(where, "entity %d: not a non-empty string: %s", i, raw)
			continue
		}
		s = strings.TrimSpace(s)
		if k := strings.ToLower(s); !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

func (e *Extractor) relations(where string, obj fields, ents []string) []memory.Triple {
	items, err := list(obj, "relations")
	if err != nil {
		e.reject(where, "relations: %v", err)
		return nil
	}
	known := map[string]bool{}
	for _, n := range ents {
		known[n] = true
	}
	var out []memory.Triple
	for i, raw := range items {
		r, err := record(raw, []string{"source", "relation_type", "target"}, []string{"condition"})
		if err != nil {
			e.reject(where, "relation %d: %v", i, err)
			continue
		}
		if !known[r["source"]] || !known[r["target"]] {
			e.reject(where, "relation %d: %q or %q is not one of the extracted entities", i, r["source"], r["target"])
			continue
		}
		out = append(out, memory.Triple{Subject: r["source"], Predicate: r["relation_type"], Object: r["target"], Condition: r["condition"]})
	}
	return out
}

// time asks for the relation's absolute time; an answer that is not an
// absolute time is rejected and the deterministic normalizer decides.
func (e *Extractor) time(ctx context.Context, p memory.Passage, t memory.Triple) temporal.Value {
	desc := fmt.Sprintf("source: %s, relation_type: %s, target: %s", t.Subject, t.Predicate, t.Object)
	fallback, _ := temporal.Normalize(p.Text, p.Time)
	obj, err := e.Client.JSON(ctx, fmt.Sprintf(timePrompt, desc, window(p)), 0.1, 2)
	if err != nil {
		e.reject(p.ID, "time of %s: %v", desc, err)
		return fallback
	}
	s, err := str(obj, "absolute_time")
	if err != nil {
		e.reject(p.ID, "time of %s: %v", desc, err)
		return fallback
	}
	if s == "" {
		return temporal.Value{}
	}
	v, ok := temporal.Parse(s)
	if !ok {
		e.reject(p.ID, "time of %s: %q is not an absolute time", desc, s)
		return fallback
	}
	return v
}
