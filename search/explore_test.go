package search

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestExplore(t *testing.T) {
	q := os.Getenv("EXPLORE")
	if q == "" {
		t.Skip()
	}
	var c corpus
	readJSON(t, "testdata/"+os.Getenv("SET")+"/corpus.json", &c)
	w := newWorkspace(t, absAll(c.Files)...)
	loadCorpusMemory(t, w, c)
	for _, qq := range strings.Split(q, ";;") {
		var req Request
		if strings.HasPrefix(qq, "{") {
			json.Unmarshal([]byte(qq), &req)
		} else {
			req.Query = qq
		}
		req.Size, req.Facets = 6, true
		res, err := w.idx.Search(req)
		if err != nil {
			fmt.Println(qq, "ERR", err)
			continue
		}
		fmt.Printf("== %s: %d hits %v\n", qq, res.Total, res.Facets["kind"])
		for _, h := range res.Hits {
			if len(h.Fragments) > 0 {
				f := h.Fragments[0]
				var ms []string
				for _, m := range f.Marks {
					ms = append(ms, f.Text[m.Start:m.End])
				}
				fmt.Printf("  %.14s %s %s %s L%d e=%s sp=%s %q | %.100s\n", h.Session+h.Set, h.Kind, h.Role, h.Tool, h.Line, h.Entry, h.Speaker, ms, strings.ReplaceAll(f.Text, "\n", " "))
			}
		}
	}
}
