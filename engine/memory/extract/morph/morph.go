// Package morph lemmatises English nouns and verbs as WordNet's morphy
// does, over WordNet 3.0's lemma lists and exception lists (wordnet.gz,
// made from Debian's wordnet-base by scripts/update-wordnet.sh; licence in
// LICENSE-WordNet): a word in the exception list maps to its listed base
// form; otherwise the detachment rules for its part of speech are tried in
// order, and the first result that is a WordNet lemma wins.
package morph

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strings"
	"sync"
)

//go:embed wordnet.gz
var wordnetGz []byte

// POS is a part of speech morph knows.
type POS int

// Parts of speech.
const (
	Noun POS = iota
	Verb
)

// lexicon holds one part of speech's lemmas and exceptions.
type lexicon struct {
	lemmas     map[string]bool
	exceptions map[string]string
}

var (
	once sync.Once
	lex  [2]lexicon
)

func load() {
	for i := range lex {
		lex[i] = lexicon{lemmas: map[string]bool{}, exceptions: map[string]string{}}
	}
	zr, err := gzip.NewReader(bytes.NewReader(wordnetGz))
	if err != nil {
		panic("morph: the embedded wordnet.gz: " + err.Error())
	}
	sc := bufio.NewScanner(zr)
	var cur *lexicon
	exceptions := false
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			f := strings.Fields(line)
			pos := Noun
			if len(f) == 2 && f[1] == "verb" {
				pos = Verb
			}
			cur, exceptions = &lex[pos], f[0] == "#exceptions"
			continue
		}
		if cur == nil {
			continue
		}
		if exceptions {
			if form, base, ok := strings.Cut(line, " "); ok {
				cur.exceptions[form] = base
			}
			continue
		}
		cur.lemmas[line] = true
	}
}

// detachment rules: suffix and replacement, in morphy's order.
var rules = [2][][2]string{
	Noun: {{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"}},
	Verb: {{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}},
}

// Lemma returns the base form of word (lower-cased) as a pos, or the word
// lower-cased when WordNet knows no base form for it.
func Lemma(word string, pos POS) string {
	once.Do(load)
	w := strings.ToLower(word)
	l := &lex[pos]
	if base, ok := l.exceptions[w]; ok {
		return base
	}
	if l.lemmas[w] {
		return w
	}
	for _, r := range rules[pos] {
		if strings.HasSuffix(w, r[0]) && len(w) > len(r[0]) {
			if c := w[:len(w)-len(r[0])] + r[1]; l.lemmas[c] {
				return c
			}
		}
	}
	// A doubled final consonant, as in "stopped" or "running".
	if pos == Verb {
		for _, suf := range []string{"ed", "ing"} {
			if s := strings.TrimSuffix(w, suf); s != w && len(s) > 2 && s[len(s)-1] == s[len(s)-2] && l.lemmas[s[:len(s)-1]] {
				return s[:len(s)-1]
			}
		}
	}
	return w
}

// Known reports whether word (lower-cased) is a WordNet lemma as a pos.
func Known(word string, pos POS) bool {
	once.Do(load)
	return lex[pos].lemmas[strings.ToLower(word)]
}
