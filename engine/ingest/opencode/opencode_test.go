package opencode

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ctxscope/engine/session"
)

const storageSample = "testdata/samples/agent-sessions-storage-v2"

// openCodeSchema is the layout of OpenCode's tables that the importer
// reads, as OpenCode's migrations create them.
const openCodeSchema = `
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT, directory TEXT NOT NULL,
  title TEXT NOT NULL, version TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
  time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL,
  time_updated INTEGER NOT NULL, data TEXT NOT NULL);`

// databaseFromStorage writes the sessions of a JSON storage tree into a
// new opencode.db, the way OpenCode's migration moves them: the record's
// JSON, less the ids the columns hold, in the data column.
func databaseFromStorage(t *testing.T, root string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "opencode.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(openCodeSchema); err != nil {
		t.Fatal(err)
	}
	read := func(p string) map[string]any {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	data := func(v map[string]any, drop ...string) string {
		for _, k := range drop {
			delete(v, k)
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	created := func(v map[string]any) any {
		if tm, ok := v["time"].(map[string]any); ok {
			if c, ok := tm["created"]; ok {
				return c
			}
			return tm["start"]
		}
		return 0
	}
	sessions, _ := filepath.Glob(filepath.Join(root, "session", "*", "*.json"))
	for _, sp := range sessions {
		s := read(sp)
		if _, err := db.Exec(`INSERT INTO session VALUES (?, ?, ?, '', ?, ?, ?, ?, ?)`, s["id"], s["projectID"], s["parentID"],
			s["directory"], s["title"], s["version"], created(s), created(s)); err != nil {
			t.Fatal(err)
		}
		msgs, _ := filepath.Glob(filepath.Join(root, "message", s["id"].(string), "*.json"))
		for _, mp := range msgs {
			m := read(mp)
			id := m["id"].(string)
			if _, err := db.Exec(`INSERT INTO message VALUES (?, ?, ?, ?, ?)`, id, s["id"], created(m), created(m), data(m, "id", "sessionID")); err != nil {
				t.Fatal(err)
			}
			parts, _ := filepath.Glob(filepath.Join(root, "part", id, "*.json"))
			for i, pp := range parts {
				p := read(pp)
				// OpenCode's ids ascend with time, and it orders a
				// message's parts by id; the sample's ids are made up,
				// so the part takes an id in the order of its file.
				pid := fmt.Sprintf("prt_%s_%03d", id, i)
				if _, err := db.Exec(`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`, pid, id, s["id"], i, i,
					data(p, "id", "messageID", "sessionID")); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return path
}

// TestDatabaseAndStorageAgree reads the same sessions from the JSON
// storage and from an opencode.db made of it: both give the same
// messages, blocks and usage.
func TestDatabaseAndStorageAgree(t *testing.T) {
	dbPath := databaseFromStorage(t, storageSample)
	var fromDB []*session.Session
	if err := readDatabase(dbPath, func(s *session.Session) error { fromDB = append(fromDB, s); return nil }); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(storageSample, "session", "*", "*.json"))
	if len(fromDB) != len(files) || len(files) != 2 {
		t.Fatalf("%d sessions from the database, %d session files; want 2 of each", len(fromDB), len(files))
	}
	for _, s := range fromDB {
		raw, err := os.ReadFile(filepath.Join(storageSample, "session", "proj_test", "ses_"+s.ID+".json"))
		if err != nil {
			t.Fatal(err)
		}
		fromFiles, err := readStorage(raw, filepath.Join(storageSample, "session", "proj_test", "ses_"+s.ID+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Diagnostics)+len(fromFiles.Diagnostics) > 0 {
			t.Errorf("diagnostics: %v %v", s.Diagnostics, fromFiles.Diagnostics)
		}
		if got, want := messages(s), messages(fromFiles); !reflect.DeepEqual(got, want) {
			t.Errorf("session %s differs:\ndatabase %v\nstorage  %v", s.ID, got, want)
		}
		if s.Title != fromFiles.Title || s.Agent != fromFiles.Agent || s.CWD != fromFiles.CWD {
			t.Errorf("header %q %q %q, storage %q %q %q", s.Title, s.Agent, s.CWD, fromFiles.Title, fromFiles.Agent, fromFiles.CWD)
		}
	}
}

// messages renders a session's messages for comparison.
func messages(s *session.Session) []string {
	var out []string
	for _, e := range s.Main().Entries {
		if m := e.Message; m != nil {
			line := string(m.Role)
			for _, b := range m.Blocks {
				line += " | " + string(b.Type) + ":" + b.ToolName + ":" + b.Text + string(b.Arguments) + b.ResultText()
			}
			if u := m.Usage; u != nil {
				line += " | usage " + strings.TrimSpace(strings.Join(strings.Fields(strings.Trim(jsonOf(u), "{}")), " "))
			}
			out = append(out, line)
		}
	}
	return out
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestBrokenRecords: a part file that is not JSON and a message row whose
// data is not JSON are skipped with a diagnostic naming where they are;
// everything else is read.
func TestBrokenRecords(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(storageSample)); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(root, "part", "m_assistant_small", "001.json")
	if err := os.WriteFile(broken, []byte(`{"id": "p1", "type": "te`), 0o644); err != nil {
		t.Fatal(err)
	}
	sp := filepath.Join(root, "session", "proj_test", "ses_s_stage0_small.json")
	raw, _ := os.ReadFile(sp)
	s, err := readStorage(raw, sp)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Diagnostics) != 1 || s.Diagnostics[0].File != broken || s.Diagnostics[0].Severity != session.SeverityError {
		t.Errorf("diagnostics %v, want one error naming %s", s.Diagnostics, broken)
	}
	if n := len(messages(s)); n < 2 {
		t.Errorf("%d messages left, want the user message and the rest of the answer", n)
	}

	dbPath := databaseFromStorage(t, storageSample)
	db, err := sql.Open("sqlite", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE message SET data = '{"role":' WHERE id = 'm_user_small'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	var got []*session.Session
	if err := readDatabase(dbPath, func(s *session.Session) error { got = append(got, s); return nil }); err != nil {
		t.Fatal(err)
	}
	var diags []session.Diagnostic
	for _, s := range got {
		diags = append(diags, s.Diagnostics...)
	}
	if len(got) != 2 || len(diags) != 1 || diags[0].File != dbPath || !strings.Contains(diags[0].Message, "m_user_small") {
		t.Errorf("%d sessions, diagnostics %v; want 2 and one naming the message", len(got), diags)
	}
}

// TestMessageFileIsNotASession: naming a message or part file says which
// file to name instead.
func TestMessageFileIsNotASession(t *testing.T) {
	for _, p := range []string{
		filepath.Join(storageSample, "message", "s_stage0_small", "msg_0001.json"),
		filepath.Join(storageSample, "part", "m_assistant_large_1", "001.json"),
	} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		err = Importer{}.ImportEach(f, p, func(*session.Session) error { return nil })
		f.Close()
		if !errors.Is(err, ErrNotASession) {
			t.Errorf("%s: %v, want ErrNotASession", p, err)
		}
		if !IsStorageRecord(p) {
			t.Errorf("%s is not a storage record", p)
		}
	}
	if IsStorageRecord(filepath.Join(storageSample, "session", "proj_test", "ses_s_stage0_small.json")) {
		t.Error("a session file is a storage record")
	}
}

// readSample reads a file of the storage sample.
func readSample(rel string) ([]byte, error) {
	return os.ReadFile(filepath.Join(storageSample, filepath.FromSlash(rel)))
}

// TestIDsStayInTheTree: a session or message id that is a path does not
// lead the reader out of the storage tree.
func TestIDsStayInTheTree(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(storageSample)); err != nil {
		t.Fatal(err)
	}
	sp := filepath.Join(root, "session", "proj_test", "ses_evil.json")
	for _, id := range []string{"../part/m_assistant_small", "..", "a/b"} {
		raw, _ := json.Marshal(map[string]any{"id": id, "projectID": "p", "time": map[string]int{"created": 1}})
		s, err := readStorage(raw, sp)
		if err != nil {
			t.Fatal(err)
		}
		if len(messages(s)) != 0 || len(s.Diagnostics) != 1 || !strings.Contains(s.Diagnostics[0].Message, "not a file name") {
			t.Errorf("id %q: %d messages, diagnostics %v", id, len(messages(s)), s.Diagnostics)
		}
	}
}
