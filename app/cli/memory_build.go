package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"ctxscope/engine/ingest"
	"ctxscope/engine/memory"
	"ctxscope/engine/memory/code"
	"ctxscope/engine/memory/extract"
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
	b := offlineBuilder(emb, *compat)
	switch *extractor {
	case "offline":
	case "patterns":
		b.Extractor = extract.Offline{}
	case "llm":
		if err := lf.configure(b, env); err != nil {
			return err
		}
	default:
		return usageError("--extractor %q: want offline, patterns or llm", *extractor)
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
		m := src.read
		if m == nil {
			if m, err = b.Build(context.Background(), src.id, src.passages); err != nil {
				return fmt.Errorf("%s: %w", src.id, err)
			}
		}
		took := time.Since(start)
		m.From = src.from
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

// buildSource is one conversation to build a memory of.
type buildSource struct {
	id       string
	from     memory.Origin
	passages []memory.Passage
	// read is the memory of an agent session, read from its tool use by
	// package code rather than built by an extractor.
	read *memory.Memory
}

// buildSources reads the LoCoMo conversations chosen by --sample, or the
// agent session files given as arguments (any format engine/ingest reads).
func buildSources(locomoPath, sample string, files []string) ([]buildSource, error) {
	var out []buildSource
	if locomoPath != "" {
		convs, err := readLoCoMo(locomoPath)
		if err != nil {
			return nil, err
		}
		idx, err := sampleIndexes(sample, len(convs))
		if err != nil {
			return nil, err
		}
		for _, i := range idx {
			abs, _ := filepath.Abs(locomoPath)
			out = append(out, buildSource{id: convs[i].ID, from: memory.Origin{Kind: "locomo", Path: abs, Sample: i}, passages: convs[i].Passages()})
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
		m := code.ReadSession("session-"+id, s, nil)
		out = append(out, buildSource{id: m.ID, from: memory.Origin{Kind: "session", Path: abs}, passages: m.Passages, read: m})
	}
	if len(out) == 0 {
		return nil, usageError("need --locomo FILE or SESSION files")
	}
	return out, nil
}
