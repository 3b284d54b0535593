package session

import (
	"fmt"
	"strings"
	"testing"
)

// thread builds a thread from a compact script: each step is
// "id<parent:kind[text]" where kind is u (user), a (assistant), t (tool),
// x (excluded user message) or c (compaction; text is the first kept id),
// and parent "-" means root. An empty parent means the previous entry.
func thread(t *testing.T, steps ...string) *Thread {
	t.Helper()
	th := &Thread{ID: "main", Kind: ThreadMain}
	prev := ""
	for i, s := range steps {
		head, text, _ := strings.Cut(s, ":")
		id, parent, hasParent := strings.Cut(head, "<")
		if !hasParent {
			parent = prev
		}
		if parent == "-" {
			parent = ""
		}
		kind, body := text[:1], text[1:]
		e := &Entry{ID: id, ParentID: parent, Line: i + 1, Kind: EntryMessage}
		switch kind {
		case "u":
			e.Message = &Message{Role: RoleUser, Blocks: []Block{{Type: BlockText, Text: body}}}
		case "x":
			e.Message = &Message{Role: RoleUser, Origin: OriginBashExecution, Excluded: true}
		case "a":
			e.Message = &Message{Role: RoleAssistant, Blocks: []Block{{Type: BlockText, Text: body}}}
		case "t":
			e.Message = &Message{Role: RoleTool, Blocks: []Block{{Type: BlockToolResult}}}
		case "c":
			e.Kind, e.Message = EntryCompaction, nil
			e.Compaction = &Compaction{Summary: "sum", FirstKeptID: body}
		default:
			t.Fatalf("bad step %q", s)
		}
		th.Entries = append(th.Entries, e)
		prev = id
	}
	return th
}

// inputs renders each request as "responseID=[input ids]".
func inputs(reqs []*Request) []string {
	var out []string
	for _, r := range reqs {
		var ids []string
		for k, e := range r.InputEntries() {
			id := e.ID
			if r.Input()[k].Origin == OriginCompactionSummary {
				id = "S(" + id + ")"
			}
			ids = append(ids, id)
		}
		out = append(out, fmt.Sprintf("%s=[%s]", r.Entry.ID, strings.Join(ids, " ")))
	}
	return out
}

func TestBuildRequests(t *testing.T) {
	tests := []struct {
		name  string
		steps []string
		want  []string
	}{
		{
			name:  "linear with tools",
			steps: []string{"u1<-:uhi", "a1:acall", "t1:t", "a2:adone"},
			want:  []string{"a1=[u1]", "a2=[u1 a1 t1]"},
		},
		{
			name:  "a branch keeps its own path",
			steps: []string{"u1<-:uq", "a1:aA", "u2:uretry", "a2:aB", "u3<a1:uother", "a3:aC"},
			want:  []string{"a1=[u1]", "a2=[u1 a1 u2]", "a3=[u1 a1 u3]"},
		},
		{
			name:  "compaction keeps from the first kept entry",
			steps: []string{"u1<-:uq", "a1:a1", "u2:uq2", "a2:a2", "c1:cu2", "u3:uq3", "a3:a3"},
			want:  []string{"a1=[u1]", "a2=[u1 a1 u2]", "a3=[S(c1) u2 a2 u3]"},
		},
		{
			name:  "compaction without a kept entry keeps only the summary",
			steps: []string{"u1<-:uq", "a1:a1", "c1:c", "u2:uq2", "a2:a2"},
			want:  []string{"a1=[u1]", "a2=[S(c1) u2]"},
		},
		{
			name:  "excluded messages stay out",
			steps: []string{"u1<-:uq", "x1:x", "a1:a1"},
			want:  []string{"a1=[u1]"},
		},
		{
			name:  "an orphan's parent is unknown: it starts a root",
			steps: []string{"u1<-:uq", "a1:a1", "u2<ghost:uq2", "a2:a2"},
			want:  []string{"a1=[u1]", "a2=[u2]"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := inputs(BuildRequests(thread(t, tc.steps...)))
			if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
				t.Fatalf("\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestBuildRequestsMarksTheFirstRequestAfterACompaction(t *testing.T) {
	reqs := BuildRequests(thread(t, "u1<-:uq", "a1:a1", "c1:cu1", "a2:a2", "a3:a3"))
	var marks []bool
	for _, r := range reqs {
		marks = append(marks, r.AfterCompaction)
	}
	if fmt.Sprint(marks) != "[false true false]" {
		t.Fatalf("AfterCompaction %v", marks)
	}
}

func TestBuildRequestsSharesContexts(t *testing.T) {
	steps := []string{"u0<-:uq"}
	for i := 1; i <= 200; i++ {
		steps = append(steps, fmt.Sprintf("a%d:ax", i), fmt.Sprintf("t%d:t", i))
	}
	reqs := BuildRequests(thread(t, steps...))
	if len(reqs) != 200 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs[1:] {
		if r.Context != reqs[0].Context {
			t.Fatal("a linear thread should share one context")
		}
	}
	if last := reqs[199]; last.Len != 399 {
		t.Fatalf("last input has %d messages, want 399", last.Len)
	}
}

func TestTree(t *testing.T) {
	th := thread(t, "u1<-:uq", "a1:aA", "u2:ur", "u3<a1:uo", "a3:aC")
	th.LeafID = "u2"
	tr := NewTree(th)
	if got := fmt.Sprint(tr.Leaves()); got != "[2 4]" {
		t.Errorf("leaves %s", got)
	}
	if got := fmt.Sprint(tr.PathTo(tr.Leaf())); got != "[0 1 2]" {
		t.Errorf("path to leaf %s", got)
	}
	if got := fmt.Sprint(tr.Children(1)); got != "[2 3]" {
		t.Errorf("children of a1 %s", got)
	}
	th.LeafID = ""
	if tr := NewTree(th); tr.Leaf() != 4 {
		t.Errorf("default leaf %d, want the last entry", tr.Leaf())
	}
	// A parent cycle (malformed input) must not loop forever.
	cyc := &Thread{Entries: []*Entry{{ID: "a", ParentID: "b"}, {ID: "b", ParentID: "a"}}}
	if p := NewTree(cyc).PathTo(0); len(p) != 2 {
		t.Errorf("cycle path %v", p)
	}
}
