package cwl

// ReplaySummary condenses a timeline into the figures a person (or a
// golden test) checks first.
type ReplaySummary struct {
	Policy      string         `json:"policy"`
	Episodes    EpisodeMode    `json:"episodes"`
	Budget      int            `json:"budget"`
	Counter     string         `json:"counter"`
	Requests    int            `json:"requests"`
	EpisodeKind map[string]int `json:"episodeKinds"` // units by kind, over every context
	// Evictions counts evictions by paper level ("1".."4").
	Evictions   map[string]int `json:"evictionsByLevel"`
	Restored    int            `json:"restored"`
	Unreachable int            `json:"unreachable"`
	InputBefore int64          `json:"inputBefore"` // Σ uncapped input tokens
	InputAfter  int64          `json:"inputAfter"`  // Σ input tokens under the policy
	PeakBefore  int            `json:"peakBefore"`
	PeakAfter   int            `json:"peakAfter"`
	CachedRatio float64        `json:"cachedRatio"`
	Cost        float64        `json:"cost"`
	LookBack    int            `json:"lookBack"`
}

// Summary condenses t; r supplies the episode counts.
func (r *Replayer) Summary(t *Timeline) ReplaySummary {
	s := ReplaySummary{Policy: t.Policy, Episodes: t.Episodes, Budget: t.Budget, Counter: t.Counter, Requests: len(t.Requests),
		EpisodeKind: map[string]int{}, Evictions: map[string]int{}, CachedRatio: t.Cost.CachedRatio, Cost: t.Cost.Cost,
		LookBack: t.Cost.LookBack, Unreachable: t.Cost.Unreachable}
	for _, c := range r.ctxs {
		for _, e := range c.eps.List {
			s.EpisodeKind[e.Kind]++
		}
	}
	for _, p := range t.Requests {
		s.InputBefore += int64(p.Before)
		s.InputAfter += int64(p.After)
		s.PeakBefore = max(s.PeakBefore, p.Before)
		s.PeakAfter = max(s.PeakAfter, p.After)
		s.Restored += len(p.Restored)
		for _, e := range p.Evictions {
			s.Evictions[LevelKey(e.Level)]++
		}
	}
	return s
}

// LevelKey is the map key of a level: "1" to "4".
func LevelKey(level int) string { return string(rune('0' + level)) }
