package cluster

import (
	"context"
	"regexp"
	"strings"

	"ctxscope/engine/memory/embed"
)

// Offline is the model-free [Writer]: every DBSCAN group counts as
// consistent, a cluster's theme is its most central unit, the router picks
// the most similar candidate, and experience items are the first-person
// statements of the most central units, typed by their wording, and one
// digest per speaker of the cluster (see Experiences). It is
// deterministic.
type Offline struct {
	// MaxItems bounds the single-statement items per cluster; 0 means 6.
	MaxItems int
}

// Consistent accepts every group, without a label.
func (Offline) Consistent(context.Context, []Unit) (bool, string, error) { return true, "", nil }

// CenterText returns the most central unit's text, shortened.
func (Offline) CenterText(_ context.Context, units []Unit) (string, error) {
	c := centre(units)
	best := Nearest(units, c, 1)
	for _, u := range units {
		if len(best) > 0 && u.ID == best[0] {
			return clip(u.Speaker+": "+u.Text, 120), nil
		}
	}
	return "", nil
}

// Route picks the candidate nearest the unit.
func (Offline) Route(_ context.Context, u Unit, cands []*Cluster) (string, error) {
	best, id := -2.0, ""
	for _, c := range cands {
		if s := float64(embed.Dot(u.Vec, c.Center)); s > best {
			best, id = s, c.ID
		}
	}
	return id, nil
}

// Experiences returns typed first-person statements of the units nearest
// the centre, one item per unit, skipping small talk; then, for each
// speaker with two or more statements in the cluster, a digest of them
// all (see digests).
func (o Offline) Experiences(_ context.Context, units []Unit) ([]Experience, error) {
	max := o.MaxItems
	if max <= 0 {
		max = 6
	}
	stated := statements(units)
	var out []Experience
	for _, st := range stated[:min(max, len(stated))] {
		out = append(out, Experience{Type: st.typ, Content: clip(st.speaker+": "+st.text, 120), Sources: []string{st.unit}})
	}
	return append(out, digests(stated)...), nil
}

// said is one unit's statement, as Experiences reads it.
type said struct {
	unit, speaker, text string
	typ                 Type
}

// statements returns the statements of units, nearest the centre first,
// leaving out small talk and units without a first-person statement.
func statements(units []Unit) []said {
	byID := map[string]Unit{}
	for _, u := range units {
		byID[u.ID] = u
	}
	var out []said
	for _, id := range Nearest(units, centre(units), len(units)) {
		u := byID[id]
		if SmallTalk(u.Text) {
			continue
		}
		if s, t, ok := statement(u.Text); ok {
			out = append(out, said{unit: u.ID, speaker: u.Speaker, text: s, typ: t})
		}
	}
	return out
}

// Digest bounds: each statement in a digest is shortened to
// digestPart characters and the digest to DigestLen; longer than the
// single items' 120, a digest stands for several turns.
const (
	digestPart = 60
	DigestLen  = 240
)

// digests returns, for each speaker with at least two statements in a
// cluster, one item that summarises them: "Melanie: statement; statement;
// …", nearest the centre first, with every one of their units as its
// sources. The experience layer routes a question that matches it to all
// those turns at once, which is what a question whose answer is spread
// over several sessions needs.
func digests(all []said) []Experience {
	var order []string
	by := map[string][]said{}
	for _, s := range all {
		if by[s.speaker] == nil {
			order = append(order, s.speaker)
		}
		by[s.speaker] = append(by[s.speaker], s)
	}
	var out []Experience
	for _, speaker := range order {
		ss := by[speaker]
		if len(ss) < 2 {
			continue
		}
		parts, units := make([]string, len(ss)), make([]string, len(ss))
		for i, s := range ss {
			parts[i], units[i] = clipWords(strings.TrimRight(s.text, ".!"), digestPart), s.unit
		}
		out = append(out, Experience{Type: Fact, Content: clipWords(speaker+": "+strings.Join(parts, "; "), DigestLen), Sources: units})
	}
	return out
}

var (
	sentenceEnd  = regexp.MustCompile(`[.!?]+\s+`)
	firstPerson  = regexp.MustCompile(`(?i)\b(i|i'm|i've|i'd|my|we|we're|we've|our)\b`)
	preferenceRe = regexp.MustCompile(`(?i)\b(love|loves|like|likes|enjoy|enjoys|favou?rite|prefer|passionate|into|fan of|can't get enough)\b`)
	strategyRe   = regexp.MustCompile(`(?i)\b(helps? me|try to|tried to|the key|it's important|make sure|i find that|works for me|way to|remind myself|focus on)\b`)
	greetingRe   = regexp.MustCompile(`(?i)(good to see you|how have you been|how are you|what's up|\bhey\b|\bhi\b|\bhello\b)`)
)

// statement returns the unit's most informative first-person sentence
// and its type.
func statement(text string) (string, Type, bool) {
	if i := strings.Index(text, "] "); strings.HasPrefix(text, "[Image: ") && i > 0 {
		text = text[i+2:]
	}
	best, bestLen := "", 0
	for _, s := range sentenceEnd.Split(text, -1) {
		s = strings.TrimSpace(s)
		if n := len(contentWords(s)); firstPerson.MatchString(s) && n >= 4 && n > bestLen {
			best, bestLen = s, n
		}
	}
	switch {
	case best == "":
		return "", "", false
	case strategyRe.MatchString(best):
		return best, Strategy, true
	case preferenceRe.MatchString(best):
		return best, Preference, true
	}
	return best, Fact, true
}

// SmallTalk reports whether a unit is a greeting with at most three
// content words besides, the reference's small-talk filter.
func SmallTalk(text string) bool {
	if !greetingRe.MatchString(text) {
		return false
	}
	return len(contentWords(greetingRe.ReplaceAllString(text, " "))) <= 3
}

var stop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but so to of in on at for with from by is are was were be been
	am it its it's this that these those i me my we our you your he she they them his her their what how
	do does did have has had not no yes just really very too also can could would will i'm you're that's
	there here then than as if about up out all some any`) {
		stop[w] = true
	}
}

func contentWords(s string) []string {
	var out []string
	for _, w := range embed.Words(s) {
		if !stop[w] {
			out = append(out, w)
		}
	}
	return out
}

// clipWords shortens s to at most n runes at a word's end, with "…".
func clipWords(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n-1])
	if r[n-1] != ' ' { // the cut falls inside a word: end at the word before
		if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
			cut = cut[:i]
		}
	}
	return strings.TrimRight(cut, " ,;:-–") + "…"
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
