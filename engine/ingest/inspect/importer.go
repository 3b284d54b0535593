package inspect

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"ctxscope/engine/ingest/internal/jsondoc"
	"ctxscope/engine/ingest/internal/norm"
	"ctxscope/engine/session"
)

// Importer reads Inspect AI logs. The zero value is ready to use.
type Importer struct{}

// Format returns [session.FormatInspect].
func (Importer) Format() session.Format { return session.FormatInspect }

// Sniff reports whether head starts an Inspect log: a zip whose first
// entries are Inspect's, or a JSON object with an eval spec and a status.
func (Importer) Sniff(head []byte) bool {
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) {
		return bytes.Contains(head, []byte("header.json")) || bytes.Contains(head, []byte("_journal/")) ||
			bytes.Contains(head, []byte("samples/"))
	}
	head = bytes.TrimLeft(head, "\xef\xbb\xbf \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return false
	}
	return bytes.Contains(head, []byte(`"eval"`)) && bytes.Contains(head, []byte(`"status"`)) &&
		(bytes.Contains(head, []byte(`"task"`)) || bytes.Contains(head, []byte(`"samples"`)))
}

// Import returns the first sample of r.
func (im Importer) Import(r io.Reader, name string) (*session.Session, error) {
	return norm.First(func(emit func(*session.Session) error) error { return im.ImportEach(r, name, emit) }, name, "sample")
}

// ImportEach reads every sample of r. A .eval container needs random
// access: r is read in place when it is a file (an io.ReaderAt with a
// Stat method), and into memory otherwise.
func (Importer) ImportEach(r io.Reader, name string, emit func(*session.Session) error) error {
	br, ok := r.(interface {
		io.Reader
		io.ReaderAt
		Stat() (fs.FileInfo, error)
	})
	var head [4]byte
	if ok {
		if n, _ := br.ReadAt(head[:], 0); n == 4 && string(head[:]) == "PK\x03\x04" {
			st, err := br.Stat()
			if err != nil {
				return fmt.Errorf("read %s: %w", name, err)
			}
			return readZip(br, st.Size(), name, emit)
		}
	} else {
		peek := bufioPeek(r)
		r = peek
		if b, _ := peek.Peek(4); string(b) == "PK\x03\x04" {
			data, err := io.ReadAll(peek)
			if err != nil {
				return fmt.Errorf("read %s: %w", name, err)
			}
			return readZip(bytes.NewReader(data), int64(len(data)), name, emit)
		}
	}
	return readJSON(r, name, emit)
}

// readJSON streams a .json log: header fields, then each sample.
func readJSON(r io.Reader, name string, emit func(*session.Session) error) error {
	d := jsondoc.New(r)
	var info logInfo
	n := 0
	var emitErr error
	err := d.Object(func(key string) error {
		switch key {
		case "eval":
			return d.Decode(&info)
		case "samples":
			return d.Array(func(int) error {
				raw, line, err := d.Raw()
				if err != nil {
					return err
				}
				n++
				if emitErr == nil {
					emitErr = emit(convertSample(raw, name, line, info))
				}
				return nil
			})
		}
		return d.Skip()
	})
	if emitErr != nil {
		return emitErr
	}
	if err != nil || n == 0 {
		s := &session.Session{ID: norm.BaseID(name), Format: session.FormatInspect, Agent: "inspect", Source: name,
			Threads: []*session.Thread{{ID: "main", Kind: session.ThreadMain}}}
		if err != nil {
			norm.Diag(s, name, d.Line(), session.SeverityError, "%s; the rest of the log was not read", norm.JSONError(err))
		} else {
			norm.Diag(s, name, 1, session.SeverityWarning, "the log holds no sample")
		}
		return emit(s)
	}
	return nil
}

// readZip reads a .eval container: the header for the task and model,
// then every samples/*.json in natural order of name.
func readZip(ra io.ReaderAt, size int64, name string, emit func(*session.Session) error) error {
	zr, err := zip.NewReader(ra, size)
	if err != nil {
		return fmt.Errorf("%s: not a readable .eval container: %w", name, err)
	}
	if err := checkArchive(zr.File); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var info logInfo
	var samples []*zip.File
	for _, f := range zr.File {
		switch {
		case f.Name == "header.json" || (f.Name == "_journal/start.json" && info.Task == ""):
			var h struct {
				Eval logInfo `json:"eval"`
			}
			if data, err := readZipFile(f); err == nil && json.Unmarshal(data, &h) == nil {
				info = h.Eval
			}
		case strings.HasPrefix(f.Name, "samples/") && strings.HasSuffix(f.Name, ".json"):
			samples = append(samples, f)
		}
	}
	sort.SliceStable(samples, func(i, j int) bool { return naturalLess(samples[i].Name, samples[j].Name) })
	for _, f := range samples {
		where := name + "!" + f.Name
		data, err := readZipFile(f)
		var s *session.Session
		if err != nil {
			s = convertSample(nil, where, 0, info)
			s.Diagnostics = []session.Diagnostic{{File: where, Severity: session.SeverityError, Message: "cannot read the sample: " + err.Error()}}
		} else {
			s = convertSample(data, where, 1, info)
		}
		s.Source = name
		if err := emit(s); err != nil {
			return err
		}
	}
	if len(samples) == 0 {
		s := &session.Session{ID: norm.BaseID(name), Format: session.FormatInspect, Agent: "inspect", Source: name,
			Threads: []*session.Thread{{ID: "main", Kind: session.ThreadMain}}}
		norm.Diag(s, name, 0, session.SeverityWarning, "the container holds no sample")
		return emit(s)
	}
	return nil
}

// Limits on a container's members, checked before anything is inflated:
// a small archive must not unpack into gigabytes (a zip bomb).
const (
	// maxMember bounds the decompressed size of one member.
	maxMember = 256 << 20
	// maxRatio bounds how much a member may expand, once it is over
	// ratioFloor: Inspect's JSON compresses about tenfold, a bomb a
	// thousandfold.
	maxRatio   = 100
	ratioFloor = 1 << 20
	// maxMembers bounds how many members a container may have, and
	// maxTotal what they may inflate to together: 2,000 members each just
	// under ratioFloor once inflated 5.7 MB into 2 GB, each member
	// passing the per-member checks.
	maxMembers = 100_000
	maxTotal   = 4 << 30
)

// checkArchive refuses a container whose members, taken together, are
// beyond the limits: too many, too large in sum, or expanding more than
// maxRatio-fold in sum once past ratioFloor. Members that checkMember
// refuses on their own are not counted: they are never inflated. It reads
// only the central directory.
func checkArchive(files []*zip.File) error {
	if len(files) > maxMembers {
		return fmt.Errorf("the container has %d members, more than the %d of any real log; not inflated", len(files), maxMembers)
	}
	var size, packed uint64
	for _, f := range files {
		if checkMember(f) != nil {
			continue
		}
		size += f.UncompressedSize64
		packed += f.CompressedSize64
		if size > maxTotal {
			return fmt.Errorf("the container's members would inflate to over %d bytes together; not inflated", uint64(maxTotal))
		}
	}
	if size > ratioFloor && size/max(packed, 1) > maxRatio {
		return fmt.Errorf("the container's %d members would inflate %d-fold together (%d bytes from %d), more than the %d-fold of any real log: a zip bomb? not inflated",
			len(files), size/max(packed, 1), size, packed, maxRatio)
	}
	return nil
}

// readZipFile inflates one member after checking its declared sizes
// against the limits, and reads no more than it declared (archive/zip
// also refuses a member that inflates past its declared size).
func readZipFile(f *zip.File) ([]byte, error) {
	if err := checkMember(f); err != nil {
		return nil, err
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	if err == nil && uint64(len(data)) > f.UncompressedSize64 {
		err = fmt.Errorf("%s inflates past its declared %d bytes", f.Name, f.UncompressedSize64)
	}
	return data, err
}

// checkMember refuses a member whose declared size or compression ratio
// is beyond the limits.
func checkMember(f *zip.File) error {
	size, packed := f.UncompressedSize64, max(f.CompressedSize64, 1)
	if size > maxMember {
		return fmt.Errorf("%s would inflate to %d bytes, more than the %d a sample may hold; not inflated", f.Name, size, maxMember)
	}
	if size > ratioFloor && size/packed > maxRatio {
		return fmt.Errorf("%s would inflate %d-fold (%d bytes from %d), more than the %d-fold of any real log: a zip bomb? not inflated",
			f.Name, size/packed, size, packed, maxRatio)
	}
	return nil
}

// naturalLess orders names with digit runs compared as numbers, so that
// samples/2_epoch_1.json comes before samples/10_epoch_1.json.
func naturalLess(a, b string) bool {
	a, b = path.Base(a), path.Base(b)
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, _ := strconv.ParseUint(a[:min(da, 18)], 10, 64)
			nb, _ := strconv.ParseUint(b[:min(db, 18)], 10, 64)
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}
