package cwl

import "ctxscope/engine/session"

// RecordedCost totals what the provider reported for each request of a
// run that really happened (usage[k] for request k, nil where it reported
// none), under the prices and the cache model of a replay's summary
// (tokens read from the cache at the cache-read price, the rest of the
// input at the cache-write price): a run recorded through the proxy under
// live eviction, set beside the replay of the same requests as the agent
// sent them.
func RecordedCost(usage []*session.Usage, o RunOptions) CostSummary {
	s := CostSummary{Requests: len(usage), PriceSource: o.PriceSource}
	c := newCostTally(&s, o)
	for k, u := range usage {
		if u == nil {
			continue
		}
		c.add(k, int64(u.Prompt()), int64(u.CacheRead), int64(u.Output))
		s.Peak = max(s.Peak, u.Prompt())
	}
	c.finish()
	return s
}
