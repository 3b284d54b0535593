package explore

import (
	"fmt"
	"strings"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
)

// Experience is the experience layer as a viewer shows it.
type Experience struct {
	Clusters []Cluster `json:"clusters"`
	// Pending are the units no cluster took, each with why.
	Pending []Member `json:"pending"`
	// Routed is false for a layer without routing records (one imported
	// from an export): its members then carry no explanation.
	Routed bool `json:"routed"`
}

// Cluster is one cluster with its members and items.
type Cluster struct {
	ID         string   `json:"id"`
	CenterText string   `json:"centerText"`
	Label      string   `json:"label"`
	Members    []Member `json:"members"`
	Items      []Item   `json:"items"`
	// Buffered counts the members routed in since the cluster's items
	// were last written.
	Buffered int `json:"buffered"`
}

// Member is a unit of the layer and the decision that put it where it is.
type Member struct {
	Passage Passage `json:"passage"`
	Rule    string  `json:"rule,omitempty"`
	// Why explains the decision in a sentence.
	Why   string  `json:"why,omitempty"`
	Sim   float64 `json:"sim,omitempty"`
	Tries int     `json:"tries,omitempty"`
}

// ExperienceOf returns the view of m's experience layer. Thresholds are
// those of cfg (the paper's and the code's are the same: 0.8 and 0.5).
func ExperienceOf(m *memory.Memory, cfg cluster.Config) Experience {
	out := Experience{Clusters: []Cluster{}, Pending: []Member{}}
	if m.Experience == nil {
		return out
	}
	routes := m.Experience.LastRoutes()
	out.Routed = len(routes) > 0
	member := func(id string) Member {
		mb := Member{Passage: passage(m, id)}
		if r, ok := routes[id]; ok {
			mb.Rule, mb.Why, mb.Sim, mb.Tries = string(r.Rule), Explain(r, cfg), r.Sim, r.Tries
		}
		return mb
	}
	for _, c := range m.Experience.Clusters {
		v := Cluster{ID: c.ID, CenterText: c.CenterText, Label: c.Label, Buffered: len(c.Buffer), Members: []Member{}, Items: []Item{}}
		for _, id := range c.Members {
			v.Members = append(v.Members, member(id))
		}
		for _, it := range c.Items {
			v.Items = append(v.Items, item(m, it))
		}
		out.Clusters = append(out.Clusters, v)
	}
	for _, id := range m.Experience.Pending {
		out.Pending = append(out.Pending, member(id))
	}
	return out
}

// Explain says in a sentence why a routing decision went as it did.
func Explain(r cluster.Route, cfg cluster.Config) string {
	var s string
	switch r.Rule {
	case cluster.RuleDBSCAN:
		eps := r.Eps
		if eps == 0 {
			eps = cfg.Eps // a memory built before routes recorded their distance
		}
		s = fmt.Sprintf("founded %s: grouped by DBSCAN (pass %d, cosine distance ≤ %.2f) and the group passed the coherence check", r.Cluster, r.Round, eps)
	case cluster.RuleNoise:
		s = fmt.Sprintf("pending: DBSCAN pass %d found no group for it", r.Round)
	case cluster.RuleInconsistent:
		s = "pending: every DBSCAN group it was in failed the coherence check"
	case cluster.RuleHigh:
		s = fmt.Sprintf("joined %s directly: similarity %.2f to its centre ≥ %.2f", r.Cluster, r.Sim, cfg.High)
	case cluster.RuleRouter:
		s = fmt.Sprintf("joined %s: best similarity %.2f (to %s) between %.2f and %.2f, and the router chose %s among %s",
			r.Cluster, r.Sim, r.Best, cfg.Low, cfg.High, r.Cluster, strings.Join(r.Candidates, ", "))
	case cluster.RuleRouterNone:
		s = fmt.Sprintf("pending: best similarity %.2f (to %s) between %.2f and %.2f, but the router chose none of %s",
			r.Sim, r.Best, cfg.Low, cfg.High, strings.Join(r.Candidates, ", "))
	case cluster.RuleLow:
		if r.Best == "" {
			s = "pending: there was no cluster yet"
		} else {
			s = fmt.Sprintf("pending: best similarity %.2f (to %s) below %.2f", r.Sim, r.Best, cfg.Low)
		}
	default:
		s = string(r.Rule)
	}
	if r.Tries > 1 {
		s += fmt.Sprintf(" (decision %d for this turn)", r.Tries)
	}
	return s
}
