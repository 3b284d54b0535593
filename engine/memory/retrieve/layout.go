package retrieve

import (
	"sort"
	"strings"
)

// Layouts of an assembled context.
const (
	// LayoutReference renders as MemWeaver's reference driver does: each
	// passage on its own line with its full stamp and speaker, then the
	// experience items, then the triples.
	LayoutReference = "reference"
	// LayoutSessions groups the passages by session, oldest first, under
	// one stamp per session, each turn as "speaker: text"; experience
	// items and triples follow only when there are any. The same turns
	// cost fewer tokens than in the reference layout.
	LayoutSessions = "sessions"
)

// sessionsFrame opens a context in the sessions layout.
const sessionsFrame = "Conversation excerpts, oldest first:\n"

// sessionHeader is the line that opens a session's turns.
func (x *Index) sessionHeader(i int) string {
	p := x.Mem.Passages[i]
	return "[" + p.Stamp + "]\n"
}

// compactLine is a passage's line in the sessions layout.
func (x *Index) compactLine(i int, hints bool) string {
	p := x.Mem.Passages[i]
	s := p.Speaker + ": " + p.Text
	if h := x.hints[i]; hints && h != "" {
		s += " (time: " + h + ")"
	}
	return s
}

// factLine is relation r's line in a context of layout: compact in the
// sessions layout, the reference's otherwise.
func (x *Index) factLine(r int, layout string) string {
	if layout == LayoutSessions {
		return x.compactFact(r)
	}
	return x.renderTriple(r)
}

// compactFact is relation r's line in the sessions layout: "subject
// predicate object (time, condition)", the reference's " | time: "
// labels left out.
func (x *Index) compactFact(r int) string {
	rel := x.rels[r]
	var notes []string
	if t := rel.TimeString(); t != "" {
		notes = append(notes, t)
	}
	if rel.Condition != "" {
		notes = append(notes, rel.Condition)
	}
	s := x.tripleText(rel)
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}

// renderSessions renders a context in the sessions layout: the passages
// in conversation order under their sessions' stamps, then the items and
// triples, each section only when it has lines.
func (x *Index) renderSessions(passages, exps, triples []Item) string {
	if len(passages)+len(exps)+len(triples) == 0 {
		return "No explicit past experiences or KG facts found."
	}
	order := make([]int, 0, len(passages))
	text := map[int]string{}
	for _, p := range passages {
		i := x.passageAt[p.ID]
		order = append(order, i)
		text[i] = p.Text
	}
	sort.Ints(order)
	var b strings.Builder
	b.WriteString(sessionsFrame)
	last := -1
	for _, i := range order {
		if s := x.Mem.Passages[i].Session; s != last || last < 0 {
			b.WriteString(x.sessionHeader(i))
			last = s
		}
		b.WriteString(text[i] + "\n")
	}
	if len(exps) > 0 {
		b.WriteString("Experiences:\n")
		for _, e := range exps {
			b.WriteString("- " + e.Text + "\n")
		}
	}
	if len(triples) > 0 {
		b.WriteString("Facts:\n")
		for _, t := range triples {
			b.WriteString(t.Text + "\n")
		}
	}
	return b.String()
}
