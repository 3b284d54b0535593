package app

import (
	"context"

	"ctxscope/app/graphs"
	"ctxscope/engine/debug"
	"ctxscope/graphviz"
)

// Graph returns the episode DAG of request k's context, laid out once per
// context so that it keeps its place while the request changes, with each
// episode's state at request k.
func (d *Debugger) Graph(ctx context.Context, key string, p debug.Params, k int) (*graphs.Drawing, error) {
	d.app.called("Debugger.Graph", key, p, k)
	ctx, done := d.app.latest.begin(ctx, "Debugger.Graph")
	defer done()
	r, err := d.replay(ctx, key, p)
	if err != nil {
		return nil, err
	}
	st, err := r.EpisodesAt(p, k)
	if err != nil {
		return nil, err
	}
	gl, err := r.layout(st)
	if err != nil {
		return nil, err
	}
	at := graphs.Episodes(st.Episodes, st.Len, st.Levels, st.Messages)
	return graphs.Draw(gl.graph, gl.layout, at), nil
}

// layout returns the layout of the whole episode graph of a context.
func (r *preparedReplay) layout(st *debug.EpisodeState) (*graphLayout, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if gl, ok := r.layouts[st.Context]; ok {
		return gl, nil
	}
	g := graphs.Episodes(st.Episodes, len(st.Messages), nil, st.Messages)
	l, err := graphviz.Layered(g, graphviz.LayeredOptions{Ranking: graphviz.TimeOrdered, Splines: true})
	if err != nil {
		return nil, err
	}
	gl := &graphLayout{graph: g, layout: l}
	r.layouts[st.Context] = gl
	return gl, nil
}
