package store

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ctxscope/engine/session"
)

// TestBlobsInParts stores texts and arguments longer than a blob part
// (a user text with multi-byte runes across the part boundaries, a tool
// call's arguments, a tool result's content block, and the same text
// again) and reads them back whole, by a whole load and by pages; deleting
// the session leaves no part behind.
func TestBlobsInParts(t *testing.T) {
	s := openTemp(t)
	text := strings.Repeat("é ü 日本 ", blobPart/7+3) // not a multiple of anything
	output := strings.Repeat("line of output\n", 2*blobPart/15)
	args := `{"path":"big.txt","content":` + jsonString(t, strings.Repeat("ab\"c\n", blobPart/4)) + `}`
	lines := []string{
		`{"type":"session","version":3,"id":"parts","timestamp":"2026-05-12T01:02:27.657Z","cwd":"/tmp"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-05-12T01:02:28.000Z","message":{"role":"user","content":[{"type":"text","text":` + jsonString(t, text) + `}]}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-05-12T01:02:29.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"write","arguments":` + args + `}]}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-05-12T01:02:30.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"write","content":[{"type":"text","text":` + jsonString(t, output) + `}],"isError":false}}`,
		`{"type":"message","id":"u2","parentId":"r1","timestamp":"2026-05-12T01:02:31.000Z","message":{"role":"user","content":[{"type":"text","text":` + jsonString(t, text) + `}]}}`,
	}
	path := filepath.Join(t.TempDir(), "parts.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	key := mustImport(t, s, path).Sessions[0].Key

	var parts int
	if err := s.read.QueryRow(`SELECT count(*) FROM blob_parts`).Scan(&parts); err != nil {
		t.Fatal(err)
	}
	want := partsOf(len(text)) + partsOf(len(output)) + partsOf(len(args)) // the repeated text once
	if parts != want {
		t.Errorf("%d parts stored, want %d", parts, want)
	}

	got, err := s.Load(key)
	if err != nil {
		t.Fatal(err)
	}
	check := func(how string, es []*session.Entry) {
		t.Helper()
		if len(es) != 4 {
			t.Fatalf("%s: %d entries", how, len(es))
		}
		if b := es[0].Message.Blocks[0]; b.Text != text {
			t.Errorf("%s: the user's text came back %d bytes, want %d", how, len(b.Text), len(text))
		}
		if b := es[1].Message.Blocks[0]; string(b.Arguments) != args {
			t.Errorf("%s: the call's arguments came back %d bytes, want %d", how, len(b.Arguments), len(args))
		}
		if b := es[2].Message.Blocks[0]; len(b.Content) != 1 || b.Content[0].Text != output {
			t.Errorf("%s: the result's content is not the output", how)
		}
		if b := es[3].Message.Blocks[0]; b.Text != text {
			t.Errorf("%s: the repeated text came back %d bytes", how, len(b.Text))
		}
	}
	check("load", got.Threads[0].Entries)
	var paged []*session.Entry
	err = s.EachEntryPage(context.Background(), key, nil, 2, func(p EntryPage) error {
		paged = append(paged, p.Entries...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check("pages", paged)
	if !reflect.DeepEqual(paged, got.Threads[0].Entries) {
		t.Error("the pages differ from the whole load")
	}

	if err := s.DeleteSession(context.Background(), key); err != nil {
		t.Fatal(err)
	}
	if err := s.read.QueryRow(`SELECT count(*) FROM blob_parts`).Scan(&parts); err != nil {
		t.Fatal(err)
	}
	if parts != 0 {
		t.Errorf("%d parts left after the session was deleted", parts)
	}
}

func partsOf(n int) int { return (n + blobPart - 1) / blobPart }
