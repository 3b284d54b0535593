package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	fastjson "github.com/segmentio/encoding/json"

	"ctxscope/app"
	"ctxscope/engine/cputime"
)

// maxCallBody caps a call's arguments. Calls carry ids, names and numbers,
// never session content.
const maxCallBody = 1 << 20

// clientHeader names the browser tab a call comes from: a tab's newer
// replay supersedes its older one, never another tab's.
const clientHeader = "X-Ctxscope-Client"

// handleCall calls a bound method through [app.App.Invoke], which knows
// only the methods the desktop window binds. The request's context runs
// the call: when the browser drops the request, long work stops.
func (s *Server) handleCall(w http.ResponseWriter, r *http.Request) {
	var args []json.RawMessage
	if err := json.NewDecoder(io.LimitReader(r.Body, maxCallBody)).Decode(&args); err != nil && !errors.Is(err, io.EOF) {
		writeError(w, http.StatusBadRequest, "arguments must be a JSON array: "+err.Error())
		return
	}
	ctx := app.WithCaller(r.Context(), r.Header.Get(clientHeader))
	start := time.Now()
	if cpu, measured := cputime.Process(); measured {
		w = &cpuTimed{ResponseWriter: w, since: cpu}
	}
	result, err := s.app.Invoke(ctx, r.PathValue("service"), r.PathValue("method"), args)
	w.Header().Set("Server-Timing", serverTiming("call", time.Since(start)))
	var argErr *app.ArgumentError
	switch {
	case errors.Is(err, app.ErrNoMethod):
		writeError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, app.ErrForbidden):
		writeError(w, http.StatusForbidden, err.Error())
	case errors.As(err, &argErr):
		writeError(w, http.StatusBadRequest, err.Error())
	case err != nil:
		writeError(w, http.StatusUnprocessableEntity, err.Error())
	default:
		writeJSON(w, http.StatusOK, result)
	}
}

// writeJSON encodes v whole before answering, so that the answer's
// Server-Timing header can say how long the encoding took. It encodes
// with segmentio's encoding/json, which writes what the standard library
// writes (TestAnswersAreEncodedAsTheStandardLibraryWould) in half the
// time: a long session's timeline is 1.5 MB of numbers, written again at
// every step of a τ drag.
func writeJSON(w http.ResponseWriter, status int, v any) {
	start := time.Now()
	body := answers.Get().(*bytes.Buffer)
	defer keepAnswerBuffer(body)
	enc := fastjson.NewEncoder(body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		body.Reset()
		enc.Encode(map[string]string{"error": "encoding the answer: " + err.Error()})
	}
	w.Header().Add("Server-Timing", serverTiming("encode", time.Since(start)))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body.Bytes())
}

// answers holds the buffers answers are written into, so that a τ drag's
// steps (a few hundred kilobytes each) write into the room the step
// before grew instead of growing a new buffer and leaving the old one
// to the garbage collector.
var answers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// keepAnswerBuffer gives b back to answers, unless it grew past what
// steps need: one answer of a whole long session is not kept for good.
func keepAnswerBuffer(b *bytes.Buffer) {
	if b.Cap() > 8<<20 {
		return
	}
	b.Reset()
	answers.Put(b)
}

// cpuTimed adds to an answer's Server-Timing, after the call's and the
// encoding's wall time, the CPU time the process spent meanwhile. On a
// machine the page shares, a call's wall time is also its wait for a
// core; its CPU time is not. (Other work of the process counts too: the
// background indexer gives way while the page calls, see search/yield.go.)
type cpuTimed struct {
	http.ResponseWriter
	since time.Duration
}

func (c *cpuTimed) WriteHeader(status int) {
	if now, ok := cputime.Process(); ok {
		c.Header().Add("Server-Timing", serverTiming("cpu", now-c.since))
	}
	c.ResponseWriter.WriteHeader(status)
}

// serverTiming is a Server-Timing metric of d in milliseconds. The browser
// tests read it (PerformanceResourceTiming.serverTiming) to tell the
// server's share of a call from the network's and the page's.
func serverTiming(name string, d time.Duration) string {
	return fmt.Sprintf("%s;dur=%.2f", name, float64(d.Microseconds())/1000)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
