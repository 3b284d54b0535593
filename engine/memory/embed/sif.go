package embed

import (
	"context"
	"strings"
	"unicode"
)

// sifA is the smoothing constant a of SIF weights a/(a+p(w)) (Arora et
// al. 2017 recommend 1e-3 to 1e-4).
const sifA = 1e-3

// SIF embeds a text as the weighted mean of its words' vectors, with
// weight a/(a+p(w)) for a word of estimated frequency p(w), then scales it
// to unit length. Frequencies come from the words' rank in the vocabulary
// (GloVe lists words by corpus frequency) through Zipf's law. The
// principal-component removal of the original method is not applied: it
// needs the whole corpus up front, which an incremental memory lacks.
type SIF struct {
	words   map[string]int // word -> rank
	vectors []int8         // rank*dim .. rank*dim+dim: quantized vector
	scales  []float32      // per rank: multiply the int8 values by this
	weights []float32      // per rank: SIF weight
	dim     int
	name    string
}

// Name returns the model name recorded in the vector file.
func (s *SIF) Name() string { return s.name }

// Dim returns the vector length.
func (s *SIF) Dim() int { return s.dim }

// Vocabulary returns the number of known words.
func (s *SIF) Vocabulary() int { return len(s.scales) }

// Embed embeds each text; it never fails.
func (s *SIF) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = s.Vector(t)
	}
	return out, nil
}

// Vector embeds one text.
func (s *SIF) Vector(text string) []float32 {
	v := make([]float32, s.dim)
	for _, w := range Words(text) {
		r, ok := s.words[w]
		if !ok {
			continue
		}
		k := s.weights[r] * s.scales[r]
		q := s.vectors[r*s.dim : (r+1)*s.dim]
		for i := range v {
			v[i] += k * float32(q[i])
		}
	}
	Normalize(v)
	return v
}

// Words splits text into lower-cased words as GloVe's vocabulary has
// them: letters and digits, with inner apostrophes and hyphens split off.
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// NeedsCentering reports true: GloVe sentence averages share a large
// common component (median pairwise cosine about 0.9 on LoCoMo turns),
// which [Centered] removes.
func (s *SIF) NeedsCentering() bool { return true }
