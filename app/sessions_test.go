package app

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"testing"
)

const piDir = "../../shared/data/sessions/pi/"

func newApp() *App { return New(Options{Log: io.Discard}) }

func TestInitialOpensTheDemo(t *testing.T) {
	a := newApp()
	info, err := a.sessions.Initial()
	if err != nil {
		t.Fatal(err)
	}
	if !info.Demo || info.Requests != 32 || info.Errors != 0 || info.Format != "pi" {
		t.Fatalf("demo: %+v", info)
	}
	v, err := a.sessions.Timeline(info.ID, "estimate")
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Points) != 32 || v.Points[31].Tokens != 13787 {
		t.Fatalf("demo timeline: %d points, last %d tokens", len(v.Points), v.Points[len(v.Points)-1].Tokens)
	}
}

func TestInitialOpensTheCommandLineFile(t *testing.T) {
	a := New(Options{Initial: piDir + "agent-sessions__pi-v3-small.jsonl", Log: io.Discard})
	info, err := a.sessions.Initial()
	if err != nil || info.Demo || info.Compactions != 2 {
		t.Fatalf("%+v, %v", info, err)
	}
}

func TestTimelineBreakdownsAddUp(t *testing.T) {
	a := newApp()
	info, err := a.sessions.OpenPath(piDir + "pi-cwl__before-compaction.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, counter := range []string{"estimate", "o200k"} {
		v, err := a.sessions.Timeline(info.ID, counter)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Points) != 484 || len(v.Compactions) != 2 || v.Compactions[0].NextRequest != 173 {
			t.Fatalf("%s: %d points, compactions %+v", counter, len(v.Points), v.Compactions)
		}
		for _, p := range v.Points {
			sum := 0.0
			for _, x := range p.Breakdown {
				sum += x
			}
			if math.Abs(sum-float64(p.Tokens)) > 1e-6 {
				t.Fatalf("%s request %d: breakdown %v sums to %v, tokens %d", counter, p.Request, p.Breakdown, sum, p.Tokens)
			}
		}
		// The context shrinks across each compaction.
		c := v.Compactions[0].NextRequest
		if v.Points[c].Tokens >= v.Points[c-1].Tokens {
			t.Fatalf("%s: no drop at the compaction: %d then %d", counter, v.Points[c-1].Tokens, v.Points[c].Tokens)
		}
	}
}

func TestOpenPathErrors(t *testing.T) {
	a := newApp()
	if _, err := a.sessions.OpenPath(""); err == nil {
		t.Error("empty path accepted")
	}
	if _, err := a.sessions.OpenPath("/nonexistent/x.jsonl"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := a.sessions.Timeline("nope", "estimate"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
	info, _ := a.sessions.OpenDemo()
	if _, err := a.sessions.Timeline(info.ID, "gpt2"); err == nil {
		t.Error("unknown counter accepted")
	}
	if _, err := a.sessions.OpenDialog(); !errors.Is(err, ErrNoDialog) {
		t.Errorf("dialog without a platform: %v", err)
	}
}

func TestImportAndListKeepsOrderAndReplaces(t *testing.T) {
	a := newApp()
	data, err := os.ReadFile(piDir + "agent-sessions__pi-v3-small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	up, err := a.sessions.Import(bytes.NewReader(data), "small.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	demo, _ := a.sessions.OpenDemo()
	again, _ := a.sessions.Import(bytes.NewReader(data), "small.jsonl")
	if again.ID != up.ID {
		t.Fatalf("same content gave ids %s and %s", up.ID, again.ID)
	}
	list := a.sessions.List()
	if len(list) != 2 || list[0].ID != up.ID || list[1].ID != demo.ID {
		t.Fatalf("list %v", list)
	}
}

func TestRenderedLogsOnlySafeWords(t *testing.T) {
	var log bytes.Buffer
	a := New(Options{Log: &log})
	a.ui.Rendered("timeline\nctxscope: forged", 3)
	if got := log.String(); got != "ctxscope: rendered view=timelinectxscopeforged requests=3\n" {
		t.Fatalf("log %q", got)
	}
}
