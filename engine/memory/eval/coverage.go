package eval

import (
	"strconv"
	"strings"

	porter "github.com/blevesearch/go-porterstemmer"
)

// Answer coverage is how much of a question's gold answer a context
// holds, without a model to answer from it: the share of the answer's
// content words (normalised as LoCoMo normalises answers, Porter-stemmed,
// stop words left out) that the context's words include, and, for a short
// answer, whether the context holds it as a run of words. It is where
// compact triples and experience items can win against whole turns: a
// fact that names the answer costs a few tokens where its turn costs
// many.

// shortAnswer is the most words an answer has for its whole span to be
// looked for.
const shortAnswer = 4

// ScoreCoverage fills Coverage, CoverageWords and Span from the rendered
// context and the gold answer. Questions whose answer has no content word
// (a bare "yes") have none, and count in neither mean.
func (q *Question) ScoreCoverage(context, answer string) {
	q.CoverageWords, q.Coverage, q.Span = 0, 0, nil
	want := contentStems(answer)
	if len(want) == 0 {
		return
	}
	have := map[string]bool{}
	for _, s := range contentStems(context) {
		have[s] = true
	}
	n := 0
	for _, s := range want {
		if have[s] {
			n++
		}
	}
	q.CoverageWords = len(want)
	q.Coverage = float64(n) / float64(len(want))
	if words := coverageWords(answer); len(words) <= shortAnswer {
		hit := strings.Contains(" "+strings.Join(coverageWords(context), " ")+" ", " "+strings.Join(words, " ")+" ")
		q.Span = &hit
	}
}

// AnswerCoverage returns the share of answer's content words that
// context holds, as ScoreCoverage scores it; it is not ok for an answer
// without a content word.
func AnswerCoverage(context, answer string) (float64, bool) {
	var q Question
	q.ScoreCoverage(context, answer)
	return q.Coverage, q.CoverageWords > 0
}

// contentStems returns the distinct Porter stems of the words of s that
// are not stop words, in order, after LoCoMo's answer normalisation.
// "May" is a month, not a stop word, where a number stands next to it
// ("7 May 2023", "May 2023").
func contentStems(s string) []string {
	var out []string
	seen := map[string]bool{}
	words := coverageWords(s)
	for i, w := range words {
		if stopWords[w] && !(w == "may" && nextToNumber(words, i)) {
			continue
		}
		st := porter.StemString(w)
		if !seen[st] {
			seen[st] = true
			out = append(out, st)
		}
	}
	return out
}

// coverageWords returns the words of s after LoCoMo's answer
// normalisation, with numbers written as words turned into digits, so that
// "ten years" in an answer matches "10 years" in a turn and the other way
// round.
func coverageWords(s string) []string {
	words := strings.Fields(normalizeAnswer(s))
	for i, w := range words {
		if d, ok := numberWords[w]; ok {
			words[i] = d
		}
	}
	return words
}

// nextToNumber reports whether the word before or after words[i] is a
// number.
func nextToNumber(words []string, i int) bool {
	return i > 0 && isNumber(words[i-1]) || i+1 < len(words) && isNumber(words[i+1])
}

// isNumber reports whether w is written in digits, as a day ("7", "7th")
// or a year is.
func isNumber(w string) bool {
	w = strings.TrimRight(w, "stndrh")
	return w != "" && strings.Trim(w, "0123456789") == ""
}

// numberWords are the numbers that answers and turns write as words.
var numberWords = func() map[string]string {
	m := map[string]string{}
	for i, w := range strings.Fields(`zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
		fifteen sixteen seventeen eighteen nineteen twenty`) {
		m[w] = strconv.Itoa(i)
	}
	for i, w := range strings.Fields("thirty forty fifty sixty seventy eighty ninety") {
		m[w] = strconv.Itoa(30 + 10*i)
	}
	m["hundred"] = "100"
	return m
}()

// stopWords are the function words that say nothing of an answer, and
// the hedges of yes-or-no answers, which no context spells out.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but of to in on at for from by with about as into over after before
		is are was were be been being am do does did has have had having it its it's this that these those there here
		he she they them his her their hers theirs him we us our you your i me my mine not no so than then very just also
		which who whom what when where why how all any some each both more most other such only own same can will would
		should could may might must shall yes likely probably maybe perhaps`) {
		m[w] = true
	}
	return m
}()
