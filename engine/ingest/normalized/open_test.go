package normalized

import (
	"bytes"
	"io"
	"os"
	"testing"
)

func openOrSkip(f *testing.F, path string) io.Reader {
	data, err := os.ReadFile(path)
	if err != nil {
		f.Skip(err)
	}
	return bytes.NewReader(data)
}
