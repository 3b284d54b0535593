package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// delimiterSession is a small pi v3 session in which the agent opens and
// closes one episode with CWL delimiter calls.
const delimiterSession = `{"type":"session","version":3,"id":"delim","timestamp":"2025-12-01T10:00:00.000Z","cwd":"/repo"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2025-12-01T10:00:01.000Z","message":{"role":"user","content":"Find filterContext","timestamp":1764583201000}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2025-12-01T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"delimiter","arguments":{"action":"start","name":"find-filter","type":"expl"}}],"stopReason":"toolUse","timestamp":1764583202000}}
{"type":"message","id":"t1","parentId":"a1","timestamp":"2025-12-01T10:00:03.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"delimiter","content":[{"type":"text","text":"started"}],"details":{"chunkEvent":{"action":"start","chunk":{"name":"find-filter","type":"expl","description":"locate the filter"}}},"isError":false,"timestamp":1764583203000}}
{"type":"message","id":"a2","parentId":"t1","timestamp":"2025-12-01T10:00:04.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"delimiter","arguments":{"action":"end","name":"find-filter"}}],"stopReason":"toolUse","timestamp":1764583204000}}
{"type":"message","id":"t2","parentId":"a2","timestamp":"2025-12-01T10:00:05.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"delimiter","content":[{"type":"text","text":"ended"}],"details":{"chunkEvent":{"action":"end","chunk":{"name":"find-filter","type":"expl","description":"found it in context-filter.ts"}}},"isError":false,"timestamp":1764583205000}}
`

func TestDelimiterEpisodesOnImport(t *testing.T) {
	s := openTemp(t)
	p := filepath.Join(t.TempDir(), "delim.jsonl")
	os.WriteFile(p, []byte(delimiterSession), 0o644)
	key := mustImport(t, s, p).Sessions[0].Key
	eps, err := s.Episodes(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	want := Episode{Origin: OriginDelimiter, Thread: "main", Name: "find-filter", Kind: "expl", Description: "found it in context-filter.ts",
		Dependencies: []string{}, Completed: true, StartEntry: "t1", EndEntry: "t2"}
	if len(eps) != 1 || eps[0].Name != want.Name || eps[0].StartEntry != want.StartEntry || eps[0].EndEntry != want.EndEntry ||
		eps[0].Description != want.Description || !eps[0].Completed {
		t.Fatalf("got %+v, want %+v", eps, want)
	}
}
