package cli

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"
)

func runMemoryBuild(env *Env, args []string) error {
	fs := newFlags("memory build", env.Stderr)
	path := fs.String("locomo", "", "LoCoMo file (locomo10.json)")
	sample := fs.String("sample", "all", "conversation indexes, comma-separated, or all")
	extractor := fs.String("extractor", "offline", "offline or llm")
	compat := fs.Bool("compat", false, "the released code's parameters (buffer 5, noise as a group, no merges)")
	var ef embedFlags
	fs.StringVar(&ef.url, "embed-url", "", "OpenAI-compatible embeddings base URL (default: offline GloVe)")
	fs.StringVar(&ef.model, "embed-model", "all-minilm", "embedding model for --embed-url")
	var lf llmFlags
	lf.register(fs)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	convs, err := readLoCoMo(*path)
	if err != nil {
		return err
	}
	idx, err := sampleIndexes(*sample, len(convs))
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
	case "llm":
		if err := lf.configure(b, env); err != nil {
			return err
		}
	default:
		return usageError("--extractor %q: want offline or llm", *extractor)
	}
	st, err := memoryStore(env)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "memory\tpassages\tentities\ttriples\tclusters\titems\tmerges\tbuild ms\t")
	for _, i := range idx {
		c := convs[i]
		start := time.Now()
		m, err := b.Build(context.Background(), c.ID, c.Passages())
		if err != nil {
			return fmt.Errorf("%s: %w", c.ID, err)
		}
		took := time.Since(start)
		if err := st.Save(m); err != nil {
			return err
		}
		s := m.Stats()
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", m.ID, s.Passages, s.Entities, s.Relations, s.Clusters, s.Experiences, s.Merges, took.Milliseconds())
	}
	tw.Flush()
	size, _ := st.Size()
	fmt.Fprintf(env.Stdout, "stored in %s (%.2f MB in all)\n", st, float64(size)/1e6)
	return nil
}
