package morph

import "testing"

func TestLemma(t *testing.T) {
	tests := []struct {
		word string
		pos  POS
		want string
	}{
		{"went", Verb, "go"},
		{"volunteered", Verb, "volunteer"},
		{"volunteering", Verb, "volunteer"},
		{"took", Verb, "take"},
		{"loved", Verb, "love"},
		{"stopped", Verb, "stop"},
		{"running", Verb, "run"},
		{"painting", Verb, "paint"},
		{"tries", Verb, "try"},
		{"shelters", Noun, "shelter"},
		{"children", Noun, "child"},
		{"classes", Noun, "class"},
		{"women", Noun, "woman"},
		{"Boston", Noun, "boston"},
		{"xyzzy", Verb, "xyzzy"},
	}
	for _, tc := range tests {
		if got := Lemma(tc.word, tc.pos); got != tc.want {
			t.Errorf("Lemma(%q, %v) = %q, want %q", tc.word, tc.pos, got, tc.want)
		}
	}
}
