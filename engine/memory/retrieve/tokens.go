package retrieve

import (
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

func countMessage(c tokens.Counter, text string) int {
	m := &session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: text}}}
	return c.Tokens(m, c.Units(m, &m.Blocks[0]))
}
