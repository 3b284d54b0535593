package app

import (
	"context"
	"fmt"
	"os"
	"strings"

	"ctxscope/app/graphs"
	"ctxscope/engine/debug"
	"ctxscope/graphviz"
)

// ExportReplay returns a replay as a JSON or CSV document, for the
// browser to download.
func (d *Debugger) ExportReplay(ctx context.Context, key string, p debug.Params, format string) (string, error) {
	d.app.called("Debugger.ExportReplay", key, p, format)
	return d.exportReplay(ctx, key, p, format)
}

// timeline replays a session under p, exactly as given (no defaults
// filled in, unlike Replay).
func (d *Debugger) timeline(ctx context.Context, key string, p debug.Params) (*debug.Timeline, error) {
	r, err := d.replay(ctx, key, p)
	if err != nil {
		return nil, err
	}
	return r.Timeline(p)
}

func (d *Debugger) exportReplay(ctx context.Context, key string, p debug.Params, format string) (string, error) {
	t, err := d.timeline(ctx, key, p)
	if err != nil {
		return "", err
	}
	b, err := debug.Export(t, format)
	return string(b), err
}

// ExportTimelineSVG returns a replay's timeline drawn as SVG by Go, for
// the browser to download.
func (d *Debugger) ExportTimelineSVG(ctx context.Context, key string, p debug.Params) (string, error) {
	d.app.called("Debugger.ExportTimelineSVG", key, p)
	return d.timelineSVG(ctx, key, p)
}

func (d *Debugger) timelineSVG(ctx context.Context, key string, p debug.Params) (string, error) {
	t, err := d.timeline(ctx, key, p)
	if err != nil {
		return "", err
	}
	return string(debug.TimelineSVG(t, 1400, 420)), nil
}

// SaveTimelineSVG asks where to save a replay's timeline as SVG and
// writes it there.
func (d *Debugger) SaveTimelineSVG(ctx context.Context, key string, p debug.Params) (string, error) {
	d.app.called("Debugger.SaveTimelineSVG", key, p)
	doc, err := d.timelineSVG(ctx, key, p)
	if err != nil {
		return "", err
	}
	return d.save("Save the timeline", "timeline.svg", []byte(doc))
}

// SaveReplay asks the user where to save a replay as JSON or CSV (the
// desktop's save dialog) and writes it there. It returns the path, ""
// when the user cancels.
func (d *Debugger) SaveReplay(ctx context.Context, key string, p debug.Params, format string) (string, error) {
	d.app.called("Debugger.SaveReplay", key, p, format)
	doc, err := d.exportReplay(ctx, key, p, format)
	if err != nil {
		return "", err
	}
	return d.save("Save the replay", "replay."+format, []byte(doc))
}

// SaveGraph asks where to save the episode graph of request k as SVG and
// writes it there, drawn by package graphviz.
func (d *Debugger) SaveGraph(ctx context.Context, key string, p debug.Params, k int) (string, error) {
	d.app.called("Debugger.SaveGraph", key, p, k)
	r, err := d.replay(ctx, key, p)
	if err != nil {
		return "", err
	}
	st, err := r.EpisodesAt(p, k)
	if err != nil {
		return "", err
	}
	g := graphs.Episodes(st.Episodes, st.Len, st.Levels, st.Messages)
	g.Name = fmt.Sprintf("episodes at request %d", k+1)
	opt := graphviz.LayeredOptions{Ranking: graphviz.TimeOrdered, Splines: true}
	l, err := graphviz.Layered(g, opt)
	if err != nil {
		return "", err
	}
	var buf strings.Builder
	if err := graphviz.WriteSVG(&buf, g, l, graphviz.SVGOptions{Sizing: opt.Sizing}); err != nil {
		return "", err
	}
	return d.save("Save the episode graph", "episodes.svg", []byte(buf.String()))
}

func (d *Debugger) save(title, name string, data []byte) (string, error) {
	path, err := d.app.platform.SaveFileDialog(title, name)
	if err != nil || path == "" {
		return "", err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return "", err
	}
	return path, nil
}
