package extract

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"ctxscope/engine/memory/locomo"
)

func TestScratchDraw(t *testing.T) {
	if os.Getenv("SCRATCH") == "" {
		t.Skip()
	}
	convs, _ := locomo.ReadFile("../../../testdata/shared/locomo/locomo10.json")
	all := sampleTriples(convs[0:5], 100000)
	r := rand.New(rand.NewPCG(7, 7))
	for _, i := range r.Perm(len(all))[120:] {
		j := all[i]
		txt := j.Text
		if k := strings.Index(txt, "] "); strings.HasPrefix(txt, "[Image") && k > 0 {
			txt = txt[k+2:]
		}
		fmt.Printf("%s | %s | %s | %s\n    %s\n", j.Subject, j.Predicate, j.Object, j.Condition, txt)
	}
	fmt.Println(len(all))
}

func TestScratchDump(t *testing.T) {
	if os.Getenv("DUMP") == "" {
		t.Skip()
	}
	convs, _ := locomo.ReadFile("../../../testdata/shared/locomo/locomo10.json")
	all := sampleTriples(convs[0:5], 100000)
	f, _ := os.Create(os.Getenv("DUMP"))
	for _, j := range all {
		fmt.Fprintf(f, "%s %s | %s | %s | %s\n", j.Passage, j.Subject, j.Predicate, j.Object, j.Condition)
	}
	f.Close()
}

func TestScratchHeld(t *testing.T) {
	if os.Getenv("HELD") == "" {
		t.Skip()
	}
	convs, _ := locomo.ReadFile("../../../testdata/shared/locomo/locomo10.json")
	drawn := sampleTriples(convs[5:10], 100)
	all := sampleTriples(convs[5:10], 100000)
	fmt.Println("total", len(all))
	b, _ := json.MarshalIndent(drawn, "", " ")
	os.WriteFile(os.Getenv("HELD"), b, 0o644)
}
