package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// JSONError turns an encoding/json error on data into one that names the
// file, line and column where decoding failed. Errors without an offset
// are returned wrapped with the name alone.
func JSONError(name string, data []byte, err error) error {
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return fmt.Errorf("%s: %w", name, err)
	}
	line, col := LineCol(data, off)
	return fmt.Errorf("%s:%d:%d: %w", name, line, col, err)
}

// LineCol returns the 1-based line and column of byte offset off in data.
func LineCol(data []byte, off int64) (line, col int) {
	head := data[:off]
	line = bytes.Count(head, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(head, '\n') + 1) + 1
	return line, col
}
