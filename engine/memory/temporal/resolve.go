package temporal

import (
	"strconv"
	"time"
)

func dayOf(y, m, d string) (Value, bool) {
	yy, err1 := strconv.Atoi(y)
	dd, err2 := strconv.Atoi(d)
	mm, ok := months[m]
	if err1 != nil || err2 != nil || !ok || dd < 1 || dd > 31 {
		return Value{}, false
	}
	t := date(yy, mm, dd)
	if t.Month() != mm { // 31 June and the like
		return Value{}, false
	}
	return Value{t, Day}, true
}

func shift(y, m, d int, g Granularity) func([]string, time.Time, bool) (Value, bool) {
	return func(_ []string, a time.Time, _ bool) (Value, bool) {
		return truncate(a.AddDate(y, m, d), g), true
	}
}

func truncate(t time.Time, g Granularity) Value {
	switch g {
	case Day:
		return day(t)
	case Month:
		return month(t)
	}
	return year(t.Year())
}

// ago moves n units from a (n < 0 is the past): days and weeks keep day
// precision, months month precision, years year precision.
func ago(a time.Time, n int, unit string) (Value, bool) {
	if n == 0 {
		return Value{}, false
	}
	switch unit {
	case "day":
		return day(a.AddDate(0, 0, n)), true
	case "week":
		return day(a.AddDate(0, 0, 7*n)), true
	case "weekend":
		return day(saturdayBefore(a).AddDate(0, 0, 7*(n+1))), true
	case "month":
		return month(a.AddDate(0, n, 0)), true
	}
	return year(a.Year() + n), true
}

func relativeUnit(g []string, a time.Time, _ bool) (Value, bool) {
	n := map[string]int{"last": -1, "past": -1, "this": 0, "next": 1, "coming": 1}[g[1]]
	switch g[2] {
	case "week":
		return day(a.AddDate(0, 0, 7*n)), true
	case "weekend":
		if n < 0 {
			return day(saturdayBefore(a)), true
		}
		return day(saturdayAfter(a).AddDate(0, 0, 7*max(n-1, 0))), true
	case "month":
		return month(a.AddDate(0, n, 0)), true
	}
	return year(a.Year() + n), true
}

func saturdayBefore(a time.Time) time.Time {
	d := (int(a.Weekday()) - int(time.Saturday) + 7) % 7
	if d == 0 {
		d = 7
	}
	return a.AddDate(0, 0, -d)
}

func saturdayAfter(a time.Time) time.Time {
	d := (int(time.Saturday) - int(a.Weekday()) + 7) % 7
	return a.AddDate(0, 0, d)
}

// weekday resolves "last Friday" to the most recent Friday before a,
// "next Friday" to the first after it, and "this"/"on" Friday by tense.
func weekday(a time.Time, mod, name string, future bool) (Value, bool) {
	w := weekdays[name]
	back := (int(a.Weekday()) - int(w) + 7) % 7
	if back == 0 {
		back = 7
	}
	fwd := (int(w) - int(a.Weekday()) + 7) % 7
	if fwd == 0 {
		fwd = 7
	}
	switch {
	case mod == "last" || mod == "past":
		return day(a.AddDate(0, 0, -back)), true
	case mod == "next" || mod == "coming" || future:
		return day(a.AddDate(0, 0, fwd)), true
	}
	return day(a.AddDate(0, 0, -back)), true
}

// season resolves "last summer" to the most recent summer that has
// ended, "next summer" to the next that has not begun, and a bare or
// "this" season to the one of the anchor's year (by tense when bare and
// already over or still ahead).
func season(g []string, a time.Time, future bool) (Value, bool) {
	start := seasonStart[g[2]]
	y := a.Year()
	if start == time.December && a.Month() < time.March {
		y-- // January and February belong to the winter that began in December
	}
	begin := date(y, start, 1)
	end := begin.AddDate(0, 3, 0)
	switch {
	case g[1] == "last" && !a.Before(end):
	case g[1] == "last":
		begin = begin.AddDate(-1, 0, 0)
	case g[1] == "next" && a.Before(begin):
	case g[1] == "next":
		begin = begin.AddDate(1, 0, 0)
	case g[1] == "this":
	case future && !a.Before(end):
		begin = begin.AddDate(1, 0, 0)
	case !future && a.Before(begin):
		begin = begin.AddDate(-1, 0, 0)
	}
	return Value{begin, Season}, true
}

// nearestMonth returns the first day of month m nearest to a in the
// sentence's direction: the coming one for the future, the last one
// (the anchor's own month included) otherwise.
func nearestMonth(a time.Time, m time.Month, future bool) time.Time {
	t := date(a.Year(), m, 1)
	if future && t.Before(date(a.Year(), a.Month(), 1)) {
		return t.AddDate(1, 0, 0)
	}
	if !future && t.After(a) {
		return t.AddDate(-1, 0, 0)
	}
	return t
}

func namedMonth(a time.Time, mod string, m time.Month, future bool) (Value, bool) {
	t := date(a.Year(), m, 1)
	this := date(a.Year(), a.Month(), 1)
	switch mod {
	case "last":
		if !t.Before(this) {
			t = t.AddDate(-1, 0, 0)
		}
	case "next":
		if !t.After(this) {
			t = t.AddDate(1, 0, 0)
		}
	case "this":
	default:
		t = nearestMonth(a, m, future)
	}
	return Value{t, Month}, true
}
