package eval

import "strings"

// ScoreStrict fills Strict: the share of the question's evidence turns
// whose whole text the rendered context holds verbatim. A turn that only a
// triple or an experience item points at is not counted: the model would
// not see its words. An evidence id that names no turn counts as not
// found. text returns a turn's text by id.
func (q *Question) ScoreStrict(context string, text func(id string) (string, bool)) {
	q.StrictFound = 0
	for _, e := range q.Evidence {
		if t, ok := text(e); ok && strings.TrimSpace(t) != "" && strings.Contains(context, t) {
			q.StrictFound++
		}
	}
	if len(q.Evidence) > 0 {
		q.Strict = float64(q.StrictFound) / float64(len(q.Evidence))
	}
}
