package code

import (
	"strconv"
	"strings"

	"ctxscope/engine/session"
)

// Ref is where a passage of a session memory comes from: a thread of the
// session (its index), an entry (the entry's id), a block of the entry's
// message, and the chunk of the block's text.
type Ref struct {
	Thread int
	Entry  string
	Block  int
	Chunk  int
}

// String renders r as a passage id: "entry#block" for the first chunk of
// a block of the main thread, "entry#block.chunk" for later chunks, with
// "t<thread>:" in front for other threads.
func (r Ref) String() string {
	var b strings.Builder
	if r.Thread > 0 {
		b.WriteString("t" + strconv.Itoa(r.Thread) + ":")
	}
	b.WriteString(r.Entry + "#" + strconv.Itoa(r.Block))
	if r.Chunk > 0 {
		b.WriteString("." + strconv.Itoa(r.Chunk))
	}
	return b.String()
}

// ParseRef reads a passage id written by [Ref.String].
func ParseRef(id string) (Ref, bool) {
	var r Ref
	if rest, ok := strings.CutPrefix(id, "t"); ok {
		if head, tail, ok := strings.Cut(rest, ":"); ok {
			if n, err := strconv.Atoi(head); err == nil && n > 0 {
				r.Thread, id = n, tail
			}
		}
	}
	i := strings.LastIndexByte(id, '#')
	if i <= 0 {
		return Ref{}, false
	}
	r.Entry = id[:i]
	block, chunk, hasChunk := strings.Cut(id[i+1:], ".")
	var err error
	if r.Block, err = strconv.Atoi(block); err != nil || r.Block < 0 {
		return Ref{}, false
	}
	if hasChunk {
		if r.Chunk, err = strconv.Atoi(chunk); err != nil || r.Chunk <= 0 {
			return Ref{}, false
		}
	}
	return r, true
}

// chunkBytes is the most text one passage holds: about 200 tokens, so
// that a few passages fit in a small recall budget.
const chunkBytes = 800

// chunks cuts text into pieces of at most chunkBytes, at line ends where
// it can and at rune boundaries where a line is longer than a piece.
func chunks(text string) []string {
	var out []string
	for len(text) > chunkBytes {
		n := strings.LastIndexByte(text[:chunkBytes], '\n') + 1
		if n < chunkBytes/4 {
			n = chunkBytes
			for n > 0 && !runeStart(text[n]) {
				n--
			}
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	if strings.TrimSpace(text) != "" || len(out) == 0 {
		out = append(out, text)
	}
	return out
}

// EntryRef names an entry in passage ids: its id, or its line when the
// source gave it none.
func EntryRef(e *session.Entry) string {
	if e.ID != "" {
		return e.ID
	}
	return "L" + strconv.Itoa(e.Line)
}
