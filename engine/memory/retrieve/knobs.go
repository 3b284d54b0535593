package retrieve

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"ctxscope/engine/inputfile"
)

// Knobs are every tunable of the memory's retrieval in one place: the
// retrieval configuration and the passage index window. The shipped
// values are in knobs.json, chosen by `ctxscope memory tune` on LoCoMo
// conversations 0–4 only (docs/bench/memory.md records the sweep); a
// file (`--config`) and `--set name=value` override them.
type Knobs struct {
	Retrieval Config `json:"retrieval"`
	// Window indexes each passage with this many turns of its session on
	// each side (see Options.Window).
	Window int `json:"window"`
}

//go:embed knobs.json
var knobsJSON []byte

// DefaultKnobs returns the shipped knobs.
func DefaultKnobs() Knobs {
	k, err := ParseKnobs(knobsJSON)
	if err != nil {
		panic("retrieve: the embedded knobs.json: " + err.Error())
	}
	return k
}

// ParseKnobs reads knobs from JSON; a name it does not know is an error,
// so that a misspelt knob is not silently ignored. Knobs the JSON leaves
// out keep the shipped values.
func ParseKnobs(data []byte) (Knobs, error) {
	var k Knobs
	if len(knobsJSON) > 0 && !bytes.Equal(data, knobsJSON) {
		k = DefaultKnobs()
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&k); err != nil {
		return Knobs{}, fmt.Errorf("knobs: %w", err)
	}
	return k, nil
}

// LoadKnobs reads knobs from a file.
func LoadKnobs(path string) (Knobs, error) {
	data, err := inputfile.ReadAll(path, 1<<20)
	if err != nil {
		return Knobs{}, err
	}
	k, err := ParseKnobs(data)
	if err != nil {
		return Knobs{}, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// Set assigns one knob by its JSON path, such as
// "retrieval.graphBoost=0.3" or "window=1".
func (k *Knobs) Set(assign string) error {
	name, value, ok := strings.Cut(assign, "=")
	if !ok {
		return fmt.Errorf("knob %q: want name=value", assign)
	}
	var tree map[string]any
	b, _ := json.Marshal(k)
	if err := json.Unmarshal(b, &tree); err != nil {
		return err
	}
	path := strings.Split(strings.TrimSpace(name), ".")
	node := tree
	for _, p := range path[:len(path)-1] {
		next, ok := node[p].(map[string]any)
		if !ok {
			return fmt.Errorf("no knob %q", name)
		}
		node = next
	}
	leaf := path[len(path)-1]
	old, ok := node[leaf]
	if !ok {
		return fmt.Errorf("no knob %q", name)
	}
	switch old.(type) {
	case bool:
		v, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("knob %s: %q is not true or false", name, value)
		}
		node[leaf] = v
	case float64:
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return fmt.Errorf("knob %s: %q is not a number", name, value)
		}
		node[leaf] = v
	case string:
		node[leaf] = value
	default:
		return fmt.Errorf("knob %s cannot be set", name)
	}
	b, _ = json.Marshal(tree)
	var out Knobs
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("knob %s: %w", name, err)
	}
	*k = out
	return nil
}

// Config returns the retrieval configuration with a budget.
func (k Knobs) Config(budget int) Config {
	c := k.Retrieval
	c.Budget = budget
	return c
}
