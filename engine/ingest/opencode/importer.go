package opencode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"

	"ctxscope/engine/ingest/internal/jsondoc"
	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// Importer reads OpenCode sessions. The zero value is ready to use.
type Importer struct{}

// Format returns [session.FormatOpenCode].
func (Importer) Format() session.Format { return session.FormatOpenCode }

// sqliteHeader starts every SQLite database file.
var sqliteHeader = []byte("SQLite format 3\x00")

// IsSQLite reports whether head starts a SQLite database file, whose
// format only its schema tells (IsDatabase).
func IsSQLite(head []byte) bool { return bytes.HasPrefix(head, sqliteHeader) }

// tables finds the CREATE TABLE statements of OpenCode's tables, which
// SQLite keeps in its schema on the first page.
var tables = regexp.MustCompile("CREATE TABLE [`\"]?(session|message|part)[`\"]?\\s*\\(")

// Sniff reports whether head is an OpenCode database (a SQLite file whose
// schema has the tables session, message and part) or a record of its
// JSON storage: a session (an id, a projectID and times), a message (an
// id, its sessionID, a role and times) or a part (an id, its messageID
// and a type).
func (Importer) Sniff(head []byte) bool {
	if bytes.HasPrefix(head, sqliteHeader) {
		seen := map[string]bool{}
		for _, m := range tables.FindAllSubmatch(head, -1) {
			seen[string(m[1])] = true
		}
		return len(seen) == 3 && bytes.Contains(head, []byte("data"))
	}
	return kind(head) != ""
}

// kind tells which storage record head is: "session", "message", "part",
// "export" (what `opencode export` writes) or "".
func kind(head []byte) string {
	sh := jsondoc.ReadShape(head, "messages")
	switch {
	case !sh.Array && sh.Has("info") && sh.Has("messages") && sh.ElementHas("info") && sh.ElementHas("parts"):
		return "export"
	case sh.Array || !sh.Has("id"):
		return ""
	case sh.Has("projectID") && sh.Has("time") && !sh.Has("role"):
		return "session"
	case sh.Has("sessionID") && sh.Has("role") && sh.Has("time"):
		return "message"
	case sh.Has("messageID") && sh.Has("type"):
		return "part"
	}
	return ""
}

// ErrNotASession is returned for a message or part file of the JSON
// storage, which belongs to the session that names it.
var ErrNotASession = errors.New("an OpenCode message or part file: import its session file (storage/session/…) or the storage folder")

// Import returns the first session of r.
func (im Importer) Import(r io.Reader, name string) (*session.Session, error) {
	return norm.First(func(emit func(*session.Session) error) error { return im.ImportEach(r, name, emit) }, name, "session")
}

// ImportEach reads a session file of the JSON storage, with its messages
// and parts from the storage tree around it, or every session of an
// opencode.db. name must be the file's path: both stores keep a session
// in several places.
func (Importer) ImportEach(r io.Reader, name string, emit func(*session.Session) error) error {
	head := make([]byte, 64<<10)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("read %s: %w", name, err)
	}
	head = head[:n]
	if bytes.HasPrefix(head, sqliteHeader) {
		return readDatabase(name, emit)
	}
	k := kind(head)
	switch k {
	case "message", "part":
		return fmt.Errorf("%s: %w", name, ErrNotASession)
	}
	rest, err := io.ReadAll(io.LimitReader(r, maxRecord))
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if k == "export" || (k == "" && kind(outlineOf(head, rest)) == "export") {
		return emit(readExport(append(head, rest...), name))
	}
	s, err := readStorage(append(head, rest...), name)
	if err != nil {
		return err
	}
	return emit(s)
}

// outlineOf is the outline of the document head and rest make, for a
// head too short to tell an export by.
func outlineOf(head, rest []byte) []byte {
	o, err := jsondoc.Outline(io.MultiReader(bytes.NewReader(head), bytes.NewReader(rest)))
	if err != nil {
		return nil
	}
	return o
}
