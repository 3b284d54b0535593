package graphviz

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// vectorsFile holds the CWL conformance vectors.
var vectorsFile = filepath.Join("..", "testdata", "shared", "cwl-vectors", "public.json")

// cwlVector is the part of a conformance vector the tests read.
type cwlVector struct {
	ID      string `json:"id"`
	History []struct {
		Role      string `json:"role"`
		Timestamp int64  `json:"timestamp"`
		Details   struct {
			ChunkEvent *struct {
				Action string `json:"action"`
				Chunk  struct {
					Name         string   `json:"name"`
					Type         string   `json:"type"`
					Dependencies []string `json:"dependencies"`
				} `json:"chunk"`
			} `json:"chunkEvent"`
		} `json:"details"`
	} `json:"history"`
	Passes []struct {
		Budget     int `json:"budget"`
		ChunkStats []struct {
			ChunkName    string `json:"chunkName"`
			FullyRemoved bool   `json:"fullyRemoved"`
			Steps        []struct {
				Step string `json:"step"`
			} `json:"steps"`
		} `json:"chunkStats"`
	} `json:"passes"`
}

// episodeGraph reads vector id's delimiter events as an episode DAG, with
// the eviction outcome of the pass at budget (0 for none) as attributes.
func episodeGraph(tb testing.TB, id string, budget int) *Graph {
	tb.Helper()
	raw, err := os.ReadFile(vectorsFile)
	if err != nil {
		tb.Fatalf("the CWL vectors are missing (testdata/shared/cwl-vectors): %v", err)
	}
	var f struct{ Vectors []cwlVector }
	if err := json.Unmarshal(raw, &f); err != nil {
		tb.Fatal(err)
	}
	for _, v := range f.Vectors {
		if v.ID == id {
			return vectorGraph(v, budget)
		}
	}
	tb.Fatalf("no vector %s", id)
	return nil
}

func vectorGraph(v cwlVector, budget int) *Graph {
	g := &Graph{Name: "cwl " + v.ID}
	at := map[string]int{}
	for i, m := range v.History {
		ev := m.Details.ChunkEvent
		if m.Role != "toolResult" || ev == nil {
			continue
		}
		c := ev.Chunk
		if ev.Action == "start" {
			at[c.Name] = len(g.Nodes)
			g.Nodes = append(g.Nodes, Node{ID: c.Name, Seq: int64(i), Attrs: Attrs{
				"kind": c.Type, "state": "open", "start": strconv.Itoa(i),
				"time": time.UnixMilli(m.Timestamp).UTC().Format(time.RFC3339),
			}})
			for _, d := range c.Dependencies {
				g.Edges = append(g.Edges, Edge{From: d, To: c.Name, Attrs: Attrs{"kind": "dependency"}})
			}
		} else if k, ok := at[c.Name]; ok {
			g.Nodes[k].Attrs["state"], g.Nodes[k].Attrs["end"] = "closed", strconv.Itoa(i)
		}
	}
	for _, p := range v.Passes {
		if p.Budget != budget {
			continue
		}
		for _, cs := range p.ChunkStats {
			a := g.Nodes[at[cs.ChunkName]].Attrs
			switch {
			case cs.FullyRemoved:
				a["state"] = "evicted"
			case len(cs.Steps) > 0:
				a["state"], a["level"], a["step"] = "stripped", strconv.Itoa(len(cs.Steps)), cs.Steps[len(cs.Steps)-1].Step
			}
		}
	}
	return g
}

// egoGraph is the one-hop neighbourhood of "necklace" among the entities
// of LoCoMo sample 0, parallel relations merged.
func egoGraph(tb testing.TB) *Graph {
	g := loadKG(tb, 0, false)
	idx, err := NewEgoIndex(g)
	if err != nil {
		tb.Fatal(err)
	}
	ego, err := idx.Ego(entityID(tb, g, "necklace"), 1, 0)
	if err != nil {
		tb.Fatal(err)
	}
	ego = MergeParallel(ego)
	ego.Name = "kg_sample_0 ego necklace"
	return ego
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n%s", name, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ":\n- " + x + "\n+ " + y
		}
	}
	return ""
}

// goldenCase is a real graph, laid out, with its golden file names.
type goldenCase struct {
	name string
	g    *Graph
	l    *Layout
}

func goldenCases(t *testing.T) []goldenCase {
	var out []goldenCase
	for _, v := range []struct {
		id     string
		budget int
	}{{"V6", 700}, {"V10", 0}} {
		g := episodeGraph(t, v.id, v.budget)
		l, err := Layered(g, LayeredOptions{Ranking: TimeOrdered, Splines: true})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, goldenCase{"episodes_" + strings.ToLower(v.id), g, l})
	}
	ego := egoGraph(t)
	l, err := Force(ego, ForceOptions{Seed: 1, Center: ego.Nodes[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	return append(out, goldenCase{"ego_necklace", ego, l})
}

func TestGoldenDOT(t *testing.T) {
	for _, tc := range goldenCases(t) {
		for _, pinned := range []bool{false, true} {
			var buf bytes.Buffer
			opt, name := DOTOptions{}, tc.name+".dot"
			if pinned {
				opt.Layout, name = tc.l, tc.name+".pinned.dot"
			}
			if err := WriteDOT(&buf, tc.g, opt); err != nil {
				t.Fatal(err)
			}
			golden(t, name, buf.Bytes())
		}
	}
}

func TestGoldenSVG(t *testing.T) {
	for _, tc := range goldenCases(t) {
		var buf bytes.Buffer
		if err := WriteSVG(&buf, tc.g, tc.l, SVGOptions{}); err != nil {
			t.Fatal(err)
		}
		checkSVG(t, buf.Bytes(), len(tc.g.Nodes), len(tc.g.Edges))
		golden(t, tc.name+".svg", buf.Bytes())
	}
}

// checkSVG asserts that doc is well-formed XML with one group per node and
// per edge.
func checkSVG(t *testing.T, doc []byte, nodes, edges int) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	counts := map[string]int{}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "g" {
			for _, a := range se.Attr {
				if a.Name.Local == "class" {
					counts[strings.Fields(a.Value)[0]]++
				}
			}
		}
	}
	if counts["node"] != nodes || counts["edge"] != edges {
		t.Fatalf("SVG has %d node and %d edge groups, want %d and %d", counts["node"], counts["edge"], nodes, edges)
	}
}

// nastyGraph holds the strings that DOT and XML escaping must survive.
func nastyGraph() *Graph {
	ids := []string{"node", "Graph", "a b", `q"uote`, `back\slash`, `trailing\`, "line\nbreak", "tab\there", "ctl\x01\x7f", "bad\xff\xfeutf8", "<b>html</b>", "ünï😀", "-1.5", "", "{x}"}
	g := &Graph{Name: `weird "name"`, Attrs: Attrs{"label": "g\\n"}}
	for i, id := range ids {
		if id == "" {
			id = "empty label"
		}
		g.Nodes = append(g.Nodes, Node{ID: id, Label: ids[(i+1)%len(ids)], Attrs: Attrs{"state": "evicted", "odd key": id, "x-y": "1"}})
		if i > 0 {
			g.Edges = append(g.Edges, Edge{From: g.Nodes[i-1].ID, To: id, Label: id, Attrs: Attrs{"time": id}})
		}
	}
	return g
}

func TestDOTIsReadByGraphviz(t *testing.T) {
	bin, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz dot is not installed")
	}
	cases := goldenCases(t)
	nasty := nastyGraph()
	l, err := Layered(nasty, LayeredOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, goldenCase{"nasty", nasty, l})
	for _, tc := range cases {
		for _, opt := range []DOTOptions{{}, {Layout: tc.l}} {
			var buf bytes.Buffer
			if err := WriteDOT(&buf, tc.g, opt); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "-Tplain")
			cmd.Stdin = &buf
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil || stderr.Len() > 0 {
				t.Fatalf("%s: dot failed: %v\n%s", tc.name, err, stderr.String())
			}
			pg, _, err := ReadPlain(bytes.NewReader(out))
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if len(pg.Nodes) != len(tc.g.Nodes) || len(pg.Edges) != len(tc.g.Edges) {
				t.Fatalf("%s: dot read %d nodes and %d edges, want %d and %d", tc.name, len(pg.Nodes), len(pg.Edges), len(tc.g.Nodes), len(tc.g.Edges))
			}
		}
	}
}

func TestPinnedDOTKeepsOurPositions(t *testing.T) {
	bin, err := exec.LookPath("neato")
	if err != nil {
		t.Skip("Graphviz neato is not installed")
	}
	for _, tc := range goldenCases(t) {
		var buf bytes.Buffer
		if err := WriteDOT(&buf, tc.g, DOTOptions{Layout: tc.l}); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "-n2", "-Tplain")
		cmd.Stdin = &buf
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: neato: %v", tc.name, err)
		}
		pg, pl, err := ReadPlain(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		// Graphviz may translate the drawing as a whole, nothing else.
		pos, _ := tc.g.Index()
		first := tc.l.Nodes[pos[pg.Nodes[0].ID]]
		dx, dy := pl.Nodes[0].X-first.X, pl.Nodes[0].Y-first.Y
		for i, n := range pg.Nodes {
			want := tc.l.Nodes[pos[n.ID]]
			got := pl.Nodes[i]
			if d := max(abs(got.X-dx-want.X), abs(got.Y-dy-want.Y)); d > 1 {
				t.Fatalf("%s: neato -n2 put %s at (%g,%g), we at (%g,%g)", tc.name, n.ID, got.X, got.Y, want.X, want.Y)
			}
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

func TestSVGEscapesEverything(t *testing.T) {
	g := nastyGraph()
	l, err := Layered(g, LayeredOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteSVG(&buf, g, l, SVGOptions{}); err != nil {
		t.Fatal(err)
	}
	checkSVG(t, buf.Bytes(), len(g.Nodes), len(g.Edges))
}

func TestDOTIsDeterministicWhateverTheInputOrder(t *testing.T) {
	g := egoGraph(t)
	rev := &Graph{Name: g.Name}
	for i := len(g.Nodes) - 1; i >= 0; i-- {
		rev.Nodes = append(rev.Nodes, g.Nodes[i])
	}
	for i := len(g.Edges) - 1; i >= 0; i-- {
		rev.Edges = append(rev.Edges, g.Edges[i])
	}
	var a, b bytes.Buffer
	if err := WriteDOT(&a, g, DOTOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := WriteDOT(&b, rev, DOTOptions{}); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatalf("DOT depends on input order:\n%s", firstDiff(a.String(), b.String()))
	}
}
