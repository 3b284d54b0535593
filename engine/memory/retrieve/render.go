package retrieve

import (
	"sort"
	"strings"
	"unicode"
)

// renderPassage renders a passage as the reference does:
// "[stamp | speaker] text (time_hint: t)".
func (x *Index) renderPassage(i int) string {
	p := x.Mem.Passages[i]
	s := "[" + p.Stamp + " | " + p.Speaker + "] " + p.Text
	if h := x.hints[i]; h != "" {
		s += " (time_hint: " + h + ")"
	}
	return s
}

// timeHint is the best time among the relations read from the passage:
// values with digits first, then the longest. [New] computes it once per
// passage.
func (x *Index) timeHint(pid string) string {
	best := ""
	for _, e := range x.Mem.Graph.Contains(pid) {
		for _, rid := range x.Mem.Graph.Incident(e) {
			i, ok := x.relAt[rid]
			if !ok || !has(x.rels[i].Passages, pid) {
				continue
			}
			if t := x.rels[i].TimeString(); better(t, best) {
				best = t
			}
		}
	}
	return best
}

func better(a, b string) bool {
	da, db := strings.IndexFunc(a, unicode.IsDigit) >= 0, strings.IndexFunc(b, unicode.IsDigit) >= 0
	if da != db {
		return da
	}
	return len(a) > len(b)
}

func has(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// renderTriple renders "subject predicate object | time: t | condition: c".
func (x *Index) renderTriple(i int) string {
	r := x.rels[i]
	s := x.tripleText(r)
	if t := r.TimeString(); t != "" {
		s += " | time: " + t
	}
	if r.Condition != "" {
		s += " | condition: " + r.Condition
	}
	return s
}

// render assembles the context in the reference driver's layout: text
// evidence first, then the triples.
func (x *Index) render(passages, exps, triples []Item) string {
	if len(passages)+len(exps)+len(triples) == 0 {
		return "No explicit past experiences or KG facts found."
	}
	var b strings.Builder
	b.WriteString("=== TEXT EVIDENCE (PASSAGES & EXPERIENCES) ===\nPassages:\n")
	for _, p := range passages {
		b.WriteString("- " + p.Text + "\n")
	}
	b.WriteString("\nExperiences:\n")
	for _, e := range exps {
		b.WriteString("- " + e.Text + "\n")
	}
	b.WriteString("=== KNOWLEDGE GRAPH TRIPLES ===\n")
	for _, t := range triples {
		b.WriteString(t.Text + "\n")
	}
	return b.String()
}

func sortStrings(s []string) { sort.Strings(s) }
