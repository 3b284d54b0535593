package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/embed/embedtest"
	"ctxscope/engine/workspace"
)

func runCLI(t *testing.T, ws string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(append([]string{"--workspace", ws}, args...), &Env{Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

func TestMemoryCommands(t *testing.T) {
	embedtest.Path(t)
	ws := t.TempDir()
	out, errs, code := runCLI(t, ws, "memory", "build", "--locomo", locomoPath, "--sample", "1")
	if code != 0 || !strings.Contains(out, "conv-30") {
		t.Fatalf("build: %d\n%s%s", code, out, errs)
	}
	out, errs, code = runCLI(t, ws, "memory", "query", "What is Gina's favorite style of dance?", "--json")
	if code != 0 {
		t.Fatalf("query: %d %s", code, errs)
	}
	var res struct {
		Items []struct {
			Kind string
			Why  struct{ Channel string }
		}
		Tokens int
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Items) == 0 || res.Tokens == 0 {
		t.Fatalf("query json: %v\n%s", err, out)
	}
	out, errs, code = runCLI(t, ws, "memory", "eval", "--locomo", locomoPath, "--tune-on", "0", "--report-on", "1", "--budgets", "1000", "--json")
	if code != 0 {
		t.Fatalf("eval: %d\n%s%s", code, out, errs)
	}
	var rep struct {
		Splits []struct {
			Name string
			Rows []struct {
				Kind    string
				Budget  int
				Summary struct {
					Overall struct{ Strict, Recall, Coverage float64 }
				}
			}
			Comparisons []struct {
				Of, Against, Metric string
				Overall             struct{ Mean, Low, High float64 }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Splits) != 3 {
		t.Fatalf("eval json: %v\n%s", err, out)
	}
	held := rep.Splits[0]
	var kinds []string
	for _, r := range held.Rows {
		kinds = append(kinds, r.Kind)
	}
	// The memory, the two baselines, the two ceilings and five
	// ablations; the memory and each ablation compared in strict recall
	// and in answer coverage.
	if !strings.HasPrefix(held.Name, "held out") || strings.Join(kinds, " ") != "memory passages-strong bm25-packed ceiling ceiling ablation ablation ablation ablation ablation" ||
		len(held.Comparisons) != 14 {
		t.Fatalf("held-out split %+v", held)
	}
	// The gold turns hold every gold turn; their facts hold none whole,
	// and less of the answers.
	if turns, facts := held.Rows[3].Summary.Overall, held.Rows[4].Summary.Overall; turns.Strict < 0.99 || facts.Strict != 0 || facts.Coverage >= turns.Coverage || facts.Coverage <= 0 {
		t.Errorf("ceilings: gold turns %+v, their facts %+v", turns, facts)
	}
	if m := held.Rows[0].Summary.Overall; m.Strict <= 0 || m.Strict > m.Recall+1e-9 || m.Coverage <= 0 || m.Coverage > 1 {
		t.Errorf("strict %v must be positive and at most the provenance coverage %v; answer coverage %v in (0, 1]", m.Strict, m.Recall, m.Coverage)
	}
	if c := held.Comparisons[0]; c.Of != "memory" || c.Against != "passages-strong" || c.Metric != "strict" || c.Overall.Low > c.Overall.Mean || c.Overall.Mean > c.Overall.High {
		t.Errorf("first comparison %+v", c)
	}
	if c := held.Comparisons[len(held.Comparisons)-1]; c.Of != "memory, neighbour window off" || c.Against != "memory" || c.Metric != "coverage" {
		t.Errorf("last comparison %+v", c)
	}
	kg := "../../testdata/shared/memweaver-kg/"
	out, errs, code = runCLI(t, ws, "memory", "import-kg", kg+"kg_sample_1.json", kg+"clusters_sample_1.json", "--locomo", locomoPath, "--sample", "1")
	if code != 0 || !strings.Contains(out, "189 entities") || !strings.Contains(out, "51 experience items") {
		t.Fatalf("import: %d\n%s%s", code, out, errs)
	}
	out, _, code = runCLI(t, ws, "memory", "query", "--memory", "imported-conv-30", "What is Gina's favorite style of dance?")
	if code != 0 || !strings.Contains(out, "KNOWLEDGE GRAPH TRIPLES") {
		t.Fatalf("query imported: %d\n%s", code, out)
	}
}

func TestMemoryUsage(t *testing.T) {
	ws := t.TempDir()
	for _, args := range [][]string{
		{"memory"},
		{"memory", "frobnicate"},
		{"memory", "build"},
		{"memory", "import-kg", "one.json"},
		{"memory", "query"},
		{"memory", "build", "--locomo", locomoPath, "--sample", "99"},
	} {
		if _, _, code := runCLI(t, ws, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if _, errs, code := runCLI(t, ws, "memory", "build", "--locomo", "/nonexistent.json"); code != 1 || errs == "" {
		t.Errorf("missing file: exit %d %q", code, errs)
	}
}

// TestMemoryBuildWithLLM builds a tiny LoCoMo-shaped conversation with
// the model-backed writers against a local chat-completions server that
// returns one valid and one malformed relation: the valid one is stored,
// the malformed one is logged.
func TestMemoryBuildWithLLM(t *testing.T) {
	embedtest.Path(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		p := req.Messages[len(req.Messages)-1].Content
		reply := `{}`
		switch {
		case strings.Contains(p, "list the entities"):
			reply = `{"entities": ["Jon", "dance studio"]}`
		case strings.Contains(p, "as relations between"):
			reply = `{"relations": [{"source": "Jon", "relation_type": "opened", "target": "dance studio"}, {"source": "Jon", "relation_type": 7, "target": "dance studio"}]}`
		case strings.Contains(p, "absolute time"):
			reply = `{"absolute_time": "20 January, 2023"}`
		case strings.Contains(p, "checking the facts"):
			reply = `{"add": [], "update": [], "deny": []}`
		case strings.Contains(p, "reusable experiences"):
			reply = `{"experiences": [{"type": "fact", "content": "Jon opened a dance studio.", "source_qa_indices": [0]}]}`
		case strings.Contains(p, "one and the same topic"):
			reply = `{"is_consistent": true, "confidence": 0.9, "label": "Jon's dance studio"}`
		case strings.Contains(p, "one or two sentences"):
			reply = `{"center_text": "Jon's dance studio."}`
		}
		content, _ := json.Marshal(reply)
		fmt.Fprintf(w, `{"choices": [{"message": {"role": "assistant", "content": %s}}]}`, content)
	}))
	defer srv.Close()
	conv := `[{"sample_id": "conv-x", "conversation": {"speaker_a": "Jon", "speaker_b": "Gina",
		"session_1_date_time": "4:04 pm on 20 January, 2023",
		"session_1": [{"speaker": "Jon", "dia_id": "D1:1", "text": "I opened my dance studio today!"},
		              {"speaker": "Gina", "dia_id": "D1:2", "text": "Congrats on the dance studio, Jon!"}]},
		"qa": []}]`
	path := t.TempDir() + "/tiny.json"
	os.WriteFile(path, []byte(conv), 0o644)
	ws := t.TempDir()
	t.Setenv("CTXSCOPE_LLM_KEY", "test-key")
	out, errs, code := runCLI(t, ws, "memory", "build", "--locomo", path, "--extractor", "llm", "--llm-url", srv.URL, "--llm-model", "test")
	if code != 0 {
		t.Fatalf("build: %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(errs, `field "relation_type" is not a string`) {
		t.Errorf("the malformed relation was not logged:\n%s", errs)
	}
	m, err := readMemory(t, ws, "conv-x")
	if err != nil {
		t.Fatal(err)
	}
	rels := m.Graph.Relations()
	if len(rels) != 1 || rels[0].Predicate != "opened" || rels[0].Time.String() != "20 January, 2023" || m.Source != "llm:test" {
		t.Errorf("stored relations %+v, source %s", rels, m.Source)
	}
	if items := m.Experience.Items(); len(items) == 0 {
		t.Error("no experience items from the model writer")
	}
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if data, _ := os.ReadFile(p); strings.Contains(string(data), "test-key") {
				t.Errorf("the key was written to the workspace: %s", p)
			}
		}
		return nil
	})
}

func TestMemoryBuildFromSession(t *testing.T) {
	embedtest.Path(t)
	ws := t.TempDir()
	out, errs, code := runCLI(t, ws, "memory", "build", "../../testdata/shared/sessions/pi/agent-sessions__pi-v3-small.jsonl")
	if code != 0 || !strings.Contains(out, "session-") {
		t.Fatalf("build: %d\n%s%s", code, out, errs)
	}
	ids := listMemories(t, ws)
	if len(ids) != 1 {
		t.Fatalf("stored %v", ids)
	}
	if _, errs, code := runCLI(t, ws, "memory", "query", "--memory", ids[0], "what did the user ask?"); code != 0 {
		t.Errorf("query the session memory: %d %s", code, errs)
	}
}

// readMemory reads a memory from the workspace in ws, as a later
// process would.
func readMemory(t *testing.T, ws, id string) (*memory.Memory, error) {
	t.Helper()
	w, _, err := workspace.Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	return w.LoadMemory(context.Background(), id)
}

func listMemories(t *testing.T, ws string) []string {
	t.Helper()
	w, _, err := workspace.Open(ws, "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ids, err := w.Memories().List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return ids
}
