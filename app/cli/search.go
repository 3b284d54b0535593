package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"ctxscope/engine/store"
	"ctxscope/search"
)

var searchCommand = command{
	name:    "search",
	args:    `"QUERY" [--kind K] [--session S] [--tool T] [--role R] [--plain] [--limit N] [--from N] [--facets] [--json]`,
	summary: "search the workspace: messages, thinking, tool calls and results, episodes, memory",
	run:     runSearch,
}

// searchHit is a hit with the source file to open at its line.
type searchHit struct {
	search.Hit
	Source string `json:"source,omitempty"`
}

func runSearch(env *Env, args []string) error {
	fs := newFlags("search", env.Stderr)
	var req search.Request
	fs.StringVar(&req.Kind, "kind", "", "only hits of this kind (message, thinking, tool_call, tool_result, compaction, episode, passage, triple, experience)")
	fs.StringVar(&req.Session, "session", "", "only hits in the session with this key")
	fs.StringVar(&req.Tool, "tool", "", "only hits of this tool")
	fs.StringVar(&req.Role, "role", "", "only hits of this role")
	plain := fs.Bool("plain", false, "match the words as written, all required, with no query syntax")
	fs.IntVar(&req.Size, "limit", 10, "hits to show")
	fs.IntVar(&req.From, "from", 0, "hits to skip")
	fs.BoolVar(&req.Facets, "facets", false, "count the hits by kind, tool, session and role")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("need exactly one QUERY (quote it)")
	}
	req.Query, req.Mode = pos[0], search.ModeQuery
	if *plain {
		req.Mode = search.ModePlain
	}
	w, err := openWorkspace(env)
	if err != nil {
		return err
	}
	defer w.Close()
	ctx := context.Background()
	res, err := w.Search(ctx, req)
	if errors.Is(err, search.ErrBadQuery) {
		return fmt.Errorf("%w\n(the query uses Bleve's query-string syntax; --plain searches the words as written)", err)
	}
	if err != nil {
		return err
	}
	hits := withSources(ctx, w.Store, res.Hits)
	if *asJSON {
		return writeJSON(env.Stdout, struct {
			Total  uint64                         `json:"total"`
			Hits   []searchHit                    `json:"hits"`
			Facets map[string][]search.FacetCount `json:"facets,omitempty"`
		}{res.Total, hits, res.Facets})
	}
	printHits(env.Stdout, req, res, hits)
	return nil
}

// withSources adds each session hit's source file.
func withSources(ctx context.Context, st *store.Store, hits []search.Hit) []searchHit {
	sources := map[string]string{}
	out := make([]searchHit, len(hits))
	for i, h := range hits {
		out[i].Hit = h
		if h.Session == "" {
			continue
		}
		src, ok := sources[h.Session]
		if !ok {
			if info, err := st.Session(ctx, h.Session); err == nil {
				src = info.Source
			}
			sources[h.Session] = src
		}
		out[i].Source = src
	}
	return out
}

func printHits(w io.Writer, req search.Request, res *search.Result, hits []searchHit) {
	fmt.Fprintf(w, "%d hits", res.Total)
	if len(hits) > 0 {
		fmt.Fprintf(w, ", showing %d-%d", req.From+1, req.From+len(hits))
	}
	fmt.Fprintln(w)
	for _, h := range hits {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "%s  %s\n", describe(h.Hit), location(h))
		for _, f := range h.Fragments {
			fmt.Fprintf(w, "    %s\n", renderFragment(f))
		}
	}
	for _, name := range []string{search.FieldKind, search.FieldTool, search.FieldRole, search.FieldSession} {
		if counts := res.Facets[name]; len(counts) > 0 {
			parts := make([]string, len(counts))
			for i, c := range counts {
				parts[i] = fmt.Sprintf("%s %d", c.Term, c.Count)
			}
			fmt.Fprintf(w, "\nby %s: %s\n", name, strings.Join(parts, ", "))
		}
	}
}

// describe says what a hit is: its kind, with the role or tool.
func describe(h search.Hit) string {
	s := h.Kind
	switch {
	case h.Tool != "":
		s += " " + h.Tool
	case h.Role != "":
		s += " (" + h.Role + ")"
	case h.Speaker != "":
		s += " by " + h.Speaker
	}
	return s
}

// location says where to jump: the source file and line, and the session,
// thread and entry.
func location(h searchHit) string {
	var parts []string
	if h.Source != "" && h.Line > 0 {
		parts = append(parts, fmt.Sprintf("%s:%d", h.Source, h.Line))
	}
	if h.Session != "" {
		parts = append(parts, fmt.Sprintf("session %s thread %s entry %s", h.Session, h.Thread, h.Entry))
	}
	if h.Set != "" {
		parts = append(parts, fmt.Sprintf("memory %s item %s", h.Set, h.Entry))
	}
	if h.Episode != "" {
		parts = append(parts, "episode "+h.Episode)
	}
	return strings.Join(parts, "  ")
}

// renderFragment writes a fragment on one line with its marks in »«.
func renderFragment(f search.Fragment) string {
	var sb strings.Builder
	at := 0
	for _, m := range f.Marks {
		if m.Start < at || m.End > len(f.Text) {
			continue
		}
		sb.WriteString(f.Text[at:m.Start])
		sb.WriteString("»" + f.Text[m.Start:m.End] + "«")
		at = m.End
	}
	sb.WriteString(f.Text[at:])
	return oneLine(sb.String(), 0)
}
