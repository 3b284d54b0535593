package jsondoc

import (
	"reflect"
	"testing"
)

func TestReadShape(t *testing.T) {
	tests := []struct {
		name, head, arrayKey string
		keys, elems          []string
		array                bool
	}{
		{"object", `{"a":1,"b":"x","c":{"d":[1,2]},"e":true}`, "", []string{"a", "b", "c", "e"}, nil, false},
		{"array of objects", `[{"source":"user","action":"message"},{"x":1}]`, "", nil, []string{"source", "action"}, true},
		{"member array", `{"instance_id":"x","history":[{"id":1,"source":"agent"}],"metrics":{}}`, "history",
			[]string{"instance_id", "history", "metrics"}, []string{"id", "source"}, false},
		{"cut off", `{"instance_id":"x","instruction":"a very long`, "", []string{"instance_id", "instruction"}, nil, false},
		{"a word inside text is not a key", `{"text":"\"history\": and \"trajectory\""}`, "", []string{"text"}, nil, false},
		{"jsonl", "{\"type\":\"session\"}\n{\"type\":\"message\"}\n", "", []string{"type"}, nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := ReadShape([]byte(tc.head), tc.arrayKey)
			if !reflect.DeepEqual(s.Keys, tc.keys) || !reflect.DeepEqual(s.ElementKeys, tc.elems) || s.Array != tc.array {
				t.Errorf("shape %+v", s)
			}
		})
	}
}

func FuzzReadShape(f *testing.F) {
	f.Add([]byte(`{"a":[{"b":1}],"c":"d"}`), "a")
	f.Add([]byte(`[{"x":[`), "")
	f.Fuzz(func(t *testing.T, head []byte, key string) {
		ReadShape(head, key) // must not panic on any input
	})
}
