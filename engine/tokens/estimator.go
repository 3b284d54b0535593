package tokens

import (
	"ctxscope/engine/session"
)

// imageChars is what the reference heuristic charges for an image in a tool
// result or custom message: 4,800 characters, that is 1,200 tokens.
const imageChars = 4800

// Estimator is the CWL reference heuristic (pi's estimateTokens,
// compaction.ts L232-290): per message ceil(chars/4), chars counted in
// UTF-16 code units.
//
// What counts as chars, by message:
//   - user: text; images count 0.
//   - assistant: text, thinking, and for each tool call its name plus the
//     JSON.stringify of its arguments.
//   - tool results and custom messages: text, plus 4,800 per image.
//   - bashExecution: command and output.
//   - branch and compaction summaries: the summary.
//   - system (not a pi role; ctxscope's extension): text.
type Estimator struct{}

// Name returns "estimate".
func (Estimator) Name() string { return "estimate" }

// Units returns the UTF-16 length the reference heuristic counts for b.
func (Estimator) Units(m *session.Message, b *session.Block) int {
	switch b.Type {
	case session.BlockText, session.BlockThinking:
		return UTF16Len(b.Text)
	case session.BlockToolCall:
		if m.Role != session.RoleAssistant || b.Implicit {
			return 0 // an implicit call is counted as the text it is part of
		}
		return UTF16Len(b.ToolName) + UTF16Len(JSStringify(b.Arguments))
	case session.BlockToolResult:
		n := 0
		for i := range b.Content {
			c := &b.Content[i]
			switch c.Type {
			case session.BlockText:
				n += UTF16Len(c.Text)
			case session.BlockImage:
				n += imageChars
			}
		}
		return n
	case session.BlockImage:
		if m.Role == session.RoleTool || m.Origin == session.OriginCustom {
			return imageChars
		}
	}
	return 0
}

// Tokens returns ceil(units/4).
func (Estimator) Tokens(_ *session.Message, units int) int { return (units + 3) / 4 }

// Weight returns units/4.
func (Estimator) Weight(units int) float64 { return float64(units) / 4 }
