package evict

import "fmt"

// stubText is what stands in for evicted content: what it was, how big,
// and how to get it back.
func stubText(level, tokens int) string {
	return fmt.Sprintf("[evicted by ctxscope at L%d: %d tokens; the recall tool brings it back]", level, tokens)
}
