package recipe

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"ctxscope/engine/ingest"
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/cluster"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/embed/embedtest"
	"ctxscope/engine/memory/extract"
	"ctxscope/engine/memory/llm"
	"ctxscope/engine/session"
)

func TestSpecBuilder(t *testing.T) {
	model := func() (*llm.Client, error) { return &llm.Client{BaseURL: "http://127.0.0.1:1/v1", Model: "m"}, nil }
	down := errors.New("no model endpoint configured")
	sif, err := embed.LoadSIF(embedtest.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	static := cluster.PaperConfig()
	static.Eps = cluster.StaticEps
	tests := []struct {
		name      string
		spec      Spec
		extractor any
		merge     bool
		config    cluster.Config
		err       string
	}{
		{"default", Spec{}, extract.Tagged{}, true, cluster.PaperConfig(), ""},
		{"offline", Spec{Extractor: "offline"}, extract.Tagged{}, true, cluster.PaperConfig(), ""},
		{"patterns", Spec{Extractor: "patterns"}, extract.Offline{}, true, cluster.PaperConfig(), ""},
		{"compat", Spec{Compat: true}, extract.Tagged{}, false, cluster.CodeConfig(), ""},
		{"static word vectors", Spec{Embedder: sif}, extract.Tagged{}, true, static, ""},
		{"compat keeps the code's distance", Spec{Compat: true, Embedder: sif}, extract.Tagged{}, false, cluster.CodeConfig(), ""},
		{"llm", Spec{Extractor: "llm", Model: model}, &llm.Extractor{}, true, cluster.PaperConfig(), ""},
		{"llm without a model", Spec{Extractor: "llm"}, nil, false, cluster.Config{}, "needs a model endpoint"},
		{"llm whose model fails", Spec{Extractor: "llm", Model: func() (*llm.Client, error) { return nil, down }}, nil, false, cluster.Config{}, down.Error()},
		{"unknown", Spec{Extractor: "guess"}, nil, false, cluster.Config{}, `unknown extractor "guess"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.spec.Builder()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if reflect.TypeOf(b.Extractor) != reflect.TypeOf(tc.extractor) || b.Merge != tc.merge || !reflect.DeepEqual(b.Config, tc.config) {
				t.Errorf("builder: extractor %T, merge %v, config %+v", b.Extractor, b.Merge, b.Config)
			}
			if _, isLLM := b.Extractor.(*llm.Extractor); isLLM != (b.Reviewer != nil) {
				t.Errorf("reviewer %T with extractor %T: only the model reviews", b.Reviewer, b.Extractor)
			}
		})
	}
}

// TestSessionSource: an agent session's memory is read from its messages
// and tool use, not built, and keeps where it came from; a session with
// no message to remember is refused.
func TestSessionSource(t *testing.T) {
	s, err := ingest.ReadFile("../../../testdata/shared/sessions/pi/agent-sessions__pi-v3-small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	src, err := Session("small", s, memory.Origin{Path: "/x/small.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if src.ID != "session-small" || len(src.Passages) == 0 || src.From != (memory.Origin{Kind: "session", Path: "/x/small.jsonl"}) {
		t.Fatalf("source %s from %+v with %d passages", src.ID, src.From, len(src.Passages))
	}
	m, err := src.Build(context.Background(), nil) // a read memory needs no builder
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != src.ID || m.From != src.From || len(m.Passages) != len(src.Passages) {
		t.Errorf("memory %s from %+v with %d passages", m.ID, m.From, len(m.Passages))
	}
	if _, err := Session("empty", &session.Session{}, memory.Origin{}); err == nil || !strings.Contains(err.Error(), "no messages to remember") {
		t.Errorf("an empty session: %v", err)
	}
}
