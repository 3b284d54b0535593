package annotate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Question is one entry of an annotation queue: a LoCoMo question by its
// index in the conversation's list, or a question the user wrote.
type Question struct {
	ID    string `json:"id"`             // "locomo:12" or "custom:<hash>"
	Index int    `json:"index"`          // the LoCoMo question's index; -1 for custom ones
	Text  string `json:"text,omitempty"` // a custom question's text
}

// LoCoMo returns the queue entry of the LoCoMo question at index i.
func LoCoMo(i int) Question { return Question{ID: fmt.Sprintf("locomo:%d", i), Index: i} }

// Custom returns the queue entry of a question the user wrote. Its id is
// derived from the text, so the same question is the same entry.
func Custom(text string) (Question, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Question{}, fmt.Errorf("annotate: empty question")
	}
	if len(text) > 2000 {
		return Question{}, fmt.Errorf("annotate: question longer than 2000 bytes")
	}
	h := sha256.Sum256([]byte(text))
	return Question{ID: "custom:" + hex.EncodeToString(h[:6]), Index: -1, Text: text}, nil
}

// Queue is an ordered list of questions without repeats.
type Queue []Question

// Add appends the questions not in the queue yet and returns the queue.
func (q Queue) Add(qs ...Question) Queue {
	have := map[string]bool{}
	for _, x := range q {
		have[x.ID] = true
	}
	for _, x := range qs {
		if !have[x.ID] {
			have[x.ID] = true
			q = append(q, x)
		}
	}
	return q
}

// Remove returns the queue without the question id.
func (q Queue) Remove(id string) Queue {
	out := q[:0:0]
	for _, x := range q {
		if x.ID != id {
			out = append(out, x)
		}
	}
	return out
}

// Find returns the question with the given id.
func (q Queue) Find(id string) (Question, bool) {
	for _, x := range q {
		if x.ID == id {
			return x, true
		}
	}
	return Question{}, false
}
