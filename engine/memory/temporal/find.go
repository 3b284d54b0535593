package temporal

import (
	"regexp"
	"sort"
	"strings"
	"time"
)

// Match is one time expression found in a text.
type Match struct {
	Start, End int    // byte offsets of the expression in the text
	Text       string // the expression as written
	Value      Value
}

// Normalize returns the value of the first time expression in text,
// resolved against anchor, the time the text was said.
func Normalize(text string, anchor time.Time) (Value, bool) {
	ms := Find(text, anchor)
	if len(ms) == 0 {
		return Value{}, false
	}
	return ms[0].Value, true
}

// Find returns every time expression in text resolved against anchor, in
// text order, without overlaps (where two rules match overlapping text,
// the one listed first in the rule table wins). The tense of the sentence
// an expression sits in decides bare weekdays and months: "on Friday"
// resolves to the coming Friday in a sentence that speaks of the future
// ("will", "going to", "next" …) and to the last one otherwise.
func Find(text string, anchor time.Time) []Match {
	if anchor.IsZero() {
		return nil
	}
	anchor = date(anchor.Year(), anchor.Month(), anchor.Day())
	var out []Match
	taken := make([]bool, len(text)+1)
	for _, r := range rules {
		for _, loc := range r.re.FindAllStringSubmatchIndex(text, -1) {
			if overlaps(taken, loc[0], loc[1]) {
				continue
			}
			groups := submatches(text, loc)
			if !capitalised(text, loc, r.capitalGroup) {
				continue
			}
			v, ok := r.resolve(groups, anchor, future(text, loc[0]))
			if !ok {
				continue
			}
			for i := loc[0]; i < loc[1]; i++ {
				taken[i] = true
			}
			out = append(out, Match{Start: loc[0], End: loc[1], Text: text[loc[0]:loc[1]], Value: v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

func overlaps(taken []bool, a, b int) bool {
	for i := a; i < b; i++ {
		if taken[i] {
			return true
		}
	}
	return false
}

func submatches(text string, loc []int) []string {
	g := make([]string, len(loc)/2)
	for i := range g {
		if loc[2*i] >= 0 {
			g[i] = strings.ToLower(text[loc[2*i]:loc[2*i+1]])
		}
	}
	return g
}

// capitalised guards month names that are also common words ("may",
// "march"): the month must be written with a capital.
func capitalised(text string, loc []int, group int) bool {
	if group == 0 || loc[2*group] < 0 {
		return true
	}
	w := strings.ToLower(text[loc[2*group]:loc[2*group+1]])
	if w != "may" && w != "march" {
		return true
	}
	c := text[loc[2*group]]
	return c >= 'A' && c <= 'Z'
}

var futureCue = regexp.MustCompile(`(?i)\b(will|won't|'ll|going to|gonna|plan|plans|planning|next|tomorrow|upcoming|can't wait|looking forward|soon|hope to|hoping to|want to|excited for|excited about|thinking about|would love to)\b`)

// future reports whether the sentence around offset speaks of the future.
func future(text string, at int) bool {
	start := strings.LastIndexAny(text[:at], ".!?\n") + 1
	end := len(text)
	if i := strings.IndexAny(text[at:], ".!?\n"); i >= 0 {
		end = at + i
	}
	return futureCue.MatchString(text[start:end])
}
