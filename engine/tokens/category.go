package tokens

import "ctxscope/engine/session"

// Category classifies context content for token breakdowns.
type Category int

// Categories, in the order breakdowns list them.
const (
	CatSystem     Category = iota // system prompts
	CatTools                      // tool schemas, where the request as sent is known
	CatUser                       // what the user typed or ran
	CatInjected                   // context the agent injected into user messages (reminders, environment)
	CatSummary                    // compaction and branch summaries
	CatAssistant                  // assistant text
	CatThinking                   // assistant reasoning
	CatToolCall                   // tool calls (names and arguments)
	CatToolResult                 // tool results
	NumCategories
)

var categoryNames = [NumCategories]string{"system", "tools", "user", "injected", "summary", "assistant", "thinking", "toolCall", "toolResult"}

// String returns the category's stable name.
func (c Category) String() string { return categoryNames[c] }

// CategoryNames lists every category name in order.
func CategoryNames() []string { return categoryNames[:] }

// CategoryOf returns the category of block b of message m.
func CategoryOf(m *session.Message, b *session.Block) Category {
	switch b.Type {
	case session.BlockThinking, session.BlockOpaque:
		return CatThinking
	case session.BlockToolCall:
		return CatToolCall
	case session.BlockToolResult:
		return CatToolResult
	}
	switch session.SectionOf(m, b) {
	case session.SectionToolSchema:
		return CatTools
	case session.SectionInjected:
		return CatInjected
	}
	return roleCategory(m)
}

func roleCategory(m *session.Message) Category {
	switch m.Role {
	case session.RoleSystem:
		return CatSystem
	case session.RoleAssistant:
		return CatAssistant
	case session.RoleTool:
		return CatToolResult
	}
	switch m.Origin {
	case session.OriginBranchSummary, session.OriginCompactionSummary:
		return CatSummary
	}
	return CatUser
}
