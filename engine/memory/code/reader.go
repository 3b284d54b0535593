package code

import (
	"fmt"
	"strings"
	"time"

	"ctxscope/engine/cwl"
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/kg"
	"ctxscope/engine/memory/temporal"
	"ctxscope/engine/session"
)

// Entity types of a session memory.
const (
	TypeTask    = "task"
	TypeFile    = "file"
	TypeSymbol  = "symbol"
	TypeCommand = "command"
	TypeTest    = "test"
	TypePackage = "package"
	TypeError   = "error"
	TypeURL     = "url"
	TypeIssue   = "issue"
	TypeSearch  = "search"
)

// Source is the Memory.Source of a session memory.
const Source = "session-tools"

// perBlock caps the declarations and imports one block adds, so that a
// long listing does not flood the graph.
const perBlock = 12

// Reader builds the memory of one agent session from its entries, in the
// order they were written. It is not safe for concurrent use.
type Reader struct {
	// CWD is the agent's working directory, when the session records it:
	// paths under it are named relative to it, so that a file read as
	// src/x.go and edited as /home/me/repo/src/x.go is one entity.
	CWD string

	cls     *cwl.Classifier
	mem     *memory.Memory
	g       *kg.Graph
	tasks   int
	threads map[int]*threadState
	rels    map[string]*kg.Relation // subject|predicate|object -> relation
}

// threadState is what reading a thread carries from one entry to the
// next.
type threadState struct {
	task  *kg.Entity
	calls map[string]pendingCall
	// open are failed commands not yet run again successfully, by
	// command, with the files edited since.
	open map[string]*failure
	// untested are files edited since the thread's last test run.
	untested []string
	// openFile is the file the agent last opened, which SWE-agent's
	// edits apply to.
	openFile string
}

type pendingCall struct {
	call    Call
	passage string
	task    *kg.Entity
}

type failure struct {
	err   *kg.Entity
	edits []string
}

// NewReader returns a reader writing the memory id of a session, with cls
// telling what its tools do (nil for cwl.DefaultClassifier).
func NewReader(id string, cls *cwl.Classifier) *Reader {
	if cls == nil {
		cls = cwl.DefaultClassifier()
	}
	g := kg.New()
	return &Reader{cls: cls, g: g, threads: map[int]*threadState{}, rels: map[string]*kg.Relation{},
		mem: &memory.Memory{ID: id, Source: Source, Graph: g, Experience: cluster.NewLayer()}}
}

// Memory returns the memory read so far. It keeps growing with later
// calls to Add.
func (r *Reader) Memory() *memory.Memory { return r.mem }

// ReadSession reads every entry of every thread of s.
func ReadSession(id string, s *session.Session, cls *cwl.Classifier) *memory.Memory {
	r := NewReader(id, cls)
	r.CWD = s.CWD
	for ti, th := range s.Threads {
		for _, e := range th.Entries {
			r.Add(ti, e)
		}
	}
	return r.Memory()
}

// Add reads one entry of thread number thread (its index in the session).
// Entries other than messages, and messages kept out of the model's
// context, add nothing.
func (r *Reader) Add(thread int, e *session.Entry) {
	m := e.Message
	if e.Kind != session.EntryMessage || m == nil || m.Excluded {
		return
	}
	st := r.thread(thread)
	at := m.Time
	if at.IsZero() {
		at = e.Time
	}
	for bi := range m.Blocks {
		b := &m.Blocks[bi]
		ref := Ref{Thread: thread, Entry: EntryRef(e), Block: bi}
		switch b.Type {
		case session.BlockText:
			ids := r.passages(ref, string(m.Role), "", b.Text, at)
			if m.IsUser() {
				r.userText(st, b.Text, ids, at)
			} else {
				r.mentions(b.Text, ids)
			}
		case session.BlockThinking:
			if !b.Redacted {
				r.mentions(b.Text, r.passages(ref, string(m.Role), "(thinking) ", b.Text, at))
			}
		case session.BlockToolCall:
			c := ReadCall(b, r.cls)
			for i, p := range c.Paths {
				c.Paths[i] = r.rel(p)
			}
			if c.OnOpenFile && st.openFile != "" {
				c.Paths = []string{st.openFile}
			}
			if c.Verb == VerbRead && len(c.Paths) == 1 {
				st.openFile = c.Paths[0]
			}
			ids := r.passages(ref, string(m.Role), "", describeCall(c, b), at)
			if b.ToolCallID != "" && len(ids) > 0 {
				st.calls[b.ToolCallID] = pendingCall{call: c, passage: ids[0], task: r.task(st)}
			}
		case session.BlockToolResult:
			r.result(st, ref, b, at)
		}
	}
}

func (r *Reader) thread(i int) *threadState {
	st := r.threads[i]
	if st == nil {
		st = &threadState{calls: map[string]pendingCall{}, open: map[string]*failure{}}
		r.threads[i] = st
	}
	return st
}

// rel names a path relative to the working directory when it is under
// it.
func (r *Reader) rel(p string) string {
	p = strings.TrimPrefix(p, "./")
	if r.CWD == "" {
		return p
	}
	if rest, ok := strings.CutPrefix(p, strings.TrimSuffix(r.CWD, "/")+"/"); ok && rest != "" {
		return rest
	}
	return p
}

// task returns the thread's current task, naming one for work done
// before the thread's first user turn.
func (r *Reader) task(st *threadState) *kg.Entity {
	if st.task == nil {
		st.task = r.newTask("work before the first user turn")
	}
	return st.task
}

func (r *Reader) newTask(name string) *kg.Entity {
	r.tasks++
	e, _ := r.g.Add(kg.Entity{Name: fmt.Sprintf("task %d: %s", r.tasks, name), Origin: kg.Extracted, Type: TypeTask})
	return e
}

// passages adds the chunks of text as passages and returns their ids.
func (r *Reader) passages(ref Ref, speaker, prefix, text string, at time.Time) []string {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	var ids []string
	for i, c := range chunks(text) {
		ref.Chunk = i
		p := memory.Passage{ID: ref.String(), Session: ref.Thread + 1, Speaker: speaker, Text: prefix + c, Time: at}
		if !at.IsZero() {
			p.Stamp = at.UTC().Format(time.RFC3339)
		}
		r.mem.Passages = append(r.mem.Passages, p)
		ids = append(ids, p.ID)
	}
	return ids
}

// userText starts a task at a user turn and records what it cites.
func (r *Reader) userText(st *threadState, text string, ids []string, at time.Time) {
	name := TaskName(text)
	if name == "" {
		return
	}
	st.task = r.newTask(name)
	for _, u := range URLs(text) {
		r.relate(st.task, "cites", r.entity(u, TypeURL), "", ids, at)
	}
	for _, ref := range IssueRefs(text) {
		r.relate(st.task, "refers-to", r.entity(ref, TypeIssue), "", ids, at)
	}
	r.mentions(text, ids)
}

// mentions links passages to the files and symbols already in the graph
// that their text names.
func (r *Reader) mentions(text string, ids []string) {
	for _, w := range strings.FieldsFunc(text, func(c rune) bool {
		return c == ' ' || c == '\n' || c == '\t' || c == '`' || c == '"' || c == '\'' || c == '(' || c == ')' || c == ','
	}) {
		w = strings.TrimRight(w, ".:;")
		if len(w) < 4 || !strings.ContainsAny(w, "./_") {
			continue
		}
		if e, ok := r.g.Lookup(strings.TrimPrefix(w, "./")); ok && (e.Type == TypeFile || e.Type == TypeSymbol) {
			for _, id := range ids {
				r.g.Link(id, e.ID)
			}
		}
	}
}

// entity returns the entity of a name and type, creating it.
func (r *Reader) entity(name, typ string) *kg.Entity {
	if e, ok := r.g.Lookup(name); ok {
		return e
	}
	e, _ := r.g.Add(kg.Entity{Name: name, Origin: kg.Extracted, Type: typ})
	return e
}

// relate adds subject predicate object once; a repeat adds its passages
// and its condition to the first.
func (r *Reader) relate(s *kg.Entity, pred string, o *kg.Entity, cond string, passages []string, at time.Time) {
	if s == nil || o == nil || s.ID == o.ID {
		return
	}
	for _, p := range passages {
		r.g.Link(p, s.ID)
		r.g.Link(p, o.ID)
	}
	key := s.ID + "|" + pred + "|" + o.ID
	if rel := r.rels[key]; rel != nil {
		rel.Passages = appendNew(rel.Passages, passages...)
		if cond != "" && !strings.Contains(rel.Condition, cond) {
			rel.Condition = strings.TrimPrefix(rel.Condition+"; "+cond, "; ")
		}
		return
	}
	rel := kg.Relation{Subject: s.ID, Predicate: pred, Object: o.ID, Condition: cond,
		Passages: append([]string(nil), passages...), Origin: kg.Extracted}
	if !at.IsZero() {
		u := at.UTC()
		rel.Time = temporal.Value{Time: time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC), Gran: temporal.Day}
	}
	if p, err := r.g.Relate(rel); err == nil {
		r.rels[key] = p
	}
}

func appendNew(list []string, items ...string) []string {
outer:
	for _, it := range items {
		for _, have := range list {
			if have == it {
				continue outer
			}
		}
		list = append(list, it)
	}
	return list
}
