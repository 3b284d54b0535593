package ingest_test

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"ctxscope/engine/ingest"
	"ctxscope/engine/session"
)

// TestDetectionReadsStructure checks the classes of detection failure
// seen on real files, each on a file made here: detection reads the
// structure of the whole file, not a fixed head, and says it does not
// know rather than guess.
func TestDetectionReadsStructure(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	patch := strings.Repeat("+ a line of a long patch\n", 40_000) // about 1 MB
	for _, tc := range []struct {
		name, path string
		format     session.Format // "" for unknown
		messages   int
	}{
		{"a mini-swe-agent trajectory whose info (a 1 MB patch) fills the first 64 KiB",
			write("traj.json", `{"info":{"submission":`+jsonString(patch)+`,"exit_status":"Submitted"},"messages":[`+
				`{"role":"system","content":"You are a helpful assistant."},{"role":"user","content":"Fix the bug."},`+
				`{"role":"assistant","content":"THOUGHT: look\n`+"```mswea_bash_command\\nls\\n```"+`"}],"trajectory_format":"mini-swe-agent-1"}`),
			session.FormatMiniSWE, 3},
		{"the JSON `opencode export` writes is OpenCode's, not mini-swe-agent's",
			write("export.json", `{"info":{"id":"ses_1","projectID":"p","title":"t","directory":"/w","version":"1.18.33","time":{"created":1,"updated":2}},`+
				`"messages":[{"info":{"id":"msg_1","sessionID":"ses_1","role":"user","time":{"created":1}},"parts":[{"id":"prt_1","messageID":"msg_1","sessionID":"ses_1","type":"text","text":"hello"}]},`+
				`{"info":{"id":"msg_2","sessionID":"ses_1","role":"assistant","time":{"created":2,"completed":3},"modelID":"m","providerID":"p","tokens":{"input":10,"output":2,"reasoning":0,"cache":{"read":0,"write":0}}},`+
				`"parts":[{"id":"prt_2","messageID":"msg_2","sessionID":"ses_1","type":"text","text":"hi"}]}]}`),
			session.FormatOpenCode, 2},
		{"a 2024 OpenHands resolver line (no instance_id, flat events without source) whose 1 MB patch fills the first 64 KiB",
			write("output.jsonl", `{"issue":{"owner":"o","repo":"r","number":5,"title":"Add a license"},"issue_type":"issue","instruction":"Fix it.","git_patch":`+jsonString(patch)+
				`,"history":[{"content":"Fix it.","action":"message","wait_for_response":false},{"command":"ls","thought":"Look.","action":"run"},`+
				`{"content":"a","command_id":-1,"command":"ls","exit_code":0,"observation":"run"}],"metrics":null,"success":true,"error":null}`+"\n"),
			session.FormatOpenHands, 3},
		{"an {issue, instruction, history} document whose history is of neither events nor flat events",
			write("notes.json", `{"issue":"x","instruction":"y","history":[{"note":"z"}]}`), "", 0},
		{"an {info, messages} document of neither", write("other.json", `{"info":{"x":1},"messages":[{"kind":"note","body":"x"}]}`), "", 0},
		{"a SQLite database without OpenCode's tables", sqliteWith(t, dir, "other.db", `CREATE TABLE notes (id TEXT, body TEXT)`, 0), "", 0},
		{"an OpenCode database whose tables are defined past 64 KiB and whose rows are in the write-ahead log",
			sqliteWith(t, dir, "opencode.db", openCodeTables, 300), session.FormatOpenCode, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ss, err := ingest.ReadFileAll(tc.path)
			if tc.format == "" {
				if !errors.Is(err, ingest.ErrUnknownFormat) {
					t.Fatalf("read as %v, %v; want ErrUnknownFormat", formats(ss), err)
				}
				return
			}
			if err != nil || len(ss) != 1 || ss[0].Format != tc.format {
				t.Fatalf("read as %v, %v; want one %s session", formats(ss), err, tc.format)
			}
			n := 0
			for _, e := range ss[0].Main().Entries {
				if e.Message != nil {
					n++
				}
			}
			if n != tc.messages {
				t.Errorf("%d messages, want %d", n, tc.messages)
			}
		})
	}
}

// openCodeTables are the tables of OpenCode's that the importer reads.
const openCodeTables = `
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, directory TEXT NOT NULL,
  title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);`

// sqliteWith makes a SQLite database in write-ahead-log mode: padding
// tables of long definitions first (their schema then lies past the first
// 64 KiB), then schema; for OpenCode's schema, one session with a message,
// written while the connection stays open, so that its pages are in the
// write-ahead log when the test reads the file.
func sqliteWith(t *testing.T, dir, name, schema string, padding int) string {
	t.Helper()
	path := filepath.Join(dir, name)
	db, err := sql.Open("sqlite", path+"?_pragma=journal_mode(wal)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	for i := range padding {
		var cols strings.Builder
		for c := range 8 {
			fmt.Fprintf(&cols, ", column_with_a_long_name_%d_%d TEXT", i, c)
		}
		if _, err := db.Exec(fmt.Sprintf("CREATE TABLE padding_%d (id TEXT%s)", i, cols.String())); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(schema); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(schema, "CREATE TABLE session") {
		for _, q := range []string{
			`INSERT INTO session VALUES ('ses_1', 'p', NULL, '/w', 't', '1.18.33', 1, 2)`,
			`INSERT INTO message VALUES ('msg_1', 'ses_1', 1, 1, '{"role":"user","time":{"created":1}}')`,
			`INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_1', 1, 1, '{"type":"text","text":"hello"}')`,
		} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
	}
	return path
}

func jsonString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

func formats(ss []*session.Session) []session.Format {
	var out []session.Format
	for _, s := range ss {
		out = append(out, s.Format)
	}
	return out
}
