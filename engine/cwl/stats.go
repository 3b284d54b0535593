package cwl

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Step names of the reference, in the order it applies them.
const (
	StepThinking    = "thinking"
	StepSearchTools = "search_tools"
	StepBashTools   = "bash_tools"
	StepReadTools   = "read_tools"
	StepEntireChunk = "entire_chunk"
)

// ChunkStats is the reference's CwlChunkEvictionStats: one chunk processed
// by a pass, with the steps that removed something.
type ChunkStats struct {
	ChunkName    string      `json:"chunkName"`
	ChunkKind    string      `json:"chunkKind"`
	Dependencies []string    `json:"dependencies"`
	FullyRemoved bool        `json:"fullyRemoved"`
	Steps        []StepStats `json:"steps"`
}

// StepStats is one step of a chunk's processing, as the reference counts
// it.
type StepStats struct {
	Step                     string     `json:"step"`
	RemovedAssistantMessages int        `json:"removedAssistantMessages"`
	RemovedToolCalls         int        `json:"removedToolCalls"`
	RemovedToolResults       int        `json:"removedToolResults"`
	RemovedThinkingBlocks    int        `json:"removedThinkingBlocks"`
	RemovedFilePaths         []string   `json:"removedFilePaths"`
	ToolCallCounts           CountOrder `json:"toolCallCounts"`
	TokensBefore             int        `json:"tokensBefore"`
	TokensAfter              int        `json:"tokensAfter"`
}

// removed reports whether the step removed anything.
func (s *StepStats) removed() bool {
	return s.RemovedAssistantMessages+s.RemovedToolCalls+s.RemovedToolResults+s.RemovedThinkingBlocks > 0
}

// CountOrder counts names in first-seen order, the order a JavaScript
// object keeps its keys in, and marshals that way.
type CountOrder struct {
	Names  []string
	Counts []int
}

// Add counts one more of name.
func (c *CountOrder) Add(name string) {
	for i, n := range c.Names {
		if n == name {
			c.Counts[i]++
			return
		}
	}
	c.Names = append(c.Names, name)
	c.Counts = append(c.Counts, 1)
}

// Get returns the count of name.
func (c CountOrder) Get(name string) int {
	for i, n := range c.Names {
		if n == name {
			return c.Counts[i]
		}
	}
	return 0
}

// MarshalJSON writes the counts as an object in first-seen order.
func (c CountOrder) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, n := range c.Names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(n)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(c.Counts[i]))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads an object of counts, keeping its key order.
func (c *CountOrder) UnmarshalJSON(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return err
	}
	c.Names, c.Counts = nil, nil
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var n int
		if err := dec.Decode(&n); err != nil {
			return err
		}
		c.Names = append(c.Names, t.(string))
		c.Counts = append(c.Counts, n)
	}
	_, err := dec.Token()
	return err
}
