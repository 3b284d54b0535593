package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"ctxscope/engine/memory/retrieve"
	"ctxscope/search/lexical"
)

func runMemoryQuery(env *Env, args []string) error {
	fs := newFlags("memory query", env.Stderr)
	mf := addMemoryFlags(fs)
	asJSON := fs.Bool("json", false, "print the items with their explanations as JSON")
	budget := fs.Int("budget", 0, "assemble at most this many tokens (0: the released budgets)")
	compat := fs.Bool("compat", false, "the released code's retrieval: dense-only ranking, turns indexed alone")
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
	m, err := mf.load(env)
	if err != nil {
		return err
	}
	emb, err := ef.provider()
	if err != nil {
		return err
	}
	opt, cfg := retrieve.Options{Lexical: lexical.Build, Window: 1}, retrieve.Default()
	if *compat {
		opt, cfg = retrieve.Options{Lexical: lexical.Build, StructuralNames: true}, retrieve.Released()
	}
	if *budget > 0 {
		cfg, opt.Window = retrieve.Budgeted(*budget), retrieve.DefaultKnobs().Window
	}
	x, err := retrieve.New(context.Background(), m, emb, opt)
	if err != nil {
		return err
	}
	res, err := x.Retrieve(context.Background(), pos[0], cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, res)
	}
	printQuery(env.Stdout, m.ID, res)
	return nil
}

// printQuery writes the context and one explanation line per item.
func printQuery(w io.Writer, id string, res *retrieve.Result) {
	fmt.Fprintf(w, "%s\n(%s: %d tokens, %d items, turns %s)\n\n", res.Context, id, res.Tokens, len(res.Items), strings.Join(res.Turns, " "))
	for _, it := range res.Items {
		why := it.Why
		fmt.Fprintf(w, "%-10s %-9s score %.3f (dense %.3f, bm25 %.3f)", it.Kind, why.Channel, why.Score, why.Dense, why.Lexical)
		if why.Hop > 0 {
			fmt.Fprintf(w, " hop %d from %s", why.Hop, why.Seed)
		}
		if why.Via != "" {
			fmt.Fprintf(w, " via %s", why.Via)
		}
		fmt.Fprintf(w, " ← %s\n", strings.Join(it.Passages, " "))
	}
}
