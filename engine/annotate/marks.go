package annotate

import (
	"sort"

	"ctxscope/engine/store"
)

// ContextItem is the item id under which a question's whole context is
// judged sufficient or insufficient.
const ContextItem = ""

// Key names what one annotator judged: an item of a question's context
// (ContextItem for the context as a whole).
type Key struct {
	Question, Item, Annotator string
}

// Latest returns, for every key, the last annotation written: each mark
// stores the item's whole state, so the last one is the item's state.
// The result is ordered by question, item and annotator.
func Latest(anns []store.Annotation) []store.Annotation {
	last := map[Key]store.Annotation{}
	for _, a := range anns {
		k := Key{a.Question, a.Item, a.Annotator}
		if prev, ok := last[k]; !ok || a.ID > prev.ID {
			last[k] = a
		}
	}
	out := make([]store.Annotation, 0, len(last))
	for _, a := range last {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Question != b.Question {
			return a.Question < b.Question
		}
		if a.Item != b.Item {
			return a.Item < b.Item
		}
		return a.Annotator < b.Annotator
	})
	return out
}

// Categories of judgement.
const (
	CategoryHelpful    = "helpful"    // an item of the context: helpful or not
	CategorySufficient = "sufficient" // the whole context: sufficient or not
)

// CategoryAgreement is the agreement on one category.
type CategoryAgreement struct {
	Category   string   `json:"category"`
	Annotators []string `json:"annotators"`
	Agreement
	// Error says why there is no agreement (too few annotators or shared
	// units); "" when there is one.
	Error string `json:"error,omitempty"`
}

// Agreements computes the agreement of each category over the latest
// marks: Cohen's kappa when two annotators judged it, Fleiss' kappa when
// more did, each over the units that every one of them judged.
func Agreements(anns []store.Annotation) []CategoryAgreement {
	latest := Latest(anns)
	out := make([]CategoryAgreement, 0, 2)
	for _, cat := range []string{CategoryHelpful, CategorySufficient} {
		out = append(out, agreement(cat, latest))
	}
	return out
}

func agreement(cat string, latest []store.Annotation) CategoryAgreement {
	type unit struct{ question, item string }
	labels := map[unit]map[string]string{}
	var units []unit
	who := map[string]bool{}
	for _, a := range latest {
		v := a.Helpful
		if cat == CategorySufficient {
			v = a.Sufficient
		}
		if v == nil || (cat == CategorySufficient) != (a.Item == ContextItem) {
			continue
		}
		u := unit{a.Question, a.Item}
		if labels[u] == nil {
			labels[u] = map[string]string{}
			units = append(units, u)
		}
		labels[u][a.Annotator] = label(*v)
		who[a.Annotator] = true
	}
	res := CategoryAgreement{Category: cat, Annotators: sortedKeys(who)}
	raters := res.Annotators
	var ratings [][]string
	for _, u := range units {
		if len(labels[u]) != len(raters) {
			continue // not judged by everybody
		}
		row := make([]string, len(raters))
		for i, r := range raters {
			row[i] = labels[u][r]
		}
		ratings = append(ratings, row)
	}
	var err error
	switch {
	case len(raters) < 2 || len(ratings) == 0:
		err = ErrTooFew
	case len(raters) == 2:
		a, b := make([]string, len(ratings)), make([]string, len(ratings))
		for i, r := range ratings {
			a[i], b[i] = r[0], r[1]
		}
		res.Agreement, err = Cohen(a, b)
	default:
		res.Agreement, err = Fleiss(ratings)
	}
	if err != nil {
		res.Error = err.Error()
	}
	return res
}

func label(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
