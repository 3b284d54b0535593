package cluster

// Rule names why a unit went where it went.
type Rule string

// Routing rules, as the reference's write path applies them.
const (
	// RuleDBSCAN: the unit was in a DBSCAN group that the coherence check
	// accepted, and founded (or co-founded) the cluster.
	RuleDBSCAN Rule = "dbscan"
	// RuleNoise: DBSCAN left the unit without a group; it waits in pending.
	RuleNoise Rule = "noise"
	// RuleInconsistent: every DBSCAN pass put the unit in a group that the
	// coherence check rejected; it waits in pending.
	RuleInconsistent Rule = "inconsistent"
	// RuleHigh: its similarity to the nearest cluster reached the high
	// threshold (0.8): it joined that cluster directly.
	RuleHigh Rule = "high"
	// RuleRouter: its best similarity was between the thresholds and the
	// router chose one of the shortlisted clusters.
	RuleRouter Rule = "router"
	// RuleRouterNone: between the thresholds, but the router chose none;
	// it waits in pending.
	RuleRouterNone Rule = "router-none"
	// RuleLow: no cluster reached the low threshold (0.5); it waits in
	// pending.
	RuleLow Rule = "low"
)

// Route is one routing decision about a unit.
type Route struct {
	Unit string `json:"unit"`
	Rule Rule   `json:"rule"`
	// Cluster is where the unit went; "" when it went to pending.
	Cluster string `json:"cluster,omitempty"`
	// Best and Sim are the nearest cluster and the cosine to its centre,
	// for incremental routing.
	Best string  `json:"best,omitempty"`
	Sim  float64 `json:"sim,omitempty"`
	// Candidates are the clusters shown to the router.
	Candidates []string `json:"candidates,omitempty"`
	// Round is the DBSCAN pass, from 1, for clustering decisions, and
	// Eps the cosine distance that pass grouped within.
	Round int     `json:"round,omitempty"`
	Eps   float64 `json:"eps,omitempty"`
	// Tries counts the decisions made about the unit, this one included.
	Tries int `json:"tries"`
}

// record notes a clustering decision for each unit.
func (l *Layer) record(units []Unit, rule Rule, cluster string, round int, eps float64) {
	for _, u := range units {
		l.note(Route{Unit: u.ID, Rule: rule, Cluster: cluster, Round: round, Eps: eps})
	}
}

// note makes r the latest decision about its unit.
func (l *Layer) note(r Route) {
	if l.routeAt == nil || len(l.routeAt) != len(l.Routes) {
		l.routeAt = make(map[string]int, len(l.Routes))
		for i, x := range l.Routes {
			l.routeAt[x.Unit] = i
		}
	}
	if i, ok := l.routeAt[r.Unit]; ok {
		r.Tries = l.Routes[i].Tries + 1
		l.Routes[i] = r
		return
	}
	r.Tries = 1
	l.routeAt[r.Unit] = len(l.Routes)
	l.Routes = append(l.Routes, r)
}

// LastRoutes returns the latest decision about each unit, by unit id.
func (l *Layer) LastRoutes() map[string]Route {
	out := make(map[string]Route, len(l.Routes))
	for _, r := range l.Routes {
		out[r.Unit] = r
	}
	return out
}
