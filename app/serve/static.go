package serve

import (
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// maxUpload caps an uploaded session file.
const maxUpload = 2 << 30

// hashedAssets is where the build writes files whose names carry a hash
// of their content.
const hashedAssets = "/assets/"

// staticHandler serves the built frontend; unknown paths get index.html so
// that the app's own routes survive a reload. A file under hashedAssets
// never changes under its name, so the browser may keep it for good: the
// embedded files have no modification time to revalidate by, and without
// this every load fetched the scripts again, and every change of the URL
// the page's icon.
func (s *Server) staticHandler() http.Handler {
	files := http.FileServerFS(s.assets)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := path.Clean(r.URL.Path)
		if p != "/" {
			if _, err := fs.Stat(s.assets, p[1:]); err != nil {
				r2 := r.Clone(r.Context())
				r2.URL.Path = "/"
				files.ServeHTTP(w, r2)
				return
			}
			if strings.HasPrefix(p, hashedAssets) {
				w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			}
		}
		files.ServeHTTP(w, r)
	})
}

// handleUpload imports a session file sent as the raw request body.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) {
	name := path.Base(r.URL.Query().Get("name"))
	if name == "." || name == "/" {
		name = "upload"
	}
	info, err := s.app.Upload(r.Context(), http.MaxBytesReader(w, r.Body, maxUpload), name)
	if err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, info)
}
