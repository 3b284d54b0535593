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
// statements of the most central units, typed by their wording. It is
// deterministic.
type Offline struct {
	// MaxItems bounds the items per cluster; 0 means 6.
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
// the centre, one item per unit, skipping small talk.
func (o Offline) Experiences(_ context.Context, units []Unit) ([]Experience, error) {
	max := o.MaxItems
	if max <= 0 {
		max = 6
	}
	byID := map[string]Unit{}
	for _, u := range units {
		byID[u.ID] = u
	}
	var out []Experience
	for _, id := range Nearest(units, centre(units), len(units)) {
		if len(out) == max {
			break
		}
		u := byID[id]
		if SmallTalk(u.Text) {
			continue
		}
		s, t, ok := statement(u.Text)
		if !ok {
			continue
		}
		out = append(out, Experience{Type: t, Content: clip(u.Speaker+": "+s, 120), Sources: []string{u.ID}})
	}
	return out, nil
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

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
