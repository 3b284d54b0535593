package pricing

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"
	"time"
)

//go:embed catalog/genai-prices.json
var catalogJSON []byte

//go:embed catalog/SOURCE.json
var sourceJSON []byte

// Source says where a catalog's data comes from.
type Source struct {
	Package string `json:"package"`
	Version string `json:"version"`
	Licence string `json:"licence"`
	URL     string `json:"url"`
	// Taken is the day the data was vendored (YYYY-MM-DD).
	Taken string `json:"taken"`
}

// String names the source for a reader: package, version and date.
func (s Source) String() string {
	return fmt.Sprintf("%s %s (taken %s)", s.Package, s.Version, s.Taken)
}

// Catalog holds the providers and models with their prices.
type Catalog struct {
	Source    Source
	providers []provider
}

type provider struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	ModelMatch    *match   `json:"model_match"`
	ProviderMatch *match   `json:"provider_match"`
	Models        []model  `json:"models"`
	Fallback      []string `json:"fallback_model_providers"`
}

type model struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Match         match           `json:"match"`
	ContextWindow int             `json:"context_window"`
	RawPrices     json.RawMessage `json:"prices"`
	prices        []conditional
}

// conditional is a model's rates from a start date on, or during a daily
// window of UTC time (in seconds from midnight), or always.
type conditional struct {
	from        time.Time
	daily       bool
	start, stop int
	rates       rawRates
}

// rawRates are a model's rates as the catalog gives them, by price key.
type rawRates map[string]rate

// rate is a price per million tokens, with the higher prices that apply
// once a request's input passes a tier's start.
type rate struct {
	Base  float64
	Tiers []tier
}

type tier struct {
	Start int     `json:"start"`
	Price float64 `json:"price"`
}

// UnmarshalJSON reads a plain number or a {base, tiers} object.
func (r *rate) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &r.Base); err == nil {
		return nil
	}
	var t struct {
		Base  float64 `json:"base"`
		Tiers []tier  `json:"tiers"`
	}
	if err := json.Unmarshal(b, &t); err != nil {
		return err
	}
	r.Base, r.Tiers = t.Base, t.Tiers
	return nil
}

var (
	defaultOnce    sync.Once
	defaultCatalog *Catalog
	defaultErr     error
)

// Default returns the embedded catalog, parsed on first use.
func Default() (*Catalog, error) {
	defaultOnce.Do(func() { defaultCatalog, defaultErr = Parse(catalogJSON, sourceJSON) })
	return defaultCatalog, defaultErr
}

// Parse reads a catalog in genai-prices' JSON form, with its source.
func Parse(data, source []byte) (*Catalog, error) {
	c := &Catalog{}
	if err := json.Unmarshal(source, &c.Source); err != nil {
		return nil, fmt.Errorf("pricing: source: %w", err)
	}
	if err := json.Unmarshal(data, &c.providers); err != nil {
		return nil, fmt.Errorf("pricing: catalog: %w", err)
	}
	for pi := range c.providers {
		p := &c.providers[pi]
		for mi := range p.Models {
			m := &p.Models[mi]
			var err error
			if m.prices, err = parsePrices(m.RawPrices); err != nil {
				return nil, fmt.Errorf("pricing: %s/%s: %w", p.ID, m.ID, err)
			}
			m.RawPrices = nil
		}
	}
	return c, nil
}

// parsePrices reads a model's prices: one set of rates, or a list of
// rates each with an optional constraint.
func parsePrices(raw json.RawMessage) ([]conditional, error) {
	var one rawRates
	if err := json.Unmarshal(raw, &one); err == nil {
		return []conditional{{rates: one}}, nil
	}
	var list []struct {
		Constraint *struct {
			Type      string `json:"type"`
			StartDate string `json:"start_date"`
			StartTime string `json:"start_time"`
			EndTime   string `json:"end_time"`
		} `json:"constraint"`
		Prices rawRates `json:"prices"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, err
	}
	out := make([]conditional, 0, len(list))
	for _, c := range list {
		cond := conditional{rates: c.Prices}
		switch k := c.Constraint; {
		case k == nil:
		case k.StartDate != "":
			t, err := parseDate(k.StartDate)
			if err != nil {
				return nil, err
			}
			cond.from = t
		case k.StartTime != "":
			var err error
			cond.daily = true
			if cond.start, err = secondsOfDay(k.StartTime); err != nil {
				return nil, err
			}
			if cond.stop, err = secondsOfDay(k.EndTime); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("unknown price constraint %q", k.Type)
		}
		out = append(out, cond)
	}
	return out, nil
}

func parseDate(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("bad start date %q", s)
}

// secondsOfDay reads a time of day such as 01:00:00Z or 09:30:00+08:00 as
// seconds after midnight UTC.
func secondsOfDay(s string) (int, error) {
	t, err := time.Parse("15:04:05Z07:00", s)
	if err != nil {
		return 0, fmt.Errorf("bad time of day %q", s)
	}
	t = t.UTC()
	return t.Hour()*3600 + t.Minute()*60 + t.Second(), nil
}
