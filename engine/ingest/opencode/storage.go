package opencode

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/inputfile"
	"ctxscope/engine/session"
)

// maxRecord bounds one message or part file.
const maxRecord = 64 << 20

// readStorage reads the session whose record is data, read from path in
// a JSON storage tree, with its messages and parts from beside it.
func readStorage(data []byte, path string) (*session.Session, error) {
	var info sessionInfo
	if err := json.Unmarshal(data, &info); err != nil {
		s := convert(sessionInfo{ID: norm.BaseID(path)}, nil, path)
		norm.Diag(s, path, 1, session.SeverityError, "session record: %s; nothing read", norm.JSONError(err))
		return s, nil
	}
	if !isName(info.ID) {
		s := convert(sessionInfo{ID: norm.BaseID(path)}, nil, path)
		norm.Diag(s, path, 1, session.SeverityError, "session id %q is not a file name; its messages were not read", info.ID)
		return s, nil
	}
	root := storageRoot(path)
	var diags []session.Diagnostic
	msgs, err := readDir(filepath.Join(root, "message", info.ID), func(p string, raw []byte, n int) (message, error) {
		var m message
		if err := json.Unmarshal(raw, &m.info); err != nil {
			return m, err
		}
		m.line = n
		return m, nil
	}, &diags)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(msgs, func(i, j int) bool {
		return less(msgs[i].info.Time.Created, msgs[i].info.ID, msgs[j].info.Time.Created, msgs[j].info.ID)
	})
	readPart := func(p string, raw []byte, n int) (partInfo, error) {
		var pi partInfo
		err := json.Unmarshal(raw, &pi)
		return pi, err
	}
	var flat map[string][]partInfo // legacy parts, directly in part/, by message
	for i := range msgs {
		if !isName(msgs[i].info.ID) {
			diags = append(diags, session.Diagnostic{File: path, Line: 1, Severity: session.SeverityError,
				Message: fmt.Sprintf("message id %q is not a file name; its parts were not read", msgs[i].info.ID)})
			continue
		}
		parts, err := readDir(filepath.Join(root, "part", msgs[i].info.ID), readPart, &diags)
		if err != nil {
			return nil, err
		}
		if parts == nil {
			if flat == nil {
				if flat, err = readFlatParts(filepath.Join(root, "part"), msgs, readPart, &diags); err != nil {
					return nil, err
				}
			}
			parts = flat[msgs[i].info.ID]
		}
		msgs[i].parts = parts
		msgs[i].line = i + 1
	}
	s := convert(info, msgs, path)
	s.Diagnostics = append(diags, s.Diagnostics...)
	return s, nil
}

// readFlatParts reads the parts an older layout kept directly in dir,
// each naming its message, and returns those of msgs by message.
func readFlatParts(dir string, msgs []message, read func(string, []byte, int) (partInfo, error), diags *[]session.Diagnostic) (map[string][]partInfo, error) {
	out := make(map[string][]partInfo, len(msgs))
	for _, m := range msgs {
		out[m.info.ID] = nil
	}
	parts, err := readDir(dir, read, diags)
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		if _, ok := out[p.MessageID]; ok {
			out[p.MessageID] = append(out[p.MessageID], p)
		}
	}
	return out, nil
}

// storageRoot returns the storage directory of a session file:
// <root>/session/<project>/<id>.json, or <root>/session/<id>.json.
func storageRoot(path string) string {
	dir := filepath.Dir(path)
	for i := 0; i < 3 && filepath.Base(dir) != "session"; i++ {
		dir = filepath.Dir(dir)
	}
	return filepath.Dir(dir)
}

// readDir reads every JSON file of dir with read, in name order (OpenCode
// names a record after its id, which ascends with time); a file
// that cannot be read becomes a diagnostic. A missing directory holds
// nothing.
func readDir[T any](dir string, read func(path string, raw []byte, n int) (T, error), diags *[]session.Diagnostic) ([]T, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []T
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) != ".json" {
			continue
		}
		p := filepath.Join(dir, e.Name())
		raw, err := inputfile.ReadAll(p, maxRecord)
		if err == nil {
			var v T
			if v, err = read(p, raw, len(out)+1); err == nil {
				out = append(out, v)
				continue
			}
		}
		*diags = append(*diags, session.Diagnostic{File: p, Line: 1, Severity: session.SeverityError, Message: fmt.Sprintf("skipped: %v", err)})
	}
	return out, nil
}

func less(ta int64, ida string, tb int64, idb string) bool {
	if ta != tb {
		return ta < tb
	}
	return ida < idb
}

// IsStorageRecord reports whether path is a file of an OpenCode JSON
// storage tree other than a session, which is read with its session
// rather than on its own: a file under <root>/message or <root>/part, or
// directly in <root> (such as its migration marker), where <root>/session
// is a directory.
func IsStorageRecord(path string) bool {
	child, root := "", filepath.Dir(path)
	for i := 0; i < 3; i++ {
		if child == "" || child == "message" || child == "part" {
			if info, err := os.Stat(filepath.Join(root, "session")); err == nil && info.IsDir() {
				return true
			}
		}
		child, root = filepath.Base(root), filepath.Dir(root)
	}
	return false
}

// isName reports whether id can name a file of the storage: one path
// element, so that a record cannot point the reader out of its tree.
func isName(id string) bool {
	return id != "" && id != "." && id != ".." && !strings.ContainsAny(id, `/\`+"\x00")
}
