package debug

import (
	"slices"

	"ctxscope/engine/cwl"
	"ctxscope/engine/session"
)

// BlockKey names one block of a thread: its entry and its index in the
// entry's message.
type BlockKey struct {
	Entry *session.Entry
	Block int
}

// BlockLife is what one replay did to one block of the thread.
type BlockLife struct {
	// Entered is the first request whose input holds the block.
	Entered int `json:"entered"`
	// Evicted is the request at which eviction removed it, and Level the
	// level that did; -1 and 0 when it stayed (or came back: pi-cwl can
	// restore an episode).
	Evicted int `json:"evicted"`
	Level   int `json:"level"`
	// Episode names the episode the block belongs to in the last request
	// of its context; "" for the prologue and messages outside every
	// episode.
	Episode string `json:"episode,omitempty"`
}

// LookBack is a request whose response makes a call again (reads a file,
// runs a search or an inspecting command) after eviction removed the
// earlier call or its result from the input.
type LookBack struct {
	Request int `json:"request"`
	// Kind is read, search or run; Path is the path read, the pattern
	// searched or the command run.
	Kind string `json:"kind"`
	Path string `json:"path"`
	// Call is the earlier call, Result its result (Entry nil when
	// the thread holds none).
	Call   BlockKey `json:"-"`
	Result BlockKey `json:"-"`
	// Recent are the last user turn of the request's input and its last
	// few assistant messages (see recentContext): what the agent had just
	// said and done, and what it was told, when it went back.
	Recent []*session.Entry `json:"-"`
}

// Lifecycle is when every block of a thread entered the input and left
// it under one replay, and the look-backs the replay caused.
type Lifecycle struct {
	Policy    string                 `json:"policy"`
	Budget    int                    `json:"budget"`
	Requests  int                    `json:"requests"`
	Blocks    map[BlockKey]BlockLife `json:"-"`
	LookBacks []LookBack             `json:"lookBacks"`
}

// Gone reports whether eviction had removed block key from the input of
// request k.
func (l *Lifecycle) Gone(key BlockKey, k int) bool {
	b, ok := l.Blocks[key]
	return ok && b.Evicted >= 0 && b.Evicted <= k
}

// Lifecycle replays the thread under p's policy and budget with the
// detail of every eviction, and follows each block through it.
func (r *Replay) Lifecycle(p Params) (*Lifecycle, error) {
	t, reReads, err := r.runDetailed(p)
	if err != nil {
		return nil, err
	}
	l := &Lifecycle{Policy: t.Policy, Budget: t.Budget, Requests: len(t.Requests), Blocks: map[BlockKey]BlockLife{}}
	entryOf := map[*session.Message]*session.Entry{}
	for _, e := range r.Thread.Entries {
		if e.Message != nil {
			entryOf[e.Message] = e
		}
	}
	at := func(k, i int) *session.Entry { return entryOf[r.rep.Message(k, i)] }
	results := toolResults(r.Thread)
	seen := map[int]int{}   // context -> messages already entered
	lastOf := map[int]int{} // context -> its last request
	for k := range t.Requests {
		pt := &t.Requests[k]
		lastOf[pt.Context] = k
		l.enter(k, seen[pt.Context], pt.Messages, at)
		seen[pt.Context] = max(seen[pt.Context], pt.Messages)
		l.evictAll(k, pt.Evictions, at)
		for _, rs := range pt.Restored {
			ep := r.rep.EpisodesOf(k).List[rs.Episode]
			l.eachBlock(k, ep.Start, min(ep.End+1, pt.Messages), at, func(key BlockKey) { l.restore(key, rs.Level) })
		}
		for _, rr := range reReads[k] {
			if lb, ok := r.lookBack(l, k, at(k, rr.Message), rr, results); ok {
				l.LookBacks = append(l.LookBacks, lb)
			}
		}
	}
	for _, k := range lastOf {
		l.nameEpisodes(k, t.Requests[k].Messages, r.rep.EpisodesOf(k), at)
	}
	return l, nil
}

// runDetailed runs the replay under p with the detail of every eviction,
// and the re-reads of each request that looks back.
func (r *Replay) runDetailed(p Params) (*cwl.Timeline, [][]cwl.ReRead, error) {
	o := r.runOptions(p)
	o.Detail = true
	r.mu.Lock()
	defer r.mu.Unlock()
	t, err := r.rep.Run(o)
	if err != nil { // a failed run has no timeline
		return nil, nil, err
	}
	reReads := make([][]cwl.ReRead, len(t.Requests))
	for k, pt := range t.Requests {
		if pt.LookBack > 0 {
			reReads[k] = r.rep.ReReads(k)
		}
	}
	return t, reReads, nil
}

// eachBlock calls fn with every block of messages from to to-1 of
// request k's context.
func (l *Lifecycle) eachBlock(k, from, to int, at func(k, i int) *session.Entry, fn func(BlockKey)) {
	for i := from; i < to; i++ {
		if e := at(k, i); e != nil {
			for b := range e.Message.Blocks {
				fn(BlockKey{e, b})
			}
		}
	}
}

// enter records that the blocks of messages from to to-1 entered the
// context at request k, unless they had before.
func (l *Lifecycle) enter(k, from, to int, at func(k, i int) *session.Entry) {
	l.eachBlock(k, from, to, at, func(key BlockKey) {
		if _, ok := l.Blocks[key]; !ok {
			l.Blocks[key] = BlockLife{Entered: k, Evicted: -1}
		}
	})
}

// evictAll records request k's evictions: of whole messages, and of
// single blocks.
func (l *Lifecycle) evictAll(k int, evs []cwl.Eviction, at func(k, i int) *session.Entry) {
	for _, ev := range evs {
		for _, i := range ev.Messages {
			l.eachBlock(k, i, i+1, at, func(key BlockKey) { l.evict(key, k, ev.Level) })
		}
		for _, ib := range ev.Blocks {
			if e := at(k, ib[0]); e != nil {
				l.evict(BlockKey{e, ib[1]}, k, ev.Level)
			}
		}
	}
}

// nameEpisodes records, for the blocks of the first n messages of request
// k's context, the episode of eps they belong to.
func (l *Lifecycle) nameEpisodes(k, n int, eps *cwl.Episodes, at func(k, i int) *session.Entry) {
	if eps == nil {
		return
	}
	for _, ep := range eps.List {
		for i := ep.Start; i <= ep.End && i < n; i++ {
			e := at(k, i)
			if e == nil {
				continue
			}
			for b := range e.Message.Blocks {
				if bl, ok := l.Blocks[BlockKey{e, b}]; ok {
					bl.Episode = ep.Name
					l.Blocks[BlockKey{e, b}] = bl
				}
			}
		}
	}
}

func (l *Lifecycle) evict(key BlockKey, k, level int) {
	b := l.Blocks[key]
	if b.Evicted < 0 || b.Evicted > k {
		b.Evicted, b.Level = k, level
		l.Blocks[key] = b
	}
}

// restore brings a block back when its episode's level drops below the
// level that removed it.
func (l *Lifecycle) restore(key BlockKey, level int) {
	if b, ok := l.Blocks[key]; ok && b.Evicted >= 0 && b.Level > level {
		b.Evicted, b.Level = -1, 0
		l.Blocks[key] = b
	}
}

// lookBack makes the look-back of request k making again the call block
// of entry call, if eviction had removed that call or its result; results
// are the thread's tool results by call id.
func (r *Replay) lookBack(l *Lifecycle, k int, call *session.Entry, rr cwl.ReRead, results map[string]BlockKey) (LookBack, bool) {
	if call == nil || rr.Block >= len(call.Message.Blocks) {
		return LookBack{}, false
	}
	lb := LookBack{Request: k, Kind: rr.Kind, Path: rr.Path, Call: BlockKey{call, rr.Block}}
	if id := call.Message.Blocks[rr.Block].ToolCallID; id != "" {
		lb.Result = results[id]
	}
	if !l.Gone(lb.Call, k) && (lb.Result.Entry == nil || !l.Gone(lb.Result, k)) {
		return LookBack{}, false
	}
	lb.Recent = recentContext(r.reqs[k].InputEntries())
	return lb, true
}

// recentAssistants is how many of the input's last assistant messages a
// look-back's context holds: the calls the agent had just made.
const recentAssistants = 4

// recentContext is what the agent had just said and done when it made a
// request with input in, and what it was told: the last user turn, and
// the last recentAssistants assistant messages (before or after that
// turn), in their order.
func recentContext(in []*session.Entry) []*session.Entry {
	var out []*session.Entry
	assistants, user := 0, false
	for i := len(in) - 1; i >= 0 && (!user || assistants < recentAssistants); i-- {
		e := in[i]
		if e == nil || e.Message == nil {
			continue
		}
		switch m := e.Message; {
		case !user && m.IsUser() && len(m.ToolResults()) < len(m.Blocks):
			user = true
		case m.Role == session.RoleAssistant && assistants < recentAssistants:
			assistants++
		default:
			continue
		}
		out = append(out, e)
	}
	slices.Reverse(out)
	return out
}

// toolResults indexes the thread's tool results by the id of the call
// they answer; the first result of an id wins.
func toolResults(t *session.Thread) map[string]BlockKey {
	out := map[string]BlockKey{}
	for _, e := range t.Entries {
		if e.Message == nil {
			continue
		}
		for b, bl := range e.Message.Blocks {
			if _, seen := out[bl.ToolCallID]; bl.Type == session.BlockToolResult && bl.ToolCallID != "" && !seen {
				out[bl.ToolCallID] = BlockKey{e, b}
			}
		}
	}
	return out
}

// HasEpisodes reports whether the thread, as prepared, has any declared
// or inferred episode.
func (r *Replay) HasEpisodes() bool { return r.rep.HasEpisodes() }
