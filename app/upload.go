package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Upload stores a session file received from a browser under the
// workspace's uploads directory, imports it and opens its first session.
// A file that does not import is deleted again, and so is whatever of it
// arrived before a failed transfer: nothing of a rejected upload stays.
//
// Upload is not a bound method (the frontend never sends session content
// through one); serve mode's upload endpoint calls it.
func (a *App) Upload(ctx context.Context, r io.Reader, name string) (SessionInfo, error) {
	if r == nil {
		return SessionInfo{}, errors.New("upload: no content")
	}
	dir := filepath.Join(a.ws.Store.Dir(), "uploads")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return SessionInfo{}, err
	}
	tmp, err := os.CreateTemp(dir, ".upload-*")
	if err != nil {
		return SessionInfo{}, err
	}
	h := sha256.New()
	_, err = io.Copy(io.MultiWriter(tmp, h), r)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return SessionInfo{}, fmt.Errorf("upload %s: %w", name, err)
	}
	path := filepath.Join(dir, hex.EncodeToString(h.Sum(nil))[:12]+"-"+uploadName(name))
	_, statErr := os.Stat(path)
	fresh := errors.Is(statErr, os.ErrNotExist)
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return SessionInfo{}, err
	}
	info, err := a.sessions.openPath(ctx, path)
	if err != nil && fresh {
		os.Remove(path)
	}
	return info, err
}

// uploadName is the base of an uploaded file's name, safe as a file name.
func uploadName(name string) string {
	base := filepath.Base(filepath.Clean("/" + name))
	if base == "/" || base == "." {
		return "upload"
	}
	return base
}
