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
var highlightFields = []string{FieldText, FieldCode, "_all"}

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
// order. Offsets outside the text are ignored, and windows never split a
// UTF-8 sequence.
func fragments(text string, spans []Span) []Fragment {
	out := []Fragment{}
	if text == "" {
		return out
	}
	byLength := append([]Span(nil), spans...)
	sort.SliceStable(byLength, func(i, j int) bool {
		return byLength[i].End-byLength[i].Start > byLength[j].End-byLength[j].Start
	})
	for _, s := range byLength {
		if len(out) == maxFragments {
			break
		}
		if s.End > len(text) || covered(out, s) {
			continue
		}
		out = append(out, window(text, s, spans))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	if len(out) == 0 {
		end := runeStart(text, min(noMatchPrefix, len(text)))
		out = append(out, Fragment{Text: text[:end], Marks: []Span{}})
	}
	return out
}

// window cuts the fragment around span s, marking every span inside it.
func window(text string, s Span, spans []Span) Fragment {
	start := runeStart(text, max(s.Start-fragmentLead, 0))
	end := runeStart(text, min(start+fragmentSize, len(text)))
	end = max(end, s.End)
	f := Fragment{Text: text[start:end], Start: start, Marks: []Span{}}
	for _, m := range spans {
		if m.Start >= start && m.End <= end {
			f.Marks = append(f.Marks, Span{m.Start - start, m.End - start})
		}
	}
	return f
}

// covered reports whether span s lies inside one of the fragments.
func covered(fs []Fragment, s Span) bool {
	for _, f := range fs {
		if s.Start >= f.Start && s.End <= f.Start+len(f.Text) {
			return true
		}
	}
	return false
}

// runeStart moves i back to the start of the UTF-8 sequence it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}
