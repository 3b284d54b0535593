package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/mwimport"
)

func runMemoryImport(env *Env, args []string) error {
	fs := newFlags("memory import-kg", env.Stderr)
	path := fs.String("locomo", "", "LoCoMo file, to give passages their dialogue ids (optional)")
	sample := fs.Int("sample", -1, "the LoCoMo conversation the graph was built from (with --locomo)")
	asJSON := fs.Bool("json", false, "print the import report as JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError("need KG.json and CLUSTERS.json")
	}
	var turns []memory.Passage
	id := ""
	if *path != "" {
		convs, err := readLoCoMo(*path)
		if err != nil {
			return err
		}
		if *sample < 0 || *sample >= len(convs) {
			return usageError("--locomo needs --sample 0..%d", len(convs)-1)
		}
		turns, id = convs[*sample].Passages(), convs[*sample].ID
	}
	m, rep, err := mwimport.Load(pos[0], pos[1], turns)
	if err != nil {
		return err
	}
	if id == "" {
		id = fmt.Sprintf("sample-%d", *sample)
	}
	m.ID = "imported-" + id
	abs, _ := filepath.Abs(pos[0])
	m.From = memory.Origin{Kind: "memweaver", Path: abs, Sample: *sample}
	if *path != "" {
		m.From.Kind, m.From.Path = "locomo", mustAbs(*path)
	}
	ws, err := openSharedWorkspace(env)
	if err != nil {
		return err
	}
	defer ws.Close()
	if err := ws.SaveMemory(context.Background(), m); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, rep)
	}
	fmt.Fprintf(env.Stdout, "%s: %d entities, %d passages (%d aligned), %d semantic triples (%d indexed, %d from review), %d contains links, %d clusters, %d experience items\n",
		m.ID, rep.Entities, rep.Passages, rep.Aligned, rep.Semantic, rep.Indexed, rep.FromReview, rep.Contains, rep.Clusters, rep.Experiences)
	for _, s := range rep.Skipped {
		fmt.Fprintf(env.Stderr, "skipped: %s\n", s)
	}
	return nil
}

// mustAbs returns the absolute form of a path, or the path when it has
// none (the working directory is gone).
func mustAbs(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
