package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"ctxscope/app"
)

// TestAnswersAreEncodedAsTheStandardLibraryWould checks that writeJSON's
// encoder writes, byte for byte, what encoding/json writes for the
// answers of real calls on a real session (its info, a replay, a context,
// a drawing) and for hostile text: markup, invalid UTF-8, the line
// separators JavaScript once took for line ends, control characters.
func TestAnswersAreEncodedAsTheStandardLibraryWould(t *testing.T) {
	s := start(t)
	ctx := app.WithPrincipal(context.Background(), s.launch)
	invoke := func(service, method string, args ...any) any {
		t.Helper()
		raw := make([]json.RawMessage, len(args))
		for i, a := range args {
			raw[i], _ = json.Marshal(a)
		}
		v, err := s.app.Invoke(ctx, service, method, raw)
		if err != nil {
			t.Fatalf("%s.%s: %v", service, method, err)
		}
		return v
	}
	info := invoke("Sessions", "OpenPath", "../../testdata/shared/sessions/claude-code/claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl").(app.SessionInfo)
	params := map[string]any{"thread": 0, "policy": "paper", "budget": 6000}
	answers := map[string]any{
		"info":    info,
		"list":    invoke("Sessions", "List"),
		"replay":  invoke("Debugger", "Replay", info.Key, params),
		"context": invoke("Debugger", "Context", info.Key, params, 5),
		"graph":   invoke("Debugger", "Graph", info.Key, params, 5),
		"hostile": map[string]any{
			"markup":  `<script>alert("x")</script> & <img src=x onerror=y>`,
			"invalid": "a\xffb\xc3(c",
			"lines":   "one\u2028two\u2029three",
			"control": "\x00\x01\x1f\x7f\t\n\r\"\\",
			"numbers": []any{0, -1, 1 << 53, 3.5, 1e21, 1e-7},
			"empty":   []int{},
			"nil":     []int(nil),
		},
	}
	for name, v := range answers {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		writeJSON(rec, 200, v)
		if got := rec.Body.Bytes(); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: encoded differently (%d bytes, the standard library %d)", name, len(got), want.Len())
		}
	}
}
