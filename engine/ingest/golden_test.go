package ingest_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// dataDir is the shared corpus of real session files, beside the repository.
const dataDir = "../../testdata/shared/sessions"

// summary is what a golden file records about one source file: counts an
// independent reader of the format can check.
type summary struct {
	Format          session.Format `json:"format"`
	Sessions        int            `json:"sessions"`
	Threads         map[string]int `json:"threadsByKind"`
	Entries         map[string]int `json:"entriesByKind"`
	MessagesByRole  map[string]int `json:"messagesByRole"`
	MessagesOrigin  map[string]int `json:"messagesByOrigin"`
	ToolCalls       int            `json:"toolCalls"`
	ToolCallsByName map[string]int `json:"toolCallsByName"`
	ToolResults     int            `json:"toolResults"`
	Unanswered      int            `json:"callsWithoutResult"`
	Thinking        int            `json:"thinkingBlocks"`
	Opaque          int            `json:"opaqueBlocks"`
	Compactions     int            `json:"compactions"`
	Requests        int            `json:"requests"`
	Usage           session.Usage  `json:"usage"`
	// Recorded sums the totals the agent recorded for each session.
	Recorded    *session.Recorded `json:"recorded,omitempty"`
	Diagnostics []string          `json:"diagnostics"`
}

func summarize(ss []*session.Session) *summary {
	sum := &summary{Threads: map[string]int{}, Entries: map[string]int{}, MessagesByRole: map[string]int{},
		MessagesOrigin: map[string]int{}, ToolCallsByName: map[string]int{}, Diagnostics: []string{}}
	for _, s := range ss {
		sum.Format = s.Format
		sum.Sessions++
		if r := s.Recorded; r != nil {
			if sum.Recorded == nil {
				sum.Recorded = &session.Recorded{From: r.From}
			}
			sum.Recorded.Usage.Add(r.Usage)
			sum.Recorded.Calls += r.Calls
			sum.Recorded.Context += r.Context
		}
		for _, d := range s.Diagnostics {
			sum.Diagnostics = append(sum.Diagnostics, d.String())
		}
		for _, t := range s.Threads {
			sum.Threads[string(t.Kind)]++
			sum.Requests += len(session.BuildRequests(t))
			sum.thread(t)
		}
	}
	return sum
}

func (sum *summary) thread(t *session.Thread) {
	answered := map[string]bool{}
	var calls []string
	for _, e := range t.Entries {
		sum.Entries[string(e.Kind)]++
		if e.Kind == session.EntryCompaction {
			sum.Compactions++
		}
		m := e.Message
		if m == nil {
			continue
		}
		sum.MessagesByRole[string(m.Role)]++
		if m.Origin != "" {
			sum.MessagesOrigin[m.Origin]++
		}
		if u := m.Usage; u != nil {
			sum.Usage.Add(*u)
		}
		for _, b := range m.Blocks {
			switch b.Type {
			case session.BlockToolCall:
				sum.ToolCalls++
				sum.ToolCallsByName[b.ToolName]++
				calls = append(calls, b.ToolCallID)
			case session.BlockToolResult:
				sum.ToolResults++
				answered[b.ToolCallID] = true
			case session.BlockThinking:
				sum.Thinking++
			case session.BlockOpaque:
				sum.Opaque++
			}
		}
	}
	for _, id := range calls {
		if !answered[id] {
			sum.Unanswered++
		}
	}
}

// corpus lists every session file of the shared corpus.
func corpus(t testing.TB) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dataDir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() != "SOURCES.md" {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("the shared corpus is missing (testdata/shared/sessions): %v", err)
	}
	sort.Strings(files)
	return files
}

// samples lists the real samples kept beside each importer, in
// <importer>/testdata/samples (see the SOURCES.md there): each file, or
// each folder holding a session tree, is one sample, named
// <importer>__<entry>.
func samples(t testing.TB) map[string]string {
	t.Helper()
	entries, err := filepath.Glob(filepath.Join("*", "testdata", "samples", "*"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		importer := strings.SplitN(filepath.ToSlash(e), "/", 2)[0]
		out[importer+"__"+filepath.Base(e)] = e
	}
	if len(out) == 0 {
		t.Fatal("no samples under */testdata/samples")
	}
	return out
}

func TestGolden(t *testing.T) {
	for _, path := range corpus(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			ss, err := ingest.ReadFileAll(path)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, name, ss)
		})
	}
}

// TestGoldenSamples reads each importer's samples as a user would name
// them: a file, with the companions it brings, or a folder.
func TestGoldenSamples(t *testing.T) {
	for name, path := range samples(t) {
		t.Run(name, func(t *testing.T) {
			ss, failed, err := ingest.ReadPaths([]string{path})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range failed {
				t.Errorf("%s: %v", f.Path, f.Err)
			}
			checkGolden(t, name, ss)
		})
	}
}

// checkGolden compares the summary of ss with the golden file of name.
func checkGolden(t *testing.T, name string, ss []*session.Session) {
	t.Helper()
	{
		{
			sum := summarize(ss)
			if len(sum.Diagnostics) > 0 && !strings.Contains(name, "schema-drift") {
				t.Errorf("diagnostics on a real file:\n%s", bytes.Join(toBytes(sum.Diagnostics), []byte("\n")))
			}
			got, err := json.MarshalIndent(sum, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", "golden", name+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("summary differs from %s (run with -update after checking):\n%s", golden, got)
			}
		}
	}
}

func toBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}
