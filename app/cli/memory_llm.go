package cli

import (
	"flag"
	"fmt"

	"ctxscope/engine/memory"
	"ctxscope/engine/memory/llm"
)

// llmFlags choose the answering or extracting model: an OpenAI-compatible
// chat-completions endpoint. The key comes from CTXSCOPE_LLM_KEY or
// OPENAI_API_KEY only, so it never lands in a shell history or the
// workspace.
type llmFlags struct {
	url, model string
}

func (f *llmFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.url, "llm-url", "", "OpenAI-compatible base URL, such as http://localhost:11434/v1 (or CTXSCOPE_LLM_URL)")
	fs.StringVar(&f.model, "llm-model", "", "model name (or CTXSCOPE_LLM_MODEL)")
}

// client returns the configured model client.
func (f *llmFlags) client() (*llm.Client, error) { return llm.FromEnv(f.url, f.model) }

// configure switches b to the model-backed extractor, reviewer and
// experience writer, logging rejected items to stderr.
func (f *llmFlags) configure(b *memory.Builder, env *Env) error {
	c, err := f.client()
	if err != nil {
		return err
	}
	logf := func(format string, args ...any) { fmt.Fprintf(env.Stderr, format+"\n", args...) }
	e := &llm.Extractor{Client: c, Logf: logf}
	b.Extractor, b.Reviewer, b.Logf = e, e, logf
	b.Writer = &llm.Writer{Client: c, Logf: logf}
	return nil
}
