package tokens

import (
	"encoding/json"
	"os"
	"testing"

	"ctxscope/engine/ingest/pi"
	"ctxscope/engine/session"
)

// TestEstimatorMatchesConformanceVectors checks the estimator against the
// tokensBefore that the CWL reference implementation computed for every
// public vector: an exact, independent check of UTF-16 counting, per-message
// rounding and JSON.stringify of tool arguments.
func TestEstimatorMatchesConformanceVectors(t *testing.T) {
	data, err := os.ReadFile("../../testdata/shared/cwl-vectors/public.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []struct {
			ID      string          `json:"id"`
			History json.RawMessage `json:"history"`
			Passes  []struct {
				TokensBefore int `json:"tokensBefore"`
			} `json:"passes"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, v := range file.Vectors {
		s, err := pi.Importer{}.Import(bytesReader(v.History), v.ID+".json")
		if err != nil || len(s.Diagnostics) > 0 {
			t.Fatalf("%s: import: %v %v", v.ID, err, s.Diagnostics)
		}
		l := NewLedger(Estimator{})
		got := l.Total(messagesOf(s))
		for _, p := range v.Passes {
			if got != p.TokensBefore {
				t.Errorf("%s: estimate %d, reference tokensBefore %d", v.ID, got, p.TokensBefore)
			}
			checked++
		}
	}
	if checked != 18 {
		t.Fatalf("checked %d passes, want the 18 public ones", checked)
	}
}

// TestEstimatorOnLargeSession checks the total the reference computed for
// the large pi session (cwl-reference.md §3.2): 124,661, of which user
// 3,157, assistant 56,891 and toolResult 64,613.
func TestEstimatorOnLargeSession(t *testing.T) {
	f, err := os.Open("../../testdata/shared/sessions/pi/pi-cwl__large-session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := pi.Importer{}.Import(f, "large.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	l := NewLedger(Estimator{})
	byRole := map[session.Role]int{}
	total := 0
	for _, m := range messagesOf(s) {
		n := l.Message(m)
		byRole[m.Role] += n
		total += n
	}
	want := map[session.Role]int{session.RoleUser: 3157, session.RoleAssistant: 56891, session.RoleTool: 64613}
	if total != 124661 {
		t.Errorf("total %d, want 124661", total)
	}
	for r, n := range want {
		if byRole[r] != n {
			t.Errorf("%s: %d, want %d", r, byRole[r], n)
		}
	}
}

func TestEstimatorRules(t *testing.T) {
	img := session.Block{Type: session.BlockImage, MIME: "image/png"}
	tests := []struct {
		name string
		m    session.Message
		want int
	}{
		{"user text", session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: "hello"}}}, 2},
		{"user images count 0", session.Message{Role: session.RoleUser, Blocks: []session.Block{{Type: session.BlockText, Text: "abcd"}, img}}, 1},
		{"tool result image 1200", session.Message{Role: session.RoleTool, Blocks: []session.Block{{Type: session.BlockToolResult,
			Content: []session.Block{{Type: session.BlockText, Text: "ok"}, img}}}}, 1201},
		{"custom image 1200", session.Message{Role: session.RoleUser, Origin: session.OriginCustom, Blocks: []session.Block{img}}, 1200},
		{"tool call name and JSON", session.Message{Role: session.RoleAssistant, Blocks: []session.Block{{Type: session.BlockToolCall,
			ToolName: "read", Arguments: json.RawMessage(`{ "path" : "a.ts" }`)}}}, 5}, // "read" + {"path":"a.ts"} = 4+15 = 19 → 5
		{"ceil per message", session.Message{Role: session.RoleAssistant, Blocks: []session.Block{{Type: session.BlockText, Text: "a"},
			{Type: session.BlockThinking, Text: "bcdef"}}}, 2},
		{"empty", session.Message{Role: session.RoleAssistant}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := NewLedger(Estimator{}).Message(&tc.m); got != tc.want {
				t.Fatalf("got %d, want %d", got, tc.want)
			}
		})
	}
}
