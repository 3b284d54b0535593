package serve

import (
	"bytes"
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
// Content-Encoding says gzip, up to maxOTLPBody bytes. A gzipped body
// that inflates more than maxInflation-fold once past inflationFloor is
// refused as it is read, before it holds more than a few megabytes: real
// exports compress five- to twentyfold, a bomb a thousandfold.
func readOTLPBody(r *http.Request) ([]byte, error) {
	var body io.Reader = r.Body
	var packed *countingReader
	switch enc := r.Header.Get("Content-Encoding"); enc {
	case "", "identity":
	case "gzip":
		packed = &countingReader{r: r.Body}
		zr, err := gzip.NewReader(packed)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer zr.Close()
		body = zr
	default:
		return nil, fmt.Errorf("unsupported Content-Encoding %q: gzip or none", enc)
	}
	var data bytes.Buffer
	chunk := make([]byte, 256<<10)
	for {
		n, err := body.Read(chunk)
		data.Write(chunk[:n])
		if data.Len() > maxOTLPBody {
			return nil, errTooLarge
		}
		if packed != nil && data.Len() > inflationFloor && int64(data.Len()) > maxInflation*max(packed.n, 1) {
			return nil, fmt.Errorf("%w: it inflates over %d-fold", errTooLarge, maxInflation)
		}
		if errors.Is(err, io.EOF) {
			return data.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// The bounds on how much a gzipped export may inflate.
const (
	maxInflation   = 100
	inflationFloor = 1 << 20
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
