package locomo

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// dataPath is locomo10.json, read in place from the shared data beside the
// repository.
const dataPath = "../../../testdata/shared/locomo/locomo10.json"

func load(t testing.TB) []*Conversation {
	t.Helper()
	convs, err := ReadFile(dataPath)
	if err != nil {
		t.Fatalf("read LoCoMo: %v", err)
	}
	return convs
}

func TestReadFileCounts(t *testing.T) {
	convs := load(t)
	if len(convs) != 10 {
		t.Fatalf("conversations = %d, want 10", len(convs))
	}
	sessions, turns, images := 0, 0, 0
	cats := map[int]int{}
	for _, c := range convs {
		sessions += len(c.Sessions)
		for _, p := range c.Passages() {
			turns++
			if strings.HasPrefix(p.Text, "[Image: ") {
				images++
			}
			if p.Time.IsZero() {
				t.Errorf("%s %s: session time did not parse from %q", c.ID, p.ID, p.Stamp)
			}
		}
		for _, q := range c.QA {
			cats[q.Category]++
		}
	}
	want := map[int]int{1: 282, 2: 321, 3: 96, 4: 841, 5: 446}
	for k, v := range want {
		if cats[k] != v {
			t.Errorf("category %d: %d questions, want %d", k, cats[k], v)
		}
	}
	if sessions != 272 || turns != 5882 || images != 910 {
		t.Errorf("sessions, turns, image turns = %d, %d, %d; want 272, 5882, 910", sessions, turns, images)
	}
	if convs[0].ID != "conv-26" || convs[0].Speakers != [2]string{"Caroline", "Melanie"} {
		t.Errorf("sample 0 = %s %v", convs[0].ID, convs[0].Speakers)
	}
}

func TestCleanEvidence(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want string
	}{
		{"plain", []string{"D1:3", "D2:8"}, "D1:3,D2:8"},
		{"semicolon joined", []string{"D8:6; D9:17"}, "D8:6,D9:17"},
		{"duplicate", []string{"D1:3", "D1:3"}, "D1:3"},
		{"garbage", []string{"D", ""}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(CleanEvidence(tt.in), ","); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestParseErrorHasLocation(t *testing.T) {
	_, err := Parse([]byte("[\n{\"sample_id\": 3}]"), "bad.json")
	if err == nil || !strings.Contains(err.Error(), "bad.json:2:") {
		t.Fatalf("error %v lacks file:line", err)
	}
}

// FuzzParse feeds mutations of a real sample (cut to two sessions) to
// Parse: it must return conversations or an error, never panic.
func FuzzParse(f *testing.F) {
	data, err := os.ReadFile(dataPath)
	if err != nil {
		f.Fatal(err)
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		f.Fatal(err)
	}
	var conv map[string]json.RawMessage
	if err := json.Unmarshal(raw[0]["conversation"], &conv); err != nil {
		f.Fatal(err)
	}
	small := map[string]json.RawMessage{}
	for _, k := range []string{"speaker_a", "speaker_b", "session_1", "session_1_date_time", "session_2", "session_2_date_time"} {
		small[k] = conv[k]
	}
	var qa []json.RawMessage
	json.Unmarshal(raw[0]["qa"], &qa)
	seed, _ := json.Marshal([]map[string]any{{"sample_id": "conv-26", "conversation": small, "qa": qa[:5]}})
	f.Add(seed)
	f.Add([]byte(`[{"conversation":{"speaker_a":"A","speaker_b":"B","session_1":[{"dia_id":"D1:1","text":"hi"}]},"qa":[{"answer":7,"evidence":["D1:1; D1:2"]}]}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		convs, err := Parse(b, "fuzz.json")
		if err != nil {
			return
		}
		for _, c := range convs {
			c.Passages()
		}
	})
}
