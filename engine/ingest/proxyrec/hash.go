package proxyrec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"

	json "github.com/segmentio/encoding/json"

	"ctxscope/engine/session"
)

// hashOf identifies a message by what the model reads of it: its role and
// its blocks' kinds, texts, calls (arguments in canonical JSON) and
// results. A response and the same message sent back as context hash
// alike, however the agent serialised it.
func hashOf(m *session.Message) string {
	h := sha256.New()
	h.Write([]byte(m.Role))
	if m.Role == session.RoleSystem {
		h.Write([]byte{0})
		h.Write([]byte(m.Origin))
	}
	writeBlocks(h, m.Blocks)
	return hex.EncodeToString(h.Sum(nil))
}

func writeBlocks(h interface{ Write([]byte) (int, error) }, blocks []session.Block) {
	for i := range blocks {
		b := &blocks[i]
		for _, s := range []string{"\x1e", string(b.Type), "\x1f", b.Text, "\x1f", b.ToolCallID, "\x1f", b.ToolName, "\x1f"} {
			h.Write([]byte(s))
		}
		h.Write(canonical(b.Arguments))
		if b.IsError {
			h.Write([]byte("\x1ferror"))
		}
		writeBlocks(h, b.Content)
	}
}

// canonical is JSON with its object keys sorted and no spaces.
func canonical(raw json.RawMessage) []byte {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}
