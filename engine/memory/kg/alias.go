package kg

import (
	"sort"
	"strings"
	"unicode"
)

// Suggestion proposes merging Drop into Keep, with the reason.
type Suggestion struct {
	Keep, Drop string // entity ids
	Kind       string // "same-name" or "short-form"
	Reason     string
}

// SuggestMerges proposes merges of entities that name the same thing:
// names equal once case, punctuation, a leading article and a plural "s"
// are ignored, and short forms of a person's name ("Mel" for "Melanie",
// at least three letters, a single word, a prefix of a capitalised name).
// Each entity is dropped at most once, into the entity with the longer
// name (then the smaller id), so applying the suggestions in order is
// safe. The released MemWeaver code never merges; this is ctxscope's
// addition, which is why every merge is reported and can be undone.
func (g *Graph) SuggestMerges() []Suggestion {
	es := g.Entities()
	sort.SliceStable(es, func(i, j int) bool { return len(es[i].Name) > len(es[j].Name) })
	canon := map[string]string{}
	dropped := map[string]bool{}
	var out []Suggestion
	for _, e := range es {
		c := canonical(e.Name)
		if c == "" {
			continue
		}
		if k, ok := canon[c]; ok {
			out = append(out, Suggestion{Keep: k, Drop: e.ID, Kind: "same-name", Reason: "same name: " + e.Name + " = " + g.entities[k].Name})
			dropped[e.ID] = true
			continue
		}
		canon[c] = e.ID
	}
	for _, short := range es {
		if dropped[short.ID] || !nickname(short.Name) {
			continue
		}
		for _, long := range es {
			if long.ID == short.ID || dropped[long.ID] || !isShortFor(short.Name, long.Name) {
				continue
			}
			out = append(out, Suggestion{Keep: long.ID, Drop: short.ID, Kind: "short-form", Reason: "short form: " + short.Name + " for " + long.Name})
			dropped[short.ID] = true
			break
		}
	}
	return out
}

func canonical(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, art := range []string{"the ", "a ", "an ", "my "} {
		n = strings.TrimPrefix(n, art)
	}
	n = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' {
			return r
		}
		return -1
	}, n)
	n = strings.Join(strings.Fields(n), " ")
	switch {
	case len(n) > 4 && strings.HasSuffix(n, "sses"):
		n = n[:len(n)-2]
	case len(n) > 3 && strings.HasSuffix(n, "s") && !strings.HasSuffix(n, "ss"):
		n = n[:len(n)-1]
	}
	return n
}

func nickname(s string) bool {
	return len(s) >= 3 && !strings.Contains(s, " ") && unicode.IsUpper(rune(s[0]))
}

func isShortFor(short, long string) bool {
	return !strings.Contains(long, " ") && len(long) > len(short) && unicode.IsUpper(rune(long[0])) &&
		strings.HasPrefix(long, short)
}
