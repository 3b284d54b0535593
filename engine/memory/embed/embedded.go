package embed

import (
	"bufio"
	"bytes"
	"embed"
	"errors"
	"io/fs"
	"os"
	"sync"
)

// vectorFiles holds the vector file when the build had it (see
// vectors/README.md); otherwise only the README.
//
//go:embed vectors
var vectorFiles embed.FS

var (
	embeddedOnce sync.Once
	embeddedSIF  *SIF
	embeddedErr  error
)

// Embedded returns the vectors built into the binary, read on first use;
// ok is false when the binary was built without them.
func Embedded() (s *SIF, ok bool, err error) {
	data, err := fs.ReadFile(vectorFiles, "vectors/"+FileName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	embeddedOnce.Do(func() {
		if err != nil {
			embeddedErr = err
			return
		}
		embeddedSIF, embeddedErr = ReadSIF(bufio.NewReaderSize(bytes.NewReader(data), 1<<20))
	})
	return embeddedSIF, embeddedErr == nil, embeddedErr
}

// Default returns the offline embedder: the vector file named by
// $CTXSCOPE_EMBEDDINGS when set, else the vectors built into the binary,
// else the file where scripts/fetch-embeddings.sh puts it (see
// DefaultPath). Without any, the error says how to get them.
func Default() (*SIF, error) {
	if p := os.Getenv("CTXSCOPE_EMBEDDINGS"); p != "" {
		return LoadSIF(p)
	}
	if s, ok, err := Embedded(); ok || err != nil {
		return s, err
	}
	p, err := DefaultPath()
	if err != nil {
		return nil, err
	}
	return LoadSIF(p)
}
