package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"ctxscope/engine/store"
)

// Importing a session file, importing it again, and loading it back.
func Example() {
	dir, _ := os.MkdirTemp("", "ws")
	defer os.RemoveAll(dir)
	s, err := store.Open(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	ctx := context.Background()
	path := filepath.Join("../../testdata/shared/sessions/pi/agent-sessions__pi-v3-small.jsonl")
	for i := 0; i < 2; i++ {
		res, err := s.ImportFile(ctx, path)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(res.Action, res.Sessions[0].Entries, "entries")
	}
	ss, _ := s.Load("019e19b4-eb48-746a-aa6b-8dfcfa37954b")
	fmt.Println(ss.Format, len(ss.Main().Entries), "entries,", ss.Title)
	// Output:
	// imported 8 entries
	// unchanged 8 entries
	// pi 8 entries, Read hello.py and summarize what it prints without editing files.
}
