package ingest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"ctxscope/engine/ingest/claude"
	"ctxscope/engine/ingest/opencode"
	"ctxscope/engine/session"
)

// Expand turns command-line paths into the files they name. A file stays
// as it is; a directory contributes every regular file beneath it (hidden
// files and directories excepted), in lexical order; a path with glob
// metacharacters is expanded with [filepath.Glob], and each match is
// expanded in turn. A path that names nothing is an error. The result
// holds no duplicates and keeps the order of first appearance.
func Expand(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		matches := []string{p}
		if strings.ContainsAny(p, "*?[") {
			m, err := filepath.Glob(p)
			if err != nil {
				return nil, fmt.Errorf("expand %s: %w", p, err)
			}
			if len(m) == 0 {
				return nil, fmt.Errorf("expand %s: no file matches", p)
			}
			matches = m
		}
		for _, m := range matches {
			if err := expandOne(m, add); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func expandOne(p string, add func(string)) error {
	info, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("expand: %w", err)
	}
	if !info.IsDir() {
		add(p)
		return nil
	}
	var files []string
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != p && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && !companion(path) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("expand %s: %w", p, err)
	}
	sort.Strings(files)
	for _, f := range files {
		add(f)
	}
	return nil
}

// companion reports a file that belongs to a session read from another
// file, and that a directory walk therefore passes over: a Claude Code
// subagent's .meta.json (read with its transcript), and OpenCode's
// message and part records (read with their session).
func companion(path string) bool {
	if strings.HasSuffix(path, ".meta.json") && strings.HasPrefix(filepath.Base(path), "agent-") {
		return true
	}
	return opencode.IsStorageRecord(path)
}

// withCompanions adds, after each named file, the directory of its
// subagents when there is one, so that naming the main log brings its
// subagents: X/subagents for Claude Code 2's transcript X.jsonl, and
// chats/<session id>/ for Gemini CLI's chats/session-<time>-<id
// prefix>.jsonl (whose directory is named by the whole session id).
func withCompanions(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		out = append(out, p)
		if !strings.HasSuffix(p, ".jsonl") || strings.ContainsAny(p, "*?[") {
			continue
		}
		dirs := []string{filepath.Join(strings.TrimSuffix(p, ".jsonl"), "subagents")}
		if prefix, ok := geminiChatPrefix(p); ok {
			dirs, _ = filepath.Glob(filepath.Join(filepath.Dir(p), prefix+"-*"))
		}
		for _, dir := range dirs {
			if info, err := os.Stat(dir); err == nil && info.IsDir() {
				out = append(out, dir)
			}
		}
	}
	return out
}

// geminiChatPrefix returns the session id prefix that names a Gemini CLI
// chat file, chats/session-<time>-<8 hex digits>.jsonl.
func geminiChatPrefix(path string) (string, bool) {
	base := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if filepath.Base(filepath.Dir(path)) != "chats" || !strings.HasPrefix(base, "session-") {
		return "", false
	}
	i := strings.LastIndexByte(base, '-')
	prefix := base[i+1:]
	if len(prefix) != 8 || strings.Trim(prefix, "0123456789abcdef") != "" {
		return "", false
	}
	return prefix, true
}

// FileError is a file that [ReadPaths] could not import.
type FileError struct {
	Path string
	Err  error
}

// Error returns the underlying error's message, which names the file.
func (e FileError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e FileError) Unwrap() error { return e.Err }

// ReadPaths expands paths with [Expand] and imports every session of every
// file; a named Claude Code transcript X.jsonl brings the subagent files
// under X/subagents with it. Sessions that are subagent threads of another imported session
// (Claude Code's subagents/agent-*.jsonl files, Codex subagent rollouts,
// Gemini CLI's subagent chats)
// are joined to that session as threads. Files that cannot be imported,
// such as files of no known format found in a directory, are returned as
// FileErrors and do not stop the others; the error result is only for
// paths that name nothing.
func ReadPaths(paths []string) ([]*session.Session, []FileError, error) {
	files, err := Expand(withCompanions(paths))
	if err != nil {
		return nil, nil, err
	}
	var sessions []*session.Session
	var failed []FileError
	for _, f := range files {
		meta, hasMeta, metaErr := claude.ReadSubagentMeta(f)
		err := ReadFileEach(f, func(s *session.Session) error {
			if hasMeta {
				meta.Apply(s)
			}
			if metaErr != nil {
				s.Diagnostics = append(s.Diagnostics, session.Diagnostic{File: claude.MetaPath(f), Severity: session.SeverityWarning, Message: metaErr.Error()})
			}
			sessions = append(sessions, s)
			return nil
		})
		if err != nil {
			failed = append(failed, FileError{Path: f, Err: err})
		}
	}
	return Join(sessions), failed, nil
}

// Join merges sessions that are subagents of another session in the list
// into that session, as threads after its own, and returns the remaining
// sessions in their original order. A session is a subagent session when
// its first thread is a subagent thread whose ParentID names a thread of
// another session (Codex) or another session (Claude Code). Subagent sessions whose parent is not in the list stay
// on their own.
func Join(sessions []*session.Session) []*session.Session {
	owner := map[string]*session.Session{}
	for _, s := range sessions {
		for _, t := range s.Threads {
			if _, dup := owner[t.ID]; !dup {
				owner[t.ID] = s
			}
		}
	}
	for _, s := range sessions { // a parent named by its session id
		if _, dup := owner[s.ID]; !dup {
			owner[s.ID] = s
		}
	}
	out := sessions[:0:0]
	for _, s := range sessions {
		parent := rootOf(s, owner)
		if parent == s {
			out = append(out, s)
			continue
		}
		parent.Threads = append(parent.Threads, s.Threads...)
		parent.Diagnostics = append(parent.Diagnostics, s.Diagnostics...)
		parent.Source += ", " + s.Source
	}
	return out
}

// rootOf follows subagent sessions up to the session they belong to: the
// first ancestor that is not itself a subagent session. A chain that leaves
// the list ends at the last session reached; a chain that loops, which only
// malformed input makes, leaves s on its own.
func rootOf(s *session.Session, owner map[string]*session.Session) *session.Session {
	seen := map[*session.Session]bool{s: true}
	cur := s
	for isSubagentSession(cur) {
		p := owner[cur.Main().ParentID]
		if p == nil {
			break
		}
		if seen[p] {
			return s
		}
		seen[p] = true
		cur = p
	}
	return cur
}

func isSubagentSession(s *session.Session) bool {
	m := s.Main()
	return m != nil && m.Kind == session.ThreadSubagent && m.ParentID != ""
}
