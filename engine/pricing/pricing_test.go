package pricing

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

func catalog(t *testing.T) *Catalog {
	t.Helper()
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCatalogLoads checks the vendored catalog: its source is named and
// every regex rule compiles in Go.
func TestCatalogLoads(t *testing.T) {
	c := catalog(t)
	if c.Source.Package != "@pydantic/genai-prices" || c.Source.Version == "" || c.Source.Taken == "" {
		t.Errorf("source %+v", c.Source)
	}
	var rules int
	var walk func(m *match)
	walk = func(m *match) {
		for i := range m.Or {
			walk(&m.Or[i])
		}
		for i := range m.And {
			walk(&m.And[i])
		}
		if m.Regex != nil {
			rules++
			if compiled(*m.Regex) == nil {
				t.Errorf("regex %q does not compile", *m.Regex)
			}
		}
	}
	models := 0
	for _, p := range c.providers {
		for i := range p.Models {
			models++
			walk(&p.Models[i].Match)
		}
	}
	if models < 1000 || rules == 0 {
		t.Errorf("%d models, %d regex rules", models, rules)
	}
}

func TestLookup(t *testing.T) {
	c := catalog(t)
	tests := []struct {
		provider, name string
		want           string // catalog id; "" for no price
		rates          Rates  // checked when non-zero
	}{
		{"anthropic", "claude-opus-4-5", "claude-opus-4-5", Rates{Input: 5, CacheRead: 0.5, CacheWrite: 6.25, Output: 25}},
		{"", "claude-opus-4-5-20251101", "claude-opus-4-5", Rates{}},
		{"", "claude-sonnet-4-5-20250929", "claude-sonnet-4-5", Rates{Input: 3, CacheRead: 0.3, CacheWrite: 3.75, Output: 15}},
		{"openai", "gpt-4o-mini", "gpt-4o-mini", Rates{}},
		{"", "openai/gpt-4o-mini", "gpt-4o-mini", Rates{}},
		{"openai", "gpt-5.1-codex", "gpt-5.1", Rates{Input: 1.25, CacheRead: 0.125, CacheWrite: 1.25, Output: 10}}, // the catalog prices the codex variant as gpt-5.1
		{"", "pi-fixture-model", "", Rates{}},
		{"pi-fixture", "pi-fixture-model", "", Rates{}},
		{"", "", "", Rates{}},
	}
	for _, tc := range tests {
		t.Run(tc.provider+"/"+tc.name, func(t *testing.T) {
			m, err := c.Lookup(tc.provider, tc.name)
			if tc.want == "" {
				if !errors.Is(err, ErrNoPrice) || (tc.name != "" && !strings.Contains(err.Error(), "no price for "+tc.name)) {
					t.Errorf("got %v, %v; want an error saying no price for %q", m, err, tc.name)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.ID != tc.want {
				t.Errorf("model %s, want %s", m.ID, tc.want)
			}
			if tc.rates != (Rates{}) {
				if got := m.Rates(time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC), 1000); got != tc.rates {
					t.Errorf("rates %+v, want %+v", got, tc.rates)
				}
			}
		})
	}
}

// TestTiers: a request whose input passes a tier's start pays the tier's
// rate on all its tokens of that kind.
func TestTiers(t *testing.T) {
	m, err := catalog(t).Lookup("anthropic", "claude-sonnet-4-5")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if r := m.Rates(at, 200000); r.Input != 3 {
		t.Errorf("at 200,000 input tokens: %+v, want the base rate 3", r)
	}
	if r := m.Rates(at, 200001); r.Input != 6 || r.CacheRead != 0.6 {
		t.Errorf("past 200,000: %+v, want the tier's 6 and 0.6", r)
	}
}

// TestConstraints: rates that changed on a date apply from it; a daily
// window applies inside it only.
func TestConstraints(t *testing.T) {
	data := `[{"id":"p","name":"P","models":[{"id":"m","match":{"equals":"m"},"prices":[
	  {"prices":{"input_mtok":1,"output_mtok":2}},
	  {"constraint":{"start_date":"2026-03-01"},"prices":{"input_mtok":3,"output_mtok":4}},
	  {"constraint":{"start_time":"22:00:00Z","end_time":"02:00:00Z"},"prices":{"input_mtok":9,"output_mtok":9}}]}]}]`
	c, err := Parse([]byte(data), []byte(`{"package":"test"}`))
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Lookup("p", "m")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		at   time.Time
		want float64
	}{
		{time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC), 1},
		{time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), 3},
		{time.Date(2026, 3, 1, 23, 0, 0, 0, time.UTC), 9},
		{time.Date(2026, 3, 2, 1, 59, 0, 0, time.UTC), 9},
		{time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC), 3},
	}
	for _, tc := range tests {
		if got := m.Rates(tc.at, 10).Input; got != tc.want {
			t.Errorf("at %v: input rate %v, want %v", tc.at, got, tc.want)
		}
	}
	// No cache rates: cache tokens bill as input.
	if got := m.Cost(session.Usage{Input: 1e6, CacheRead: 1e6, CacheWrite: 1e6, Output: 1e6}, tests[0].at); got != 1+1+1+2 {
		t.Errorf("cost %v, want 5", got)
	}
}

// TestRecordedCostOfAPiSession prices every response of a pi session on
// claude-opus-4-5 from the catalog: the total matches the $42.60 pi
// recorded for the same responses.
func TestRecordedCostOfAPiSession(t *testing.T) {
	s, err := ingest.ReadFile("../../testdata/shared/sessions/pi/pi-cwl__before-compaction.jsonl")
	if err != nil {
		t.Fatalf("corpus file missing (testdata/shared/sessions): %v", err)
	}
	c := catalog(t)
	var recorded, priced float64
	for _, e := range s.Main().Entries {
		msg := e.Message
		if msg == nil || msg.Usage == nil {
			continue
		}
		m, err := c.Lookup(msg.Provider, msg.Model)
		if err != nil {
			t.Fatal(err)
		}
		recorded += msg.Usage.Cost
		priced += m.Cost(*msg.Usage, msg.Time)
	}
	if math.Abs(recorded-42.5959) > 0.001 || math.Abs(priced-recorded)/recorded > 0.001 {
		t.Errorf("recorded $%.4f, priced $%.4f; want both $42.60", recorded, priced)
	}
}

// TestNegativeLookahead: the catalog's one construct Go's regexp lacks.
func TestNegativeLookahead(t *testing.T) {
	r := compiled(`^(?!.*-[tT][tT][sS](?:$|-))gpt`)
	if r == nil {
		t.Fatal("did not compile")
	}
	for name, want := range map[string]bool{"gpt-4o": true, "gpt-4o-mini-tts": false, "gpt-4o-tts-1": false, "o3": false} {
		if got := r.match(name); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}
