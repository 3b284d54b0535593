package retrieve

// budgeted assembles a context of at most cfg.Budget tokens: passages in
// fused rank (KG-linked passages ranked with the global ones), each with
// its neighbouring turns when cfg.Neighbours; then triples; then
// experiences; each added only while the whole context still fits.
func (x *Index) budgeted(q *query, cfg Config, triples []Item) (*Result, error) {
	res := &Result{Question: q.text}
	var passages, exps, trips []Item
	fits := func() bool { return x.Tokens(x.render(passages, exps, trips)) <= cfg.Budget }
	taken := map[int]bool{}
	add := func(i int, channel, via string) bool {
		if i < 0 || i >= len(x.Mem.Passages) || taken[i] {
			return true
		}
		passages = append(passages, x.passageItem(q, i, channel, via))
		if !fits() {
			passages = passages[:len(passages)-1]
			return false
		}
		taken[i] = true
		return true
	}
	share := cfg.Budget * 7 / 10
	for _, i := range top(all(len(x.Mem.Passages)), q.pass.fused, len(x.Mem.Passages)) {
		if x.Tokens(x.render(passages, nil, nil)) >= share {
			break
		}
		if !add(i, "global", "") {
			continue
		}
		if cfg.Neighbours {
			id := x.Mem.Passages[i].ID
			add(i+1, "neighbour", id)
			add(i-1, "neighbour", id)
		}
	}
	for _, t := range triples {
		trips = append(trips, t)
		if !fits() {
			trips = trips[:len(trips)-1]
			break
		}
	}
	for _, e := range x.selectExperiences(q, cfg, triples, cfg.Experiences) {
		exps = append(exps, e)
		if !fits() {
			exps = exps[:len(exps)-1]
			break
		}
	}
	res.Items = append(append(passages, exps...), trips...)
	res.Context = x.render(passages, exps, trips)
	res.Tokens = x.Tokens(res.Context)
	res.Turns = turns(res.Items)
	return res, nil
}
