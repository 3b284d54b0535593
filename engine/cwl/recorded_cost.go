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
	noPrice, priced := map[string]bool{}, map[string]bool{}
	var cost, uncached float64
	for k, u := range usage {
		if u == nil {
			continue
		}
		in, cr, out := int64(u.Prompt()), int64(u.CacheRead), int64(u.Output)
		s.Input += in
		s.CacheRead += cr
		s.CacheWrite += in - cr
		s.Output += out
		s.Peak = max(s.Peak, int(in))
		p, ok := o.priceOf(k)
		if !ok {
			noPrice[o.modelOf(k)] = true
			continue
		}
		priced[o.modelOf(k)] = true
		s.Priced++
		cost += float64(cr)*p.CacheRead + float64(in-cr)*p.CacheWrite + float64(out)*p.Output
		uncached += float64(in)*p.Input + float64(out)*p.Output
	}
	if s.Input > 0 {
		s.CachedRatio = round6(float64(s.CacheRead) / float64(s.Input))
	}
	s.Cost, s.CostUncached = round6(cost/1e6), round6(uncached/1e6)
	s.NoPrice, s.Models = sortedKeys(noPrice), sortedKeys(priced)
	return s
}
