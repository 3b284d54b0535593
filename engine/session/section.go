package session

import "strings"

// Section names what a text block is in the request when neither its type
// nor its message's role says it.
type Section string

// Sections of a request beyond the roles.
const (
	// SectionNone is an ordinary block: what its message's role says.
	SectionNone Section = ""
	// SectionToolSchema is a tool's schema as the request carries it: a
	// text block of a system message that names its tool in ToolName
	// (Claude Code's request records give one per tool).
	SectionToolSchema Section = "toolSchema"
	// SectionInjected is context the agent injected into a user-side
	// message, not what the user wrote: a text block made only of tagged
	// sections, such as Claude Code's <system-reminder>, Codex's
	// <environment_context> or Copilot's <current_datetime>.
	SectionInjected Section = "injected"
)

// SectionOf returns the section of block b of m. It reads the block
// itself, so that every reader of every format classifies alike, a
// workspace written before sections existed included.
func SectionOf(m *Message, b *Block) Section {
	if b.Type != BlockText {
		return SectionNone
	}
	switch {
	case m.Role == RoleSystem && b.ToolName != "":
		return SectionToolSchema
	case m.Role == RoleUser && strings.HasPrefix(strings.TrimLeft(b.Text, " \t\r\n"), "<") && WithoutInjected(b.Text) == "":
		return SectionInjected
	}
	return SectionNone
}

// WithoutInjected returns text without the tagged sections that lead it:
// <name>…</name>, one after another, as agents inject context before what
// the user wrote. Text that is all such sections comes back "".
func WithoutInjected(text string) string {
	rest := strings.TrimSpace(text)
	for strings.HasPrefix(rest, "<") {
		end := strings.IndexByte(rest, '>')
		if end < 2 {
			break
		}
		name := rest[1:end]
		if strings.IndexFunc(name, func(r rune) bool { return !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }) >= 0 {
			break
		}
		closing := strings.Index(rest, "</"+name+">")
		if closing < 0 {
			break
		}
		rest = strings.TrimSpace(rest[closing+len(name)+3:])
	}
	return rest
}
