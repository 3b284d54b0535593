package proxyrec

import (
	"testing"

	"ctxscope/engine/ingest/internal/fuzzcheck"
	"ctxscope/engine/proxy"
)

func FuzzProxyrecImport(f *testing.F) {
	t := &testing.T{}
	f.Add([]byte(line(t, 1, proxy.APIChat, 200, chat1, chatStream1) + "\n" + line(t, 2, proxy.APIChat, 200, chat2edited, chatWhole2) + "\n"))
	f.Add([]byte(line(t, 1, proxy.APIAnthropic, 200, `{"system":"s","messages":[{"role":"user","content":"hi"}]}`, `{"type":"message","content":[{"type":"text","text":"ok"}]}`) + "\n"))
	f.Add([]byte(line(t, 1, proxy.APIGemini, 500, `{"contents":[{"parts":[{"text":"hi"}]}]}`, "oops") + "\n"))
	fuzzcheck.OneSession(f, "proxy", "fuzz.jsonl", Importer{}.Import)
}
