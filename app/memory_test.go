package app

import (
	"context"
	"encoding/csv"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ctxscope/engine/memory/embed/embedtest"
)

const locomoFile = "../testdata/shared/locomo/locomo10.json"

// buildRecorder is a platform that keeps the memory build events.
type buildRecorder struct {
	noPlatform
	mu     sync.Mutex
	events []BuildState
}

func (r *buildRecorder) Emit(event string, data any) {
	if st, ok := data.(BuildState); ok && event == EventBuild {
		r.mu.Lock()
		r.events = append(r.events, st)
		r.mu.Unlock()
	}
}

// buildConv0 builds LoCoMo conversation 0 through the service and waits
// for the build to finish. The call's context ends as soon as the call
// returns, as a served request's does: the build goes on.
func buildConv0(t *testing.T, a *App) string {
	t.Helper()
	embedtest.Path(t)
	call, end := context.WithCancel(context.Background())
	st, err := a.memory.Build(call, BuildRequest{Source: "locomo", Path: locomoFile, Sample: 0, Extractor: "offline"})
	end()
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		s, err := a.memory.Job(context.Background(), st.Job)
		if err != nil {
			t.Fatal(err)
		}
		if s.Stage == "done" {
			return s.Set
		}
		if s.Stage == "failed" || s.Stage == "cancelled" || time.Now().After(deadline) {
			t.Fatalf("build: %+v", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestMemoryService(t *testing.T) {
	a := newApp(t, Options{})
	rec := &buildRecorder{}
	a.SetPlatform(rec)
	set := buildConv0(t, a)
	if set != "conv-26" {
		t.Fatalf("set %q", set)
	}
	rec.mu.Lock()
	events := append([]BuildState(nil), rec.events...)
	rec.mu.Unlock()
	if len(events) < 3 || events[len(events)-1].Stage != "done" || events[len(events)/2].Done == 0 {
		t.Errorf("build events %+v", events)
	}

	infos, err := a.memory.List(context.Background())
	if err != nil || len(infos) != 1 || infos[0].Questions != 199 || infos[0].Stats.Passages != 419 || infos[0].Kind != "locomo" {
		t.Fatalf("list %+v %v", infos, err)
	}

	// The whole graph, then Caroline's ego graph.
	g, err := a.memory.Graph(context.Background(), GraphRequest{Set: set})
	if err != nil || len(g.Nodes) != infos[0].Stats.Entities || len(g.Edges) != infos[0].Stats.Relations {
		t.Fatalf("graph: %d nodes %d edges %v", len(g.Nodes), len(g.Edges), err)
	}
	timed := 0
	for _, e := range g.Edges {
		if e.Start > 0 && e.Gran != "" {
			timed++
		}
	}
	if timed == 0 {
		t.Error("no relation carries a normalized time")
	}
	found, err := a.memory.FindEntities(context.Background(), set, "caroline", 5)
	if err != nil || len(found) == 0 || found[0].Name != "Caroline" {
		t.Fatalf("find: %+v %v", found, err)
	}
	caro := found[0].ID
	ego, err := a.memory.Graph(context.Background(), GraphRequest{Set: set, Center: caro, Hops: 1})
	if err != nil || ego.Nodes[0].ID != caro || ego.Nodes[0].Hop != 0 || len(ego.Nodes) < 10 {
		t.Fatalf("ego: %+v %v", ego, err)
	}

	// The entity panel reaches provenance passages.
	ent, err := a.memory.Entity(context.Background(), set, caro)
	if err != nil {
		t.Fatal(err)
	}
	withPassage := 0
	for _, r := range ent.Relations {
		if len(r.Passages) > 0 && r.Passages[0].Text != "" {
			withPassage++
		}
	}
	if withPassage == 0 || ent.Mentions == 0 {
		t.Errorf("entity: %d relations with passages, %d mentions", withPassage, ent.Mentions)
	}

	// Retrieval of LoCoMo question 0 with its gold evidence.
	qs, err := a.memory.Questions(context.Background(), set)
	if err != nil || len(qs) != 199 {
		t.Fatalf("questions %d %v", len(qs), err)
	}
	res, err := a.memory.Retrieve(context.Background(), RetrieveRequest{Set: set, Index: 0, Mode: "budgeted"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Question != qs[0].Question || len(res.Gold) != len(qs[0].Evidence) || res.Tokens > 1000 || len(res.Items) == 0 {
		t.Fatalf("retrieval: %q, %d gold, %d tokens", res.Question, len(res.Gold), res.Tokens)
	}
	// The answer ("7 May 2023") against the facts of its gold turn: the
	// graph read the support group with its resolved date, so a perfect
	// fact retriever would hold the whole answer.
	if res.GoldFactsCoverage == nil || *res.GoldFactsCoverage != 1 || !slices.ContainsFunc(res.GoldFacts, func(f string) bool {
		return strings.Contains(f, "LGBTQ support group") && strings.Contains(f, "7 May, 2023")
	}) {
		t.Errorf("facts of the gold turns %q, coverage %v", res.GoldFacts, res.GoldFactsCoverage)
	}
	if res.Coverage == nil || *res.Coverage < 0 || *res.Coverage > 1 || res.Strong.Coverage == nil {
		t.Errorf("answer coverage: memory %v, passages-strong %v", res.Coverage, res.Strong.Coverage)
	}
	// An adversarial question (152) has no gold answer to cover.
	adv, err := a.memory.Retrieve(context.Background(), RetrieveRequest{Set: set, Index: 152, Mode: "budgeted"})
	if err != nil || adv.Coverage != nil || adv.GoldFactsCoverage != nil || adv.Answer == "" {
		t.Errorf("adversarial question: %v, coverage %v, facts' %v, shown answer %q", err, adv.Coverage, adv.GoldFactsCoverage, adv.Answer)
	}
	// passages-strong beside it: its own context within the same budget,
	// and the turns only one of the two shows, each as the other lacks it.
	st := res.Strong
	if st.Tokens == 0 || st.Tokens > 1000 || len(st.Turns) == 0 || st.Recall < 0 || st.Recall > 1 {
		t.Fatalf("passages-strong: %+v", st)
	}
	mine := map[string]bool{}
	for _, it := range res.Items {
		if it.Kind == "passage" {
			mine[it.ID] = true
		}
	}
	for _, id := range st.OnlyMemory {
		if !mine[id] || slices.Contains(st.Turns, id) {
			t.Errorf("%s is listed as only the memory's", id)
		}
	}
	for _, id := range st.OnlyStrong {
		if mine[id] || !slices.Contains(st.Turns, id) {
			t.Errorf("%s is listed as only passages-strong's", id)
		}
	}
	if _, err := a.memory.Retrieve(context.Background(), RetrieveRequest{Set: set, Index: -1, Question: "What does Melanie paint?"}); err != nil {
		t.Errorf("typed question: %v", err)
	}
	if _, err := a.memory.Retrieve(context.Background(), RetrieveRequest{Set: set, Index: -1, Question: "  "}); err == nil {
		t.Error("an empty question was accepted")
	}

	// Search with facets.
	hits, err := a.memory.Search(context.Background(), MemorySearch{Set: set, Query: "pottery", Kind: "passage"})
	if err != nil || hits.Total == 0 || len(hits.Facets["speaker"]) == 0 || len(hits.Months) == 0 {
		t.Fatalf("search: %+v %v", hits, err)
	}

	// Experiences with explained routing.
	xp, err := a.memory.Experiences(context.Background(), set)
	if err != nil || len(xp.Clusters) == 0 || !xp.Routed || xp.Clusters[0].Members[0].Why == "" {
		t.Fatalf("experiences: %d clusters, routed %v, %v", len(xp.Clusters), xp.Routed, err)
	}

	// A merge by hand, undone.
	mel, _ := a.memory.FindEntities(context.Background(), set, "melanie", 1)
	before, _ := a.memory.Info(context.Background(), set)
	merged, err := a.memory.Merge(context.Background(), set, caro, mel[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	last := merged.Merges[len(merged.Merges)-1]
	if !last.Undoable || last.Drop.Name != "Melanie" {
		t.Fatalf("merge %+v", last)
	}
	if err := a.memory.Undo(context.Background(), set, last.ID); err != nil {
		t.Fatal(err)
	}
	after, _ := a.memory.Info(context.Background(), set)
	if after.Stats != before.Stats {
		t.Errorf("undo: stats %+v, before the merge %+v", after.Stats, before.Stats)
	}
}

func TestAnnotationsService(t *testing.T) {
	a := newApp(t, Options{})
	set := buildConv0(t, a)
	an := a.annotate
	if _, err := an.AddLoCoMo(context.Background(), set, []int{0, 1}); err != nil {
		t.Fatal(err)
	}
	q, err := an.AddCustom(context.Background(), set, "What does Melanie paint?")
	if err != nil || len(q) != 3 || q[2].Text != "What does Melanie paint?" || q[0].Items == 0 {
		t.Fatalf("queue %+v %v", q, err)
	}
	yes, no := true, false
	if _, err := an.Mark(context.Background(), Mark{Set: set, Question: "locomo:0", Item: "", Sufficient: &yes}); err == nil {
		t.Error("marked without an annotator name")
	}
	label := func(who string, helpful []bool, sufficient bool) {
		if _, err := an.SetAnnotator(context.Background(), who); err != nil {
			t.Fatal(err)
		}
		task, err := an.Task(context.Background(), set, "locomo:0")
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range helpful {
			if _, err := an.Mark(context.Background(), Mark{Set: set, Question: "locomo:0", Item: task.Items[i].Key, Helpful: &h}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := an.Mark(context.Background(), Mark{Set: set, Question: "locomo:0", Sufficient: &sufficient, Notes: "context by " + who}); err != nil {
			t.Fatal(err)
		}
	}
	label("ann", []bool{true, true, false, false}, true)
	label("bob", []bool{true, false, false, false}, true)
	task, _ := an.Task(context.Background(), set, "locomo:0")
	if task.Annotator != "bob" || *task.Items[1].Helpful || task.Sufficient == nil || task.Notes != "context by bob" {
		t.Errorf("bob's task %+v", task)
	}
	if _, err := an.Mark(context.Background(), Mark{Set: set, Question: "locomo:0", Item: task.Items[0].Key, Helpful: &no, Sufficient: &yes}); err == nil {
		t.Error("an item judged sufficient was accepted")
	}
	ag, err := an.Agreement(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	// Items: ann y y n n, bob y n n n -> κ = 0.5 (see engine/annotate).
	if ag[0].Category != "helpful" || ag[0].Method != "cohen" || ag[0].Units != 4 || ag[0].Kappa != 0.5 {
		t.Errorf("agreement %+v", ag[0])
	}
	f, err := an.Export(context.Background(), set, "csv")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(f.Text)).ReadAll()
	if err != nil || len(recs) != 11 || f.Rows != 10 {
		t.Fatalf("csv: %d records, %v", len(recs), err)
	}
	if recs[1][2] == "" || recs[1][4] == "" {
		t.Errorf("csv row lacks the question or the item kind: %q", recs[1])
	}
	if _, err := an.Export(context.Background(), set, "xml"); err == nil {
		t.Error("unknown format accepted")
	}
}

func TestBuildCancel(t *testing.T) {
	embedtest.Path(t)
	a := newApp(t, Options{})
	st, err := a.memory.Build(context.Background(), BuildRequest{Source: "locomo", Path: locomoFile, Sample: 6, Extractor: "offline"})
	if err != nil {
		t.Fatal(err)
	}
	a.memory.Cancel(context.Background(), st.Job)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		s, _ := a.memory.Job(context.Background(), st.Job)
		if s.Stage == "cancelled" {
			break
		}
		if s.Stage == "done" || s.Stage == "failed" || time.Now().After(deadline) {
			t.Fatalf("build after cancel: %+v", s)
		}
	}
	if infos, _ := a.memory.List(context.Background()); len(infos) != 0 {
		t.Errorf("a cancelled build stored %+v", infos)
	}
	for _, bad := range []BuildRequest{{Source: "locomo"}, {Source: "session", Session: "nope"}, {Source: "x"}, {Source: "locomo", Path: locomoFile, Extractor: "magic"}} {
		if _, err := a.memory.Build(context.Background(), bad); err == nil {
			t.Errorf("build %+v accepted", bad)
		}
	}
}
