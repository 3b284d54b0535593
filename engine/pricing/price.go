package pricing

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"ctxscope/engine/session"
)

// ErrNoPrice is returned for a model the catalog does not price.
var ErrNoPrice = errors.New("no price")

// Model is a priced model of the catalog.
type Model struct {
	// ID is the catalog's id of the model; Provider its provider's.
	ID, Provider string
	// ContextWindow is the model's window in tokens, 0 when the catalog
	// does not say.
	ContextWindow int
	m             *model
}

// Rates are a call's prices in US dollars per million tokens.
type Rates struct {
	Input      float64 `json:"input"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Output     float64 `json:"output"`
}

// Lookup finds the model a call names: provider is the provider the
// session records ("" when it records none), name the model id. A name
// with a provider prefix (openai/gpt-4o, litellm_proxy/…) is also tried
// without it, with the prefix as the provider. The error wraps
// ErrNoPrice when no model matches.
func (c *Catalog) Lookup(provider, name string) (*Model, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, fmt.Errorf("%w: the call names no model", ErrNoPrice)
	}
	if m := c.lookup(provider, name); m != nil {
		return m, nil
	}
	if i := strings.LastIndexByte(name, '/'); i > 0 && i < len(name)-1 {
		prefix, rest := name[:i], name[i+1:]
		if j := strings.IndexByte(prefix, '/'); j > 0 {
			prefix = prefix[:j]
		}
		if m := c.lookup(prefix, rest); m != nil {
			return m, nil
		}
		if m := c.lookup(provider, rest); m != nil {
			return m, nil
		}
	}
	return nil, fmt.Errorf("%w for %s", ErrNoPrice, name)
}

// lookup finds name among the models of the provider named provider, or
// of the provider whose model rule accepts name when provider is unknown.
func (c *Catalog) lookup(provider, name string) *Model {
	if p := c.provider(provider); p != nil {
		if m := c.inProvider(p, name); m != nil {
			return m
		}
	}
	for i := range c.providers {
		p := &c.providers[i]
		if p.ModelMatch != nil && p.ModelMatch.accepts(name) {
			if m := c.inProvider(p, name); m != nil {
				return m
			}
		}
	}
	return nil
}

// provider finds a provider by id, or by its provider rule.
func (c *Catalog) provider(name string) *provider {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" {
		return nil
	}
	for i := range c.providers {
		if c.providers[i].ID == name {
			return &c.providers[i]
		}
	}
	for i := range c.providers {
		if pm := c.providers[i].ProviderMatch; pm != nil && pm.accepts(name) {
			return &c.providers[i]
		}
	}
	return nil
}

// compactDate is a date suffix written without dashes, as in
// claude-sonnet-4-5-20250929.
var compactDate = regexp.MustCompile(`-(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(-|:|$)`)

// inProvider finds name among p's models, then with its date suffix
// written with dashes, then among p's fallback providers.
func (c *Catalog) inProvider(p *provider, name string) *Model {
	for _, n := range []string{name, compactDate.ReplaceAllString(name, "-$1-$2-$3$4")} {
		for i := range p.Models {
			if p.Models[i].Match.accepts(n) {
				m := &p.Models[i]
				return &Model{ID: m.ID, Provider: p.ID, ContextWindow: m.ContextWindow, m: m}
			}
		}
	}
	for _, id := range p.Fallback {
		for i := range c.providers {
			if c.providers[i].ID == id {
				if m := c.inProvider(&c.providers[i], name); m != nil {
					return m
				}
			}
		}
	}
	return nil
}

// rates returns the model's rates in force at time at (the latest that
// applies: a daily window that contains at, or a start date not after
// it; an unconstrained entry applies always) for a request whose whole
// input is prompt tokens.
func (m *Model) rates(at time.Time, prompt int) Rates {
	raw := m.m.prices[0].rates
	sec := at.UTC().Hour()*3600 + at.UTC().Minute()*60 + at.UTC().Second()
	for i := len(m.m.prices) - 1; i >= 0; i-- {
		c := m.m.prices[i]
		if c.daily {
			if (c.stop < c.start && (sec >= c.start || sec < c.stop)) || (sec >= c.start && sec < c.stop) {
				raw = c.rates
				break
			}
			continue
		}
		if c.from.IsZero() || !at.Before(c.from) {
			raw = c.rates
			break
		}
	}
	at1 := func(key string) (float64, bool) {
		r, ok := raw[key]
		if !ok {
			return 0, false
		}
		price := r.Base
		for _, t := range r.Tiers {
			if prompt > t.Start {
				price = t.Price
			}
		}
		return price, true
	}
	var out Rates
	out.Input, _ = at1("input_mtok")
	out.Output, _ = at1("output_mtok")
	var ok bool
	if out.CacheRead, ok = at1("cache_read_mtok"); !ok {
		out.CacheRead = out.Input
	}
	if out.CacheWrite, ok = at1("cache_write_mtok"); !ok {
		out.CacheWrite = out.Input
	}
	return out
}

// Rates returns the model's rates for a call made at time at whose whole
// input is prompt tokens (tiers depend on it). A zero time means now.
func (m *Model) Rates(at time.Time, prompt int) Rates {
	if at.IsZero() {
		at = time.Now()
	}
	return m.rates(at, prompt)
}

// Cost returns the price in US dollars of a call with usage u made at
// time at (a zero time means now).
func (m *Model) Cost(u session.Usage, at time.Time) float64 {
	r := m.Rates(at, u.Prompt())
	return (float64(u.Input)*r.Input + float64(u.CacheRead)*r.CacheRead + float64(u.CacheWrite)*r.CacheWrite + float64(u.Output)*r.Output) / 1e6
}
