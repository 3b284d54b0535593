package retrieve

import (
	"sort"

	"ctxscope/engine/memory/embed"
)

// scores are one query's scores over the items of a layer.
type scores struct {
	dense, lex, fused []float64
}

// score computes dense cosine, normalized BM25 (best hit = 1) and their
// mix with lexical weight w for every item of l.
func (l *layer) score(q []float32, query string, w float64) (scores, error) {
	n := len(l.ids)
	s := scores{dense: make([]float64, n), lex: make([]float64, n), fused: make([]float64, n)}
	for i, v := range l.vecs {
		s.dense[i] = float64(embed.Dot(q, v))
	}
	if l.lex != nil && w > 0 && n > 0 {
		hits, err := l.lex.Search(query, min(n, lexicalDepth))
		if err != nil {
			return s, err
		}
		if len(hits) > 0 && hits[0].Score > 0 {
			for _, h := range hits {
				if i, ok := l.at[h.ID]; ok {
					s.lex[i] = h.Score / hits[0].Score
				}
			}
		}
	}
	for i := range s.fused {
		s.fused[i] = (1-w)*s.dense[i] + w*s.lex[i]
	}
	return s, nil
}

// top returns the k best of cands by score, ties in candidate order.
func top(cands []int, score []float64, k int) []int {
	c := append([]int(nil), cands...)
	sort.SliceStable(c, func(a, b int) bool { return score[c[a]] > score[c[b]] })
	return c[:min(k, len(c))]
}

// all returns 0..n-1.
func all(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// lexicalDepth bounds the BM25 hits fetched per layer and query; items
// below it get a lexical score of 0, which their normalized score nearly
// is anyway.
const lexicalDepth = 256
