package temporal

import (
	"testing"
	"time"
)

func stamp(t *testing.T, s string) time.Time {
	t.Helper()
	a, err := time.Parse("3:04 pm on 2 January, 2006", s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestNormalizeLoCoMo resolves expressions in real LoCoMo turns against
// their session dates. The cases name the conversation and dialogue id.
func TestNormalizeLoCoMo(t *testing.T) {
	tests := []struct {
		name, stamp, text, want string
		gran                    Granularity
	}{
		{"conv-26 D1:3", "1:56 pm on 8 May, 2023", "I went to a LGBTQ support group yesterday and it was so powerful.", "7 May, 2023", Day},
		{"conv-26 D3:1", "7:55 pm on 9 June, 2023", "I wanted to tell you about my school event last week. It was awesome!", "2 June, 2023", Day},
		{"conv-26 D7:1", "4:33 pm on 12 July, 2023", "So much has happened since we last spoke - I went to an LGBTQ conference two days ago", "10 July, 2023", Day},
		{"conv-26 D2:7", "1:14 pm on 25 May, 2023", "We're thinking about going camping next month.", "June, 2023", Month},
		{"conv-26 D2:1", "1:14 pm on 25 May, 2023", "I ran a charity race for mental health last Saturday – it was really rewarding.", "20 May, 2023", Day},
		{"conv-26 D12:16", "1:50 pm on 17 August, 2023", "Wanna do a family outing this summer?", "summer, 2023", Season},
		{"conv-26 D8:6", "1:51 pm on 15 July, 2023", "Here's our latest work from last weekend.", "8 July, 2023", Day},
		{"conv-26 D9:6", "2:31 pm on 17 July, 2023", "I mentor a transgender teen just like me. We started last month.", "June, 2023", Month},
		{"conv-26 D1:14", "1:56 pm on 8 May, 2023", "Yeah, I painted that lake sunrise last year! It's special to me.", "2022", Year},
		{"conv-26 D8:17", "1:51 pm on 15 July, 2023", "One special memory for me was this pride parade I went to a few weeks ago.", "24 June, 2023", Day},
		{"conv-26 D11:7", "2:24 pm on 14 August, 2023", "This pic's from last night - looks like everyone was having a blast!", "13 August, 2023", Day},
		{"conv-26 D11:4", "2:24 pm on 14 August, 2023", "I went to a pride parade last Friday and it was awesome", "11 August, 2023", Day},
		{"conv-26 D4:5", "10:37 am on 27 June, 2023", "A friend made it for my 18th birthday ten years ago.", "2013", Year},
		{"conv-41 D16:2", "1:24 pm on 25 May, 2023", "I'm busy at the shelter getting ready for a fundraiser next week.", "1 June, 2023", Day},
		{"conv-41 D15:5", "10:04 am on 19 June, 2023", "The official opening night is tomorrow.", "20 June, 2023", Day},
		{"conv-47 D1:36", "3:47 pm on 17 March, 2022", "Yeah, VR gaming is awesome! Let`s do it next Saturday!", "19 March, 2022", Day},
		{"conv-47 D23:5", "9:23 pm on 4 September, 2022", "She and I are going to a baseball game next Sunday, want to join?", "11 September, 2022", Day},
		{"conv-48 D1:8", "4:06 pm on 23 January, 2023", "This pendant reminds me of my mother, she gave it to me in 2010  in Paris.", "2010", Year},
		{"conv-44 D23:12", "4:22 pm on 13 October, 2023", "I took them to a snowy one last winter and they were so confused!", "winter, 2022", Season},
		{"conv-49 D25:14", "9:37 pm on 11 January, 2024", "This photo reminds me of last spring when I was feeling a bit down", "spring, 2023", Season},
		{"in May, past", "1:56 pm on 8 August, 2023", "We went to the lake in May.", "May, 2023", Month},
		{"in May, future", "1:56 pm on 8 August, 2023", "We will go back in May.", "May, 2024", Month},
		{"on Friday, future", "2:24 pm on 14 August, 2023", "I'm going to the concert on Friday.", "18 August, 2023", Day},
		{"absolute day", "2:24 pm on 14 August, 2023", "The race was on 3 July, 2023.", "3 July, 2023", Day},
		{"month day", "2:24 pm on 14 August, 2023", "My birthday was July 20th.", "20 July, 2023", Day},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, ok := Normalize(tt.text, stamp(t, tt.stamp))
			if !ok {
				t.Fatalf("no time found in %q", tt.text)
			}
			if v.String() != tt.want || v.Gran != tt.gran {
				t.Errorf("got %q (%s), want %q (%s)", v, v.Gran, tt.want, tt.gran)
			}
			if back, ok := Parse(v.String()); !ok || back != v {
				t.Errorf("Parse(%q) = %v, %v; want the value back", v, back, ok)
			}
		})
	}
}

func TestNoFalseMatches(t *testing.T) {
	a := stamp(t, "1:56 pm on 8 May, 2023")
	for _, s := range []string{
		"You may want to try it.",
		"We march on, no matter what.",
		"I have 2000 photos.",
		"Hey Mel! Good to see you!",
	} {
		if ms := Find(s, a); len(ms) != 0 {
			t.Errorf("Find(%q) = %+v, want nothing", s, ms)
		}
	}
	if ms := Find("yesterday", time.Time{}); ms != nil {
		t.Errorf("zero anchor resolved %v", ms)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"20 May, 2022", "20 May, 2022", true},
		{"May, 2022", "May, 2022", true},
		{"2022", "2022", true},
		{"May 20, 2022", "20 May, 2022", true},
		{"last week", "", false},
		{"last Saturday (20 May, 2023)", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		v, ok := Parse(tt.in)
		if ok != tt.ok || v.String() != tt.want {
			t.Errorf("Parse(%q) = %q, %v; want %q, %v", tt.in, v, ok, tt.want, tt.ok)
		}
	}
}

func TestFindSeveral(t *testing.T) {
	ms := Find("Yesterday was great, and next month we fly out.", stamp(t, "1:56 pm on 8 May, 2023"))
	if len(ms) != 2 || ms[0].Value.String() != "7 May, 2023" || ms[1].Value.String() != "June, 2023" {
		t.Fatalf("got %+v", ms)
	}
	if ms[0].Text != "Yesterday" {
		t.Errorf("text %q", ms[0].Text)
	}
}

// FuzzFind checks that any text and anchor resolve without panicking and
// that every match lies inside the text and parses back.
func FuzzFind(f *testing.F) {
	f.Add("I went to a LGBTQ support group yesterday and it was so powerful.", int64(1683553560))
	f.Add("She and I are going to a baseball game next Sunday, want to join?", int64(1662326580))
	f.Add("A friend made it for my 18th birthday ten years ago.", int64(0))
	f.Fuzz(func(t *testing.T, s string, unix int64) {
		for _, m := range Find(s, time.Unix(unix%(1<<34), 0).UTC()) {
			if m.Start < 0 || m.End > len(s) || s[m.Start:m.End] != m.Text {
				t.Fatalf("bad span %+v", m)
			}
			if _, ok := Parse(m.Value.String()); !ok {
				t.Fatalf("value %q does not parse back", m.Value)
			}
		}
	})
}
