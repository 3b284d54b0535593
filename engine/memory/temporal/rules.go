package temporal

import (
	"regexp"
	"strconv"
	"time"
)

// rule is one kind of time expression: a pattern and how to resolve its
// submatches against the anchor date.
type rule struct {
	re *regexp.Regexp
	// capitalGroup is the submatch holding a month name that must be
	// capitalised when it is "May" or "March"; 0 for none.
	capitalGroup int
	resolve      func(g []string, anchor time.Time, future bool) (Value, bool)
}

const (
	monthRe   = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|aug|sept|oct|nov|dec)`
	weekdayRe = `(monday|tuesday|wednesday|thursday|friday|saturday|sunday)`
	countRe   = `(a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|a couple|couple of|a few|few|several|\d{1,2})`
	unitRe    = `(day|week|weekend|month|year)s?`
	ordinalRe = `(\d{1,2})(?:st|nd|rd|th)?`
)

func re(p string) *regexp.Regexp { return regexp.MustCompile(`(?i)\b` + p + `\b`) }

// rules are tried in order; earlier rules claim text first.
var rules = []rule{
	{re(ordinalRe + ` (?:of )?` + monthRe + `,? (\d{4})`), 2, func(g []string, _ time.Time, _ bool) (Value, bool) {
		return dayOf(g[3], g[2], g[1])
	}},
	{re(monthRe + ` ` + ordinalRe + `,? (\d{4})`), 1, func(g []string, _ time.Time, _ bool) (Value, bool) {
		return dayOf(g[3], g[1], g[2])
	}},
	{re(monthRe + `,? (\d{4})`), 1, func(g []string, _ time.Time, _ bool) (Value, bool) {
		y, _ := strconv.Atoi(g[2])
		return Value{date(y, months[g[1]], 1), Month}, true
	}},
	{re(`the day before yesterday`), 0, shift(0, 0, -2, Day)},
	{re(`the day after tomorrow`), 0, shift(0, 0, 2, Day)},
	{re(`(?:yesterday|last night)`), 0, shift(0, 0, -1, Day)},
	{re(`(?:today|tonight|this morning|this afternoon|this evening)`), 0, shift(0, 0, 0, Day)},
	{re(`tomorrow`), 0, shift(0, 0, 1, Day)},
	{re(countRe + ` ` + unitRe + ` ago`), 0, func(g []string, a time.Time, _ bool) (Value, bool) {
		return ago(a, -count(g[1]), g[2])
	}},
	{re(`in ` + countRe + ` ` + unitRe), 0, func(g []string, a time.Time, _ bool) (Value, bool) {
		return ago(a, count(g[1]), g[2])
	}},
	{re(`(last|this|next|past|coming) (week|weekend|month|year)`), 0, relativeUnit},
	{re(`(last|this|next|past|coming|on) ` + weekdayRe), 0, func(g []string, a time.Time, f bool) (Value, bool) {
		return weekday(a, g[1], g[2], f)
	}},
	{re(`(last|this|next|in the|in|during the|over the)? ?(spring|summer|fall|autumn|winter)`), 0, season},
	{re(ordinalRe + ` (?:of )?` + monthRe), 2, func(g []string, a time.Time, f bool) (Value, bool) {
		m := nearestMonth(a, months[g[2]], f)
		return dayOf(strconv.Itoa(m.Year()), g[2], g[1])
	}},
	{re(monthRe + ` ` + ordinalRe), 1, func(g []string, a time.Time, f bool) (Value, bool) {
		m := nearestMonth(a, months[g[1]], f)
		return dayOf(strconv.Itoa(m.Year()), g[1], g[2])
	}},
	{re(`(last|this|next|in|since|during|by|until|early|late|mid-?|end of) ` + monthRe), 2, func(g []string, a time.Time, f bool) (Value, bool) {
		return namedMonth(a, g[1], months[g[2]], f)
	}},
	{re(`(?:in|since|during|by|until|of) ((?:19|20)\d\d)`), 0, func(g []string, _ time.Time, _ bool) (Value, bool) {
		y, _ := strconv.Atoi(g[1])
		return year(y), true
	}},
}

var months = map[string]time.Month{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
	"september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "aug": 8, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}

var weekdays = map[string]time.Weekday{
	"sunday": 0, "monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4, "friday": 5, "saturday": 6,
}

var counts = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a couple of": 2, "a couple": 2, "couple of": 2,
	"a few": 3, "few": 3, "several": 3,
}

func count(s string) int {
	if n, ok := counts[s]; ok {
		return n
	}
	n, _ := strconv.Atoi(s)
	return n
}
