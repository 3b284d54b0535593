package app

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"ctxscope/engine/store"
	"ctxscope/engine/store/pgtest"
)

// TestTwoAppsShareAPostgresWorkspace runs two apps, as two ctxscope
// servers do, on one PostgreSQL database, each with its own directory for
// its search index: an import through one is announced to the other by
// the change feed within 2 s and found by its search; two annotators, one
// on each, keep their own names, edit one queue, and their marks make one
// agreement.
func TestTwoAppsShareAPostgresWorkspace(t *testing.T) {
	srv, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	url, err := srv.Database(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a := newApp(t, Options{Store: url})
	b := newApp(t, Options{Store: url})
	rec := &eventRecorder{events: make(chan recorded, 4096)}
	b.SetPlatform(rec)

	info, err := a.sessions.OpenPath(context.Background(), claudeSession)
	if err != nil {
		t.Fatal(err)
	}
	imported := time.Now()
	rec.waitFor(t, EventWorkspaceChanged, func(d any) bool {
		return slices.Contains(d.(WorkspaceChanged).Kinds, store.ChangeSessions)
	})
	if d := time.Since(imported); d > 2*time.Second {
		t.Errorf("the other app heard of the import after %v, want within 2 s", d)
	}
	list, err := b.sessions.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(list, func(s SessionInfo) bool { return s.Key == info.Key }) {
		t.Fatalf("the session imported through one app is not listed by the other")
	}
	word := searchableWord(t, a, info.Key)
	hits, err := b.debugger.Search(context.Background(), word, info.Key, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits.Hits) == 0 {
		t.Fatalf("searching %q through the other app finds nothing", word)
	}

	for app, name := range map[*App]string{a: "ann-a", b: "ann-b"} {
		if _, err := app.annotate.SetAnnotator(context.Background(), name); err != nil {
			t.Fatal(err)
		}
	}
	if who, _ := a.annotate.Annotator(context.Background()); who != "ann-a" {
		t.Fatalf("the first annotator is now %q: the second's name overwrote it", who)
	}
	set := buildConv0(t, a)
	if _, err := a.annotate.AddLoCoMo(context.Background(), set, []int{0}); err != nil {
		t.Fatal(err)
	}
	q, err := b.annotate.AddLoCoMo(context.Background(), set, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	if len(q) != 2 {
		t.Fatalf("the queue has %d questions after one added through each app, want 2", len(q))
	}
	for i, app := range []*App{a, b} {
		task, err := app.annotate.Task(context.Background(), set, q[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		for j, it := range task.Items {
			helpful := j%2 == 0 || (i == 1 && j == 1) // they disagree on item 1
			if _, err := app.annotate.Mark(context.Background(), Mark{Set: set, Question: q[0].ID, Item: it.Key, Helpful: &helpful}); err != nil {
				t.Fatal(err)
			}
		}
	}
	marks, err := a.annotate.Marks(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]int{}
	for _, m := range marks {
		by[m.Annotator]++
	}
	if by["ann-a"] == 0 || by["ann-a"] != by["ann-b"] {
		t.Fatalf("marks by annotator %v: want as many from each", by)
	}
	agreements, err := b.annotate.Agreement(context.Background(), set)
	if err != nil {
		t.Fatal(err)
	}
	var helpful *struct{ raters, units int }
	for _, ag := range agreements {
		if ag.Error == "" && ag.Raters == 2 {
			helpful = &struct{ raters, units int }{ag.Raters, ag.Units}
		}
	}
	if helpful == nil {
		t.Fatalf("no agreement between the two annotators: %+v", agreements)
	}
	if helpful.units != by["ann-a"] {
		t.Errorf("agreement over %d units, want the %d items both judged", helpful.units, by["ann-a"])
	}
}

// searchableWord returns a word of six letters or more from the first
// message of a session.
func searchableWord(t *testing.T, a *App, key string) string {
	t.Helper()
	o, err := a.sessions.get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range o.Session.Main().Entries {
		if e.Message == nil {
			continue
		}
		for _, b := range e.Message.Blocks {
			for _, w := range strings.FieldsFunc(b.Text, func(r rune) bool { return !unicode.IsLetter(r) }) {
				if len(w) >= 6 {
					return strings.ToLower(w)
				}
			}
		}
	}
	t.Fatal("no word to search for")
	return ""
}
