package wire

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
)

// Diff is one request of a log beside the same request on the wire.
type Diff struct {
	// LogRequest and WireRequest index the request among its thread's
	// requests; WireRequest is -1 when the wire holds no such request.
	LogRequest  int `json:"logRequest"`
	WireRequest int `json:"wireRequest"`
	// Lacks are the blocks sent that the log's input lacks; Extra the
	// blocks of the log's input that were not sent.
	Lacks []Part `json:"lacks"`
	Extra []Part `json:"extra"`
	// LacksTokens and ExtraTokens sum them.
	LacksTokens int `json:"lacksTokens"`
	ExtraTokens int `json:"extraTokens"`
}

// Part is one block that one side holds and the other does not.
type Part struct {
	// Message and Block place it in its side's input.
	Message int               `json:"message"`
	Block   int               `json:"block"`
	Role    session.Role      `json:"role"`
	Type    session.BlockType `json:"type"`
	Section session.Section   `json:"section,omitempty"`
	Tool    string            `json:"tool,omitempty"`
	Tokens  int               `json:"tokens"`
	// Preview is the start of its text.
	Preview string `json:"preview"`
}

// previewSize bounds a part's preview.
const previewSize = 160

// Compare pairs the requests of a log's thread with those of its recorded
// conversation and says, for each log request, what differs (see Pair and
// At). Sizes are in c's tokens.
func Compare(log, wire *session.Thread, c tokens.Counter) []Diff {
	lr, wr := session.BuildRequests(log), session.BuildRequests(wire)
	pairs := Pair(lr, wr)
	out := make([]Diff, len(lr))
	for i := range lr {
		out[i] = At(lr, wr, pairs, i, c)
	}
	return out
}

// Pair pairs log requests with wire requests by their responses (the same
// tool calls, or the same text), in order: for each log request, the
// index of its wire request, -1 when the wire holds none.
func Pair(log, wire []*session.Request) []int {
	out := make([]int, len(log))
	j := 0
	for i, q := range log {
		out[i] = -1
		key := responseKey(q.Entry.Message)
		for k := j; k < len(wire) && k < j+8; k++ {
			if responseKey(wire[k].Entry.Message) == key {
				out[i], j = k, k+1
				break
			}
		}
	}
	return out
}

// At is the difference of log request i from its wire request under
// pairs; a request the wire does not hold has WireRequest -1 and no parts.
func At(log, wire []*session.Request, pairs []int, i int, c tokens.Counter) Diff {
	if i < 0 || i >= len(log) || pairs[i] < 0 {
		return Diff{LogRequest: i, WireRequest: -1, Lacks: []Part{}, Extra: []Part{}}
	}
	return diff(i, pairs[i], log[i].Input(), wire[pairs[i]].Input(), c)
}

// responseKey names a response by its tool calls, else by its text.
func responseKey(m *session.Message) string {
	var b strings.Builder
	for _, c := range m.ToolCalls() {
		b.WriteString(c.ToolCallID + "\x00")
	}
	if b.Len() > 0 {
		return b.String()
	}
	for _, bl := range m.Blocks {
		if bl.Type == session.BlockText {
			b.WriteString(strings.TrimSpace(bl.Text))
		}
	}
	return b.String()
}

// diff compares two inputs block by block, as multisets of their blocks'
// content.
func diff(li, wi int, log, wire []*session.Message, c tokens.Counter) Diff {
	d := Diff{LogRequest: li, WireRequest: wi, Lacks: []Part{}, Extra: []Part{}}
	have := map[string]int{}
	for _, m := range log {
		for b := range m.Blocks {
			have[blockKey(m, &m.Blocks[b])]++
		}
	}
	sent := map[string]int{}
	for i, m := range wire {
		for b := range m.Blocks {
			k := blockKey(m, &m.Blocks[b])
			sent[k]++
			if have[k] > 0 {
				have[k]--
				continue
			}
			p := part(i, b, m, c)
			d.Lacks = append(d.Lacks, p)
			d.LacksTokens += p.Tokens
		}
	}
	for i, m := range log {
		for b := range m.Blocks {
			k := blockKey(m, &m.Blocks[b])
			if sent[k] > 0 {
				sent[k]--
				continue
			}
			p := part(i, b, m, c)
			d.Extra = append(d.Extra, p)
			d.ExtraTokens += p.Tokens
		}
	}
	return d
}

func part(i, b int, m *session.Message, c tokens.Counter) Part {
	bl := &m.Blocks[b]
	text := blockText(bl)
	if len(text) > previewSize {
		cut := previewSize
		for cut > 0 && !utf8RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "…"
	}
	return Part{Message: i, Block: b, Role: m.Role, Type: bl.Type, Section: session.SectionOf(m, bl), Tool: bl.ToolName,
		Tokens: int(c.Weight(c.Units(m, bl)) + 0.5), Preview: text}
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// blockKey identifies a block by what the model reads of it: its kind,
// its text (trimmed), its call or result.
func blockKey(m *session.Message, b *session.Block) string {
	h := sha256.New()
	h.Write([]byte(string(b.Type) + "\x00" + string(session.SectionOf(m, b)) + "\x00"))
	switch b.Type {
	case session.BlockToolCall:
		h.Write([]byte(b.ToolCallID + "\x00" + b.ToolName + "\x00"))
		h.Write(canonical(b.Arguments))
	case session.BlockToolResult:
		h.Write([]byte(b.ToolCallID + "\x00" + strings.TrimSpace(b.ResultText())))
	default:
		h.Write([]byte(strings.TrimSpace(b.Text)))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func blockText(b *session.Block) string {
	switch b.Type {
	case session.BlockToolCall:
		return b.ToolName + " " + string(b.Arguments)
	case session.BlockToolResult:
		return b.ResultText()
	}
	return b.Text
}

// canonical is JSON with sorted keys and no spaces.
func canonical(raw json.RawMessage) []byte {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	out, _ := json.Marshal(v)
	return out
}
