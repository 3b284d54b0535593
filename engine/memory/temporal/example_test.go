package temporal_test

import (
	"fmt"
	"time"

	"ctxscope/engine/memory/temporal"
)

func ExampleFind() {
	said := time.Date(2023, 5, 25, 13, 14, 0, 0, time.UTC) // LoCoMo conv-26, session 2
	for _, m := range temporal.Find("I ran a charity race last Saturday, and next month we go camping.", said) {
		fmt.Printf("%q → %s (%s)\n", m.Text, m.Value, m.Value.Gran)
	}
	// Output:
	// "last Saturday" → 20 May, 2023 (day)
	// "next month" → June, 2023 (month)
}
