package cli

import (
	"context"
	"fmt"
	"strings"

	"ctxscope/engine/memory/retrieve"
	"ctxscope/search/lexical"
)

func runMemoryQuery(env *Env, args []string) error {
	fs := newFlags("memory query", env.Stderr)
	name := fs.String("memory", "", "memory id (see 'memory build'); default: the sample's conversation")
	sample := fs.Int("sample", 0, "LoCoMo conversation index, when --memory is not given")
	asJSON := fs.Bool("json", false, "print the items with their explanations as JSON")
	budget := fs.Int("budget", 0, "assemble at most this many tokens (0: the released budgets)")
	compat := fs.Bool("compat", false, "the released code's dense-only ranking")
	var ef embedFlags
	fs.StringVar(&ef.url, "embed-url", "", "OpenAI-compatible embeddings base URL (default: offline GloVe)")
	fs.StringVar(&ef.model, "embed-model", "all-minilm", "embedding model for --embed-url")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("need exactly one QUESTION")
	}
	st, err := memoryStore(env)
	if err != nil {
		return err
	}
	id := *name
	if id == "" {
		ids, err := st.List()
		if err != nil {
			return err
		}
		var built []string
		for _, x := range ids {
			if strings.HasPrefix(x, "conv-") {
				built = append(built, x)
			}
		}
		if *sample < 0 || *sample >= len(built) {
			return fmt.Errorf("no built memory for sample %d in %s: run 'ctxscope memory build' first", *sample, st)
		}
		id = built[*sample]
	}
	m, err := st.Load(id)
	if err != nil {
		return err
	}
	emb, err := ef.provider()
	if err != nil {
		return err
	}
	opt := retrieve.Options{Lexical: lexical.Build, Window: 1}
	if *compat {
		opt = retrieve.Options{Lexical: lexical.Build, StructuralNames: true}
	}
	x, err := retrieve.New(context.Background(), m, emb, opt)
	if err != nil {
		return err
	}
	cfg := retrieve.Default()
	if *compat {
		cfg = retrieve.Released()
	}
	if *budget > 0 {
		cfg = retrieve.Budgeted(*budget)
	}
	res, err := x.Retrieve(context.Background(), pos[0], cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, res)
	}
	fmt.Fprintf(env.Stdout, "%s\n(%s: %d tokens, %d items, turns %s)\n\n", res.Context, m.ID, res.Tokens, len(res.Items), strings.Join(res.Turns, " "))
	for _, it := range res.Items {
		w := it.Why
		fmt.Fprintf(env.Stdout, "%-10s %-9s score %.3f (dense %.3f, bm25 %.3f)", it.Kind, w.Channel, w.Score, w.Dense, w.Lexical)
		if w.Hop > 0 {
			fmt.Fprintf(env.Stdout, " hop %d from %s", w.Hop, w.Seed)
		}
		if w.Via != "" {
			fmt.Fprintf(env.Stdout, " via %s", w.Via)
		}
		fmt.Fprintf(env.Stdout, " ← %s\n", strings.Join(it.Passages, " "))
	}
	return nil
}
