package pi

import (
	"strings"
	"testing"

	"ctxscope/engine/session"
)

// TestVersion2Entries reads a version 2 session with every bookkeeping
// entry type and a hookMessage (version 2's name for custom messages).
func TestVersion2Entries(t *testing.T) {
	in := `{"type":"session","version":2,"id":"s2","timestamp":"2026-01-01T00:00:00Z","cwd":"/w"}
{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"hi","timestamp":1767225601000}}
{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:02Z","message":{"role":"hookMessage","customType":"lint","content":[{"type":"text","text":"3 warnings"}],"display":true,"timestamp":1767225602000}}
{"type":"message","id":"c","parentId":"b","timestamp":"2026-01-01T00:00:03Z","message":{"role":"bashExecution","command":"ls","output":"a b","exitCode":0,"cancelled":false,"truncated":false,"excludeFromContext":true,"timestamp":1767225603000}}
{"type":"custom_message","id":"d","parentId":"c","timestamp":"2026-01-01T00:00:04Z","customType":"note","content":"remember this","display":false}
{"type":"custom","id":"e","parentId":"d","timestamp":"2026-01-01T00:00:05Z","customType":"state","data":{"x":1}}
{"type":"label","id":"f","parentId":"e","timestamp":"2026-01-01T00:00:06Z","targetId":"a","label":"start"}
{"type":"branch_summary","id":"g","parentId":"a","timestamp":"2026-01-01T00:00:07Z","fromId":"f","summary":"tried listing files"}
{"type":"session_info","id":"h","parentId":"g","timestamp":"2026-01-01T00:00:08Z","name":"  my session "}
{"type":"message","id":"i","parentId":"h","timestamp":"2026-01-01T00:00:09Z","message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"provider":"p","model":"m","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{"total":0.5}},"stopReason":"stop","timestamp":1767225609000}}
`
	s, err := Importer{}.Import(strings.NewReader(in), "v2.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Diagnostics) > 0 {
		t.Fatalf("diagnostics %v", s.Diagnostics)
	}
	es := s.Main().Entries
	byID := map[string]*session.Entry{}
	for _, e := range es {
		byID[e.ID] = e
	}
	checks := []struct {
		id     string
		kind   session.EntryKind
		origin string
		value  string
		target string
	}{
		{"b", session.EntryMessage, session.OriginCustom, "", ""},
		{"c", session.EntryMessage, session.OriginBashExecution, "", ""},
		{"d", session.EntryMessage, session.OriginCustom, "note", ""},
		{"e", session.EntryMeta, "", "state", ""},
		{"f", session.EntryLabel, "", "start", "a"},
		{"g", session.EntryMessage, session.OriginBranchSummary, "", "f"},
		{"h", session.EntrySessionInfo, "", "my session", ""},
	}
	for _, c := range checks {
		e := byID[c.id]
		if e == nil {
			t.Errorf("entry %s missing", c.id)
			continue
		}
		origin := ""
		if e.Message != nil {
			origin = e.Message.Origin
		}
		if e.Kind != c.kind || origin != c.origin || e.Value != c.value || e.Target != c.target {
			t.Errorf("entry %s: kind %s origin %q value %q target %q", c.id, e.Kind, origin, e.Value, e.Target)
		}
	}
	if !byID["c"].Message.Excluded || s.Title != "my session" || s.Version != 2 {
		t.Errorf("excluded %v, title %q, version %d", byID["c"].Message.Excluded, s.Title, s.Version)
	}
	// The assistant's request sees the branch summary on its path, and not
	// the excluded bash execution, which lies on the abandoned branch.
	reqs := session.BuildRequests(s.Main())
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	var origins []string
	for _, m := range reqs[0].Input() {
		origins = append(origins, string(m.Role)+"/"+m.Origin)
	}
	if strings.Join(origins, " ") != "user/ user/branchSummary" {
		t.Errorf("request input %v", origins)
	}
	if u := reqs[0].Entry.Message.Usage; u == nil || u.Cost != 0.5 {
		t.Errorf("usage %+v", u)
	}
}

// TestVersion1Compaction migrates a version 1 compaction whose
// firstKeptEntryIndex counts records, header included.
func TestVersion1Compaction(t *testing.T) {
	in := `{"type":"session","id":"s1","timestamp":"2026-01-01T00:00:00Z","provider":"anthropic","modelId":"m"}
{"type":"message","timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"one","timestamp":1}}
{"type":"message","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"text","text":"two"}],"timestamp":2}}
{"type":"message","timestamp":"2026-01-01T00:00:03Z","message":{"role":"user","content":"three","timestamp":3}}
{"type":"compaction","timestamp":"2026-01-01T00:00:04Z","summary":"sum","firstKeptEntryIndex":3,"tokensBefore":100}
{"type":"message","timestamp":"2026-01-01T00:00:05Z","message":{"role":"assistant","content":[{"type":"text","text":"four"}],"timestamp":5}}
`
	s, err := Importer{}.Import(strings.NewReader(in), "v1.jsonl")
	if err != nil || len(s.Diagnostics) > 0 {
		t.Fatalf("%v %v", err, s.Diagnostics)
	}
	reqs := session.BuildRequests(s.Main())
	last := reqs[len(reqs)-1].Input()
	if len(last) != 2 || last[0].Origin != session.OriginCompactionSummary || last[1].Blocks[0].Text != "three" {
		t.Errorf("input after compaction: %d messages", len(last))
	}
}
