package cli

import (
	"fmt"
	"os"
	"strings"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/embed"
	"ctxscope/engine/memory/locomo"
	"ctxscope/engine/memory/recipe"
)

var memoryCommand = command{
	name: "memory",
	args: "build|import-kg|query|eval|graph [ARGS] (run 'ctxscope memory SUBCOMMAND -h')",
	// build --locomo FILE [--sample N] [--extractor offline|llm] | build SESSION...
	// import-kg KG.json CLUSTERS.json [--locomo FILE --sample N]
	// query "QUESTION" [--sample N | --memory ID] [--json] [--budget N]
	// eval --locomo FILE [--source built|imported] [--json] [--answer]
	// graph [--sample N | --memory ID] [--format dot|svg] [--entity NAME --hops K]
	summary: "tri-layer memory (MemWeaver): build, import, query, evaluate on LoCoMo, draw the graph",
	run:     runMemory,
}

var memorySubcommands = map[string]func(env *Env, args []string) error{
	"build":     runMemoryBuild,
	"import-kg": runMemoryImport,
	"query":     runMemoryQuery,
	"eval":      runMemoryEval,
	"tune":      runMemoryTune,
	"graph":     runMemoryGraph,
}

func runMemory(env *Env, args []string) error {
	if len(args) == 0 {
		return usageError("need a subcommand: build, import-kg, query, eval, tune or graph")
	}
	run, ok := memorySubcommands[args[0]]
	if !ok {
		return usageError("unknown subcommand %q", args[0])
	}
	return run(env, args[1:])
}

// embedFlags are the flags that choose the embedding provider.
type embedFlags struct {
	url, model string
}

// provider returns the offline GloVe SIF embedder, or an OpenAI-compatible
// client when a URL is given (key from CTXSCOPE_EMBED_KEY or
// OPENAI_API_KEY; never stored).
func (f embedFlags) provider() (embed.Provider, error) {
	if f.url != "" {
		key := os.Getenv("CTXSCOPE_EMBED_KEY")
		if key == "" {
			key = os.Getenv("OPENAI_API_KEY")
		}
		return &embed.Client{BaseURL: f.url, Model: f.model, Key: key}, nil
	}
	return embed.Default()
}

// offlineBuilder is the default, model-free builder (or, with compat, the
// released code's parameters).
func offlineBuilder(emb embed.Provider, compat bool) *memory.Builder {
	b, _ := recipe.Spec{Embedder: emb, Compat: compat}.Builder() // no offline part can fail to make
	return b
}

// sampleIndexes parses --sample: "" or "all" for every conversation.
func sampleIndexes(s string, n int) ([]int, error) {
	if s == "" || s == "all" {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		var a, b int
		_, err1 := fmt.Sscan(lo, &a)
		b, err2 := a, error(nil)
		if isRange {
			_, err2 = fmt.Sscan(hi, &b)
		}
		if err1 != nil || err2 != nil || a < 0 || b >= n || a > b {
			return nil, usageError("%q: want conversation indexes 0..%d, comma-separated, or ranges such as 0-4", s, n-1)
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	return out, nil
}

// readLoCoMo reads the benchmark file.
func readLoCoMo(path string) ([]*locomo.Conversation, error) {
	if path == "" {
		return nil, usageError("need --locomo FILE")
	}
	return locomo.ReadFile(path)
}
