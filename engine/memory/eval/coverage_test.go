package eval

import "testing"

func TestScoreCoverage(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name, context, answer string
		coverage              float64
		words                 int
		span                  *bool
	}{
		{"whole answer", "[7 May 2023] Caroline: I went to the LGBTQ support group yesterday.", "LGBTQ support group", 1, 3, &yes},
		{"words apart", "Caroline: the group was for support, LGBTQ people mostly.", "LGBTQ support group", 1, 3, &no},
		{"part of it", "Melanie: I painted a lake at sunrise.", "a lake sunrise painting", 1, 3, &no},
		{"stems match", "She was running races in 2022.", "runs a race", 1, 2, &no},
		{"none", "Melanie: pottery class on Tuesday.", "camping in the mountains", 0, 2, &no},
		{"no content word", "anything", "Yes", 0, 0, nil},
		{"may the month", "[8 May 2023] Caroline: I went yesterday.", "7 May 2023", 2.0 / 3, 3, &no},
		{"may the month, whole", "Caroline went on 7 May, 2023.", "7 May 2023", 1, 3, &yes},
		{"may the modal", "She will go camping.", "She may go camping", 1, 2, &no},
		{"may the modal in context", "She may go.", "May 2023", 0, 2, &no},
		{"numbers as words", "I've had them for 10 years now.", "ten years", 1, 2, &yes},
		{"digits as words", "We have three dogs.", "3", 1, 1, &yes},
		{"long answer, no span", "she likes dogs cats and horses and birds", "She likes dogs, cats, horses, birds and fish", 5.0 / 6, 6, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var q Question
			q.ScoreCoverage(tc.context, tc.answer)
			if q.CoverageWords != tc.words || (q.Coverage-tc.coverage) > 1e-9 || (tc.coverage-q.Coverage) > 1e-9 {
				t.Errorf("coverage %.3f of %d words, want %.3f of %d", q.Coverage, q.CoverageWords, tc.coverage, tc.words)
			}
			if (q.Span == nil) != (tc.span == nil) || (q.Span != nil && *q.Span != *tc.span) {
				t.Errorf("span %v, want %v", q.Span, tc.span)
			}
		})
	}
}
