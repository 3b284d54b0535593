package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"

	"ctxscope/app/graphs"
	"ctxscope/engine/cwl"
	"ctxscope/engine/debug"
	"ctxscope/graphviz"
	"ctxscope/search"
)

// previewBytes is how much of each block's text a context view carries
// the rest is fetched by Block.
const previewBytes = 160

// maxSweepBudgets bounds a sweep, so that one call stays interactive.
const maxSweepBudgets = 400

// Debugger is the bound service of the session debugger: replays of one
// thread under a policy and budget, the exact context at a request, the
// episode graph, sweeps, search hits located among requests, and exports.
// A thread is prepared once per counter and episode mode and kept until
// its session changes.
type Debugger struct {
	app *App

	mu      sync.Mutex
	replays map[string]*preparedReplay
}

// preparedReplay is a debug.Replay with the layout of its episode graphs.
type preparedReplay struct {
	*debug.Replay
	mu      sync.Mutex
	layouts map[int]*graphLayout // by context
}

type graphLayout struct {
	graph  *graphviz.Graph
	layout *graphviz.Layout
}

func newDebugger(a *App) *Debugger { return &Debugger{app: a, replays: map[string]*preparedReplay{}} }

// replay returns the prepared replay for a session key and params,
// preparing it on first use or after the session changed.
func (d *Debugger) replay(key string, p debug.Params) (*preparedReplay, error) {
	if err := validParams(p); err != nil {
		return nil, err
	}
	o, err := d.app.sessions.get(key)
	if err != nil {
		return nil, err
	}
	id := key + "@" + strconv.Itoa(o.revision) + "/" + p.Key()
	d.mu.Lock()
	r := d.replays[id]
	d.mu.Unlock()
	if r != nil {
		return r, nil
	}
	l, err := o.ledger(p.Counter)
	if err != nil {
		return nil, err
	}
	rep, err := debug.New(o.s, p, l)
	if err != nil {
		return nil, err
	}
	r = &preparedReplay{Replay: rep, layouts: map[int]*graphLayout{}}
	d.mu.Lock()
	for k := range d.replays { // drop what an older revision prepared
		if strings.HasPrefix(k, key+"@") && !strings.HasPrefix(k, key+"@"+strconv.Itoa(o.revision)+"/") {
			delete(d.replays, k)
		}
	}
	d.replays[id] = r
	d.mu.Unlock()
	return r, nil
}

// forget drops everything prepared for a session.
func (d *Debugger) forget(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for k := range d.replays {
		if strings.HasPrefix(k, key+"@") {
			delete(d.replays, k)
		}
	}
}

func validParams(p debug.Params) error {
	if p.Budget < 0 || p.Budget > 1<<30 {
		return fmt.Errorf("budget %d out of range", p.Budget)
	}
	if p.Episodes != "" && p.Episodes != string(cwl.Declared) && p.Episodes != string(cwl.Inferred) {
		return fmt.Errorf("unknown episode mode %q (want declared or inferred)", p.Episodes)
	}
	for _, pol := range cwl.Policies {
		if p.Policy == pol || p.Policy == "" {
			return nil
		}
	}
	return fmt.Errorf("unknown policy %q (want one of %s)", p.Policy, strings.Join(cwl.Policies, ", "))
}

// Policies lists the replay policies, the default first.
func (d *Debugger) Policies() []string {
	d.app.called("Debugger.Policies")
	return cwl.Policies
}

// Threads lists the threads of a session: the main thread, subagents and
// sidechains, with their requests and branches.
func (d *Debugger) Threads(key string) ([]debug.ThreadInfo, error) {
	d.app.called("Debugger.Threads", key)
	o, err := d.app.sessions.get(key)
	if err != nil {
		return nil, err
	}
	return debug.Threads(o.s), nil
}

// Replay replays a thread of a session under p's policy and budget. A
// budget of 0 asks for the default (debug.DefaultBudget), and episodes ""
// for declared episodes when the thread has any, else inferred ones; the
// timeline says which were used.
func (d *Debugger) Replay(key string, p debug.Params) (*debug.Timeline, error) {
	d.app.called("Debugger.Replay", key, p)
	auto := p.Episodes == ""
	if auto {
		p.Episodes = string(cwl.Declared)
	}
	r, err := d.replay(key, p)
	if err != nil {
		return nil, err
	}
	if p.Budget == 0 || auto {
		probe := p
		probe.Policy, probe.Budget = cwl.PolicyNone, 1
		t, err := r.Timeline(probe)
		if err != nil {
			return nil, err
		}
		if auto && t.EpisodeCount == 0 {
			p.Episodes = string(cwl.Inferred)
			if r, err = d.replay(key, p); err != nil {
				return nil, err
			}
		}
		if p.Budget == 0 {
			p.Budget = debug.DefaultBudget(t.Before)
		}
	}
	return r.Timeline(p)
}

// Context returns the exact input of request k under p, with every
// missing part attributed, breakdowns and the diff from request k−1.
func (d *Debugger) Context(key string, p debug.Params, k int) (*debug.Context, error) {
	d.app.called("Debugger.Context", key, p, k)
	r, err := d.replay(key, p)
	if err != nil {
		return nil, err
	}
	return r.Context(p, k, previewBytes)
}

// Block returns the whole text of block b of message i of request k's
// context, for blocks a context view shows cut.
func (d *Debugger) Block(key string, p debug.Params, k, i, b int) (string, error) {
	d.app.called("Debugger.Block", key, p, k, i, b)
	r, err := d.replay(key, p)
	if err != nil {
		return "", err
	}
	return r.BlockText(k, i, b)
}

// Sweep replays each policy at every budget from `from` to `to` in steps
// of step (at most 400 budgets).
func (d *Debugger) Sweep(key string, p debug.Params, policies []string, from, to, step int) ([]cwl.Curve, error) {
	d.app.called("Debugger.Sweep", key, p, policies, from, to, step)
	if step <= 0 || to < from || (to-from)/step+1 > maxSweepBudgets {
		return nil, fmt.Errorf("a sweep takes at most %d budgets with a positive step", maxSweepBudgets)
	}
	for _, pol := range policies {
		if err := validParams(debug.Params{Policy: pol}); err != nil || pol == "" {
			return nil, fmt.Errorf("unknown policy %q", pol)
		}
	}
	r, err := d.replay(key, p)
	if err != nil {
		return nil, err
	}
	return r.Sweep(policies, from, to, step)
}

// Graph returns the episode DAG of request k's context, laid out once per
// context so that it keeps its place while the request changes, with each
// episode's state at request k.
func (d *Debugger) Graph(key string, p debug.Params, k int) (*graphs.Drawing, error) {
	d.app.called("Debugger.Graph", key, p, k)
	r, err := d.replay(key, p)
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

// Hit is a search hit with where it lands in the debugger.
type Hit struct {
	search.Hit
	// ThreadIndex and EntryIndex locate the hit's entry; -1 when the hit
	// is not an entry of a session.
	ThreadIndex int `json:"threadIndex"`
	EntryIndex  int `json:"entryIndex"`
	// Request and Message are where the entry shows (see
	// debug.Location), filled for hits in the session searched; Request
	// is -1 otherwise.
	Request int `json:"request"`
	Message int `json:"message"`
}

// Hits is one page of search results.
type Hits struct {
	Total uint64 `json:"total"`
	Hits  []Hit  `json:"hits"`
}

// Search runs a plain-words search over the workspace, or over one
// session when key is not empty, and locates the hits of that session
// among its requests.
func (d *Debugger) Search(query, key string, size int) (*Hits, error) {
	d.app.called("Debugger.Search", query, key, size)
	if strings.TrimSpace(query) == "" {
		return &Hits{Hits: []Hit{}}, nil
	}
	res, err := d.app.ws.Search(context.Background(), search.Request{Query: query, Mode: search.ModePlain, Session: key, Size: max(1, min(size, 200))})
	if err != nil {
		return nil, err
	}
	out := &Hits{Total: res.Total, Hits: make([]Hit, 0, len(res.Hits))}
	locators := map[int]*debug.Locator{}
	var o *openSession
	if key != "" {
		if o, err = d.app.sessions.get(key); err != nil {
			return nil, err
		}
	}
	for _, h := range res.Hits {
		hit := Hit{Hit: h, Request: -1, Message: -1}
		hit.ThreadIndex, hit.EntryIndex = entryOf(h.ID)
		if o != nil && h.Session == key && hit.ThreadIndex >= 0 && hit.ThreadIndex < len(o.s.Threads) {
			loc := locators[hit.ThreadIndex]
			if loc == nil {
				loc = debug.NewLocator(o.s.Threads[hit.ThreadIndex], nil)
				locators[hit.ThreadIndex] = loc
			}
			if l, ok := loc.Locate(hit.EntryIndex); ok {
				hit.Request, hit.Message = l.Request, l.Message
			}
		}
		out.Hits = append(out.Hits, hit)
	}
	return out, nil
}

// Locate returns where entry number entry of thread thread of a session
// shows among the thread's requests.
func (d *Debugger) Locate(key string, thread, entry int) (debug.Location, error) {
	d.app.called("Debugger.Locate", key, thread, entry)
	o, err := d.app.sessions.get(key)
	if err != nil {
		return debug.Location{}, err
	}
	if thread < 0 || thread >= len(o.s.Threads) {
		return debug.Location{}, fmt.Errorf("no thread %d", thread)
	}
	l, ok := debug.NewLocator(o.s.Threads[thread], nil).Locate(entry)
	if !ok {
		return debug.Location{}, errors.New("no request shows this entry")
	}
	return l, nil
}

// entryOf reads the thread and entry numbers of a session document id,
// "key#thread/entry/block"; -1, -1 for other documents.
func entryOf(id string) (thread, entry int) {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return -1, -1
	}
	parts := strings.Split(id[i+1:], "/")
	if len(parts) != 3 {
		return -1, -1
	}
	t, err1 := strconv.Atoi(parts[0])
	e, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return -1, -1
	}
	return t, e
}

// ExportReplay returns a replay as a JSON or CSV document, for the
// browser to download.
func (d *Debugger) ExportReplay(key string, p debug.Params, format string) (string, error) {
	d.app.called("Debugger.ExportReplay", key, p, format)
	return d.exportReplay(key, p, format)
}

func (d *Debugger) exportReplay(key string, p debug.Params, format string) (string, error) {
	r, err := d.replay(key, p)
	if err != nil {
		return "", err
	}
	t, err := r.Timeline(p)
	if err != nil {
		return "", err
	}
	b, err := debug.Export(t, format)
	return string(b), err
}

// ExportTimelineSVG returns a replay's timeline drawn as SVG by Go, for
// the browser to download.
func (d *Debugger) ExportTimelineSVG(key string, p debug.Params) (string, error) {
	d.app.called("Debugger.ExportTimelineSVG", key, p)
	return d.timelineSVG(key, p)
}

func (d *Debugger) timelineSVG(key string, p debug.Params) (string, error) {
	r, err := d.replay(key, p)
	if err != nil {
		return "", err
	}
	t, err := r.Timeline(p)
	if err != nil {
		return "", err
	}
	return string(debug.TimelineSVG(t, 1400, 420)), nil
}

// SaveTimelineSVG asks where to save a replay's timeline as SVG and
// writes it there.
func (d *Debugger) SaveTimelineSVG(key string, p debug.Params) (string, error) {
	d.app.called("Debugger.SaveTimelineSVG", key, p)
	doc, err := d.timelineSVG(key, p)
	if err != nil {
		return "", err
	}
	return d.save("Save the timeline", "timeline.svg", []byte(doc))
}

// SaveReplay asks the user where to save a replay as JSON or CSV (the
// desktop's save dialog) and writes it there. It returns the path, ""
// when the user cancels.
func (d *Debugger) SaveReplay(key string, p debug.Params, format string) (string, error) {
	d.app.called("Debugger.SaveReplay", key, p, format)
	doc, err := d.exportReplay(key, p, format)
	if err != nil {
		return "", err
	}
	return d.save("Save the replay", "replay."+format, []byte(doc))
}

// SaveGraph asks where to save the episode graph of request k as SVG and
// writes it there, drawn by package graphviz.
func (d *Debugger) SaveGraph(key string, p debug.Params, k int) (string, error) {
	d.app.called("Debugger.SaveGraph", key, p, k)
	r, err := d.replay(key, p)
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
