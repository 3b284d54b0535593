package otlp

import (
	"fmt"
	"os"
	"reflect"
	"sort"

	"ctxscope/engine/session"
)

// Stream keeps the sessions of one spool file (a receiver's file of one
// conversation, see [Spooler]) up to date as exports are appended to it,
// with work in proportion to each export rather than to the file: the
// spans of an export that all start after those already read continue
// the conversation where it stood, and an agent's events rebuild its
// session from the events held, never from the file. Only what cannot
// continue (a retried span, a log event for a span already read, a span
// that starts before one already read) reads the file again.
//
// Each session an Add returns is the one ImportEach reads from the whole
// file at that point; TestStreamMatchesImport holds it to that. A Stream
// is not safe for concurrent use.
type Stream struct {
	path string
	b    *batch
	conv *builder        // the span conversation so far; nil before its first span
	last *span           // the last span conv read
	took map[string]bool // the ids of the spans conv read
	// several marks a file whose spans make more than one conversation,
	// which the Stream reads again on every export; first is then the
	// id of the first.
	several bool
	first   string
	// problems are the lines of the file that are no export request.
	problems []session.Diagnostic
	// prev holds the sessions last returned, by id.
	prev map[string]*session.Session
	// rereads counts the times the file was read again.
	rereads int
}

// Update is one session a Stream's Add changed, and how many leading
// entries of its main thread are those the previous Update of the
// session held, unchanged (0 for a new session).
type Update struct {
	Session *session.Session
	Kept    int
}

// OpenStream reads the spool file at path, as it is, into a Stream, and
// returns it with the sessions the file holds so far.
func OpenStream(path string) (*Stream, []Update, error) {
	st := &Stream{path: path}
	ups, err := st.reread()
	if err != nil {
		return nil, nil, err
	}
	return st, ups, nil
}

// Add takes line, the request just appended to the file (it must be in
// the file already: what cannot continue reads the file again), and
// returns the sessions it changed. The sessions share their entries with
// the Stream: they hold until the next Add.
func (st *Stream) Add(line []byte) ([]Update, error) {
	n0, replaced0 := len(st.b.spans), st.b.replaced
	st.b.logged = st.b.logged[:0]
	clear(st.b.agentsAdded)
	st.b.lines++
	if err := st.b.addJSON(line, st.b.lines); err != nil {
		return st.reread() // the file's reading says where
	}
	fresh := st.b.spans[n0:]
	if !st.continues(fresh, replaced0) {
		return st.reread()
	}
	var ups []Update
	if len(fresh) > 0 {
		sortSpans(fresh)
		if st.conv == nil {
			st.conv = newBuilder(ownConversation(fresh[0].attrs), st.path)
		}
		for _, sp := range fresh {
			if evs := st.b.logs[sp.id]; len(evs) > 0 {
				sp.events = append(sp.events, evs...)
				delete(st.b.logs, sp.id)
			}
			st.take(sp)
		}
		s, kept := st.conv.finish()
		ups = append(ups, st.updated(s, kept))
	}
	for _, k := range st.b.agentKeys() {
		if st.b.agentsAdded[k] {
			ups = append(ups, st.rebuilt(buildAgentSession(k, st.b.agents[k], st.path)))
		}
	}
	return st.withProblems(ups), nil
}

// continues reports whether the spans fresh (just added, replaced0 the
// batch's count of replaced spans before) carry the conversation on from
// where the Stream stands.
func (st *Stream) continues(fresh []*span, replaced0 int) bool {
	if st.several || st.b.replaced != replaced0 {
		return false
	}
	for _, id := range st.b.logged {
		if st.took[id] {
			return false
		}
	}
	for _, sp := range fresh {
		k := ownConversation(sp.attrs)
		if k == "" || (st.conv != nil && k != st.conv.s.ID) || (st.conv == nil && k != ownConversation(fresh[0].attrs)) {
			return false
		}
		if st.last != nil && spanBefore(sp, st.last) {
			return false
		}
	}
	return true
}

// take gives one span to the conversation's builder, then lets go of
// what the builder no longer needs of a model call's span: the messages
// it repeats, which make a spool file grow with the square of its
// conversation.
func (st *Stream) take(sp *span) {
	st.conv.span(sp)
	st.last = sp
	st.took[sp.id] = true
	if attrString(sp.attrs, attrOperation) != "execute_tool" {
		sp.attrs, sp.events = nil, nil
	}
}

// reread reads the whole file again and rebuilds every session.
func (st *Stream) reread() ([]Update, error) {
	st.rereads++
	f, err := os.Open(st.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, problems, err := readBatch(f, st.path)
	if err != nil {
		return nil, err
	}
	b.attach()
	convs := b.conversations()
	if len(convs) == 0 && len(b.agents) == 0 && len(problems) > 0 {
		return nil, fmt.Errorf("%s", problems[0])
	}
	st.b, st.problems, st.conv, st.last, st.took = b, problems, nil, nil, map[string]bool{}
	st.several, st.first = len(convs) > 1, ""
	if st.several {
		st.first = conversationKey(convs[0])
	}
	var ups []Update
	for _, spans := range convs {
		if st.several {
			ups = append(ups, st.rebuilt(buildSession(spans, st.path)))
			continue
		}
		st.conv = newBuilder(conversationKey(spans), st.path)
		for _, sp := range spans {
			st.take(sp)
		}
		s, _ := st.conv.finish()
		ups = append(ups, st.rebuilt(s))
	}
	for _, k := range b.agentKeys() {
		ups = append(ups, st.rebuilt(buildAgentSession(k, b.agents[k], st.path)))
	}
	return st.withProblems(ups), nil
}

// updated records s as the session's latest, kept entries unchanged.
func (st *Stream) updated(s *session.Session, kept int) Update {
	if st.prev == nil {
		st.prev = map[string]*session.Session{}
	}
	if st.prev[s.ID] == nil {
		kept = 0
	}
	st.prev[s.ID] = s
	return Update{Session: s, Kept: kept}
}

// rebuilt records s, built anew, as the session's latest: its entries are
// kept as far as they equal those last returned.
func (st *Stream) rebuilt(s *session.Session) Update {
	kept := 0
	if p := st.prev[s.ID]; p != nil {
		kept = sameEntries(p.Main(), s.Main())
	}
	return st.updated(s, kept)
}

// withProblems gives the file's problems to its first session, as
// ImportEach does, when the update holds it.
func (st *Stream) withProblems(ups []Update) []Update {
	if len(st.problems) == 0 || len(ups) == 0 {
		return ups
	}
	first := st.firstSession()
	for _, u := range ups {
		if u.Session.ID == first {
			u.Session.Diagnostics = append(append([]session.Diagnostic(nil), st.problems...), u.Session.Diagnostics...)
		}
	}
	return ups
}

// firstSession is the id of the file's first session in ImportEach's
// order.
func (st *Stream) firstSession() string {
	if st.several {
		return st.first
	}
	if st.conv != nil {
		return st.conv.s.ID
	}
	if keys := st.b.agentKeys(); len(keys) > 0 {
		return keys[0].id
	}
	return ""
}

// sameEntries counts the leading entries of a and b that are equal.
func sameEntries(a, b *session.Thread) int {
	if a == nil || b == nil {
		return 0
	}
	n := 0
	for n < len(a.Entries) && n < len(b.Entries) && reflect.DeepEqual(a.Entries[n], b.Entries[n]) {
		n++
	}
	return n
}

// sortSpans orders spans as a conversation reads them: by start, then
// end, arrival breaking ties.
func sortSpans(spans []*span) {
	sort.SliceStable(spans, func(i, j int) bool { return spanBefore(spans[i], spans[j]) })
}

// spanBefore reports whether a comes before b in a conversation.
func spanBefore(a, b *span) bool {
	if !a.start.Equal(b.start) {
		return a.start.Before(b.start)
	}
	return a.end.Before(b.end)
}
