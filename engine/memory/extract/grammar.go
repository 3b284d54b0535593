package extract

import (
	"strings"
	"unicode"

	"ctxscope/engine/memory"
)

var (
	subjects = set("i", "i've", "i'm", "i'd", "i'll", "we", "we've", "we're", "we'd", "we'll")
	skip     = set("am", "was", "were", "have", "had", "has", "just", "really", "recently", "finally", "also", "actually",
		"been", "always", "never", "even", "still", "already", "totally", "definitely", "do", "did", "will", "would",
		"can", "could", "gonna", "so", "truly", "often", "usually", "sometimes", "now", "currently", "kinda", "got")
	particles = set("to", "on", "in", "at", "with", "for", "about", "into", "up", "out", "from", "by", "of", "over", "back", "off", "through", "around")
	stops     = set("and", "but", "because", "so", "which", "that", "when", "while", "since", "as", "if", "it", "it's",
		"yesterday", "today", "tomorrow", "last", "next", "ago", "this", "though", "too", "with", "who", "where", "i", "we", "you",
		"is", "was", "are", "were", "be", "has", "have", "had", "can", "will", "would")
	dets   = set("a", "an", "the", "my", "our", "some", "this", "that", "these", "those", "his", "her", "their", "your", "its", "such")
	vague  = set("it", "that", "this", "them", "there", "things", "thing", "something", "stuff", "lot", "bit", "you", "one", "so", "out")
	copula = set("am", "was", "were", "is", "are", "be", "been", "i'm", "we're")
)

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

func lower(t token) string { return strings.ToLower(t.text) }

// clauses reads "I/we [aux…] verb [particle] object" shapes.
func clauses(speaker string, toks []token) []memory.Triple {
	var out []memory.Triple
	for i := 0; i < len(toks); i++ {
		if toks[i].punct || !subjects[lower(toks[i])] {
			continue
		}
		j := i + 1
		for j < len(toks) && !toks[j].punct && skip[lower(toks[j])] {
			j++
		}
		if j >= len(toks) || toks[j].punct || stops[lower(toks[j])] || particles[lower(toks[j])] {
			continue
		}
		pred := []string{lower(toks[j])}
		if copula[lower(toks[i])] || copula[lower(toks[j-1])] {
			pred = append([]string{"is"}, pred...)
		}
		j++
		for j < len(toks) && !toks[j].punct && particles[lower(toks[j])] && len(pred) < 3 {
			pred = append(pred, lower(toks[j]))
			j++
		}
		if obj := nounPhrase(toks[j:]); obj != "" {
			out = append(out, memory.Triple{Subject: speaker, Predicate: strings.Join(pred, " "), Object: obj})
		}
	}
	return out
}

// nounPhrase takes up to five words after leading determiners, stopping
// at punctuation, conjunctions and time words.
func nounPhrase(toks []token) string {
	i := 0
	for i < len(toks) && !toks[i].punct && dets[lower(toks[i])] {
		i++
	}
	var words []string
	for ; i < len(toks) && len(words) < 5; i++ {
		if toks[i].punct || stops[lower(toks[i])] || particles[lower(toks[i])] && len(words) > 0 {
			break
		}
		words = append(words, toks[i].text)
	}
	if len(words) == 0 || len(words) == 1 && vague[strings.ToLower(words[0])] {
		return ""
	}
	return strings.Join(words, " ")
}

// possessives reads "my X" as (speaker, has, X).
func possessives(speaker string, toks []token) []memory.Triple {
	var out []memory.Triple
	for i := 0; i+1 < len(toks); i++ {
		if w := lower(toks[i]); (w == "my" || w == "our") && !toks[i].punct {
			if np := nounPhrase(toks[i+1 : min(i+4, len(toks))]); np != "" {
				out = append(out, memory.Triple{Subject: speaker, Predicate: "has", Object: np})
			}
		}
	}
	return out
}

// properNames returns runs of capitalised words that do not start the
// sentence, such as "Boston" or "Nate's team" → "Nate".
func properNames(toks []token) []string {
	var out []string
	for i := 0; i < len(toks); i++ {
		if !capital(toks[i]) || toks[i].first {
			continue
		}
		j := i
		var parts []string
		for j < len(toks) && capital(toks[j]) && len(parts) < 4 {
			parts = append(parts, strings.TrimSuffix(toks[j].text, "'s"))
			j++
		}
		out = append(out, strings.Join(parts, " "))
		i = j
	}
	return out
}

func capital(t token) bool {
	if t.punct || t.text == "" {
		return false
	}
	r := []rune(t.text)
	return unicode.IsUpper(r[0]) && !subjects[strings.ToLower(t.text)] && strings.ToLower(t.text) != "i"
}
