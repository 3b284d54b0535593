package debug

import (
	"sort"

	"ctxscope/engine/session"
)

// Kind part names of a breakdown.
const (
	PartSystem    = "system"
	PartTools     = "tools" // tool schemas, where the request as sent is known
	PartUser      = "user"
	PartInjected  = "injected" // what the agent injected into user messages
	PartSummary   = "summary"
	PartAssistant = "assistant"
	PartThinking  = "thinking"
	PartOther     = "other"
	PartPrologue  = "prologue"
	PartOutside   = "outside episodes"
)

// acc sums a breakdown's parts in first-seen order.
type acc struct {
	group string
	order []string
	kept  map[string]float64
	full  map[string]float64
}

func newAcc(group string) *acc {
	return &acc{group: group, kept: map[string]float64{}, full: map[string]float64{}}
}

func (a *acc) add(name string, kept, full float64) {
	if _, ok := a.full[name]; !ok {
		a.order = append(a.order, name)
	}
	a.kept[name] += kept
	a.full[name] += full
}

func (a *acc) parts() []Part {
	out := make([]Part, 0, len(a.order))
	for _, n := range a.order {
		out = append(out, Part{Group: a.group, Name: n, Tokens: int(a.kept[n] + 0.5), Full: int(a.full[n] + 0.5)})
	}
	return out
}

// parts splits the input of request q by kind of content, by tool (calls
// and results together) and by episode. Each block counts its share of the
// message's tokens; a message's overhead beyond its blocks counts to the
// kind of its role.
func (r *Replay) parts(q *session.Request, c *Context) []Part {
	kinds, tools, episodes := newAcc("kind"), newAcc("tool"), newAcc("episode")
	for _, k := range []string{PartSystem, PartTools, PartUser, PartInjected, PartSummary, PartAssistant, PartThinking} {
		kinds.add(k, 0, 0)
	}
	if c.Summary > 0 {
		kinds.add(PartSummary, float64(c.Summary), 0)
	}
	for i := range c.Items {
		it := &c.Items[i]
		m := q.Context.Messages[i]
		role := roleKind(m)
		var keptW, fullW float64
		for _, b := range it.Blocks {
			w := float64(b.Tokens)
			kw := 0.0
			if b.State == StateKept && it.State != StateEvicted {
				kw = w
			}
			keptW += kw
			fullW += w
			switch b.Type {
			case session.BlockThinking:
				kinds.add(PartThinking, kw, w)
			case session.BlockToolCall, session.BlockToolResult:
				name := b.Tool
				if name == "" {
					name = "(unnamed tool)"
				}
				tools.add(name, kw, w)
			default:
				kinds.add(sectionKind(b.Section, cmpOr(role, PartUser)), kw, w)
			}
		}
		over := float64(it.Kept) - keptW
		if it.Kept == 0 {
			over = 0
		}
		if role == "" {
			tools.add(firstTool(it), over, float64(it.Tokens)-fullW)
		} else {
			kinds.add(role, over, float64(it.Tokens)-fullW)
		}
		episodes.add(r.episodePart(c, it), float64(it.Kept), float64(it.Tokens))
	}
	out := kinds.parts()
	tp := tools.parts()
	sort.SliceStable(tp, func(i, j int) bool { return tp[i].Full > tp[j].Full })
	out = append(out, tp...)
	return append(out, episodes.parts()...)
}

// roleKind names the kind part of a message's own text, "" for a message
// of tool results, whose overhead counts to its tool.
func roleKind(m *session.Message) string {
	switch {
	case m.Role == session.RoleTool || len(m.ToolResults()) == len(m.Blocks) && len(m.Blocks) > 0:
		return ""
	case m.Role == session.RoleSystem:
		return PartSystem
	case m.Role == session.RoleAssistant:
		return PartAssistant
	case m.Origin == session.OriginCompactionSummary || m.Origin == session.OriginBranchSummary:
		return PartSummary
	case m.Role == session.RoleUser:
		return PartUser
	}
	return PartOther
}

// sectionKind names the kind part of a block of section sec: the
// section's, else its message's kind.
func sectionKind(sec session.Section, kind string) string {
	switch sec {
	case session.SectionToolSchema:
		return PartTools
	case session.SectionInjected:
		return PartInjected
	}
	return kind
}

// episodePart names the episode part an item counts to.
func (r *Replay) episodePart(c *Context, it *Item) string {
	switch {
	case it.Episode >= 0 && it.Episode < len(c.Episodes):
		return c.Episodes[it.Episode].Name
	case it.I < c.Prologue:
		return PartPrologue
	}
	return PartOutside
}

// firstTool names the tool of an item's first tool block.
func firstTool(it *Item) string {
	for _, b := range it.Blocks {
		if b.Tool != "" {
			return b.Tool
		}
	}
	return "(unnamed tool)"
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
