package serve

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"ctxscope/app"
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
	result, err := s.app.Invoke(ctx, r.PathValue("service"), r.PathValue("method"), args)
	var argErr *app.ArgumentError
	switch {
	case errors.Is(err, app.ErrNoMethod):
		writeError(w, http.StatusNotFound, err.Error())
	case errors.As(err, &argErr):
		writeError(w, http.StatusBadRequest, err.Error())
	case err != nil:
		writeError(w, http.StatusUnprocessableEntity, err.Error())
	default:
		writeJSON(w, http.StatusOK, result)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
