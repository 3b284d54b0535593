package inspect

import (
	"bytes"
	"encoding/json"
)

const attachmentPrefix = `"attachment://`

// resolve replaces every JSON string of raw that is a whole
// "attachment://<hash>" reference with the attachment's text. References
// to attachments that are missing are left as they are and reported to
// missing.
func resolve(raw json.RawMessage, attachments map[string]string, missing func(hash string)) json.RawMessage {
	if !bytes.Contains(raw, []byte(attachmentPrefix)) {
		return raw
	}
	var out []byte
	rest := []byte(raw)
	for {
		i := bytes.Index(rest, []byte(attachmentPrefix))
		if i < 0 {
			break
		}
		start := i + len(attachmentPrefix)
		end := bytes.IndexByte(rest[start:], '"')
		if end < 0 {
			break
		}
		if i > 0 && rest[i-1] == '\\' {
			// An escaped quote inside a longer string, not a reference.
			out = append(out, rest[:start]...)
			rest = rest[start:]
			continue
		}
		hash := string(rest[start : start+end])
		text, ok := attachments[hash]
		out = append(out, rest[:i]...)
		if ok {
			enc, _ := json.Marshal(text) // a string always marshals
			out = append(out, enc...)
		} else {
			missing(hash)
			out = append(out, rest[i:start+end+1]...)
		}
		rest = rest[start+end+1:]
	}
	return append(out, rest...)
}
