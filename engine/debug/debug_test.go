package debug

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"math"
	"os"
	"strings"
	"testing"

	"ctxscope/engine/cwl"
	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

const claudeSession = "../../testdata/shared/sessions/claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"

func readSession(t *testing.T, path string) *session.Session {
	t.Helper()
	s, err := ingest.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestThreadsOfAClaudeCodeSession(t *testing.T) {
	s := readSession(t, claudeSession)
	th := Threads(s)
	if len(th) != 6 || th[0].Kind != session.ThreadMain || th[0].Requests != 9 {
		t.Fatalf("threads %+v", th)
	}
	for _, x := range th[1:] {
		if x.Kind != session.ThreadSubagent || x.ParentIndex != 0 || x.Depth != 1 || x.Requests == 0 {
			t.Errorf("subagent thread %+v", x)
		}
	}
	if th[5].Requests != 53 {
		t.Errorf("the biggest subagent thread has %d requests, want 53", th[5].Requests)
	}
}

// subagent prepares the biggest subagent thread of the Claude Code session.
func subagent(t *testing.T) (*Replay, Params) {
	t.Helper()
	p := Params{Thread: 5, Counter: "estimate", Episodes: "inferred", Policy: cwl.PolicyPaper, Budget: 8000}
	r, err := New(context.Background(), readSession(t, claudeSession), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r, p
}

func TestTimelineColumns(t *testing.T) {
	r, p := subagent(t)
	tl, err := r.Timeline(p)
	if err != nil {
		t.Fatal(err)
	}
	n := r.Requests()
	if len(tl.After) != n || len(tl.Cats) != len(tl.Categories) || len(tl.Cats[0]) != n {
		t.Fatalf("columns: %d after, %d cats of %d", len(tl.After), len(tl.Cats), len(tl.Cats[0]))
	}
	levels := map[int]int{}
	for _, m := range tl.Evictions {
		levels[m.Level]++
		if m.Name == "" || m.Request < 0 || m.Request >= n {
			t.Errorf("mark %+v", m)
		}
	}
	if levels[3] == 0 || levels[4] == 0 {
		t.Errorf("evictions by level %v, want levels 3 and 4 at τ=8000", levels)
	}
	if len(tl.Unreachable) == 0 || tl.Unreachable[0].Why == "" {
		t.Errorf("want requests over budget with reasons, got %v", tl.Unreachable)
	}
	for k := range n {
		var sum int32
		for c := range tl.Cats {
			sum += tl.Cats[c][k]
		}
		if math.Abs(float64(int(sum)-tl.After[k])) > float64(len(tl.Cats)) || tl.After[k] > tl.Before[k] {
			t.Fatalf("request %d: categories %d, after %d, before %d", k, sum, tl.After[k], tl.Before[k])
		}
	}
	p.Budget = 20000
	wide, err := r.Timeline(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(wide.Evictions) >= len(tl.Evictions) {
		t.Errorf("a wider budget evicts %d times, a narrower one %d", len(wide.Evictions), len(tl.Evictions))
	}
	// The view's timeline is the same without the reasons and the marks'
	// names, sizes and steps; the timeline has them.
	p.Budget = 8000
	view, err := r.TimelineForView(p)
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for i := range tl.Unreachable {
		tl.Unreachable[i].Why = ""
	}
	for _, marks := range [][]Mark{tl.Evictions, tl.Restored} {
		for i := range marks {
			if marks[i].Name != "" && marks[i].Freed > 0 {
				named++
			}
			marks[i].Name, marks[i].Freed, marks[i].Step = "", 0, ""
		}
	}
	if named == 0 {
		t.Error("the timeline's marks have no names and sizes")
	}
	if a, b := mustJSON(t, tl), mustJSON(t, view); !bytes.Equal(a, b) {
		t.Errorf("the view's timeline differs from the timeline beyond the reasons and the marks' detail")
	}
	// A step is the view's timeline with what no budget changes left out,
	// its marks and requests over budget in columns: laid over another
	// budget's timeline, it gives this one.
	p.Budget = 20000
	other, err := r.TimelineForView(p)
	if err != nil {
		t.Fatal(err)
	}
	p.Budget = 8000
	step, err := r.Step(p, true)
	if err != nil {
		t.Fatal(err)
	}
	if step.Requests != n || step.Budget != 8000 || !step.Split {
		t.Fatalf("step of %d requests at τ=%d (split %v)", step.Requests, step.Budget, step.Split)
	}
	// A step without its split is the same step with Cached and Cats
	// empty.
	kept, err := r.Step(p, false)
	if err != nil {
		t.Fatal(err)
	}
	if kept.Split || len(kept.Cached) != 0 || len(kept.Cats) != 0 {
		t.Fatalf("the step without its split has %d cached and %d category columns", len(kept.Cached), len(kept.Cats))
	}
	whole := *step
	whole.Split, whole.Cached, whole.Cats = false, []int{}, [][]int32{}
	if a, b := mustJSON(t, kept), mustJSON(t, whole); !bytes.Equal(a, b) {
		t.Errorf("the step without its split differs from the step beyond Cached and Cats")
	}
	var merged map[string]json.RawMessage
	json.Unmarshal(mustJSON(t, other), &merged)
	if len(step.Evictions.K) == 0 || len(step.Unreachable.K) == 0 {
		t.Fatalf("the step at τ=8000 has %d marks and %d requests over budget: nothing in columns to check", len(step.Evictions.K), len(step.Unreachable.K))
	}
	var fields map[string]json.RawMessage
	json.Unmarshal(mustJSON(t, step), &fields)
	delete(fields, "requests")
	delete(fields, "split")
	fields["evictions"], fields["restored"] = mustJSON(t, markObjects(step.Evictions)), mustJSON(t, markObjects(step.Restored))
	fields["unreachable"] = mustJSON(t, overObjects(step.Unreachable))
	for k, v := range fields {
		if _, ok := merged[k]; !ok {
			t.Fatalf("the step's %q is no field of a timeline", k)
		}
		merged[k] = v
	}
	var want map[string]json.RawMessage
	json.Unmarshal(mustJSON(t, view), &want)
	if a, b := mustJSON(t, merged), mustJSON(t, want); !bytes.Equal(a, b) {
		t.Errorf("a step laid over the timeline at τ=20000 is not the timeline at τ=8000")
	}
}

// markObjects lays a step's marks out as a timeline's, as the page's
// mergeStep does.
func markObjects(m Marks) []Mark {
	out := make([]Mark, len(m.K))
	for i := range out {
		out[i] = Mark{Request: int(m.K[i]), Episode: int(m.Episode[i]), Level: int(m.Level[i])}
	}
	return out
}

// overObjects lays a step's requests over budget out as a timeline's.
func overObjects(o Overs) []Over {
	out := make([]Over, len(o.K))
	for i := range out {
		out[i] = Over{Request: int(o.K[i]), Over: int(o.Over[i])}
	}
	return out
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestContextAtAnEviction(t *testing.T) {
	r, p := subagent(t)
	tl, err := r.Timeline(p)
	if err != nil {
		t.Fatal(err)
	}
	k := -1
	for _, m := range tl.Evictions {
		if m.Level == 3 {
			k = m.Request
			break
		}
	}
	if k < 0 {
		t.Fatal("no level-3 eviction")
	}
	c, err := r.Context(p, k, 200)
	if err != nil {
		t.Fatal(err)
	}
	if c.Tokens != tl.After[k] || c.Before != tl.Before[k] || len(c.Evictions) == 0 {
		t.Fatalf("context %d: %d tokens (timeline %d), %d evictions", k, c.Tokens, tl.After[k], len(c.Evictions))
	}
	kept, strippedOutput := 0, 0
	for _, it := range c.Items {
		kept += it.Kept
		for _, b := range it.Blocks {
			if b.State == StateEvicted {
				rm := b.Removal
				if rm == nil {
					rm = it.Removal
				}
				if rm == nil || rm.Request > k || rm.Level < 1 {
					t.Fatalf("message %d: evicted block without a removal: %+v", it.I, b)
				}
				if b.Type == session.BlockToolResult && rm.Level == 3 && rm.Request == k {
					strippedOutput++
				}
			}
			if len(b.Text) > 200 || (b.Truncated != (b.Size > 200)) {
				t.Fatalf("preview of %d bytes, size %d, truncated %v", len(b.Text), b.Size, b.Truncated)
			}
		}
	}
	if kept != c.Tokens {
		t.Errorf("kept parts add up to %d, the input has %d", kept, c.Tokens)
	}
	if strippedOutput == 0 {
		t.Error("the level-3 eviction at this request stripped no tool output")
	}
	if c.Diff.Removed == 0 || c.Diff.TokensBefore != tl.After[k-1] {
		t.Errorf("diff %+v", c.Diff)
	}
	var kinds, episodes int
	for _, pt := range c.Parts {
		switch pt.Group {
		case "kind", "tool":
			kinds += pt.Tokens
		case "episode":
			episodes += pt.Tokens
		}
	}
	if math.Abs(float64(kinds-c.Tokens)) > float64(len(c.Parts)) || episodes != c.Tokens {
		t.Errorf("breakdown: kinds and tools %d, episodes %d, input %d", kinds, episodes, c.Tokens)
	}
}

func TestLocate(t *testing.T) {
	r, _ := subagent(t)
	seen := 0
	for ord, e := range r.Thread.Entries {
		loc, ok := r.Locate(ord)
		if !ok {
			continue
		}
		seen++
		q := r.reqs[loc.Request]
		if loc.Message >= 0 && q.Context.Entries[loc.Message] != e {
			t.Fatalf("entry %d located at request %d message %d, which is another entry", ord, loc.Request, loc.Message)
		}
		if loc.Message < 0 && q.Entry.Line < e.Line {
			t.Fatalf("entry %d (line %d) located at request %d (line %d)", ord, e.Line, loc.Request, q.Entry.Line)
		}
	}
	if seen < len(r.Thread.Entries)-1 {
		t.Errorf("located %d of %d entries", seen, len(r.Thread.Entries))
	}
	if _, ok := r.Locate(len(r.Thread.Entries)); ok {
		t.Error("an entry past the end was located")
	}
}

func TestExport(t *testing.T) {
	r, p := subagent(t)
	tl, err := r.Timeline(p)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Export(tl, FormatCSV)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != r.Requests()+1 || len(rows[0]) != 8+len(tl.Categories) || rows[0][4] != "after" {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
	if rows[1+tl.Evictions[0].Request][len(rows[0])-2] == "0" {
		t.Error("the first eviction is not counted in its row")
	}
	js, err := Export(tl, FormatJSON)
	if err != nil || !json.Valid(js) {
		t.Fatalf("json export: %v", err)
	}
	if _, err := Export(tl, "xml"); err == nil {
		t.Error("an unknown format was accepted")
	}
}

func TestDefaultBudget(t *testing.T) {
	for _, tc := range []struct {
		before []int
		want   int
	}{
		{[]int{100, 20_549, 3}, 10_000},
		{[]int{997_234}, 490_000},
		{[]int{150}, 75},
		{nil, 1},
	} {
		if got := DefaultBudget(tc.before); got != tc.want {
			t.Errorf("DefaultBudget(%v) = %d, want %d", tc.before, got, tc.want)
		}
	}
}

func TestTimelineSVG(t *testing.T) {
	r, p := subagent(t)
	tl, err := r.Timeline(p)
	if err != nil {
		t.Fatal(err)
	}
	tl.Policy = `<script>x</script>` // a policy name is ours, but escape anyway
	svg := TimelineSVG(tl, 1200, 400)
	var doc struct {
		XMLName xml.Name
		Paths   []struct{} `xml:"path"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	if doc.XMLName.Local != "svg" || len(doc.Paths) < len(tl.Evictions)+2 {
		t.Fatalf("root %s with %d paths for %d evictions", doc.XMLName.Local, len(doc.Paths), len(tl.Evictions))
	}
	if bytes.Contains(svg, []byte("<script")) || !bytes.Contains(svg, []byte("&lt;script&gt;")) {
		t.Error("text is not escaped")
	}
}

// TestBranchesOfATree replays a pi session whose history forks (pi's
// /tree): the thread reports two branches and each branch's requests
// share a context of their own.
func TestBranchesOfATree(t *testing.T) {
	lines := []string{
		`{"type":"session","version":3,"id":"tree","cwd":"/w","timestamp":"2026-01-01T00:00:00Z"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":[{"type":"text","text":"start"}]}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"first answer"}]}}`,
		`{"type":"message","id":"u2","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"user","content":[{"type":"text","text":"go left"}]}}`,
		`{"type":"message","id":"a2","parentId":"u2","timestamp":"2026-01-01T00:00:04Z","message":{"role":"assistant","content":[{"type":"text","text":"left"}]}}`,
		`{"type":"message","id":"u3","parentId":"a1","timestamp":"2026-01-01T00:00:05Z","message":{"role":"user","content":[{"type":"text","text":"go right instead"}]}}`,
		`{"type":"message","id":"a3","parentId":"u3","timestamp":"2026-01-01T00:00:06Z","message":{"role":"assistant","content":[{"type":"text","text":"right"}]}}`,
	}
	path := t.TempDir() + "/tree.jsonl"
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := readSession(t, path)
	th := Threads(s)
	if len(th) != 1 || th[0].Branches != 2 || th[0].Requests != 3 {
		t.Fatalf("threads %+v", th)
	}
	r, err := New(context.Background(), s, Params{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := r.Timeline(Params{Policy: cwl.PolicyNone, Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Context) != 3 || tl.Context[1] == tl.Context[2] {
		t.Fatalf("contexts %v: the two branches should not share one", tl.Context)
	}
	right, err := r.Context(Params{Policy: cwl.PolicyNone, Budget: 1000}, 2, 100)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, it := range right.Items {
		texts = append(texts, it.Blocks[0].Text)
	}
	if strings.Join(texts, "|") != "start|first answer|go right instead" {
		t.Errorf("the right branch's input is %q", texts)
	}
}

// TestUncappedIsTheSameUnderEveryPolicy checks that what a replay measures
// once (each input uncapped and its shared context) is what every
// policy's own run finds at every budget, with the estimator and with the
// calibrated counter.
func TestUncappedIsTheSameUnderEveryPolicy(t *testing.T) {
	s := readSession(t, claudeSession)
	for _, counter := range []string{"estimate", CounterCalibrated} {
		r, err := New(context.Background(), s, Params{Thread: 5, Counter: counter, Episodes: "inferred"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		u := r.Uncapped()
		if u.EpisodeCount == 0 || len(u.Before) != r.Requests() {
			t.Fatalf("%s: uncapped %d inputs, %d episodes", counter, len(u.Before), u.EpisodeCount)
		}
		for _, policy := range cwl.Policies {
			for _, budget := range []int{3000, 8000, 40000} {
				run, err := r.rep.Run(r.runOptions(Params{Policy: policy, Budget: budget}))
				if err != nil {
					t.Fatal(err)
				}
				for k, pt := range run.Requests {
					if pt.Before != u.Before[k] || pt.Context != u.Context[k] {
						t.Fatalf("%s %s τ=%d request %d: before %d context %d, uncapped %d context %d",
							counter, policy, budget, k, pt.Before, pt.Context, u.Before[k], u.Context[k])
					}
					if policy == cwl.PolicyNone && pt.After != pt.Before {
						t.Fatalf("%s: request %d kept %d of %d with no policy", counter, k, pt.After, pt.Before)
					}
				}
			}
		}
	}
}
