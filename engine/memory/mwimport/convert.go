package mwimport

import (
	"fmt"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/kg"
	"ctxscope/engine/memory/locomo"
)

// ids maps the export's ids to the memory's passage ids.
type ids struct {
	byNode map[string]string // passage node id -> passage id
	byQA   map[string]string // qa_id -> passage id
}

func (x ids) qa(id string) string {
	if p, ok := x.byQA[id]; ok {
		return p
	}
	return id
}

func convert(kf *kgFile, cf *clustersFile, turns []memory.Passage) (*memory.Memory, *Report, error) {
	m := &memory.Memory{Source: "imported", Graph: kg.New(), Experience: cluster.NewLayer()}
	rep := &Report{ExperienceByType: map[string]int{}}
	x := ids{byNode: map[string]string{}, byQA: map[string]string{}}
	entity := map[string]bool{}
	ti := 0
	for _, n := range kf.Entities {
		switch n.Metadata.NodeType {
		case "passage":
			rep.Passages++
			p := passage(n)
			if ti < len(turns) && turns[ti].Text == n.Name {
				p.ID, p.Session = turns[ti].ID, turns[ti].Session
				rep.Aligned++
			}
			ti++
			x.byNode[n.ID], x.byQA[n.Metadata.QAID] = p.ID, p.ID
			m.Passages = append(m.Passages, p)
		case "entity":
			o := kg.Imported
			if _, err := m.Graph.Add(kg.Entity{ID: n.ID, Name: n.Name, Aliases: n.Metadata.Aliases, Origin: o}); err != nil {
				rep.Skipped = append(rep.Skipped, fmt.Sprintf("entity %s: %v", n.ID, err))
				continue
			}
			entity[n.ID] = true
			rep.Entities++
		default:
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("node %s: unknown node_type %q", n.ID, n.Metadata.NodeType))
		}
	}
	speakers := map[string]bool{}
	for _, p := range m.Passages {
		if !speakers[p.Speaker] {
			speakers[p.Speaker] = true
			m.Speakers = append(m.Speakers, p.Speaker)
		}
	}
	passageText := map[string]string{}
	for _, n := range kf.Entities {
		if n.Metadata.NodeType == "passage" {
			passageText[n.ID] = n.Name
		}
	}
	relations(m.Graph, kf.Relations, entity, passageText, x, rep)
	experiences(m.Experience, cf, x, rep)
	return m, rep, nil
}

// passage converts a passage node. Before any alignment with LoCoMo, a
// passage whose id is a dialogue id ("D3:5") is in that session (3).
func passage(n node) memory.Passage {
	p := memory.Passage{ID: n.Metadata.QAID, Speaker: n.Metadata.Speaker, Text: n.Name, Stamp: n.Metadata.Timestamp}
	if p.ID == "" {
		p.ID = n.ID
	}
	var s, t int
	if _, err := fmt.Sscanf(p.ID, "D%d:%d", &s, &t); err == nil && s > 0 {
		p.Session = s
	}
	p.Time, _ = locomo.ParseStamp(n.Metadata.Timestamp) // an unknown stamp leaves the time zero
	return p
}

func relations(g *kg.Graph, rs []relation, entity map[string]bool, passageText map[string]string, x ids, rep *Report) {
	for _, r := range rs {
		if p, ok := x.byNode[r.Source]; ok && r.Type == "contains" && entity[r.Target] {
			g.Link(p, r.Target)
			rep.Contains++
			continue
		}
		// The reference's review resolves names fuzzily over every node,
		// passages included, so a few semantic relations end at a passage
		// node; it becomes an entity named by the passage text.
		for _, end := range []string{r.Source, r.Target} {
			if text, ok := passageText[end]; ok && !entity[end] && r.Type != "contains" {
				if _, err := g.Add(kg.Entity{ID: end, Name: text, Origin: kg.Imported}); err == nil {
					entity[end] = true
					rep.PassageEndpoints++
				}
			}
		}
		if !entity[r.Source] || !entity[r.Target] {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("relation %s: endpoints are not entities", r.ID))
			continue
		}
		rel := kg.Relation{ID: r.ID, Subject: r.Source, Predicate: r.Type, Object: r.Target,
			Condition: r.Metadata.Condition, Session: r.Metadata.SessionID, Origin: kg.Imported}
		if r.Metadata.PassageID != "" {
			if p, ok := x.byNode[r.Metadata.PassageID]; ok {
				rel.Passages = []string{p}
			}
		}
		memory.SetTime(&rel, r.Metadata.Time)
		if _, err := g.Relate(rel); err != nil {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("relation %s: %v", r.ID, err))
			continue
		}
		rep.Semantic++
		if r.Type != "contains" && r.Type != "about" {
			rep.Indexed++
			if r.Metadata.Source == "session_review" {
				rep.FromReview++
			}
		}
	}
}

func experiences(l *cluster.Layer, cf *clustersFile, x ids, rep *Report) {
	for _, c := range cf.Clusters {
		out := &cluster.Cluster{ID: c.ID, CenterText: c.CenterText, Label: c.Metadata.Consistency.Label}
		for _, q := range c.QAList {
			out.Members = append(out.Members, x.qa(q.ID))
		}
		for _, id := range c.AddBuffer {
			out.Buffer = append(out.Buffer, x.qa(id))
		}
		for _, e := range c.ExpList {
			it := cluster.Experience{ID: e.ID, Type: cluster.Type(e.Type), Content: e.Content, Cluster: c.ID}
			for _, s := range e.SourceQAs {
				it.Sources = append(it.Sources, x.qa(s))
			}
			if !it.Type.Valid() {
				rep.Skipped = append(rep.Skipped, fmt.Sprintf("experience %s: unknown type %q", e.ID, e.Type))
				continue
			}
			out.Items = append(out.Items, it)
			rep.ExperienceByType[e.Type]++
		}
		rep.Clusters++
		rep.Clustered += len(out.Members)
		rep.Experiences += len(out.Items)
		l.Clusters = append(l.Clusters, out)
	}
}
