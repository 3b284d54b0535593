package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"regexp"
	"runtime"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// IsPostgresURL reports whether location names a PostgreSQL database
// (postgres:// or postgresql://) rather than a workspace directory.
func IsPostgresURL(location string) bool {
	return strings.HasPrefix(location, "postgres://") || strings.HasPrefix(location, "postgresql://")
}

// OpenPostgres opens the workspace kept in the PostgreSQL database at
// dsn (a postgres:// URL or a key=value connection string), creating its
// tables or migrating them forward as [Open] does for SQLite. Several
// ctxscope servers may open the same database: their writes run one at a
// time (see writeLock), and each keeps what it derives, such as its
// search index, in its own directory dir ("" means [DefaultDir]).
func OpenPostgres(ctx context.Context, dsn, dir string) (*Store, error) {
	dir, err := workspaceDir(dir)
	if err != nil {
		return nil, err
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, dsnError("store: %s: %v", dsn, err)
	}
	w := sql.OpenDB(pgConnector{base: stdlib.GetConnector(*cfg), writer: true})
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, dsnError("store: connect to %s: %v", dsn, err)
	}
	if err := createVersionTable(ctx, w); err != nil {
		w.Close()
		return nil, dsnError("store: %s: %v", dsn, err)
	}
	if err := migrate(w, postgresDialect{}, len(migrations)); err != nil {
		w.Close()
		return nil, dsnError("store: %s: %v", dsn, err)
	}
	rcfg := cfg.Copy()
	rcfg.RuntimeParams["default_transaction_read_only"] = "on"
	r := sql.OpenDB(pgConnector{base: stdlib.GetConnector(*rcfg)})
	r.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	// A reader connects now, so that the first import's look at its file
	// (a read) does not wait for the server to start a process for it:
	// that was about a quarter of a first import's time.
	if err := r.PingContext(ctx); err != nil {
		w.Close()
		r.Close()
		return nil, dsnError("store: connect to %s for reading: %v", dsn, err)
	}
	return &Store{dir: dir, d: postgresDialect{}, write: w, read: r}, nil
}

// createVersionTable creates the one-row table that holds a PostgreSQL
// workspace's schema version, in a write transaction so that two servers
// starting at once do not both create it.
func createVersionTable(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS ctxscope_schema (version BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("create the schema version table: %w", err)
	}
	return tx.Commit()
}

// redactDSN returns dsn without its password, for messages.
func redactDSN(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		return "the PostgreSQL database"
	}
	q := u.Query()
	for _, key := range secretParams {
		if q.Has(key) {
			q.Set(key, "xxxxx")
		}
	}
	u.RawQuery = q.Encode()
	return u.Redacted()
}

// secretParams are the connection parameters that hold secrets.
var secretParams = []string{"password", "sslpassword"}

// dsnError is err, about the database at dsn, with the database redacted
// and every secret of dsn scrubbed from the message, wherever the driver
// may have quoted it.
func dsnError(format, dsn string, err error) error {
	msg := fmt.Sprintf(format, redactDSN(dsn), err)
	for _, secret := range dsnSecrets(dsn) {
		msg = strings.ReplaceAll(msg, secret, "xxxxx")
	}
	return &redactedError{msg: msg, err: err}
}

// dsnSecrets are the secrets a connection string holds: its password,
// in the URL's user part or its query.
func dsnSecrets(dsn string) []string {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil
	}
	var out []string
	if p, ok := u.User.Password(); ok && p != "" {
		out = append(out, p, url.QueryEscape(p), url.PathEscape(p))
	}
	for _, key := range secretParams {
		if p := u.Query().Get(key); p != "" {
			out = append(out, p, url.QueryEscape(p))
		}
	}
	return out
}

// redactedError is an error whose message was scrubbed of secrets; it
// still unwraps to the driver's error, for errors.Is.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// postgresDialect is a workspace in a PostgreSQL database. The schema
// version is the one row of ctxscope_schema.
type postgresDialect struct{}

func (postgresDialect) name() string { return "postgres" }

func (postgresDialect) copier(ctx context.Context, conn *sql.Conn) copyRows { return pgCopy(ctx, conn) }

// ddlRules translate SQLite's column types and table options into
// PostgreSQL's: 64-bit integers (SQLite's INTEGER is 64-bit), row ids that
// the database assigns, bytes for blobs, and no WITHOUT ROWID.
var ddlRules = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\bINTEGER PRIMARY KEY\b`), "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"},
	{regexp.MustCompile(`\bINTEGER\b`), "BIGINT"},
	{regexp.MustCompile(`\bBLOB\b`), "BYTEA"},
	{regexp.MustCompile(`\)\s*WITHOUT ROWID`), ")"},
}

func (postgresDialect) ddl(migration string) string {
	for _, r := range ddlRules {
		migration = r.re.ReplaceAllString(migration, r.with)
	}
	return migration
}

func (postgresDialect) schemaVersion(tx *sql.Tx) (v int, err error) {
	err = tx.QueryRow(`SELECT COALESCE(MAX(version), 0) FROM ctxscope_schema`).Scan(&v)
	return v, err
}

func (postgresDialect) setSchemaVersion(tx *sql.Tx, v int) error {
	if _, err := tx.Exec(`DELETE FROM ctxscope_schema`); err != nil {
		return err
	}
	_, err := tx.Exec(`INSERT INTO ctxscope_schema (version) VALUES (?)`, v)
	return err
}

func (postgresDialect) size(s *Store) (n int64, err error) {
	err = s.read.QueryRow(`SELECT pg_database_size(current_database())`).Scan(&n)
	return n, err
}

// checkpoint does nothing: PostgreSQL manages its own write-ahead log.
func (postgresDialect) checkpoint(*sql.DB) error { return nil }

// integrityCheck counts the rows of every table of the workspace and
// says "ok" when the server could; it finds a missing or unreadable
// table. PostgreSQL keeps the rest of its integrity itself (its
// write-ahead log, and page checksums when the cluster has them).
func (postgresDialect) integrityCheck(db *sql.DB) (string, error) {
	rows, err := db.Query(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`)
	if err != nil {
		return "", err
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return "", err
		}
		tables = append(tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", err
	}
	for _, t := range tables {
		var n int64
		if err := db.QueryRow(`SELECT count(*) FROM ` + pgx.Identifier{t}.Sanitize()).Scan(&n); err != nil {
			return fmt.Sprintf("table %s: %v", t, err), nil
		}
	}
	return "ok", nil
}

// OpenLocation opens a workspace where the user put it: the SQLite
// database in dir when database is "", else the PostgreSQL database that
// database names (a postgres:// URL), with dir for what this process
// keeps beside it.
func OpenLocation(ctx context.Context, dir, database string) (*Store, error) {
	switch {
	case database == "":
		return Open(dir)
	case IsPostgresURL(database):
		return OpenPostgres(ctx, database, dir)
	default:
		return nil, fmt.Errorf("store: %q is not a database ctxscope can keep a workspace in: want a postgres:// URL", redactDSN(database))
	}
}
