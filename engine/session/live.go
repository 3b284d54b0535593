package session

import "strings"

// The prefixes of a live note: what the recording proxy did to a request
// under live eviction.
const (
	liveRewritten = "forwarded rewritten: "
	liveAsSent    = "forwarded as sent: "
)

// LiveNote is the note a response entry keeps of what live eviction did
// to its request: rewritten or not, and the proxy's own note ("" when the
// proxy had nothing to say: no eviction applied, or a request under τ).
func LiveNote(rewritten bool, note string) string {
	switch {
	case rewritten:
		return liveRewritten + note
	case note != "":
		return liveAsSent + note
	}
	return ""
}

// ReadLiveNote reads a live note back: whether the request was forwarded
// rewritten, and the proxy's note; ok is false when e's Value is no live
// note.
func ReadLiveNote(e *Entry) (rewritten bool, note string, ok bool) {
	if e == nil || e.Kind != EntryMessage {
		return false, "", false
	}
	if n, ok := strings.CutPrefix(e.Value, liveRewritten); ok {
		return true, n, true
	}
	if n, ok := strings.CutPrefix(e.Value, liveAsSent); ok {
		return false, n, true
	}
	return false, "", false
}
