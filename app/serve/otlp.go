package serve

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	"ctxscope/engine/ingest/otlp"
)

// maxOTLPBody bounds an OTLP export request, after decompression.
// Exporters batch a few thousand spans at most; a batch of long model
// conversations stays far below it.
const maxOTLPBody = 64 << 20

// handleOTLP is an OTLP/HTTP receiver for one signal (POST /v1/traces,
// POST /v1/logs): protobuf (application/x-protobuf) or OTLP/JSON
// (application/json) bodies, gzip-compressed or not, answered with an
// empty export response in the same encoding. The spans and log records
// become sessions, one per conversation, shown live.
func (s *Server) handleOTLP(sig otlp.Signal) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		isJSON := mt == "application/json"
		if !isJSON && mt != "application/x-protobuf" {
			http.Error(w, "unsupported media type: OTLP/HTTP takes application/x-protobuf or application/json", http.StatusUnsupportedMediaType)
			return
		}
		body, err := readOTLPBody(r)
		if err != nil {
			status := http.StatusBadRequest
			if errors.Is(err, errTooLarge) {
				status = http.StatusRequestEntityTooLarge
			}
			http.Error(w, err.Error(), status)
			return
		}
		if _, err := s.app.ReceiveOTLP(r.Context(), sig, body, isJSON); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if isJSON {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, "{}")
			return
		}
		// An empty Export…ServiceResponse is zero bytes of protobuf.
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	}
}

var errTooLarge = fmt.Errorf("the export is larger than %d MiB", maxOTLPBody>>20)

// readOTLPBody reads a request body, gunzipping it when its
// Content-Encoding says gzip, up to maxOTLPBody bytes.
func readOTLPBody(r *http.Request) ([]byte, error) {
	var body io.Reader = r.Body
	switch enc := r.Header.Get("Content-Encoding"); enc {
	case "", "identity":
	case "gzip":
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer zr.Close()
		body = zr
	default:
		return nil, fmt.Errorf("unsupported Content-Encoding %q: gzip or none", enc)
	}
	data, err := io.ReadAll(io.LimitReader(body, maxOTLPBody+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxOTLPBody {
		return nil, errTooLarge
	}
	return data, nil
}
