package cli

import (
	"flag"

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
