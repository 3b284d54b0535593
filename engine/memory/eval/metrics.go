package eval

import (
	"math"
	"regexp"
	"strings"
	"unicode"

	porter "github.com/blevesearch/go-porterstemmer"
)

// F1 is the answer F1 of MemWeaver's released code (utils.py, the A-Mem
// lineage): lower-cased, only ". , ! ?" replaced by spaces, whitespace
// split, and precision and recall over the token sets. An empty
// prediction or reference scores 0.
func F1(prediction, reference string) float64 {
	p, r := set(simpleTokens(prediction)), set(simpleTokens(reference))
	if len(p) == 0 || len(r) == 0 {
		return 0
	}
	common := 0
	for t := range p {
		if r[t] {
			common++
		}
	}
	if common == 0 {
		return 0
	}
	prec, rec := float64(common)/float64(len(p)), float64(common)/float64(len(r))
	return 2 * prec * rec / (prec + rec)
}

func simpleTokens(s string) []string {
	s = strings.ToLower(s)
	s = strings.NewReplacer(".", " ", ",", " ", "!", " ", "?", " ").Replace(s)
	return strings.Fields(s)
}

func set(ts []string) map[string]bool {
	m := make(map[string]bool, len(ts))
	for _, t := range ts {
		m[t] = true
	}
	return m
}

// BLEU1 is the released code's BLEU-1: NLTK's sentence_bleu over
// word_tokenize of the lower-cased texts with weights (1,0,0,0) and
// smoothing method1, that is the clipped unigram precision times the
// brevity penalty, and 0 when no unigram matches. [WordTokens]
// approximates nltk.word_tokenize.
func BLEU1(prediction, reference string) float64 {
	p, r := WordTokens(strings.ToLower(prediction)), WordTokens(strings.ToLower(reference))
	if len(p) == 0 || len(r) == 0 {
		return 0
	}
	ref := map[string]int{}
	for _, t := range r {
		ref[t]++
	}
	match := 0
	for _, t := range p {
		if ref[t] > 0 {
			ref[t]--
			match++
		}
	}
	if match == 0 {
		return 0
	}
	bp := 1.0
	if len(p) <= len(r) {
		bp = math.Exp(1 - float64(len(r))/float64(len(p)))
	}
	return bp * float64(match) / float64(len(p))
}

var (
	contractions = regexp.MustCompile(`(?i)([^' ])('[sS]|'[mM]|'[dD]|'ll|'LL|'re|'RE|'ve|'VE|n't|N'T)\b`)
	punctSplit   = regexp.MustCompile(`([,;:@#$%&?!\[\](){}<>"]|\.\.\.|--)`)
	finalPeriod  = regexp.MustCompile(`([^.])\.\s*$`)
)

// WordTokens splits text as NLTK's Treebank word tokenizer does in the
// common cases: punctuation and brackets apart, a final period apart,
// contractions ("n't", "'s", "'ll" …) as their own tokens. Periods inside
// words ("U.S.", "3.5") stay.
func WordTokens(s string) []string {
	s = strings.NewReplacer("“", `"`, "”", `"`, "’", "'").Replace(s)
	s = punctSplit.ReplaceAllString(s, " $1 ")
	s = finalPeriod.ReplaceAllString(s, "$1 .")
	s = contractions.ReplaceAllString(s, "$1 $2")
	return strings.Fields(s)
}

var articles = regexp.MustCompile(`\b(a|an|the|and)\b`)

// normalizeAnswer is LoCoMo's normalize_answer: lower case, punctuation
// removed, the words a, an, the and "and" removed, whitespace collapsed.
func normalizeAnswer(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r < 128 && unicode.IsPunct(r) || strings.ContainsRune("$+<=>^`|~", r) {
			return -1
		}
		return r
	}, s)
	s = articles.ReplaceAllString(s, " ")
	return strings.Join(strings.Fields(s), " ")
}

// officialTokenF1 is LoCoMo's f1_score: normalized, Porter-stemmed tokens
// compared as multisets.
func officialTokenF1(prediction, reference string) float64 {
	p, r := stems(prediction), stems(reference)
	if len(p) == 0 || len(r) == 0 {
		return 0
	}
	ref := map[string]int{}
	for _, t := range r {
		ref[t]++
	}
	same := 0
	for _, t := range p {
		if ref[t] > 0 {
			ref[t]--
			same++
		}
	}
	if same == 0 {
		return 0
	}
	prec, rec := float64(same)/float64(len(p)), float64(same)/float64(len(r))
	return 2 * prec * rec / (prec + rec)
}

func stems(s string) []string {
	ts := strings.Fields(normalizeAnswer(s))
	for i, t := range ts {
		ts[i] = porter.StemString(t)
	}
	return ts
}

// OfficialF1 is LoCoMo's evaluation.py score for a category: multi-hop
// answers are split on commas and each reference part takes its best
// prediction part; open-domain references are cut at the first ";";
// adversarial questions score 1 when the prediction says "not mentioned"
// or "no information available". The Porter stemmer is the original
// algorithm (NLTK's default adds small extensions).
func OfficialF1(prediction, reference string, category int) float64 {
	switch category {
	case 1:
		var preds []string
		for _, p := range strings.Split(prediction, ",") {
			preds = append(preds, strings.TrimSpace(p))
		}
		refs := strings.Split(reference, ",")
		sum := 0.0
		for _, r := range refs {
			best := 0.0
			for _, p := range preds {
				best = max(best, officialTokenF1(p, strings.TrimSpace(r)))
			}
			sum += best
		}
		return sum / float64(len(refs))
	case 3:
		reference = strings.TrimSpace(strings.Split(reference, ";")[0])
	case 5:
		l := strings.ToLower(prediction)
		if strings.Contains(l, "no information available") || strings.Contains(l, "not mentioned") {
			return 1
		}
		return 0
	}
	return officialTokenF1(prediction, reference)
}
