package memory

import (
	"context"
	"fmt"

	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/kg"
)

// Builder writes a memory from passages, session by session, as the
// reference's build_knowledge does: experience memory first (windows of
// Config.Window units), then the graph (one extraction per passage, a
// session review, a dedup over the whole graph).
type Builder struct {
	Extractor Extractor
	Reviewer  Reviewer // nil skips the session review
	Embedder  embed.Provider
	Writer    cluster.Writer
	Config    cluster.Config
	// Merge applies the graph's merge suggestions at the end: same names
	// always, short forms only of a speaker's name ("Mel" for "Melanie").
	// Every merge is recorded on the graph and can be undone.
	Merge bool
	// Logf receives one line per rejected item or skipped step; nil
	// discards them.
	Logf func(format string, args ...any)
	// Progress, when set, is told how many passages of how many have gone
	// through the graph layer, after each one.
	Progress func(done, total int)
}

func (b *Builder) logf(format string, args ...any) {
	if b.Logf != nil {
		b.Logf(format, args...)
	}
}

// Build makes the memory of one conversation. It stops with ctx's error
// when ctx is cancelled, between two passages.
func (b *Builder) Build(ctx context.Context, id string, passages []Passage) (*Memory, error) {
	m := &Memory{ID: id, Source: b.Extractor.Name(), Passages: passages, Graph: kg.New(), Experience: cluster.NewLayer()}
	seen := map[string]bool{}
	for _, p := range passages {
		if !seen[p.Speaker] {
			seen[p.Speaker] = true
			m.Speakers = append(m.Speakers, p.Speaker)
		}
	}
	emb := b.Embedder
	if emb != nil && embed.NeedsCentering(emb) {
		texts := make([]string, len(passages))
		for i, p := range passages {
			texts[i] = p.Text
		}
		common, err := embed.FitCommon(ctx, emb, texts)
		if err != nil {
			return nil, fmt.Errorf("fit common component: %w", err)
		}
		m.Common = common
		emb = embed.ForMemory(emb, common)
	}
	done := 0
	for _, sess := range sessions(passages) {
		if err := b.experience(ctx, m, emb, sess); err != nil {
			return nil, err
		}
		if err := b.graph(ctx, m, sess, &done, len(passages)); err != nil {
			return nil, err
		}
	}
	if b.Merge {
		b.merge(m)
	}
	return m, nil
}

// sessions splits passages into runs of the same session number.
func sessions(ps []Passage) [][]Passage {
	var out [][]Passage
	for i := 0; i < len(ps); {
		j := i + 1
		for j < len(ps) && ps[j].Session == ps[i].Session {
			j++
		}
		out = append(out, ps[i:j])
		i = j
	}
	return out
}

func (b *Builder) experience(ctx context.Context, m *Memory, emb embed.Provider, sess []Passage) error {
	if emb == nil || b.Writer == nil {
		return nil
	}
	texts := make([]string, len(sess))
	for i, p := range sess {
		texts[i] = p.Text
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("embed session %d: %w", sess[0].Session, err)
	}
	units := make([]cluster.Unit, len(sess))
	for i, p := range sess {
		units[i] = cluster.Unit{ID: p.ID, Speaker: p.Speaker, Text: p.Text, Vec: vecs[i]}
	}
	w := max(b.Config.Window, 1)
	for i := 0; i < len(units); i += w {
		if err := m.Experience.Add(ctx, b.Config, b.Writer, units[i:min(i+w, len(units))]); err != nil {
			return fmt.Errorf("experience, session %d: %w", sess[0].Session, err)
		}
	}
	return nil
}

func (b *Builder) graph(ctx context.Context, m *Memory, sess []Passage, done *int, total int) error {
	var written []*kg.Relation
	for _, p := range sess {
		if err := ctx.Err(); err != nil {
			return err
		}
		if b.Progress != nil {
			b.Progress(*done, total)
		}
		*done++
		ex, err := b.Extractor.Extract(ctx, p)
		if err != nil {
			b.logf("%s: extraction failed: %v", p.ID, err)
			continue
		}
		for _, t := range ex.Triples {
			r, err := addTriple(m.Graph, t, kg.Extracted, p.Session, p.ID)
			if err != nil {
				b.logf("%s: triple %q %q %q rejected: %v", p.ID, t.Subject, t.Predicate, t.Object, err)
				continue
			}
			written = append(written, r)
		}
		for name, typ := range ex.Types {
			if e, ok := m.Graph.Lookup(name); ok && e.Type == "" {
				e.Type = typ
			}
		}
	}
	if b.Reviewer != nil {
		rv, err := b.Reviewer.Review(ctx, sess, m.Graph, written)
		if err != nil {
			b.logf("session %d: review failed: %v", sess[0].Session, err)
		} else {
			b.apply(m.Graph, rv, sess[0].Session)
		}
	}
	m.Graph.Dedup(true)
	if b.Progress != nil {
		b.Progress(*done, total)
	}
	return nil
}

// reviewRatio is the similarity at which a review's entity name resolves
// to an existing entity, the reference's difflib threshold.
const reviewRatio = 0.7

// entity returns the entity named name, creating it with origin o. A
// review's names also resolve fuzzily, as the reference's do.
func entity(g *kg.Graph, name string, o kg.Origin) (*kg.Entity, error) {
	if o == kg.Reviewed {
		if e := g.Resolve(name, reviewRatio); e != nil {
			return e, nil
		}
	}
	return g.Ensure(name, o)
}

// addTriple writes t with its entities and contains links; passage may be
// "" for a triple known only by its session.
func addTriple(g *kg.Graph, t Triple, o kg.Origin, session int, passage string) (*kg.Relation, error) {
	s, err := entity(g, t.Subject, o)
	if err != nil {
		return nil, err
	}
	obj, err := entity(g, t.Object, o)
	if err != nil {
		return nil, err
	}
	r := kg.Relation{Subject: s.ID, Predicate: t.Predicate, Object: obj.ID, Time: t.Time,
		Condition: t.Condition, Session: session, Origin: o}
	if passage != "" {
		r.Passages = []string{passage}
		g.Link(passage, s.ID)
		g.Link(passage, obj.ID)
	}
	return g.Relate(r)
}

// apply carries out a session review; bad items are logged and skipped.
func (b *Builder) apply(g *kg.Graph, rv Review, session int) {
	for _, t := range rv.Add {
		if _, err := addTriple(g, t, kg.Reviewed, session, ""); err != nil {
			b.logf("session %d: review add %q %q %q rejected: %v", session, t.Subject, t.Predicate, t.Object, err)
		}
	}
	for _, u := range rv.Update {
		r, ok := g.Relation(u.RelationID)
		if !ok {
			b.logf("session %d: review update of unknown relation %q rejected", session, u.RelationID)
			continue
		}
		if u.Predicate != "" {
			r.Predicate = u.Predicate
		}
		if u.Time != nil {
			setTime(r, *u.Time)
		}
		if u.Condition != nil {
			r.Condition = *u.Condition
		}
		r.Origin = kg.Reviewed
	}
	for _, id := range rv.Deny {
		if err := g.Remove(id); err != nil {
			b.logf("session %d: review deny rejected: %v", session, err)
		}
	}
}

func (b *Builder) merge(m *Memory) {
	speaker := map[string]bool{}
	for _, s := range m.Speakers {
		speaker[kg.Key(s)] = true
	}
	for _, s := range m.Graph.SuggestMerges() {
		keep, ok := m.Graph.Entity(s.Keep)
		if !ok || s.Kind == "short-form" && !speaker[kg.Key(keep.Name)] {
			continue
		}
		if _, err := m.Graph.MergeEntities(s.Keep, s.Drop, s.Reason); err != nil {
			b.logf("merge %s: %v", s.Reason, err)
		}
	}
}
