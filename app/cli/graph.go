package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"ctxscope/app/graphs"
	"ctxscope/engine/cwl"
	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
	"ctxscope/engine/tokens"
	"ctxscope/graphviz"
)

var graphCommand = command{
	name:    "graph",
	args:    "FILE [--format dot|svg] [--episodes declared|inferred] [--budget N [--policy P]] [--ranking time|simplex|longest] [--pinned] [-o OUT]",
	summary: "draw a session's episode DAG as Graphviz DOT or standalone SVG",
	run:     runGraph,
}

// graphFlags are the parsed flags of `ctxscope graph`.
type graphFlags struct {
	file, format, out string
	episodes          cwl.EpisodeMode
	policy            string
	budget            int
	ranking           graphviz.Ranking
	pinned            bool
}

func runGraph(env *Env, args []string) error {
	f, err := parseGraphFlags(env, args)
	if err != nil {
		return err
	}
	g, err := episodeGraph(f)
	if err != nil {
		return err
	}
	if len(g.Nodes) == 0 {
		fmt.Fprintf(env.Stderr, "ctxscope graph: %s has no %s episodes\n", f.file, f.episodes)
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
	budget := fs.Int("budget", 0, "replay at this token budget and show each episode's eviction state at the last request")
	policy := fs.String("policy", cwl.PolicyPaper, "eviction policy for --budget: paper or pi-cwl")
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
	mode := cwl.EpisodeMode(*episodes)
	if mode != cwl.Declared && mode != cwl.Inferred {
		return graphFlags{}, usageError("unknown episodes %q (want declared or inferred)", *episodes)
	}
	if *policy != cwl.PolicyPaper && *policy != cwl.PolicyPiCWL {
		return graphFlags{}, usageError("unknown policy %q (want paper or pi-cwl)", *policy)
	}
	if *budget < 0 {
		return graphFlags{}, usageError("--budget must be positive")
	}
	return graphFlags{file: pos[0], format: *format, out: *out, episodes: mode, policy: *policy, budget: *budget, ranking: rk, pinned: *pinned}, nil
}

// episodeGraph reads a session and returns the episode DAG of its main
// thread as it stands at the last LLM request: the episodes of that
// request's context and, with a budget, their eviction state after the
// replay.
func episodeGraph(f graphFlags) (*graphviz.Graph, error) {
	s, err := ingest.ReadFile(f.file)
	if err != nil {
		return nil, err
	}
	g := &graphviz.Graph{}
	if main := s.Main(); main != nil {
		if reqs := session.BuildRequests(main); len(reqs) > 0 {
			r, err := cwl.Prepare(reqs, tokens.NewLedger(tokens.Estimator{}), cwl.PrepareOptions{Episodes: f.episodes, File: f.file})
			if err != nil {
				return nil, err
			}
			k := len(reqs) - 1
			var levels []int
			if f.budget > 0 {
				v, err := r.ContextAt(cwl.RunOptions{Policy: f.policy, Budget: f.budget}, k)
				if err != nil {
					return nil, err
				}
				levels = v.Levels
			}
			g = graphs.Episodes(r.EpisodesOf(k), reqs[k].Len, levels, reqs[k].Input())
		}
	}
	g.Name = "episodes of " + filepath.Base(f.file)
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
