package cwl

import (
	"ctxscope/engine/cwl/protocol"
	"ctxscope/engine/session"
)

// Episode kinds, as the delimiter tool names them.
const (
	KindExpl = protocol.KindExpl // exploration: gathers information
	KindAct  = protocol.KindAct  // action: changes things, depends on explorations
)

// Chunk is the chunk a delimiter event carries.
type Chunk = protocol.Chunk

// ChunkEvent is the details.chunkEvent of a successful delimiter result.
type ChunkEvent = protocol.ChunkEvent

// IsDelimiter reports whether a tool name is the CWL delimiter tool.
func IsDelimiter(tool string) bool { return protocol.IsDelimiter(tool) }

// EventOf returns the chunk event recorded in a delimiter tool result.
func EventOf(b *session.Block) (ChunkEvent, bool) { return protocol.EventOf(b) }

// StartsEpisodes reports whether a delimiter result among msgs starts an
// episode. The contexts of a thread whose messages hold none declare no
// episodes ([SegmentMessages] finds none in any of them).
func StartsEpisodes(msgs []*session.Message) bool {
	for _, m := range msgs {
		if m.Role != session.RoleTool {
			continue
		}
		for k := range m.Blocks {
			if ev, ok := EventOf(&m.Blocks[k]); ok && ev.Action == "start" {
				return true
			}
		}
	}
	return false
}

// Segment is an episode located in a message list, as the reference's
// segmentChunks (context-filter.ts L158-205) finds it.
type Segment struct {
	Name         string   `json:"name"`
	Kind         string   `json:"kind"`
	Dependencies []string `json:"dependencies"`
	Description  string   `json:"description,omitempty"`
	Completed    bool     `json:"completed"`
	// Start and End are the indices of the messages holding the start and
	// end delimiter results; End is the last message while the episode is
	// open.
	Start int `json:"start"`
	End   int `json:"end"`
}

// SegmentMessages walks msgs in order and returns their episodes. A start
// event opens a segment; an end event closes the open segment of the same
// name and ignores any other; segments still open at the end extend to the
// last message.
func SegmentMessages(msgs []*session.Message) []Segment {
	var segs []Segment
	open := map[string]int{}
	for i, m := range msgs {
		if m.Role != session.RoleTool {
			continue
		}
		for k := range m.Blocks {
			ev, ok := EventOf(&m.Blocks[k])
			if !ok {
				continue
			}
			switch ev.Action {
			case "start":
				deps := ev.Chunk.Dependencies
				if deps == nil {
					deps = []string{}
				}
				segs = append(segs, Segment{Name: ev.Chunk.Name, Kind: ev.Chunk.Type, Dependencies: deps, Description: ev.Chunk.Description, Start: i, End: i})
				open[ev.Chunk.Name] = len(segs) - 1
			case "end":
				j, ok := open[ev.Chunk.Name]
				if !ok {
					continue
				}
				segs[j].Completed, segs[j].End = true, i
				if ev.Chunk.Description != "" {
					segs[j].Description = ev.Chunk.Description
				}
				delete(open, ev.Chunk.Name)
			}
		}
	}
	for j := range segs {
		if !segs[j].Completed {
			segs[j].End = len(msgs) - 1
		}
	}
	return segs
}
