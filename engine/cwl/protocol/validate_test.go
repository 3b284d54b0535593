package protocol

import (
	"encoding/json"
	"strings"
	"testing"

	"ctxscope/engine/cwl/vectors"
	"ctxscope/engine/session"
)

const vectorsPath = "../../../testdata/shared/cwl-vectors/public.json"

func vector(t *testing.T, id string) []*session.Message {
	t.Helper()
	f, err := vectors.Load(vectorsPath)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := f.Messages(id)
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

// TestV10CallByCall replays every tool call of V10 against the state built
// from the history before it and compares each answer with the reference's
// recorded one: text, isError and details.
func TestV10CallByCall(t *testing.T) {
	msgs := vector(t, "V10")
	results := resultIndex(msgs)
	var st State
	calls := 0
	for _, m := range msgs {
		if m.Role == session.RoleTool {
			for k := range m.Blocks {
				if ev, ok := EventOf(&m.Blocks[k]); ok {
					st.Record(ev)
				}
			}
			continue
		}
		snapshot := st // every call of one message sees the state before it
		for _, c := range m.ToolCalls() {
			rec := results[c.ToolCallID]
			if rec == nil {
				t.Fatalf("%s: no recorded result", c.ToolCallID)
			}
			var want Answer
			switch c.ToolName {
			case "delimiter":
				want = snapshot.Execute(c.Arguments)
			case "edit", "write":
				a, ok := snapshot.GuardEdit()
				if ok {
					continue // allowed: the recorded text is a stand-in
				}
				want = a
			}
			calls++
			if want.Text != rec.ResultText() || want.IsError != rec.IsError {
				t.Errorf("%s: got (%q, %v), want (%q, %v)", c.ToolCallID, want.Text, want.IsError, rec.ResultText(), rec.IsError)
			}
			gotDetails := "{}"
			if want.Event != nil {
				b, _ := json.Marshal(map[string]any{"chunkEvent": want.Event})
				gotDetails = compact(b)
			}
			if d := compact(rec.Details); d != gotDetails {
				t.Errorf("%s: details %s, want %s", c.ToolCallID, gotDetails, d)
			}
		}
	}
	if calls != 27 {
		t.Errorf("checked %d calls, want 27", calls)
	}
}

func compact(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func TestValidateV10Findings(t *testing.T) {
	fs := Validate(vector(t, "V10"))
	rejected, mismatched := 0, 0
	for _, f := range fs {
		switch f.Kind {
		case FindingRejected:
			rejected++
		case FindingMismatch:
			mismatched++
			t.Errorf("unexpected mismatch: %s", f.Text)
		}
	}
	if rejected != 17 {
		t.Errorf("rejected %d calls, want 17", rejected)
	}
}

func TestExecuteMoreCases(t *testing.T) {
	var open State
	open.Record(ChunkEvent{Action: "start", Chunk: Chunk{Name: "e1", Type: "expl"}})
	var act State
	act.Record(ChunkEvent{Action: "start", Chunk: Chunk{Name: "a1", Type: "act", Dependencies: []string{}}})
	tests := []struct {
		name  string
		st    State
		args  string
		text  string
		isErr bool
	}{
		{"deps not array", State{}, `{"action":"start","name":"a","type":"act","dependencies":"e1"}`, "Validation failed for tool \"delimiter\":\n  - dependencies: must be array\n\nReceived arguments:\n{\n  \"action\": \"start\",\n  \"name\": \"a\",\n  \"type\": \"act\",\n  \"dependencies\": \"e1\"\n}", true},
		{"name coerced", State{}, `{"action":"start","name":123,"type":"expl"}`, "start [expl] 123", false},
		{"empty object", State{}, `{}`, "Validation failed for tool \"delimiter\":\n  - action: must have required property 'action'\n\nReceived arguments:\n{}", true},
		{"not an object", State{}, `[1]`, "Validation failed for tool \"delimiter\":\n  - root: must be object\n\nReceived arguments:\n[\n  1\n]", true},
		{"action array", State{}, `{"action":["start"]}`, "Validation failed for tool \"delimiter\":\n  - action: must be string\n  - action: must be equal to constant\n  - action: must be string\n  - action: must be equal to constant\n  - action: must match a schema in anyOf\n\nReceived arguments:\n{\n  \"action\": [\n    \"start\"\n  ]\n}", true},
		{"action number coerced then rejected", State{}, `{"action":5}`, "Validation failed for tool \"delimiter\":\n  - action: must be equal to constant\n  - action: must be equal to constant\n  - action: must match a schema in anyOf\n\nReceived arguments:\n{\n  \"action\": \"5\"\n}", true},
		{"end ignores name and type", open, `{"action":"end","name":"zz","type":"act","description":" found "}`, "end [expl] e1 \u2014 found", false},
		{"act end with blank description", act, `{"action":"end","description":"   "}`, "end [act] a1", false},
		{"bad dependency item", State{}, `{"action":"start","name":"a","type":"act","dependencies":["x",{}]}`, "Validation failed for tool \"delimiter\":\n  - dependencies/1: must be string\n\nReceived arguments:\n{\n  \"action\": \"start\",\n  \"name\": \"a\",\n  \"type\": \"act\",\n  \"dependencies\": [\n    \"x\",\n    {}\n  ]\n}", true},
	}
	for _, tc := range tests {
		got := tc.st.Execute(json.RawMessage(tc.args))
		if got.Text != tc.text || got.IsError != tc.isErr {
			t.Errorf("%s: got (%q, %v), want (%q, %v)", tc.name, got.Text, got.IsError, tc.text, tc.isErr)
		}
		if !tc.isErr && got.Event == nil {
			t.Errorf("%s: success without event", tc.name)
		}
	}
}

func TestLine(t *testing.T) {
	ev := ChunkEvent{Action: "start", Chunk: Chunk{Name: "a1", Type: "act", Dependencies: []string{"e1", "e2"}}}
	if got := Line(ev); got != "start [act] a1 dep=e1,e2" {
		t.Errorf("Line = %q", got)
	}
	if !strings.Contains(Line(ChunkEvent{Action: "end", Chunk: Chunk{Name: "e1", Type: "expl", Description: "x"}}), " \u2014 x") {
		t.Error("description separator")
	}
}
