package embed

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"ctxscope/engine/inputfile"
)

// The compact vector file written by [WriteVectors] and read by [LoadSIF]:
//
//	magic "CTXSIF1\n"
//	uvarint len, name bytes
//	uvarint count, uvarint dim
//	count × (uvarint len, word bytes), in rank order
//	count × (float32 scale, dim × int8)
//
// Each vector v is stored as round(v/scale) with scale = max|v|/127.
const fileMagic = "CTXSIF1\n"

// FileName is the vector file's name in the cache directory.
const FileName = "glove-6b-100d.sif"

// ErrNoVectors is returned by [DefaultPath] when no vector file is found.
var ErrNoVectors = errors.New("no word vectors: this binary was built without them and none are in the cache folder; build it with `make build` (which fetches them into the binary), or run scripts/fetch-embeddings.sh, or set CTXSCOPE_EMBEDDINGS to a vector file")

// WriteVectors writes words (in rank order) and their vectors to w.
func WriteVectors(w io.Writer, name string, words []string, vecs [][]float32) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(fileMagic)
	putString(bw, name)
	putUvarint(bw, uint64(len(words)))
	dim := 0
	if len(vecs) > 0 {
		dim = len(vecs[0])
	}
	putUvarint(bw, uint64(dim))
	for _, word := range words {
		putString(bw, word)
	}
	q := make([]byte, dim)
	for _, v := range vecs {
		if len(v) != dim {
			return fmt.Errorf("embed: vector of length %d, want %d", len(v), dim)
		}
		var m float32
		for _, x := range v {
			m = max(m, float32(math.Abs(float64(x))))
		}
		scale := m / 127
		if scale == 0 {
			scale = 1
		}
		for i, x := range v {
			q[i] = byte(int8(math.Round(float64(x / scale))))
		}
		binary.Write(bw, binary.LittleEndian, scale)
		bw.Write(q)
	}
	return bw.Flush()
}

func putUvarint(w *bufio.Writer, n uint64) {
	var b [binary.MaxVarintLen64]byte
	w.Write(b[:binary.PutUvarint(b[:], n)])
}

func putString(w *bufio.Writer, s string) {
	putUvarint(w, uint64(len(s)))
	w.WriteString(s)
}

// LoadSIF reads a vector file written by [WriteVectors].
func LoadSIF(path string) (*SIF, error) {
	f, _, err := inputfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := ReadSIF(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// maxVocab bounds the vocabulary a file may declare.
const maxVocab = 1 << 22

// ReadSIF reads a vector file from r.
func ReadSIF(r *bufio.Reader) (*SIF, error) {
	magic := make([]byte, len(fileMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != fileMagic {
		return nil, fmt.Errorf("embed: not a vector file (bad magic)")
	}
	name, err := getString(r)
	if err != nil {
		return nil, err
	}
	count, err1 := binary.ReadUvarint(r)
	dim, err2 := binary.ReadUvarint(r)
	if err := errors.Join(err1, err2); err != nil || count > maxVocab || dim == 0 || dim > 4096 {
		return nil, fmt.Errorf("embed: bad header (count %d, dim %d): %v", count, dim, err)
	}
	s := &SIF{name: name, dim: int(dim), words: make(map[string]int, count)}
	for i := 0; i < int(count); i++ {
		w, err := getString(r)
		if err != nil {
			return nil, fmt.Errorf("embed: word %d: %w", i, err)
		}
		if _, dup := s.words[w]; !dup {
			s.words[w] = i
		}
	}
	s.vectors = make([]int8, int(count)*s.dim)
	s.scales = make([]float32, count)
	buf := make([]byte, s.dim)
	for i := range s.scales {
		if err := binary.Read(r, binary.LittleEndian, &s.scales[i]); err != nil {
			return nil, fmt.Errorf("embed: vector %d: %w", i, err)
		}
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, fmt.Errorf("embed: vector %d: %w", i, err)
		}
		for j, b := range buf {
			s.vectors[i*s.dim+j] = int8(b)
		}
	}
	s.weights = zipfWeights(int(count))
	return s, nil
}

func getString(r *bufio.Reader) (string, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return "", err
	}
	if n > 1<<16 {
		return "", fmt.Errorf("string of %d bytes", n)
	}
	b := make([]byte, n)
	_, err = io.ReadFull(r, b)
	return string(b), err
}

// zipfWeights returns SIF weights for ranks 0..n-1 with p(rank r) =
// 1/((r+1)·H(n)), Zipf's law with exponent 1.
func zipfWeights(n int) []float32 {
	h := 0.0
	for r := 1; r <= n; r++ {
		h += 1 / float64(r)
	}
	w := make([]float32, n)
	for r := range w {
		p := 1 / (float64(r+1) * h)
		w[r] = float32(sifA / (sifA + p))
	}
	return w
}

// DefaultPath finds the vector file: $CTXSCOPE_EMBEDDINGS if set, else
// .cache/embeddings/ in the enclosing source tree (where
// scripts/fetch-embeddings.sh puts it), else the user cache directory's
// ctxscope/embeddings/.
func DefaultPath() (string, error) {
	if p := os.Getenv("CTXSCOPE_EMBEDDINGS"); p != "" {
		return p, nil
	}
	var candidates []string
	if dir, err := os.Getwd(); err == nil {
		for ; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				candidates = append(candidates, filepath.Join(dir, ".cache", "embeddings", FileName))
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	if dir, err := os.UserCacheDir(); err == nil {
		candidates = append(candidates, filepath.Join(dir, "ctxscope", "embeddings", FileName))
	}
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			return c, nil
		}
	}
	return "", ErrNoVectors
}
