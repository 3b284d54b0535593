package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// writeLock is the key of the PostgreSQL advisory lock that every write
// transaction takes first. Writers of a workspace, in this process or in
// any other server on the same database, then run one at a time, as they
// do in SQLite (where BEGIN IMMEDIATE takes the database's write lock):
// an import that reads what is stored and then writes cannot interleave
// with another.
const writeLock = 0x637478736370 // "ctxscp"

// pgConnector makes the connections of a PostgreSQL workspace: pgx's, with
// the store's queries and arguments translated on their way in (see
// pgConn). Writer connections take writeLock at the start of every
// transaction.
type pgConnector struct {
	base   driver.Connector
	writer bool
}

func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	pc := &pgConn{Conn: conn.(*stdlib.Conn), writer: c.writer}
	if c.writer {
		// The large values a writer stores (blobs of tool output) are
		// compressed with lz4 rather than the default pglz, at a
		// fraction of its time; a server built without lz4 refuses the
		// setting, and keeps its default.
		pc.Conn.ExecContext(ctx, "SET default_toast_compression = 'lz4'", nil)
	}
	return pc, nil
}

func (c pgConnector) Driver() driver.Driver { return c.base.Driver() }

// pgConn is a pgx connection that takes the store's SQL as SQLite does:
//   - ? placeholders, numbered $1, $2, … for PostgreSQL (rebind);
//   - booleans as the integers 0 and 1, the type of the schema's flag
//     columns in both engines;
//   - text with NUL characters, which PostgreSQL's text type cannot hold:
//     each NUL is stored as U+FFFD, the replacement character. Large
//     texts (tool outputs from 4 KiB) live in the blob table as bytes and
//     keep their NULs.
type pgConn struct {
	*stdlib.Conn
	writer bool
}

func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, rebind(query))
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, rebind(query), args)
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, rebind(query), args)
}

func (c *pgConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.Conn.BeginTx(ctx, opts)
	if err != nil || !c.writer {
		return tx, err
	}
	if _, err := c.Conn.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", []driver.NamedValue{{Ordinal: 1, Value: int64(writeLock)}}); err != nil {
		tx.Rollback()
		return nil, err
	}
	return tx, nil
}

func (c *pgConn) CheckNamedValue(nv *driver.NamedValue) error {
	nv.Value = pgValue(nv.Value)
	return c.Conn.CheckNamedValue(nv)
}

// pgValue is v as the store gives it to PostgreSQL: a boolean as 0 or 1,
// a text's NULs as U+FFFD (see pgConn).
func pgValue(v any) any {
	switch v := v.(type) {
	case bool:
		if v {
			return int64(1)
		}
		return int64(0)
	case string:
		if strings.IndexByte(v, 0) >= 0 {
			return strings.ReplaceAll(v, "\x00", "\uFFFD")
		}
	case sql.NullInt64:
		if !v.Valid {
			return nil
		}
		return v.Int64
	}
	return v
}

// pgCopy is the copyRows of a transaction begun on conn: PostgreSQL's
// COPY, through pgx, on the transaction's own connection, with the values
// translated as pgConn translates a statement's.
func pgCopy(ctx context.Context, conn *sql.Conn) copyRows {
	return func(table string, columns []string, rows [][]any) error {
		for _, r := range rows {
			for i, v := range r {
				r[i] = pgValue(v)
			}
		}
		return conn.Raw(func(dc any) error {
			pc, ok := dc.(*pgConn)
			if !ok {
				return fmt.Errorf("store: copy into %s: not a PostgreSQL connection", table)
			}
			_, err := pc.Conn.Conn().CopyFrom(ctx, pgx.Identifier{table}, columns, pgx.CopyFromRows(rows))
			return err
		})
	}
}

// rebound caches rebind's results: the store runs a few hundred distinct
// queries.
var rebound sync.Map // string -> string

// rebind numbers the ? placeholders of an SQL query $1, $2, … in order,
// leaving alone what is inside quotes ('text', "identifier") and comments.
// The store writes plain ? only, never SQLite's numbered ?NNN.
func rebind(query string) string {
	if q, ok := rebound.Load(query); ok {
		return q.(string)
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		case c == '\'' || c == '"':
			end := strings.IndexByte(query[i+1:], c)
			if end < 0 { // unterminated: the server will say so
				b.WriteString(query[i:])
				i = len(query)
				continue
			}
			b.WriteString(query[i : i+end+2])
			i += end + 1
			continue
		case c == '-' && i+1 < len(query) && query[i+1] == '-':
			end := strings.IndexByte(query[i:], '\n')
			if end < 0 {
				end = len(query) - i
			}
			b.WriteString(query[i : i+end])
			i += end - 1
			continue
		}
		b.WriteByte(c)
	}
	q := b.String()
	rebound.Store(query, q)
	return q
}
