package proxyrec

import (
	"bytes"

	json "github.com/segmentio/encoding/json"
)

// events returns the JSON payloads of a response body: the data of each
// server-sent event (a data line "[DONE]" ends none), the elements of a
// JSON array (Gemini's stream without SSE), or the body itself when it is
// one JSON value.
func events(body []byte) []json.RawMessage {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') && json.Valid(trimmed) {
		if trimmed[0] == '[' {
			var arr []json.RawMessage
			if json.Unmarshal(trimmed, &arr) == nil {
				return arr
			}
		}
		return []json.RawMessage{trimmed}
	}
	var out []json.RawMessage
	var data []byte
	flush := func() {
		d := bytes.TrimSpace(data)
		if len(d) > 0 && string(d) != "[DONE]" && json.Valid(d) {
			out = append(out, append(json.RawMessage(nil), d...))
		}
		data = data[:0]
	}
	for _, line := range bytes.Split(body, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		switch {
		case len(line) == 0:
			flush()
		case bytes.HasPrefix(line, []byte("data:")):
			if len(data) > 0 {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))...)
		}
	}
	flush()
	return out
}
