// Package temporal normalizes time expressions in conversation text to
// absolute values with a granularity, deterministically and without a
// model: "yesterday" said on 8 May 2023 is 7 May 2023 (day), "next month"
// is June 2023 (month), "last year" is 2022 (year).
//
// Values print in the MemWeaver time format ("7 May, 2023", "May, 2023",
// "2023") so that extracted and imported triples compare directly.
package temporal

import (
	"strconv"
	"strings"
	"time"
)

// Granularity is how precise a normalized time is.
type Granularity uint8

// Granularities, from none to the finest.
const (
	None Granularity = iota
	Year
	Season
	Month
	Day
)

// String returns "day", "month", "season", "year" or "".
func (g Granularity) String() string {
	return [...]string{"", "year", "season", "month", "day"}[g]
}

// Value is an absolute time at some granularity. Time holds the first
// instant of the period (midnight UTC of the day, the first of the month,
// January 1st of the year, the first month of a season).
type Value struct {
	Time time.Time   `json:"time"`
	Gran Granularity `json:"gran"`
}

// IsZero reports whether v holds no time.
func (v Value) IsZero() bool { return v.Gran == None }

// String renders v as "7 May, 2023", "May, 2023", "summer, 2023" or
// "2023"; the zero Value renders as "".
func (v Value) String() string {
	switch v.Gran {
	case Day:
		return v.Time.Format("2 January, 2006")
	case Month:
		return v.Time.Format("January, 2006")
	case Season:
		return seasonOf(v.Time.Month()) + ", " + strconv.Itoa(v.Time.Year())
	case Year:
		return strconv.Itoa(v.Time.Year())
	}
	return ""
}

// Contains reports whether the instant t falls within the period v names.
func (v Value) Contains(t time.Time) bool {
	if v.IsZero() {
		return false
	}
	return !t.Before(v.Time) && t.Before(v.End())
}

// End returns the first instant after the period.
func (v Value) End() time.Time {
	switch v.Gran {
	case Day:
		return v.Time.AddDate(0, 0, 1)
	case Month:
		return v.Time.AddDate(0, 1, 0)
	case Season:
		return v.Time.AddDate(0, 3, 0)
	}
	return v.Time.AddDate(1, 0, 0)
}

// Parse reads a value in the forms String writes, and also "7 May 2023",
// "May 2023" and "May 7, 2023". Anything else, relative expressions
// included, is not a normalized time and returns false.
func Parse(s string) (Value, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Value{}, false
	}
	for _, l := range []string{"2 January, 2006", "2 January 2006", "January 2, 2006", "2 Jan, 2006", "2 Jan 2006"} {
		if t, err := time.Parse(l, s); err == nil {
			return Value{t, Day}, true
		}
	}
	for _, l := range []string{"January, 2006", "January 2006"} {
		if t, err := time.Parse(l, s); err == nil {
			return Value{t, Month}, true
		}
	}
	if name, year, ok := strings.Cut(s, ", "); ok {
		if m, ok := seasonStart[strings.ToLower(name)]; ok {
			if y, err := strconv.Atoi(year); err == nil && len(year) == 4 {
				return Value{date(y, m, 1), Season}, true
			}
		}
	}
	if len(s) == 4 {
		if y, err := strconv.Atoi(s); err == nil && y > 0 {
			return Value{date(y, 1, 1), Year}, true
		}
	}
	return Value{}, false
}

// seasonStart maps a season (northern hemisphere) to its first month.
var seasonStart = map[string]time.Month{
	"spring": time.March, "summer": time.June, "fall": time.September, "autumn": time.September, "winter": time.December,
}

func seasonOf(m time.Month) string {
	switch m {
	case time.March:
		return "spring"
	case time.June:
		return "summer"
	case time.September:
		return "fall"
	}
	return "winter"
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func day(t time.Time) Value   { return Value{date(t.Year(), t.Month(), t.Day()), Day} }
func month(t time.Time) Value { return Value{date(t.Year(), t.Month(), 1), Month} }
func year(y int) Value        { return Value{date(y, 1, 1), Year} }
