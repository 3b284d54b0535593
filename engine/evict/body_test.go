package evict

import (
	"bytes"
	"reflect"
	"testing"
	"unicode/utf8"

	json "github.com/segmentio/encoding/json"
)

func TestMembersOf(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want map[string]string
	}{
		{`{"role":"tool","content":"a \"quoted\" {[ text"}`, map[string]string{"role": `"tool"`, "content": `"a \"quoted\" {[ text"`}},
		{` { "a" : [1, {"b":[]}] , "c":{"d":{"e":null}}, "f": -1.5e3 } `, map[string]string{"a": `[1, {"b":[]}]`, "c": `{"d":{"e":null}}`, "f": `-1.5e3`}},
		{`{"k\u0065y":true,"key":false}`, map[string]string{"key": `false`}}, // the last of a key given twice
		{`{}`, map[string]string{}},
		{`[1,2]`, map[string]string{}},
		{`{"a":`, map[string]string{}},
		{`{"a":1}}`, map[string]string{}},
	} {
		got := map[string]string{}
		for k, s := range membersOf(tc.raw) {
			got[k] = tc.raw[s.at:s.end]
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("membersOf(%s) = %v, want %v", tc.raw, got, tc.want)
		}
	}
}

// FuzzElement checks the element's reading and changing of members
// without decoding against decoding: the members of a JSON object are
// the decoder's, and setting one gives the JSON the decoded object with
// that member set gives.
func FuzzElement(f *testing.F) {
	for _, s := range []string{`{"role":"tool","content":"x\n\"y\""}`, `{"a":[{"b":"}"}],"c":1}`, `{"a":1,"a":2}`, ` {"a" : { } } `, `{"\u00e9":"é"}`, `[1]`, `"s"`} {
		f.Add(s, "a")
	}
	f.Fuzz(func(t *testing.T, raw, key string) {
		if !utf8.ValidString(key) {
			return // the keys set are the APIs' own
		}
		e := &element{raw: raw}
		var want object
		if json.Unmarshal([]byte(raw), &want) != nil || want == nil {
			e.member(key) // no panic, whatever it is
			return
		}
		for k, v := range want {
			if got := e.get(k); !bytes.Equal(got, v) {
				t.Fatalf("%s: member %q is %s, the decoder's %s", raw, k, got, v)
			}
		}
		if len(e.members) != len(want) {
			t.Fatalf("%s: %d members, the decoder's %d", raw, len(e.members), len(want))
		}
		if err := e.set(key, json.RawMessage(`"stub"`)); err != nil {
			t.Fatal(err)
		}
		want[key] = json.RawMessage(`"stub"`)
		var got object
		out := e.raw
		if e.obj != nil {
			b, _ := marshal(e.obj)
			out = string(b)
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s set %q: %s: %v", raw, key, out, err)
		}
		if !reflect.DeepEqual(normalised(t, got), normalised(t, want)) {
			t.Fatalf("%s set %q: %s", raw, key, out)
		}
	})
}

// normalised decodes each member's value, so that objects that differ
// only in spacing compare equal.
func normalised(t *testing.T, o object) map[string]any {
	out := map[string]any{}
	for k, v := range o {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			t.Fatalf("member %q: %v", k, err)
		}
		out[k] = x
	}
	return out
}
