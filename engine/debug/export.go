package debug

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"
)

// Export formats of a replay.
const (
	FormatJSON = "json"
	FormatCSV  = "csv"
)

// Export writes a timeline as JSON (the [Timeline] itself) or as CSV: one
// row per request with its line, context, input before and after the
// policy, cached tokens, every category, the evictions made before it and
// how far it stays over budget.
func Export(t *Timeline, format string) ([]byte, error) {
	switch format {
	case FormatJSON:
		return json.MarshalIndent(t, "", "  ")
	case FormatCSV:
		return exportCSV(t)
	}
	return nil, fmt.Errorf("debug: unknown export format %q (want json or csv)", format)
}

func exportCSV(t *Timeline) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	head := []string{"request", "line", "context", "before", "after", "cached"}
	head = append(head, t.Categories...)
	head = append(head, "evictions", "over_budget")
	if err := w.Write(head); err != nil {
		return nil, err
	}
	evictions := make([]int, len(t.After))
	for _, m := range t.Evictions {
		evictions[m.Request]++
	}
	over := make([]int, len(t.After))
	for _, u := range t.Unreachable {
		over[u.Request] = u.Over
	}
	itoa := strconv.Itoa
	for k := range t.After {
		row := []string{itoa(k), itoa(t.Lines[k]), itoa(t.Context[k]), itoa(t.Before[k]), itoa(t.After[k]), itoa(t.Cached[k])}
		for c := range t.Cats {
			row = append(row, itoa(int(t.Cats[c][k])))
		}
		row = append(row, itoa(evictions[k]), itoa(over[k]))
		if err := w.Write(row); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}
