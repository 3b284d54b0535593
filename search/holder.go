package search

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
)

// ErrInUse is returned when another process holds a workspace's search
// index, which Bleve lets one process open at a time.
var ErrInUse = errors.New("search: the workspace's search index is in use by another process")

// lockWait is how long opening an index waits for another process to let
// go of it before saying which process holds it.
const lockWait = 500 * time.Millisecond

// Holder is the process holding a workspace's index, as it recorded
// itself in the workspace when it opened the index.
type Holder struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Started time.Time `json:"started"`
}

// InUseError names the process that holds a workspace's index and says
// what to do.
type InUseError struct {
	Dir    string
	Holder *Holder // nil when the holder left no record
}

func (e *InUseError) Error() string {
	who := "another process"
	if h := e.Holder; h != nil {
		who = fmt.Sprintf("%q (pid %d, since %s)", h.Command, h.PID, h.Started.Local().Format("15:04:05"))
	}
	return fmt.Sprintf("the workspace %s is open in %s, and its search index takes one process at a time: "+
		"search from that window or page, or stop it and try again (`ctxscope sessions` and `ctxscope import` work alongside it)", e.Dir, who)
}

// Unwrap returns ErrInUse.
func (e *InUseError) Unwrap() error { return ErrInUse }

// holderPath is where the process holding the index in indexDir records
// itself: beside the index, in the workspace directory.
func holderPath(indexDir string) string {
	return filepath.Join(filepath.Dir(indexDir), "index-holder.json")
}

// recordHolder writes this process as the holder of the index.
func recordHolder(indexDir string) error {
	h := Holder{PID: os.Getpid(), Command: commandLine(), Started: time.Now().UTC()}
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	path := holderPath(indexDir)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// releaseHolder removes the record if this process wrote it.
func releaseHolder(indexDir string) {
	if h := readHolder(indexDir); h != nil && h.PID == os.Getpid() {
		os.Remove(holderPath(indexDir))
	}
}

// readHolder returns the recorded holder, or nil when there is none or
// its process has gone.
func readHolder(indexDir string) *Holder {
	b, err := os.ReadFile(holderPath(indexDir))
	if err != nil {
		return nil
	}
	var h Holder
	if json.Unmarshal(b, &h) != nil || h.PID <= 0 || !alive(h.PID) {
		return nil
	}
	return &h
}

// alive reports whether a process with the pid exists.
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	return p.Signal(syscall.Signal(0)) == nil || errors.Is(p.Signal(syscall.Signal(0)), syscall.EPERM)
}

// commandLine names this process as a user would: the program and its
// subcommand, without the rest of its arguments.
func commandLine() string {
	args := os.Args
	if len(args) == 0 {
		return "ctxscope"
	}
	words := []string{filepath.Base(args[0])}
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") || strings.Contains(a, string(filepath.Separator)) {
			continue
		}
		words = append(words, a)
		break
	}
	return strings.Join(words, " ")
}

// isLockTimeout reports an error of Bleve giving up waiting for the
// index's lock.
func isLockTimeout(err error) bool { return errors.Is(err, bolt.ErrTimeout) }
