// Package extract holds the offline extractor: a deterministic,
// model-free reader of first-person statements ("I went to a support group
// yesterday") into temporal triples (speaker, went to, support group,
// 7 May 2023), the default writer of the graph layer on a machine with no
// model.
package extract

import (
	"context"
	"regexp"
	"strings"
	"unicode"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/temporal"
)

// Offline is the earlier deterministic extractor, kept as the "patterns"
// choice: word patterns without a tagger, which [Tagged] replaced as the
// default because most of what it wrote was weak ("has goal") or junk
// ("mentions Friday"). It reads three shapes:
//   - first-person clauses: subject "I"/"we", a verb with its particle,
//     and the noun phrase after it;
//   - possessives "my X": (speaker, has, X);
//   - proper names (capitalised words not at a sentence start and not
//     the speaker): (speaker, mentions, Name).
//
// Each triple gets the first time expression of its sentence, normalized
// against the passage's time.
type Offline struct{}

// Name returns "offline".
func (Offline) Name() string { return "offline" }

// Extract reads one passage.
func (Offline) Extract(_ context.Context, p memory.Passage) (memory.Extraction, error) {
	var ex memory.Extraction
	seen := map[string]bool{}
	add := func(t memory.Triple) {
		key := strings.ToLower(t.Subject + "|" + t.Predicate + "|" + t.Object)
		if t.Object == "" || seen[key] || strings.EqualFold(t.Subject, t.Object) {
			return
		}
		seen[key] = true
		ex.Triples = append(ex.Triples, t)
	}
	for _, s := range sentences(stripCaption(p.Text)) {
		when, _ := temporal.Normalize(s, p.Time)
		toks := tokenize(s)
		var objects []string
		for _, t := range append(clauses(p.Speaker, toks), possessives(p.Speaker, toks)...) {
			t.Time = when
			add(t)
			objects = append(objects, t.Object)
		}
		for _, name := range properNames(toks) {
			if !strings.EqualFold(name, p.Speaker) && !within(name, objects) {
				add(memory.Triple{Subject: p.Speaker, Predicate: "mentions", Object: name, Time: when})
			}
		}
	}
	ents := map[string]bool{}
	for _, t := range ex.Triples {
		for _, e := range []string{t.Subject, t.Object} {
			if !ents[e] {
				ents[e] = true
				ex.Entities = append(ex.Entities, e)
			}
		}
	}
	return ex, nil
}

func stripCaption(text string) string {
	if strings.HasPrefix(text, "[Image: ") {
		if i := strings.Index(text, "] "); i > 0 {
			return text[i+2:]
		}
	}
	return text
}

var sentenceSplit = regexp.MustCompile(`[.!?;]+(\s+|$)|\s[-–—]\s`)

func sentences(text string) []string {
	var out []string
	for _, s := range sentenceSplit.Split(text, -1) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// token is a word of a sentence; punct marks a comma or other break.
type token struct {
	text  string
	punct bool
	first bool // first word of the sentence
}

func tokenize(s string) []token {
	var out []token
	for _, f := range strings.Fields(s) {
		trail := strings.TrimRightFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		word := strings.TrimLeftFunc(trail, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		word = strings.ReplaceAll(word, "’", "'")
		if word != "" {
			out = append(out, token{text: word, first: len(out) == 0})
		}
		if len(trail) < len(f) {
			out = append(out, token{text: f[len(trail):], punct: true})
		}
	}
	return out
}

// within reports whether name is part of one of the objects.
func within(name string, objects []string) bool {
	for _, o := range objects {
		if strings.Contains(o, name) {
			return true
		}
	}
	return false
}
