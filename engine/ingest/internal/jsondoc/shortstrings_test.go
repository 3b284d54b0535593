package jsondoc

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strings"
	"testing"
)

// TestShortStringsKeepTheOutline checks that cutting long strings changes
// no outline: strings of every length around the cut, with escapes and
// multi-byte runes across it, as values and in arrays.
func TestShortStringsKeepTheOutline(t *testing.T) {
	for _, n := range []int{0, 199, 200, 201, maxShortString - 1, maxShortString, maxShortString + 1, 3 * maxShortString} {
		for _, unit := range []string{"x", `\"`, `\u00e9`, "é", `\\`} {
			long := strings.Repeat(unit, n/len(unit)+1)
			doc := `{"a":"` + long + `","list":["` + long + `",{"k":"v"}],"tail":{"uuid":"u","n":1.5e3,"b":true,"z":null}}`
			if !json.Valid([]byte(doc)) {
				t.Fatalf("test document %d×%q is not JSON", n, unit)
			}
			checkSameOutline(t, []byte(doc))
		}
	}
}

// FuzzShortStrings checks, for any JSON document whose keys are shorter
// than the cut, that the outline read through shortStrings is the one
// read from the document as it is, and that what it passes is JSON.
func FuzzShortStrings(f *testing.F) {
	f.Add([]byte(`{"a":"` + strings.Repeat(`\u1234`, 1000) + `","b":[1,"x"]}`))
	f.Add([]byte(`["` + strings.Repeat("é", 3000) + `"]`))
	f.Add([]byte(`{"k":"\\\""}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		if !json.Valid(doc) || hasLongKey(doc) {
			return
		}
		passed, err := io.ReadAll(&shortStrings{r: bytes.NewReader(doc)})
		if err != nil || !json.Valid(passed) {
			t.Fatalf("%q passed as %q, not JSON (%v)", doc, passed, err)
		}
		checkSameOutline(t, doc)
	})
}

func checkSameOutline(t *testing.T, doc []byte) {
	t.Helper()
	want, werr := outline(bytes.NewReader(doc))
	got, gerr := Outline(bytes.NewReader(doc))
	if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
		t.Fatalf("outline through shortStrings %s (%v), want %s (%v)", got, gerr, want, werr)
	}
}

// hasLongKey reports whether an object of doc has a key of maxShortString
// bytes or more, which shortStrings cuts.
func hasLongKey(doc []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok && len(s) >= maxShortString-8 {
			return true // a value as long is harmless; a key is not
		}
	}
}

// TestOutlineOfAHugeStringIsSmall reads the outline of a document whose
// one string is 64 MB: the heap it grows by stays far under the string.
func TestOutlineOfAHugeStringIsSmall(t *testing.T) {
	const size = 64 << 20
	r := io.MultiReader(strings.NewReader(`{"message":{"content":"`), io.LimitReader(repeatReader('x'), size),
		strings.NewReader(`"},"uuid":"u","sessionId":"s"}`))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	out, err := Outline(r)
	runtime.ReadMemStats(&after)
	if err != nil || !bytes.Contains(out, []byte(`"sessionId":"s"`)) {
		t.Fatalf("outline %s: %v", out, err)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > size/8 {
		t.Errorf("reading the outline allocated %d MB for a %d MB string", grown>>20, size>>20)
	}
}

// repeatReader reads one byte again and again.
type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}
