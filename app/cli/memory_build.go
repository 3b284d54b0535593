package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"ctxscope/engine/ingest"
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/recipe"
)

func runMemoryBuild(env *Env, args []string) error {
	fs := newFlags("memory build", env.Stderr)
	path := fs.String("locomo", "", "LoCoMo file (locomo10.json)")
	sample := fs.String("sample", "all", "conversation indexes, comma-separated, or all")
	extractor := fs.String("extractor", "offline", "offline (the tagged extractor), patterns (the earlier first-person patterns) or llm")
	compat := fs.Bool("compat", false, "the released code's parameters (buffer 5, noise as a group, no merges)")
	var ef embedFlags
	fs.StringVar(&ef.url, "embed-url", "", "OpenAI-compatible embeddings base URL (default: offline GloVe)")
	fs.StringVar(&ef.model, "embed-model", "all-minilm", "embedding model for --embed-url")
	var lf llmFlags
	lf.register(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	sources, err := buildSources(*path, *sample, pos)
	if err != nil {
		return err
	}
	emb, err := ef.provider()
	if err != nil {
		return err
	}
	b, err := memoryBuilder(env, recipe.Spec{Extractor: *extractor, Embedder: emb, Compat: *compat}, &lf)
	if err != nil {
		return err
	}
	ws, err := openSharedWorkspace(env)
	if err != nil {
		return err
	}
	defer ws.Close()
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "memory\tpassages\tentities\ttriples\tclusters\titems\tmerges\tbuild ms\t")
	for _, src := range sources {
		start := time.Now()
		m, err := src.Build(context.Background(), b)
		if err != nil {
			return fmt.Errorf("%s: %w", src.ID, err)
		}
		took := time.Since(start)
		if err := ws.SaveMemory(context.Background(), m); err != nil {
			return err
		}
		s := m.Stats()
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", m.ID, s.Passages, s.Entities, s.Relations, s.Clusters, s.Experiences, s.Merges, took.Milliseconds())
	}
	tw.Flush()
	size, err := workspaceSize(ws)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "stored in the workspace %s (%s)\n", ws.Store.Dir(), size)
	return nil
}

// memoryBuilder returns the builder spec chooses; the llm extractor's
// model is the one the --llm flags name, and its lines go to stderr.
func memoryBuilder(env *Env, spec recipe.Spec, lf *llmFlags) (*memory.Builder, error) {
	if !slices.Contains(recipe.Extractors, spec.Extractor) {
		return nil, usageError("--extractor %q: want offline, patterns or llm", spec.Extractor)
	}
	if spec.Extractor == "llm" {
		spec.Model, spec.Logf = lf.client, func(format string, args ...any) { fmt.Fprintf(env.Stderr, format+"\n", args...) }
	}
	return spec.Builder()
}

// buildSources reads the LoCoMo conversations chosen by --sample, or the
// agent session files given as arguments (any format engine/ingest reads).
func buildSources(locomoPath, sample string, files []string) ([]recipe.Source, error) {
	var out []recipe.Source
	if locomoPath != "" {
		convs, err := readLoCoMo(locomoPath)
		if err != nil {
			return nil, err
		}
		idx, err := sampleIndexes(sample, len(convs))
		if err != nil {
			return nil, err
		}
		abs, _ := filepath.Abs(locomoPath)
		for _, i := range idx {
			out = append(out, recipe.LoCoMo(convs[i], abs, i))
		}
	}
	for _, f := range files {
		s, err := ingest.ReadFile(f)
		if err != nil {
			return nil, err
		}
		id := s.ID
		if id == "" || strings.ContainsAny(id, `/\`) {
			id = strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		}
		abs, _ := filepath.Abs(f)
		src, err := recipe.Session(id, s, memory.Origin{Path: abs})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, src)
	}
	if len(out) == 0 {
		return nil, usageError("need --locomo FILE or SESSION files")
	}
	return out, nil
}
