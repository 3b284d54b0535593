package cli

import (
	"fmt"
	"io"

	"ctxscope/app/graphs"
	"ctxscope/graphviz"
)

// runMemoryGraph draws a memory's knowledge graph, or the ego graph of one
// entity, laid out with the force layout.
func runMemoryGraph(env *Env, args []string) error {
	fs := newFlags("memory graph", env.Stderr)
	mf := addMemoryFlags(fs)
	format := fs.String("format", "dot", "output format: dot (positions pinned: draw with neato -n2) or svg")
	entity := fs.String("entity", "", "draw only this entity's neighbourhood (name or alias)")
	hops := fs.Int("hops", 1, "with --entity, how many hops out")
	limit := fs.Int("limit", 0, "with --entity, at most this many nodes (0: all)")
	seed := fs.Uint64("seed", 1, "layout seed: the same seed gives the same picture")
	out := fs.String("o", "", "write to this file instead of standard output")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("unexpected argument %q", pos[0])
	}
	if *format != "dot" && *format != "svg" {
		return usageError("unknown format %q (want dot or svg)", *format)
	}
	if *hops < 0 || *limit < 0 {
		return usageError("--hops and --limit must not be negative")
	}
	m, err := mf.load(env)
	if err != nil {
		return err
	}
	g := graphs.Knowledge(m)
	opt := graphviz.ForceOptions{Seed: *seed}
	if *entity != "" {
		e, ok := m.Graph.Lookup(*entity)
		if !ok {
			return fmt.Errorf("%s has no entity named %q", m.ID, *entity)
		}
		x, err := graphviz.NewEgoIndex(g)
		if err != nil {
			return err
		}
		if g, err = x.Ego(e.ID, *hops, *limit); err != nil {
			return err
		}
		opt.Center = e.ID
	}
	l, err := graphviz.Force(g, opt)
	if err != nil {
		return err
	}
	return writeOutput(env.Stdout, *out, func(w io.Writer) error {
		if *format == "svg" {
			return graphviz.WriteSVG(w, g, l, graphviz.SVGOptions{})
		}
		return graphviz.WriteDOT(w, g, graphviz.DOTOptions{Layout: l})
	})
}
