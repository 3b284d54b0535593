package store

import (
	"context"
	"database/sql/driver"
	"strconv"
	"strings"
	"sync"

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
	return &pgConn{Conn: conn.(*stdlib.Conn), writer: c.writer}, nil
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
	switch v := nv.Value.(type) {
	case bool:
		nv.Value = int64(0)
		if v {
			nv.Value = int64(1)
		}
	case string:
		if strings.IndexByte(v, 0) >= 0 {
			nv.Value = strings.ReplaceAll(v, "\x00", "\uFFFD")
		}
	}
	return c.Conn.CheckNamedValue(nv)
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
