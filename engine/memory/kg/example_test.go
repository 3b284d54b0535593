package kg_test

import (
	"fmt"

	"ctxscope/engine/memory/kg"
)

func ExampleGraph_MergeEntities() {
	g := kg.New()
	melanie, _ := g.Ensure("Melanie", kg.Extracted)
	mel, _ := g.Ensure("Mel", kg.Extracted)
	race, _ := g.Ensure("charity race", kg.Extracted)
	g.Relate(kg.Relation{Subject: mel.ID, Predicate: "ran", Object: race.ID, Passages: []string{"D2:1"}})
	for _, s := range g.SuggestMerges() {
		m, _ := g.MergeEntities(s.Keep, s.Drop, s.Reason)
		fmt.Println(m.Reason)
	}
	e, _ := g.Lookup("mel")
	fmt.Println(e.Name, e.Aliases, len(g.Incident(melanie.ID)))
	g.Undo(g.Merges()[0].ID)
	e, _ = g.Lookup("mel")
	fmt.Println(e.Name)
	// Output:
	// short form: Mel for Melanie
	// Melanie [Mel] 1
	// Mel
}
