package cli

import (
	"encoding/json"
	"io"
)

// writeJSON writes v as indented JSON without HTML escaping, so that
// session text reads as written.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
