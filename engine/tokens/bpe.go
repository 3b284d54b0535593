package tokens

import (
	"fmt"
	"sync"

	"github.com/pkoukk/tiktoken-go"
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

var loaderOnce sync.Once

// bpeCounter counts with one tiktoken encoding.
type bpeCounter struct {
	name string
	enc  *tiktoken.Tiktoken
}

var (
	bpeMu    sync.Mutex
	bpeCache = map[string]*bpeCounter{}
)

// BPE returns a counter for a tiktoken encoding, "o200k_base" or
// "cl100k_base". Its tables are embedded in the binary; loading them never
// touches the network. Encodings are loaded once per process.
//
// A message counts its blocks' tokens plus 3 for the message framing; a
// tool call counts its name and its arguments as compact JSON; an image
// counts 1,200 tokens.
func BPE(encoding string) (Counter, error) {
	loaderOnce.Do(func() { tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader()) })
	bpeMu.Lock()
	defer bpeMu.Unlock()
	if c, ok := bpeCache[encoding]; ok {
		return c, nil
	}
	enc, err := tiktoken.GetEncoding(encoding)
	if err != nil {
		return nil, fmt.Errorf("tokens: load %s: %w", encoding, err)
	}
	name := map[string]string{"o200k_base": "o200k", "cl100k_base": "cl100k"}[encoding]
	if name == "" {
		name = encoding
	}
	c := &bpeCounter{name: name, enc: enc}
	bpeCache[encoding] = c
	return c, nil
}

func (c *bpeCounter) Name() string { return c.name }

// Count returns the number of tokens of text.
func (c *bpeCounter) Count(text string) int {
	if text == "" {
		return 0
	}
	return len(c.enc.EncodeOrdinary(text))
}

func (c *bpeCounter) Units(m *session.Message, b *session.Block) int {
	switch b.Type {
	case session.BlockText, session.BlockThinking:
		if b.Redacted {
			return 0
		}
		return c.Count(b.Text)
	case session.BlockToolCall:
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
