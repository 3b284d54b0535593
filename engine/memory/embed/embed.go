// Package embed turns text into vectors for the memory's dense channels.
// A [Provider] is either the offline default, [SIF] (pretrained GloVe 6B
// 100-d word vectors averaged with smooth inverse frequency weights), or a
// [Client] for any OpenAI-compatible /v1/embeddings endpoint (with Ollama's
// all-minilm this is the paper's all-MiniLM-L6-v2).
package embed

import (
	"context"
	"math"
)

// Provider embeds texts. Vectors are unit length (or all zero for a text
// with no known word), so a dot product is the cosine similarity.
type Provider interface {
	// Name identifies the model, for reports and stored memories.
	Name() string
	// Dim is the length of every vector.
	Dim() int
	// Embed returns one vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Dot returns the dot product of a and b over their common length.
func Dot(a, b []float32) float32 {
	n := min(len(a), len(b))
	var s float32
	for i := 0; i < n; i++ {
		s += a[i] * b[i]
	}
	return s
}

// Normalize scales v to unit length in place; a zero vector stays zero.
func Normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// Mean returns the normalized mean of vectors (a cluster centre); nil for
// none.
func Mean(vs [][]float32) []float32 {
	if len(vs) == 0 {
		return nil
	}
	m := make([]float32, len(vs[0]))
	for _, v := range vs {
		for i := range m {
			m[i] += v[i]
		}
	}
	Normalize(m)
	return m
}
