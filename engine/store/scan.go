package store

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
)

// sourceScan is what an import learns of a file before decoding it: how
// much of it to take, and the content hashes that tell it from what is
// stored.
type sourceScan struct {
	size int64  // bytes to import: the file less a last line still being written
	hash string // of those bytes
	// prefixHash is the hash of the first prefixAt bytes, when the stored
	// copy of the file is shorter (the file may have grown): "" otherwise.
	prefixHash string
}

// scanChunk is how much of a file the scan reads at a time.
const scanChunk = 1 << 20

// scanSource measures and hashes the file r of the given size in one
// pass of bounded memory. prefixAt (when 0 < prefixAt < the importable
// size) also asks for the hash of the first prefixAt bytes.
func scanSource(r io.ReaderAt, size, prefixAt int64) (sourceScan, error) {
	complete, err := completeLength(r, size)
	if err != nil {
		return sourceScan{}, err
	}
	sc := sourceScan{size: complete}
	h := sha256.New()
	buf := make([]byte, scanChunk)
	for off := int64(0); off < complete; {
		n := min(int64(len(buf)), complete-off)
		if prefixAt > off && prefixAt < off+n {
			n = prefixAt - off // stop at the stored size
		}
		if _, err := r.ReadAt(buf[:n], off); err != nil && !errors.Is(err, io.EOF) {
			return sourceScan{}, fmt.Errorf("read: %w", err)
		}
		h.Write(buf[:n])
		off += n
		if off == prefixAt && prefixAt < complete {
			sc.prefixHash = hexSum(h)
		}
	}
	sc.hash = hexSum(h)
	return sc, nil
}

func hexSum(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

// completeLength returns how much of a file an import may consume: all of
// it, unless it is JSON Lines whose last line is still being written (no
// newline after it, and not yet valid JSON), which is left for the next
// import. Content that is not JSON Lines (a pretty-printed or array
// document, a zip) is taken whole. It reads the first line and the last,
// nothing in between.
func completeLength(r io.ReaderAt, size int64) (int64, error) {
	if size == 0 {
		return 0, nil
	}
	var last [1]byte
	if _, err := r.ReadAt(last[:], size-1); err != nil && !errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("read: %w", err)
	}
	if last[0] == '\n' {
		return size, nil
	}
	nl, err := lastNewline(r, size)
	if err != nil || nl < 0 {
		return size, err
	}
	first, err := bufio.NewReader(io.NewSectionReader(r, 0, nl)).ReadBytes('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("read: %w", err)
	}
	first = bytes.TrimSpace(bytes.TrimPrefix(first, []byte("\xef\xbb\xbf")))
	if len(first) == 0 || first[0] != '{' || !json.Valid(first) {
		return size, nil // not JSON Lines
	}
	tail := make([]byte, size-nl-1)
	if _, err := r.ReadAt(tail, nl+1); err != nil && !errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("read: %w", err)
	}
	if json.Valid(tail) {
		return size, nil
	}
	return nl + 1, nil
}

// lastNewline returns the offset of the last '\n' before size, or -1.
func lastNewline(r io.ReaderAt, size int64) (int64, error) {
	buf := make([]byte, 64<<10)
	for end := size; end > 0; {
		start := max(0, end-int64(len(buf)))
		chunk := buf[:end-start]
		if _, err := r.ReadAt(chunk, start); err != nil && !errors.Is(err, io.EOF) {
			return 0, fmt.Errorf("read: %w", err)
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return start + int64(i), nil
		}
		end = start
	}
	return -1, nil
}
