package memory

import (
	"ctxscope/engine/memory/kg"
	"ctxscope/engine/memory/temporal"
)

// setTime sets a relation's time from text: a normalized value when it
// parses, else the text as given.
func setTime(r *kg.Relation, text string) {
	if v, ok := temporal.Parse(text); ok {
		r.Time, r.TimeText = v, ""
		return
	}
	r.Time, r.TimeText = temporal.Value{}, text
}

// SetTime is setTime for writers outside this package.
func SetTime(r *kg.Relation, text string) { setTime(r, text) }
