package normalized

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// openSeed opens a seed file of the shared corpus, failing the fuzz test
// when it is missing.
func openSeed(f *testing.F, path string) io.Reader {
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatalf("a seed of the shared corpus is missing (testdata/shared/sessions): %v", err)
	}
	return bytes.NewReader(data)
}
