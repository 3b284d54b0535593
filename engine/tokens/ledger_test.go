package tokens

import (
	"bytes"
	"io"
	"math"
	"testing"

	"ctxscope/engine/session"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func messagesOf(s *session.Session) []*session.Message {
	var out []*session.Message
	for _, e := range s.Main().Entries {
		if e.Message != nil {
			out = append(out, e.Message)
		}
	}
	return out
}

func TestBPEKnownCounts(t *testing.T) {
	tests := []struct {
		counter, text string
		want          int
	}{
		{"cl100k", "hello world", 2},
		{"o200k", "hello world", 2},
		{"cl100k", "tiktoken is great!", 6},
		{"o200k", "", 0},
	}
	for _, tc := range tests {
		c, err := ByName(tc.counter)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.(*bpeCounter).Count(tc.text); got != tc.want {
			t.Errorf("%s(%q) = %d, want %d", tc.counter, tc.text, got, tc.want)
		}
	}
}

func TestByNameRejectsUnknown(t *testing.T) {
	if _, err := ByName("gpt2"); err == nil {
		t.Fatal("want an error for an unknown counter")
	}
}

func TestLedgerKeptAndBreakdown(t *testing.T) {
	m := &session.Message{Role: session.RoleAssistant, Blocks: []session.Block{
		{Type: session.BlockThinking, Text: "think think"},
		{Type: session.BlockText, Text: "answer"},
		{Type: session.BlockToolCall, ToolName: "bash", Arguments: []byte(`{"command":"ls -la"}`)},
	}}
	for _, name := range Names {
		c, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		l := NewLedger(c)
		whole := l.Message(m)
		if got := l.Kept(m, func(int) bool { return true }); got != whole {
			t.Errorf("%s: Kept(all) = %d, Message = %d", name, got, whole)
		}
		if got := l.Kept(m, func(int) bool { return false }); got != 0 {
			t.Errorf("%s: Kept(none) = %d, want 0", name, got)
		}
		if without := l.Kept(m, func(i int) bool { return i != 0 }); without >= whole {
			t.Errorf("%s: dropping thinking left %d of %d", name, without, whole)
		}
		b := l.Breakdown(m)
		if math.Abs(b.Total()-float64(whole)) > 1e-9 {
			t.Errorf("%s: breakdown sums to %v, message is %d", name, b.Total(), whole)
		}
		if b[CatThinking] <= 0 || b[CatAssistant] <= 0 || b[CatToolCall] <= 0 || b[CatUser] != 0 {
			t.Errorf("%s: breakdown %v", name, b)
		}
	}
}
