package bindgen

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

type inner struct {
	Text  string `json:"text,omitempty"`
	Count int    `json:"count"`
}

type reply struct {
	inner
	Text    string            `json:"text"` // hides inner's
	When    time.Time         `json:"when"`
	Next    *reply            `json:"next"`
	Maybe   *inner            `json:"maybe,omitempty"`
	Tags    []string          `json:"tags"`
	ByName  map[string]int    `json:"byName"`
	Raw     json.RawMessage   `json:"raw"`
	Skipped string            `json:"-"`
	hidden  string            // unexported: not written
	Matrix  [][]float64       `json:"matrix"`
	Nested  map[string][]bool `json:"nested"`
}

type svc struct{}

// Get returns a reply.
func (svc) Get(ctx context.Context, key string, limit int) (*reply, error) { return nil, nil }

// Put stores nothing.
func (svc) Put(key string) error { return nil }

type custom struct{}

func (custom) MarshalJSON() ([]byte, error) { return []byte(`{}`), nil }

func TestGenerate(t *testing.T) {
	got, err := Generate([]Service{{Value: &svc{}, Methods: []string{"Get", "Put"}}}, Options{SourceDirs: []string{"."}, Header: "test"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"export interface reply {\n  count: number;\n  text: string;\n  when: string;\n  next: reply | null;\n  maybe?: inner;\n  tags: string[];\n  byName: Record<string, number>;\n  raw: unknown;\n  matrix: number[][];\n  nested: Record<string, boolean[]>;\n}",
		"export interface inner {\n  text?: string;\n  count: number;\n}",
		"  Get: (key: string, limit: number) => call<reply>('svc', 'Get', key, limit),",
		"  Put: (key: string) => call<void>('svc', 'Put', key),",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing\n%s\nin\n%s", want, got)
		}
	}
	if strings.Contains(got, "hidden") || strings.Contains(got, "Skipped") {
		t.Errorf("unexported or skipped fields written:\n%s", got)
	}
}

func TestGenerateRefusesWhatItCannotType(t *testing.T) {
	type withCustom struct {
		C custom `json:"c"`
	}
	_, err := Generate([]Service{{Value: &svc{}, Methods: []string{"Nope"}}}, Options{})
	if err == nil {
		t.Error("a method that does not exist was accepted")
	}
	_, err = Generate(nil, Options{Extra: []any{withCustom{}}})
	if err == nil || !strings.Contains(err.Error(), "override") {
		t.Errorf("a self-encoding type without an override: %v", err)
	}
	got, err := Generate(nil, Options{Extra: []any{withCustom{}}, Override: map[reflect.Type]string{reflect.TypeOf(custom{}): "Record<string, number>"}})
	if err != nil || !strings.Contains(got, "c: Record<string, number>;") {
		t.Errorf("override not used: %v\n%s", err, got)
	}
}
