package debug

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"ctxscope/engine/session"
)

// BlockText returns the whole text of a block as the debugger shows it:
// the text of text and thinking blocks, a tool call's name and raw
// arguments, a tool result's text. Redacted thinking, opaque payloads and
// images are described, never shown.
func BlockText(b *session.Block) string {
	switch b.Type {
	case session.BlockText:
		return b.Text
	case session.BlockThinking:
		if b.Redacted {
			return "[redacted thinking]"
		}
		return b.Text
	case session.BlockToolCall:
		return string(b.Arguments)
	case session.BlockToolResult:
		return b.ResultText()
	case session.BlockImage:
		return "[image " + b.MIME + "]"
	case session.BlockOpaque:
		return fmt.Sprintf("[encrypted reasoning, %d bytes: counted only in the provider's usage]", b.Size)
	}
	return ""
}

// Preview cuts s to at most max bytes on a rune boundary. It reports
// whether it cut.
func Preview(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.ToValidUTF8(s[:cut], ""), true
}

// BlockText returns the whole text of block b of message i of request k's
// context.
func (r *Replay) BlockText(k, i, b int) (string, error) {
	if k < 0 || k >= len(r.reqs) {
		return "", fmt.Errorf("debug: request %d out of range [0, %d)", k, len(r.reqs))
	}
	q := r.reqs[k]
	if i < 0 || i >= q.Len || b < 0 || b >= len(q.Context.Messages[i].Blocks) {
		return "", fmt.Errorf("debug: no block %d of message %d at request %d", b, i, k)
	}
	return BlockText(&q.Context.Messages[i].Blocks[b]), nil
}
