package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/kg"
)

// server speaks the chat-completions API and answers each prompt kind
// with a reply recorded under testdata/replies; malformed is returned
// once first when set, to exercise retries.
type server struct {
	t         *testing.T
	mu        sync.Mutex
	calls     []chatRequest
	malformed int
}

func (s *server) reply(prompt string) string {
	kinds := []struct{ marker, file string }{
		{"list the entities", "entities"},
		{"as relations between the listed entities", "relations"},
		{"Answer with an absolute time", "time"},
		{"checking the facts extracted", "review"},
		{"reusable experiences", "experiences"},
		{"Short Answer:", "answer"},
	}
	for _, k := range kinds {
		if strings.Contains(prompt, k.marker) {
			b, err := os.ReadFile("testdata/replies/" + k.file + ".txt")
			if err != nil {
				s.t.Fatal(err)
			}
			return string(b)
		}
	}
	return "{}"
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || len(req.Messages) != 2 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.calls = append(s.calls, req)
	bad := s.malformed > 0
	s.malformed--
	s.mu.Unlock()
	content := s.reply(req.Messages[1].Content)
	if bad {
		content = `{"entities": ["unterminated}`
	}
	json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"role": "assistant", "content": content}}}})
}

func start(t *testing.T) (*server, *Client, *[]string) {
	s := &server{t: t}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	logs := &[]string{}
	return s, &Client{BaseURL: srv.URL + "/v1", Model: "test-model", Key: "k", JSONMode: true}, logs
}

func logger(logs *[]string) func(string, ...any) {
	return func(f string, a ...any) { *logs = append(*logs, fmt.Sprintf(f, a...)) }
}

// d13 is LoCoMo conv-26 D1:3.
var d13 = memory.Passage{ID: "D1:3", Session: 1, Speaker: "Caroline", Stamp: "1:56 pm on 8 May, 2023",
	Time: time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC), Text: "I went to a LGBTQ support group yesterday and it was so powerful."}

func TestExtractRejectsMalformedItems(t *testing.T) {
	s, c, logs := start(t)
	e := &Extractor{Client: c, Logf: logger(logs)}
	ex, err := e.Extract(context.Background(), d13)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ex.Entities); got != "[Caroline LGBTQ support group]" {
		t.Errorf("entities %s", got)
	}
	if len(ex.Triples) != 1 {
		t.Fatalf("triples %+v, want only the valid one", ex.Triples)
	}
	tr := ex.Triples[0]
	if tr.Predicate != "attended" || tr.Time.String() != "7 May, 2023" {
		t.Errorf("triple %+v (a relative model time must fall back to the normalizer's 7 May, 2023)", tr)
	}
	want := []string{
		`entity 2: not a non-empty string: 42`,
		`entity 3: not a non-empty string: ""`,
		`relation 1: "Caroline" or "Mars" is not one of the extracted entities`,
		`relation 2: field "source" is not a string`,
		`relation 3: missing field "relation_type"`,
		`relation 4: field "condition" is not a string`,
		`relation 5: not an object`,
		`"yesterday" is not an absolute time`,
	}
	all := strings.Join(*logs, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("log lacks %q:\n%s", w, all)
		}
	}
	if n := len(s.calls); n != 3 {
		t.Errorf("%d calls, want 3 (entities, relations, one time)", n)
	}
	if s.calls[0].Temperature != 0.2 || s.calls[1].Temperature != 0.4 || s.calls[0].ResponseFormat == nil {
		t.Errorf("request settings %+v", s.calls[0])
	}
}

func TestInvalidJSONIsRetried(t *testing.T) {
	s, c, logs := start(t)
	s.malformed = 1
	obj, err := c.JSON(context.Background(), "list the entities", 0.2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := obj["entities"]; !ok || len(s.calls) != 2 || s.calls[1].Temperature > 0.11 {
		t.Errorf("retry: %v calls %d temps %v", obj, len(s.calls), s.calls[1].Temperature)
	}
	s.malformed = 5
	if _, err := c.JSON(context.Background(), "list the entities", 0.2, 2); err == nil || !strings.Contains(err.Error(), "invalid JSON") {
		t.Errorf("two malformed replies: %v", err)
	}
	_ = logs
}

func TestReviewValidatesItems(t *testing.T) {
	_, c, logs := start(t)
	e := &Extractor{Client: c, Logf: logger(logs)}
	g := kg.New()
	car, _ := g.Ensure("Caroline", kg.Extracted)
	grp, _ := g.Ensure("LGBTQ support group", kg.Extracted)
	r, _ := g.Relate(kg.Relation{ID: "r3", Subject: car.ID, Predicate: "went to", Object: grp.ID, Passages: []string{"D1:3"}})
	rv, err := e.Review(context.Background(), []memory.Passage{d13}, g, []*kg.Relation{r})
	if err != nil {
		t.Fatal(err)
	}
	if len(rv.Add) != 1 || rv.Add[0].Time.String() != "7 May, 2023" {
		t.Errorf("add %+v", rv.Add)
	}
	if len(rv.Update) != 1 || rv.Update[0].Predicate != "attended" || *rv.Update[0].Time != "7 May, 2023" {
		t.Errorf("update %+v", rv.Update)
	}
	if fmt.Sprint(rv.Deny) != "[r3]" {
		t.Errorf("deny %v", rv.Deny)
	}
	all := strings.Join(*logs, "\n")
	for _, w := range []string{`add 1: time "last week" is not absolute`, `add 2: missing field "source"`, `update 1: unknown relation "nope"`,
		`update 2: field "relation_id" is not a string`, `deny 0: unknown relation "r999"`, `deny 2: missing field "relation_id"`} {
		if !strings.Contains(all, w) {
			t.Errorf("log lacks %q:\n%s", w, all)
		}
	}
}

// TestBuildWithLLM runs the memory builder with the model-backed
// extractor and writer against the test server: only valid items reach
// the graph.
func TestBuildWithLLM(t *testing.T) {
	_, c, logs := start(t)
	e := &Extractor{Client: c, Logf: logger(logs)}
	b := &memory.Builder{Extractor: e, Reviewer: e, Logf: logger(logs)}
	m, err := b.Build(context.Background(), "conv-26", []memory.Passage{d13})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range m.Graph.Relations() {
		ent, _ := m.Graph.Entity(r.Object)
		if ent.Name == "Mars" || ent.Name == "Melanie" || r.Predicate == "" {
			t.Errorf("invalid item stored: %+v", r)
		}
	}
	if m.Source != "llm:test-model" {
		t.Errorf("source %q", m.Source)
	}
	// The review denied r-the-extracted relation and added one from the session.
	var preds []string
	for _, r := range m.Graph.Relations() {
		preds = append(preds, r.Predicate+"/"+string(r.Origin))
	}
	if len(preds) == 0 {
		t.Errorf("nothing stored")
	}
}

func TestWriterExperiences(t *testing.T) {
	_, c, logs := start(t)
	w := &Writer{Client: c, Logf: logger(logs)}
	units := []cluster.Unit{{ID: "D1:3", Speaker: "Caroline", Text: d13.Text}, {ID: "D1:1", Speaker: "Caroline", Text: "Hey Mel! Good to see you!"}}
	items, err := w.Experiences(context.Background(), units)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].Sources[0] != "D1:3" {
		t.Errorf("items %+v", items)
	}
	if got := strings.Join(*logs, "\n"); !strings.Contains(got, `type "opinion"`) || !strings.Contains(got, "not a list of numbers") || !strings.Contains(got, "no valid source") {
		t.Errorf("logs:\n%s", got)
	}
}

func TestAnswer(t *testing.T) {
	s, c, _ := start(t)
	a, err := c.Answer(context.Background(), "ctx", "When did Caroline go to the LGBTQ support group?", 2, "", nil)
	if err != nil || a != "7 May 2023" {
		t.Fatalf("answer %q, %v", a, err)
	}
	if p := s.calls[0].Messages[1].Content; !strings.Contains(p, "Use DATE of CONVERSATION") || !strings.Contains(p, "--- context start ---\nctx\n") {
		t.Errorf("prompt:\n%s", p)
	}
}

func TestFromEnvNeedsModel(t *testing.T) {
	t.Setenv("CTXSCOPE_LLM_URL", "")
	t.Setenv("CTXSCOPE_LLM_MODEL", "")
	if _, err := FromEnv("", ""); err == nil {
		t.Error("no error without a model")
	}
	t.Setenv("CTXSCOPE_LLM_KEY", "secret")
	c, err := FromEnv("http://x/v1", "m")
	if err != nil || c.Key != "secret" {
		t.Errorf("%+v %v", c, err)
	}
}

// FuzzParseObject feeds model-like text to the tolerant parser.
func FuzzParseObject(f *testing.F) {
	for _, n := range []string{"entities", "relations", "review", "experiences"} {
		b, _ := os.ReadFile("testdata/replies/" + n + ".txt")
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, s string) {
		obj, err := ParseObject(s)
		if err != nil {
			return
		}
		list(obj, "relations")
		for _, raw := range obj {
			record(raw, []string{"source"}, []string{"condition"})
		}
	})
}
