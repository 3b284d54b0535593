package retrieve

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// Pseudo-relevance feedback: the words that the best passages for a
// question share, and that are rare in the conversation, are searched for
// again; passages that have them rise. A list question ("What activities
// does Andrew do with his girlfriend?") finds its first answers by its own
// words and the rest by the words of those answers.

// feedbackStop are words too common in conversation to expand with.
var feedbackStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`about above after again against all also always am among and another any anyone anything are around
	because been before being below between both but came can cannot come could did does doing done down during each even ever every
	few find for from further get gets getting give given going gonna good got great had has have having here hers herself himself his
	how however into its itself just keep know last like little lot lots made make makes making many maybe more most much must myself
	need never next nice now off once only other others ours ourselves out over own really right said same says see seems should
	since some something still such sure take than thank thanks that that's their theirs them themselves then there these they thing
	things think this those though through time times today together told too under until upon very want was wasn't way well went
	were what when where which while will with within without would yeah year years you your yours yourself been awesome amazing
	glad love loved happy feel feeling felt cool stuff yes sounds sound wow fun super totally definitely hope hey hi new week weekend`) {
		m[w] = true
	}
	return m
}()

// words splits text into lower-case words of four letters or more that
// are not too common to expand with.
func words(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' }) {
		f = strings.Trim(f, "'")
		if len(f) >= 4 && !feedbackStop[f] {
			out = append(out, f)
		}
	}
	return out
}

// documentFrequencies counts, for each word, the passages that have it.
func (x *Index) documentFrequencies() {
	x.df = map[string]int{}
	for _, p := range x.Mem.Passages {
		seen := map[string]bool{}
		for _, w := range words(p.Text) {
			if !seen[w] {
				seen[w] = true
				x.df[w]++
			}
		}
	}
}

// feedbackTerms returns up to n words of the top passages, by how many of
// them have the word times its inverse document frequency, leaving out
// the question's own words and words only one passage has.
func (x *Index) feedbackTerms(question string, top []int, n int) []string {
	own := map[string]bool{}
	for _, w := range words(question) {
		own[w] = true
	}
	count := map[string]int{}
	for _, i := range top {
		seen := map[string]bool{}
		for _, w := range words(x.Mem.Passages[i].Text) {
			if !seen[w] && !own[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	type term struct {
		w string
		s float64
	}
	var terms []term
	total := float64(len(x.Mem.Passages))
	for w, c := range count {
		df := x.df[w]
		if c < 2 || df < 2 {
			continue
		}
		terms = append(terms, term{w, float64(c) * math.Log(total/float64(df))})
	}
	sort.Slice(terms, func(a, b int) bool {
		if terms[a].s != terms[b].s {
			return terms[a].s > terms[b].s
		}
		return terms[a].w < terms[b].w
	})
	out := make([]string, 0, n)
	for _, t := range terms[:min(n, len(terms))] {
		out = append(out, t.w)
	}
	return out
}

// feedback adds, to every passage's fused score, weight times its
// normalized BM25 score for the feedback terms of the question's top
// docs passages.
func (x *Index) feedback(q *query, weight float64, docs int) error {
	if weight <= 0 || x.passages.lex == nil || len(x.Mem.Passages) == 0 {
		return nil
	}
	terms := x.feedbackTerms(q.text, top(all(len(x.Mem.Passages)), q.pass.fused, docs), feedbackTermCount)
	if len(terms) == 0 {
		return nil
	}
	hits, err := x.passages.lex.Search(strings.Join(terms, " "), min(len(x.Mem.Passages), lexicalDepth))
	if err != nil || len(hits) == 0 || hits[0].Score <= 0 {
		return err
	}
	for _, h := range hits {
		if i, ok := x.passages.at[h.ID]; ok {
			q.pass.fused[i] += weight * h.Score / hits[0].Score
		}
	}
	return nil
}

// feedbackTermCount is how many words the feedback searches for.
const feedbackTermCount = 8
