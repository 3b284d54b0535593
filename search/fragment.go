package search

import (
	"sort"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/search"
)

// Fragment is a piece of a hit's text with the matched terms marked. The
// text is returned as it is stored, never as markup: a viewer escapes it
// and renders the marks itself.
type Fragment struct {
	Text  string `json:"text"`
	Marks []Span `json:"marks"`
	// Start is the byte offset of Text in the whole document text.
	Start int `json:"start"`
}

// Span is a half-open byte range [Start, End) of a fragment's text.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Fragment sizing, in bytes.
const (
	fragmentSize  = 220 // length of a fragment
	fragmentLead  = 60  // context kept before the first mark
	maxFragments  = 3   // fragments per hit
	noMatchPrefix = 200 // text shown for a hit without locations
)

// highlightFields are the analysed fields whose term locations point into
// the document text.
var highlightFields = []string{FieldText, FieldCode}

// matchSpans collects the byte ranges of the matched terms, sorted and
// merged.
func matchSpans(locs search.FieldTermLocationMap) []Span {
	var spans []Span
	for _, f := range highlightFields {
		for _, ls := range locs[f] {
			for _, l := range ls {
				if l.End > l.Start {
					spans = append(spans, Span{int(l.Start), int(l.End)})
				}
			}
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].Start < spans[j].Start })
	var out []Span
	for _, s := range spans {
		if n := len(out); n > 0 && s.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, s.End)
			continue
		}
		out = append(out, s)
	}
	return out
}

// fragments cuts up to maxFragments windows of text around the spans,
// the longest (most specific) matches first, and returns them in text
// order. A match that overlaps a window already cut extends it rather
// than starting a second, overlapping one. Offsets outside the text are
// ignored, and windows never split a UTF-8 sequence.
func fragments(text string, spans []Span) []Fragment {
	if text == "" {
		return []Fragment{}
	}
	byLength := append([]Span(nil), spans...)
	sort.SliceStable(byLength, func(i, j int) bool {
		return byLength[i].End-byLength[i].Start > byLength[j].End-byLength[j].Start
	})
	var wins []Span
	for _, s := range byLength {
		if s.End > len(text) {
			continue
		}
		if k := overlapping(wins, s); k >= 0 {
			if s.End > wins[k].End && s.End-wins[k].Start <= 2*fragmentSize {
				wins[k].End = s.End
			}
			continue
		}
		if len(wins) == maxFragments {
			continue
		}
		start := runeStart(text, max(s.Start-fragmentLead, 0))
		wins = append(wins, Span{start, max(s.End, runeStart(text, min(start+fragmentSize, len(text))))})
	}
	if len(wins) == 0 {
		end := runeStart(text, min(noMatchPrefix, len(text)))
		return []Fragment{{Text: text[:end], Marks: []Span{}}}
	}
	sort.Slice(wins, func(i, j int) bool { return wins[i].Start < wins[j].Start })
	out := make([]Fragment, 0, len(wins))
	for _, w := range wins {
		f := Fragment{Text: text[w.Start:w.End], Start: w.Start, Marks: []Span{}}
		for _, m := range spans {
			if m.Start >= w.Start && m.End <= w.End {
				f.Marks = append(f.Marks, Span{m.Start - w.Start, m.End - w.Start})
			}
		}
		out = append(out, f)
	}
	return out
}

// overlapping returns the index of the window s overlaps, or -1.
func overlapping(wins []Span, s Span) int {
	for k, w := range wins {
		if s.Start < w.End && s.End > w.Start {
			return k
		}
	}
	return -1
}

// runeStart moves i back to the start of the UTF-8 sequence it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
