package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"ctxscope/app/graphs"
	"ctxscope/engine/cwl"
	"ctxscope/engine/ingest"
	"ctxscope/engine/report"
	"ctxscope/graphviz"
)

var graphCommand = command{
	name:    "graph",
	args:    "FILE [--format dot|svg] [--episodes declared|inferred] [--ranking time|simplex|longest] [--pinned] [-o OUT]",
	summary: "draw a session's episode DAG as Graphviz DOT or standalone SVG",
	run:     runGraph,
}

// errInferredEpisodes is returned for --episodes inferred until episode
// inference lands in the CWL engine.
var errInferredEpisodes = errors.New("inferred episodes are not available yet: use --episodes declared")

// graphFlags are the parsed flags of `ctxscope graph`.
type graphFlags struct {
	file, format, out string
	ranking           graphviz.Ranking
	pinned            bool
}

func runGraph(env *Env, args []string) error {
	f, err := parseGraphFlags(env, args)
	if err != nil {
		return err
	}
	g, err := declaredEpisodes(f.file)
	if err != nil {
		return err
	}
	if len(g.Nodes) == 0 {
		fmt.Fprintf(env.Stderr, "ctxscope graph: %s declares no episodes\n", f.file)
	}
	opt := graphviz.LayeredOptions{Ranking: f.ranking, Splines: true}
	l, err := graphviz.Layered(g, opt)
	if err != nil {
		return err
	}
	return writeOutput(env.Stdout, f.out, func(w io.Writer) error {
		if f.format == "svg" {
			return graphviz.WriteSVG(w, g, l, graphviz.SVGOptions{Sizing: opt.Sizing})
		}
		dopt := graphviz.DOTOptions{Sizing: opt.Sizing}
		if f.pinned {
			dopt.Layout = l
		}
		return graphviz.WriteDOT(w, g, dopt)
	})
}

func parseGraphFlags(env *Env, args []string) (graphFlags, error) {
	fs := newFlags("graph", env.Stderr)
	format := fs.String("format", "dot", "output format: dot or svg")
	episodes := fs.String("episodes", "declared", "which episodes: declared (delimiter tool) or inferred")
	ranking := fs.String("ranking", "time", "layer assignment: time (start order), simplex or longest")
	pinned := fs.Bool("pinned", false, "with --format dot, write our layout's positions (draw with neato -n2)")
	out := fs.String("o", "", "write to this file instead of standard output")
	pos, err := parse(fs, args)
	if err != nil {
		return graphFlags{}, err
	}
	if len(pos) != 1 {
		return graphFlags{}, usageError("need exactly one FILE")
	}
	if *format != "dot" && *format != "svg" {
		return graphFlags{}, usageError("unknown format %q (want dot or svg)", *format)
	}
	rk, err := graphviz.ParseRanking(*ranking)
	if err != nil {
		return graphFlags{}, usageError("%v", err)
	}
	switch *episodes {
	case "declared":
	case "inferred":
		return graphFlags{}, errInferredEpisodes
	default:
		return graphFlags{}, usageError("unknown episodes %q (want declared or inferred)", *episodes)
	}
	return graphFlags{file: pos[0], format: *format, out: *out, ranking: rk, pinned: *pinned}, nil
}

// declaredEpisodes reads a session and returns the episode DAG the agent
// declared with the delimiter tool on its main thread's active path.
func declaredEpisodes(path string) (*graphviz.Graph, error) {
	s, err := ingest.ReadFile(path)
	if err != nil {
		return nil, err
	}
	g := &graphviz.Graph{Name: "episodes"}
	if main := s.Main(); main != nil {
		msgs := report.ActivePath(main)
		g = graphs.Episodes(cwl.SegmentMessages(msgs), msgs)
	}
	g.Name = "episodes of " + filepath.Base(path)
	return g, nil
}

// writeOutput runs write on standard output, or on the named file.
func writeOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
