package cluster

import (
	"context"
	"fmt"
	"sort"

	"ctxscope/engine/memory/embed"
)

// cluster runs up to cfg.Rounds DBSCAN passes over units: each consistent
// group becomes a cluster, inconsistent groups go to the next pass, and
// what is left ends up pending.
func (l *Layer) cluster(ctx context.Context, cfg Config, w Writer, units []Unit) error {
	remaining := units
	var pending []Unit
	for round := 0; round < cfg.Rounds && len(remaining) > 0; round++ {
		vecs := make([][]float32, len(remaining))
		for i, u := range remaining {
			vecs[i] = u.Vec
		}
		groups := group(remaining, DBSCAN(vecs, cfg.Eps, cfg.MinSamples), cfg.NoiseAsGroup)
		pending = append(pending, groups.noise...)
		l.record(groups.noise, RuleNoise, "", round+1, cfg.Eps)
		var next []Unit
		for _, g := range groups.clusters {
			ok, label, err := w.Consistent(ctx, g)
			if err != nil {
				ok = true // the reference counts a failed check as consistent
			}
			if !ok {
				next = append(next, g...)
				continue
			}
			if err := l.create(ctx, w, g, label); err != nil {
				return err
			}
			l.record(g, RuleDBSCAN, l.Clusters[len(l.Clusters)-1].ID, round+1, cfg.Eps)
		}
		remaining = next
	}
	l.record(remaining, RuleInconsistent, "", cfg.Rounds, cfg.Eps)
	l.Pending = ids(append(pending, remaining...))
	return nil
}

type grouping struct {
	clusters [][]Unit
	noise    []Unit
}

func group(units []Unit, labels []int, noiseAsGroup bool) grouping {
	byLabel := map[int][]Unit{}
	var order []int
	for i, lab := range labels {
		if _, seen := byLabel[lab]; !seen {
			order = append(order, lab)
		}
		byLabel[lab] = append(byLabel[lab], units[i])
	}
	var g grouping
	for _, lab := range order {
		if lab == Noise && !noiseAsGroup {
			g.noise = byLabel[lab]
			continue
		}
		g.clusters = append(g.clusters, byLabel[lab])
	}
	return g
}

func ids(units []Unit) []string {
	out := make([]string, len(units))
	for i, u := range units {
		out[i] = u.ID
	}
	return out
}

// create makes a cluster of units: centre, theme and experience items.
func (l *Layer) create(ctx context.Context, w Writer, units []Unit, label string) error {
	l.nextID++
	c := &Cluster{ID: fmt.Sprintf("c%d", l.nextID), Members: ids(units), Label: label}
	c.Center = centre(units)
	c.CenterText = label
	if c.CenterText == "" {
		t, err := w.CenterText(ctx, units)
		if err != nil {
			return fmt.Errorf("cluster %s theme: %w", c.ID, err)
		}
		c.CenterText = t
	}
	if err := c.induce(ctx, w, units); err != nil {
		return err
	}
	l.Clusters = append(l.Clusters, c)
	return nil
}

// reinduce rebuilds every cluster whose buffer has reached cfg.Reinduce:
// new centre, new theme, experience items replaced, buffer cleared.
func (l *Layer) reinduce(ctx context.Context, cfg Config, w Writer) error {
	for _, c := range l.Clusters {
		if len(c.Buffer) < cfg.Reinduce {
			continue
		}
		units := l.units2(c.Members)
		c.Center = centre(units)
		t, err := w.CenterText(ctx, units)
		if err != nil {
			return fmt.Errorf("cluster %s theme: %w", c.ID, err)
		}
		c.CenterText = t
		if err := c.induce(ctx, w, units); err != nil {
			return err
		}
		c.Buffer = nil
	}
	return nil
}

// induce replaces the cluster's items with the writer's, keeping only
// items whose sources are members, dropping exact duplicates.
func (c *Cluster) induce(ctx context.Context, w Writer, units []Unit) error {
	items, err := w.Experiences(ctx, units)
	if err != nil {
		return fmt.Errorf("cluster %s experiences: %w", c.ID, err)
	}
	member := map[string]bool{}
	for _, id := range c.Members {
		member[id] = true
	}
	seen := map[string]bool{}
	c.Items = c.Items[:0]
	for _, it := range items {
		var src []string
		for _, s := range it.Sources {
			if member[s] {
				src = append(src, s)
			}
		}
		key := string(it.Type) + "\x00" + it.Content
		if len(src) == 0 || !it.Type.Valid() || seen[key] {
			continue
		}
		seen[key] = true
		it.Sources, it.Cluster = src, c.ID
		it.ID = fmt.Sprintf("%s.x%d", c.ID, len(c.Items)+1)
		c.Items = append(c.Items, it)
	}
	return nil
}

func centre(units []Unit) []float32 {
	vs := make([][]float32, len(units))
	for i, u := range units {
		vs[i] = u.Vec
	}
	return embed.Mean(vs)
}

// Nearest returns the ids of the n members closest to the centre.
func Nearest(units []Unit, centre []float32, n int) []string {
	s := append([]Unit(nil), units...)
	sort.SliceStable(s, func(i, j int) bool { return embed.Dot(s[i].Vec, centre) > embed.Dot(s[j].Vec, centre) })
	return ids(s[:min(n, len(s))])
}
