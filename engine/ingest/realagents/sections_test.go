package realagents

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"ctxscope/engine/modeltest"
	"ctxscope/engine/session"
)

// compareSections checks, for each request of th, that the tool schemas
// ctxscope shows are the tools the Messages body carried, each schema's
// text exactly as sent, and that the blocks it shows as injected are the
// user-side text blocks of the body that are a system reminder, each
// exactly as sent.
func compareSections(t *testing.T, name string, th *session.Thread, all []modeltest.Request, marker string) {
	t.Helper()
	sent := modelCalls(all, marker)
	got := session.BuildRequests(th)
	schemas, injected := 0, 0
	for k := range min(len(got), len(sent)) {
		var body struct {
			Tools    []json.RawMessage `json:"tools"`
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(sent[k].Body, &body); err != nil {
			t.Fatal(err)
		}
		var wantSchemas, wantInjected []string
		for _, tool := range body.Tools {
			wantSchemas = append(wantSchemas, string(tool))
		}
		for _, m := range body.Messages {
			var blocks []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			}
			if m.Role != "user" || json.Unmarshal(m.Content, &blocks) != nil {
				continue
			}
			for _, b := range blocks {
				if trimmed := strings.TrimSpace(b.Text); b.Type == "text" && strings.HasPrefix(trimmed, "<system-reminder>") && strings.HasSuffix(trimmed, "</system-reminder>") {
					wantInjected = append(wantInjected, b.Text)
				}
			}
		}
		var readSchemas, readInjected []string
		for _, m := range got[k].Input() {
			for i := range m.Blocks {
				switch b := &m.Blocks[i]; session.SectionOf(m, b) {
				case session.SectionToolSchema:
					readSchemas = append(readSchemas, b.Text)
				case session.SectionInjected:
					readInjected = append(readInjected, b.Text)
				}
			}
		}
		sort.Strings(wantSchemas)
		sort.Strings(readSchemas)
		if !equalStrings(readSchemas, wantSchemas) {
			t.Errorf("%s: request %d: ctxscope shows %d tool schemas, the body carried %d (or their text differs)", name, k, len(readSchemas), len(wantSchemas))
		}
		if !equalStrings(readInjected, wantInjected) {
			t.Errorf("%s: request %d: ctxscope shows %d injected blocks, the body carried %d (or their text differs)", name, k, len(readInjected), len(wantInjected))
		}
		schemas, injected = len(wantSchemas), max(injected, len(wantInjected))
	}
	if schemas == 0 || injected == 0 {
		t.Errorf("%s: the bodies carried %d tool schemas and up to %d injected blocks; the test needs both", name, schemas, injected)
	}
	t.Logf("%s: each request's %d tool schemas and its injected blocks (up to %d) shown as sent", name, schemas, injected)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
