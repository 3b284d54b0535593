package tail

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"ctxscope/engine/ingest"
	"ctxscope/engine/inputfile"
	"ctxscope/engine/session"
)

// maxWhole bounds a document followed whole: each change reads it again.
const maxWhole = 256 << 20

// wholeState follows a file whose format is a whole document (a Gemini
// CLI chat, an OpenCode database): the agent rewrites it in place, so on
// every change it is read again, and the entries it gained are reported.
type wholeState struct {
	sig  signature
	seen map[string]int // entries reported, by thread
	// session is the last reading's session, for Reader.Session.
	session *session.Session
}

// signature tells whether a file changed between two polls: its size and
// time of change, and those of its SQLite write-ahead log, where a
// database's recent writes are.
type signature struct {
	size, walSize int64
	mod, walMod   time.Time
}

func signatureOf(path string, info fs.FileInfo) signature {
	sig := signature{size: info.Size(), mod: info.ModTime()}
	if wal, err := os.Stat(path + "-wal"); err == nil {
		sig.walSize, sig.walMod = wal.Size(), wal.ModTime()
	}
	return sig
}

// pollWhole reads the file again when it changed since the last poll.
func (r *Reader) pollWhole(info fs.FileInfo) []Event {
	sig := signatureOf(r.path, info)
	if r.whole.session != nil && sig == r.whole.sig {
		return nil
	}
	if info.Size() > maxWhole {
		r.inert, r.err = true, fmt.Errorf("%s: %w (a document of %d MiB, over %d MiB, is not read again on each change); import it instead",
			r.path, ErrNotFollowable, info.Size()>>20, maxWhole>>20)
		return []Event{{Kind: EventError, Path: r.path, Err: r.err}}
	}
	s, err := ingest.ReadFile(r.path)
	if err != nil {
		if errors.Is(err, ingest.ErrUnknownFormat) || errors.Is(err, inputfile.ErrNotRegular) {
			r.inert, r.err = true, err
			return []Event{{Kind: EventError, Path: r.path, Err: err}}
		}
		return nil // caught mid-write: the next change reads it again
	}
	r.whole.sig = sig
	var evs []Event
	if r.whole.session == nil || shrank(r.whole.seen, s) {
		if r.whole.session != nil {
			evs = append(evs, Event{Kind: EventReset, Path: r.path})
		}
		r.whole.seen = map[string]int{}
		evs = append(evs, Event{Kind: EventOpened, Path: r.path, Session: snapshotSession(s), Offset: info.Size()})
		for i := range s.Diagnostics {
			d := s.Diagnostics[i]
			evs = append(evs, Event{Kind: EventDiagnostic, Path: r.path, Diagnostic: &d, Offset: info.Size()})
		}
	}
	r.whole.session = s
	for _, t := range s.Threads {
		for _, e := range t.Entries[r.whole.seen[t.ID]:] {
			evs = append(evs, Event{Kind: EventEntry, Path: r.path, Thread: t.ID, ThreadKind: t.Kind, ParentID: t.ParentID,
				Entry: snapshotEntry(e), Offset: info.Size()})
		}
		r.whole.seen[t.ID] = len(t.Entries)
	}
	r.pos = Position{Offset: info.Size()}
	return evs
}

// shrank reports whether a thread of s has fewer entries than were
// reported: the document was rewritten, not extended.
func shrank(seen map[string]int, s *session.Session) bool {
	for _, t := range s.Threads {
		if len(t.Entries) < seen[t.ID] {
			return true
		}
	}
	return false
}
