// Package pgtest runs a throwaway PostgreSQL server for tests: a cluster
// made by initdb in a temporary directory, listening on a Unix socket in
// that directory only (no TCP port), with fsync off, stopped and removed
// by [Server.Stop]. It uses the PostgreSQL that Debian's postgresql
// package installs (the test setup installs it). PostgreSQL refuses to
// run as root, so when the tests run as root the server runs as the
// package's postgres user.
//
// Each test takes a database of its own from [Server.Database].
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
)

// Server is a running throwaway PostgreSQL server.
type Server struct {
	dir   string // holds the cluster (data), its log and its socket
	bin   string // PostgreSQL's bin directory
	owner string // the user the server runs as; "" for the current one
	n     atomic.Int64
}

// superuser is the cluster's superuser, whom every test connects as.
const superuser = "ctxscope"

// Start makes a cluster and starts its server.
func Start() (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "ctxscope-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		if err := s.handTo("postgres"); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	if err := s.run("initdb", "-D", data, "-U", superuser, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	opts := fmt.Sprintf("-c listen_addresses='' -k %s -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", dir)
	if err := s.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "server.log"), "-o", opts, "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w\n%s", err, log)
	}
	return s, nil
}

// binDir finds PostgreSQL's programs: in Debian's versioned directory
// (the newest there), else on PATH.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	best, bestVersion := "", -1
	for _, d := range dirs {
		v, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if err == nil && v > bestVersion {
			if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
				best, bestVersion = d, v
			}
		}
	}
	if best != "" {
		return best, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errors.New("pgtest: PostgreSQL's initdb is not installed (Debian: apt-get install postgresql)")
}

// handTo makes the server's directory belong to the user name, whom the
// server then runs as.
func (s *Server) handTo(name string) error {
	u, err := user.Lookup(name)
	if err != nil {
		return fmt.Errorf("pgtest: running as root, and there is no %s user to run PostgreSQL as: %w", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(s.dir, uid, gid); err != nil {
		return err
	}
	s.owner = name
	return nil
}

// run runs one of PostgreSQL's programs, as the server's owner.
func (s *Server) run(program string, args ...string) error {
	path := filepath.Join(s.bin, program)
	var cmd *exec.Cmd
	if s.owner != "" {
		cmd = exec.Command("runuser", append([]string{"-u", s.owner, "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = s.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("pgtest: %s %s: %w\n%s", program, strings.Join(args, " "), err, out)
	}
	return nil
}

// URL returns the connection URL of database name on the server.
func (s *Server) URL(name string) string {
	q := url.Values{"host": {s.dir}, "sslmode": {"disable"}}
	return (&url.URL{Scheme: "postgres", User: url.User(superuser), Path: "/" + name, RawQuery: q.Encode()}).String()
}

// Database creates a new, empty database and returns its URL.
func (s *Server) Database(ctx context.Context) (string, error) {
	name := fmt.Sprintf("test_%d_%d", os.Getpid(), s.n.Add(1))
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return "", fmt.Errorf("pgtest: connect: %w", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("pgtest: create database: %w", err)
	}
	return s.URL(name), nil
}

// Stop stops the server and removes its directory.
func (s *Server) Stop() error {
	err := s.run("pg_ctl", "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "-t", "30", "stop")
	return errors.Join(err, os.RemoveAll(s.dir))
}
