package tokens

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestJSStringify(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"key order kept", `{"b": 1, "a": {"z": [1, 2], "y": null}}`, `{"b":1,"a":{"z":[1,2],"y":null}}`},
		{"no HTML escaping", `{"cmd": "a < b && c > d"}`, `{"cmd":"a < b && c > d"}`},
		{"line separators literal", "{\"s\": \"a\u2028b\u2029c\"}", "{\"s\":\"a\u2028b\u2029c\"}"},
		{"escapes normalised", `{"s": "\u0041\/\n\t\u0007\"\\"}`, `{"s":"A/\n\t\u0007\"\\"}`},
		{"unicode escape decoded", `{"s": "\u00e9\u4e2d"}`, `{"s":"é中"}`},
		{"surrogate pair decoded", `{"s": "\ud83d\ude00"}`, `{"s":"😀"}`},
		{"lone high surrogate kept escaped", `{"s": "\uD800x"}`, `{"s":"\ud800x"}`},
		{"lone low surrogate kept escaped", `{"s": "\uDC00"}`, `{"s":"\udc00"}`},
		{"numbers in JS form", `[1.0, 1e2, -0, 0.1, 1.5e-7, 1e21, 123456789012345678901234, 2.5E+3, 1e-6]`,
			`[1,100,0,0.1,1.5e-7,1e+21,1.2345678901234569e+23,2500,0.000001]`},
		{"whitespace dropped", " {\n \"a\" :\t[ true , false ] } ", `{"a":[true,false]}`},
		{"empty containers", `{"a":{},"b":[]}`, `{"a":{},"b":[]}`},
		{"top-level string", `"x"`, `"x"`},
		{"invalid input", `{"a":`, ``},
		{"empty input", ``, ``},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := JSStringify([]byte(tc.in)); got != tc.want {
				t.Fatalf("JSStringify(%s)\n got %s\nwant %s", tc.in, got, tc.want)
			}
		})
	}
}

// Variables, so that 0.1 + 0.2 is computed in float64 at run time (as
// JavaScript does) rather than folded exactly by the compiler.
var tenth, fifth = 0.1, 0.2

// The expected strings were checked with node's JSON.stringify.
func TestJSNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {1, "1"}, {-1.5, "-1.5"}, {100, "100"}, {1e20, "100000000000000000000"}, {1e21, "1e+21"},
		{123.456, "123.456"}, {0.000001, "0.000001"}, {1e-7, "1e-7"}, {1.25e-10, "1.25e-10"}, {5e-324, "5e-324"},
		{1.7976931348623157e308, "1.7976931348623157e+308"}, {tenth + fifth, "0.30000000000000004"},
	}
	for _, tc := range tests {
		if got := JSNumber(tc.in); got != tc.want {
			t.Errorf("JSNumber(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestUTF16Len(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0}, {"abc", 3}, {"é", 1}, {"中文", 2}, {"😀", 2}, {"a😀b", 4}, {"\xff\xfe", 2},
	}
	for _, tc := range tests {
		if got := UTF16Len(tc.in); got != tc.want {
			t.Errorf("UTF16Len(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// FuzzJSStringify checks that the output for valid JSON is valid JSON
// holding the same value (JavaScript writes -0 as 0, which compares equal),
// and that stringifying it again changes nothing.
func FuzzJSStringify(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `[1,"x",null,true]`, `{"s":"\ud83d\ude00 <&>"}`, `1e400`, `"\u2028"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var a, b any
		if json.Unmarshal([]byte(in), &a) != nil {
			return // invalid, or numbers beyond float64: not JSON a JS engine would hold either
		}
		out := JSStringify([]byte(in))
		if err := json.Unmarshal([]byte(out), &b); err != nil {
			t.Fatalf("JSStringify(%q) = %q: not valid JSON: %v", in, out, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("JSStringify(%q) = %q changes the value", in, out)
		}
		if again := JSStringify([]byte(out)); again != out {
			t.Fatalf("not idempotent: %q then %q", out, again)
		}
	})
}
