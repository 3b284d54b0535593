package tokens

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"

	"ctxscope/engine/session"
)

// bpeMessageOverhead is the number of tokens a chat message costs beyond its
// content (role and delimiters), as OpenAI documents for its chat formats.
const bpeMessageOverhead = 3

// bpeImageTokens is what a BPE counter charges for an image, whose real cost
// depends on its size and the provider. It matches the reference
// heuristic's 1,200 tokens.
const bpeImageTokens = 1200

// bpeCounter counts with one tiktoken encoding.
type bpeCounter struct {
	name  string
	vocab *vocab
	split splitter
}

var (
	bpeMu    sync.Mutex
	bpeCache = map[string]*bpeCounter{}
)

// encodings maps each supported encoding to its table (as tiktoken-go's
// offline loader names it) and its pre-tokeniser.
var encodings = map[string]struct {
	short, table string
	split        splitter
}{
	"o200k_base":  {"o200k", "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken", splitO200k},
	"cl100k_base": {"cl100k", "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken", splitCl100k},
}

// BPE returns a counter for a tiktoken encoding, "o200k_base" or
// "cl100k_base". Its tables come from tiktoken-go's offline loader, which
// embeds them in the binary: loading them never touches the network.
// Encodings are loaded once per process.
//
// Counting gives exactly tiktoken's token counts, in time linear in the
// text (see [splitter] and mergeCount), so that no input, however
// repetitive, stalls a count. A message counts its blocks' tokens plus 3
// for the message framing; a tool call counts its name and its arguments
// as compact JSON; an image counts 1,200 tokens.
func BPE(encoding string) (Counter, error) {
	bpeMu.Lock()
	defer bpeMu.Unlock()
	if c, ok := bpeCache[encoding]; ok {
		return c, nil
	}
	e, ok := encodings[encoding]
	if !ok {
		return nil, fmt.Errorf("tokens: unknown encoding %q (want o200k_base or cl100k_base)", encoding)
	}
	ranks, err := tiktokenloader.NewOfflineLoader().LoadTiktokenBpe(e.table)
	if err != nil {
		return nil, fmt.Errorf("tokens: load %s: %w", encoding, err)
	}
	c := &bpeCounter{name: e.short, vocab: newVocab(ranks), split: e.split}
	bpeCache[encoding] = c
	return c, nil
}

func (c *bpeCounter) Name() string { return c.name }

// Count returns the number of tokens of text: tiktoken's count for the
// encoding, special tokens read as ordinary text. Invalid UTF-8 counts as
// tiktoken-go counts it, each bad byte as U+FFFD.
func (c *bpeCounter) Count(text string) int {
	if text == "" {
		return 0
	}
	if !utf8.ValidString(text) {
		text = runeSafe(text)
	}
	sc := scratchPool.Get().(*mergeScratch)
	defer scratchPool.Put(sc)
	n := 0
	for p := 0; p < len(text); {
		end := c.split(text, p)
		if end == p { // no alternative matches: the expression skips the rune
			_, size := utf8.DecodeRuneInString(text[p:])
			p += size
			continue
		}
		if _, ok := c.vocab.ranks[text[p:end]]; ok {
			n++
		} else {
			n += mergeCount(text[p:end], c.vocab, sc)
		}
		p = end
	}
	return n
}

var scratchPool = sync.Pool{New: func() any { return new(mergeScratch) }}

// runeSafe replaces every byte of s that is not part of valid UTF-8 with
// U+FFFD, as converting s to runes does.
func runeSafe(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

func (c *bpeCounter) Units(m *session.Message, b *session.Block) int {
	switch b.Type {
	case session.BlockText, session.BlockThinking:
		if b.Redacted {
			return 0
		}
		return c.Count(b.Text)
	case session.BlockToolCall:
		if b.Implicit {
			return 0 // counted as the text it is part of
		}
		return c.Count(b.ToolName) + c.Count(JSStringify(b.Arguments))
	case session.BlockToolResult:
		n := 0
		for i := range b.Content {
			switch b.Content[i].Type {
			case session.BlockText:
				n += c.Count(b.Content[i].Text)
			case session.BlockImage:
				n += bpeImageTokens
			}
		}
		return n
	case session.BlockImage:
		return bpeImageTokens
	}
	return 0
}

func (c *bpeCounter) Tokens(_ *session.Message, units int) int { return units + bpeMessageOverhead }

func (c *bpeCounter) Weight(units int) float64 { return float64(units) }
