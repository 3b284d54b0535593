package cwl

import (
	"fmt"
	"regexp"
	"strings"

	"ctxscope/engine/session"
)

// InferEpisodes segments a context without delimiter calls into episodes
// from its tool use, so that what-if CWL works on any session. Every
// episode it makes is marked Inferred.
//
// The rules:
//   - The prologue is everything before the first assistant message.
//   - Each user turn starts a new task and closes the current episode.
//   - An assistant message that edits a file is action work; one that
//     searches or reads is exploration, as is one that runs a command that
//     only inspects (cat, ls, grep…: see inspects); one that only runs
//     other commands (or only plans) continues the current episode, or
//     starts an exploration when there is none. Text-only messages join
//     the episode that follows them in the same task, else the current
//     one, else stay unannotated.
//   - A change of kind starts a new episode; tool results and injected
//     messages belong to the episode of the call before them.
//   - An act episode depends on the earlier expl episodes that read a path
//     it edits; failing that, on the expl episodes before it in its task.
func InferEpisodes(p *Plan) *Episodes {
	in := inferrer{p: p, eps: &Episodes{Mode: Inferred, Prologue: len(p.Msgs)}, cur: -1, pending: -1}
	for i := range p.Msgs {
		in.step(i)
	}
	in.flushPending(len(p.Msgs)-1, -1)
	for k := range in.eps.List {
		in.describe(k)
	}
	nameInferred(p, in.eps)
	in.link()
	return in.eps
}

type inferrer struct {
	p       *Plan
	eps     *Episodes
	cur     int // the episode being extended, -1 for none
	pending int // first text-only message waiting for an episode, -1 for none
	task    int
	counts  map[string]int
	reads   []map[string]bool // per episode: paths read or searched
	edits   []map[string]bool // per episode: paths edited
	tasks   []int
}

func (in *inferrer) step(i int) {
	p := in.p
	switch p.mKind[i] {
	case msgUser, msgSystem:
		in.flushPending(i-1, i)
		in.close(i)
		in.task++
		return
	case msgAssistant:
		if in.eps.Prologue == len(p.Msgs) {
			in.eps.Prologue = i
		}
		kind := in.kindOf(i)
		switch {
		case kind == "" && in.cur < 0:
			if in.pending < 0 {
				in.pending = i
			}
			return
		case kind == "":
			kind = in.eps.List[in.cur].Kind
		case kind == "shell":
			kind = KindExpl
			if in.cur >= 0 {
				kind = in.eps.List[in.cur].Kind
			}
		}
		if in.cur < 0 || in.eps.List[in.cur].Kind != kind {
			start := i
			if in.pending >= 0 {
				start, in.pending = in.pending, -1
			}
			in.close(start)
			in.open(kind, start)
		}
		in.record(i)
	}
	if in.cur >= 0 {
		in.eps.List[in.cur].End = i
	}
}

// kindOf classifies assistant message i by its tool calls: "act", "expl",
// "shell", or "" when it calls nothing that tells.
func (in *inferrer) kindOf(i int) string {
	p := in.p
	kind := ""
	for b := p.mFirst[i]; b < p.mFirst[i+1]; b++ {
		if p.bType[b] != session.BlockToolCall {
			continue
		}
		switch p.bClass[b] {
		case ClassEdit:
			return KindAct
		case ClassSearch, ClassRead:
			kind = KindExpl
		case ClassShell:
			if k, _ := lookKey(p, int(b)); k == "run" {
				kind = KindExpl // a command that only inspects (cat, ls, grep…) reads
			} else if kind == "" {
				kind = "shell"
			}
		}
	}
	return kind
}

func (in *inferrer) open(kind string, start int) {
	if in.counts == nil {
		in.counts = map[string]int{}
	}
	key := fmt.Sprintf("t%d-%s", in.task, kind)
	in.counts[key]++
	in.cur = len(in.eps.List)
	in.eps.List = append(in.eps.List, Episode{ID: in.cur, Name: fmt.Sprintf("%s%d", key, in.counts[key]), Kind: kind, Inferred: true,
		Start: start, End: start, ClosedAt: -1, TraceMsg: -1, TraceBlock: -1, TraceResult: -1})
	in.reads = append(in.reads, map[string]bool{})
	in.edits = append(in.edits, map[string]bool{})
	in.tasks = append(in.tasks, in.task)
}

func (in *inferrer) close(at int) {
	if in.cur >= 0 {
		in.eps.List[in.cur].ClosedAt = at
		in.cur = -1
	}
}

// flushPending makes waiting text-only messages up to message last part
// of the current episode, or an unannotated unit closed at closedAt.
func (in *inferrer) flushPending(last, closedAt int) {
	if in.pending < 0 {
		return
	}
	from := in.pending
	in.pending = -1
	if in.cur >= 0 {
		in.eps.List[in.cur].End = last
		return
	}
	in.eps.List = append(in.eps.List, Episode{ID: len(in.eps.List), Name: fmt.Sprintf("unannotated@%d", from), Kind: KindUnannotated, Inferred: true,
		Start: from, End: last, ClosedAt: closedAt, TraceMsg: -1, TraceBlock: -1, TraceResult: -1})
	in.reads = append(in.reads, nil)
	in.edits = append(in.edits, nil)
	in.tasks = append(in.tasks, in.task)
}

// record notes the paths message i reads and edits.
func (in *inferrer) record(i int) {
	p := in.p
	for b := p.mFirst[i]; b < p.mFirst[i+1]; b++ {
		if p.bType[b] != session.BlockToolCall {
			continue
		}
		switch p.bClass[b] {
		case ClassRead, ClassSearch:
			if path := cleanPath(p.bPath[b]); path != "" {
				in.reads[in.cur][path] = true
			}
		case ClassEdit:
			for _, path := range editPaths(p, int(b)) {
				in.edits[in.cur][path] = true
			}
		}
	}
}

var patchFile = regexp.MustCompile(`\*\*\* (?:Update|Add|Delete) File: ([^\n\\"]+)`)

// editPaths returns the paths an edit call changes: its path argument, or
// the files an apply_patch body names.
func editPaths(p *Plan, b int) []string {
	if path := cleanPath(p.bPath[b]); path != "" {
		return []string{path}
	}
	m := p.Msgs[p.bMsg[b]]
	raw := m.Blocks[b-int(p.mFirst[p.bMsg[b]])].Arguments
	var out []string
	for _, sm := range patchFile.FindAllSubmatch(raw, -1) {
		out = append(out, cleanPath(string(sm[1])))
	}
	return out
}

func cleanPath(s string) string { return strings.TrimPrefix(strings.TrimSpace(s), "./") }

// samePath matches paths written relative or absolute.
func samePath(a, b string) bool {
	return a == b || strings.HasSuffix(a, "/"+b) || strings.HasSuffix(b, "/"+a)
}

// link sets each act episode's dependencies.
func (in *inferrer) link() {
	eps := in.eps.List
	for k := range eps {
		if eps[k].Kind != KindAct {
			continue
		}
		var deps []int
		for j := 0; j < k; j++ {
			if eps[j].Kind == KindExpl && overlaps(in.reads[j], in.edits[k]) {
				deps = append(deps, j)
			}
		}
		if len(deps) == 0 {
			for j := 0; j < k; j++ {
				if eps[j].Kind == KindExpl && in.tasks[j] == in.tasks[k] {
					deps = append(deps, j)
				}
			}
		}
		eps[k].Deps = deps
		for _, d := range deps {
			eps[k].Dependencies = append(eps[k].Dependencies, eps[d].Name)
		}
	}
}

func overlaps(reads, edits map[string]bool) bool {
	for e := range edits {
		for r := range reads {
			if samePath(r, e) {
				return true
			}
		}
	}
	return false
}

// describe writes an inferred episode's description from its tool use.
func (in *inferrer) describe(k int) {
	e := &in.eps.List[k]
	p := in.p
	calls := CountOrder{}
	for i := e.Start; i <= e.End && i < len(p.Msgs); i++ {
		for b := p.mFirst[i]; b < p.mFirst[i+1]; b++ {
			if p.bType[b] == session.BlockToolCall && p.mKind[i] == msgAssistant {
				calls.Add(p.bName[b])
			}
		}
	}
	parts := make([]string, len(calls.Names))
	for i, n := range calls.Names {
		parts[i] = fmt.Sprintf("%s×%d", n, calls.Counts[i])
	}
	e.Description = "inferred from tool use: " + strings.Join(parts, ", ")
	if len(parts) == 0 {
		e.Description = "inferred: no tool calls"
	}
}
