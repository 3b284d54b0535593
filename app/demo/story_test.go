package demo

import (
	"fmt"
	"strings"
)

// generate writes the demo session: three user turns, five episodes.
func generate() []byte {
	s := newScript()
	s.user("GET /books returns duplicates when paging past page 1. Please fix it and add a regression test.")

	s.assistant(text("I'll start by exploring how pagination is implemented."))
	s.start("explore-pagination", "expl")
	s.tool("ls", map[string]any{"path": "src"}, listing(), thinking("Let me get the lay of the land first: where do routes and queries live?"))
	s.tool("grep", map[string]any{"pattern": "offset|page", "path": "src"}, grepPage())
	s.tool("read", map[string]any{"path": "src/routes/books.ts"}, booksRoute())
	s.tool("read", map[string]any{"path": "src/db/query.ts"}, queryTS(false), thinking("paginate() is called with the raw page number. If pages are 1-based, offset = page * limit skips the first page and repeats later ones… let me confirm in the query helper."))
	s.tool("read", map[string]any{"path": "test/books.test.ts"}, booksTest(false))
	s.end("explore-pagination", "expl", "Pagination lives in src/db/query.ts: paginate() computes offset = page * limit, but routes/books.ts passes 1-based pages straight through, so page 2 repeats rows.")

	s.start("patch-pagination", "act", "explore-pagination")
	s.tool("edit", map[string]any{"path": "src/db/query.ts", "oldText": "const offset = page * limit;", "newText": "const offset = (page - 1) * limit;"},
		"Successfully replaced text in src/db/query.ts.", thinking("Pages are 1-based in the public API. The fix belongs in paginate(), and page < 1 must be rejected rather than producing a negative offset."))
	s.tool("bash", map[string]any{"command": "npm test -- test/books.test.ts"}, jestRun(false))
	s.tool("edit", map[string]any{"path": "test/books.test.ts", "oldText": "describe('GET /books', () => {", "newText": regressionTest()},
		"Successfully replaced text in test/books.test.ts.")
	s.tool("edit", map[string]any{"path": "src/db/query.ts", "oldText": "export function paginate(page: number, limit: number) {", "newText": "export function paginate(page: number, limit: number) {\n  if (!Number.isInteger(page) || page < 1) throw new RangeError(`page must be a positive integer, got ${page}`);"},
		"Successfully replaced text in src/db/query.ts.")
	s.tool("bash", map[string]any{"command": "npm test -- test/books.test.ts"}, jestRun(true))
	s.end("patch-pagination", "act", "")
	s.assistant(text("Fixed: `paginate()` now computes `offset = (page - 1) * limit` and rejects pages below 1. I added a regression test that walks three pages and asserts no book id repeats; the books suite passes (24 tests)."))

	s.user("The docs still say `page` is 0-based. Update docs/api.md and the OpenAPI spec to match.")
	s.start("explore-docs", "expl")
	s.tool("grep", map[string]any{"pattern": "page", "path": "docs"}, grepDocs())
	s.tool("read", map[string]any{"path": "docs/api.md"}, apiDoc())
	s.tool("read", map[string]any{"path": "openapi.yaml"}, openAPI(), thinking("The OpenAPI spec has minimum: 0 and default: 0 for page on three list endpoints; all of them share the paginate helper."))
	s.end("explore-docs", "expl", "docs/api.md and openapi.yaml describe page as 0-based (minimum 0, default 0) on /books, /authors and /loans.")

	s.start("update-docs", "act", "explore-docs", "explore-pagination")
	s.tool("edit", map[string]any{"path": "docs/api.md", "oldText": "`page` (0-based, default 0)", "newText": "`page` (1-based, default 1)"}, "Successfully replaced text in docs/api.md.")
	s.tool("edit", map[string]any{"path": "openapi.yaml", "oldText": "minimum: 0\n          default: 0", "newText": "minimum: 1\n          default: 1"}, "Successfully replaced 3 occurrences in openapi.yaml.")
	s.tool("bash", map[string]any{"command": "npx @redocly/cli lint openapi.yaml"}, redoclyLint())
	s.end("update-docs", "act", "")
	s.assistant(text("Updated docs/api.md and openapi.yaml: `page` is now documented as 1-based with minimum 1 and default 1 on /books, /authors and /loans. The spec lints clean."))

	s.user("Run the full unit and e2e suites and summarise any failures.")
	s.start("run-checks", "act", "explore-pagination")
	s.tool("bash", map[string]any{"command": "npm test"}, fullSuite())
	s.tool("bash", map[string]any{"command": "npm run e2e"}, e2eRun(), thinking("One e2e failure: the loans page still sends page=0 from the web client. That is outside the API, but worth reporting."))
	s.end("run-checks", "act", "")
	s.assistant(text("Unit tests: 320 passed. E2E: 37 passed, 1 failed — `loans.spec.ts › paginates overdue loans` still sends `page=0` from the web client (web/src/api/loans.ts:41), which the API now rejects with 400. The client needs the same 1-based change; I did not touch web/ since you asked only for a report."))
	return s.buf.Bytes()
}

func listing() string {
	return strings.Join([]string{"app.ts", "config.ts", "db/", "db/connection.ts", "db/migrations/", "db/query.ts", "db/schema.ts",
		"errors.ts", "middleware/", "middleware/auth.ts", "middleware/logging.ts", "routes/", "routes/authors.ts",
		"routes/books.ts", "routes/health.ts", "routes/loans.ts", "server.ts", "types.ts"}, "\n")
}

func grepPage() string {
	var b strings.Builder
	for i, f := range []string{"routes/books.ts", "routes/authors.ts", "routes/loans.ts"} {
		for j := 0; j < 4; j++ {
			fmt.Fprintf(&b, "src/%s:%d:  const page = Number(req.query.page ?? %d);\n", f, 18+j*9+i, 1)
			fmt.Fprintf(&b, "src/%s:%d:  const rows = await db.all(sql, paginate(page, limit));\n", f, 21+j*9+i)
		}
	}
	b.WriteString("src/db/query.ts:12:export function paginate(page: number, limit: number) {\n")
	b.WriteString("src/db/query.ts:13:  const offset = page * limit;\n")
	b.WriteString("src/db/query.ts:14:  return { limit, offset };\n")
	return b.String()
}

func booksRoute() string {
	var b strings.Builder
	b.WriteString("import { Router } from 'express';\nimport { db } from '../db/connection';\nimport { paginate } from '../db/query';\nimport { NotFound, BadRequest } from '../errors';\n\nexport const books = Router();\n\n")
	handlers := []string{"list", "byAuthor", "byGenre", "search", "recent", "popular", "available", "overdue", "byBranch", "byShelf", "byYear", "reserved"}
	for i, h := range handlers {
		fmt.Fprintf(&b, "// %s returns one page of books, newest first.\nbooks.get('/%s', async (req, res) => {\n", h, strings.ToLower(h))
		b.WriteString("  const page = Number(req.query.page ?? 1);\n  const limit = Math.min(Number(req.query.limit ?? 20), 100);\n")
		fmt.Fprintf(&b, "  const sql = `SELECT id, title, author_id, genre, published_at FROM books WHERE deleted_at IS NULL%s ORDER BY published_at DESC, id DESC LIMIT :limit OFFSET :offset`;\n", []string{"", " AND author_id = :author", " AND genre = :genre", " AND title LIKE :q", " AND published_at > :since", " AND loans > 10", " AND copies > 0", " AND due < now()", " AND branch_id = :branch", " AND shelf = :shelf", " AND year = :year", " AND holds > 0"}[i])
		b.WriteString("  const rows = await db.all(sql, { ...req.params, ...paginate(page, limit) });\n  if (rows.length === 0 && page > 1) throw new NotFound('page out of range');\n  res.json({ page, limit, items: rows });\n});\n\n")
	}
	b.WriteString("books.get('/:id', async (req, res) => {\n  const row = await db.get('SELECT * FROM books WHERE id = :id', { id: req.params.id });\n  if (!row) throw new NotFound(`book ${req.params.id}`);\n  res.json(row);\n});\n")
	return b.String()
}

func queryTS(fixed bool) string {
	offset := "page * limit"
	if fixed {
		offset = "(page - 1) * limit"
	}
	var b strings.Builder
	b.WriteString("// Query helpers shared by every route.\nimport { Database } from './connection';\n\nexport interface Page { limit: number; offset: number }\n\n")
	b.WriteString("export function paginate(page: number, limit: number) {\n  const offset = " + offset + ";\n  return { limit, offset };\n}\n\n")
	for _, t := range []string{"books", "authors", "loans", "members", "branches", "holds"} {
		fmt.Fprintf(&b, "export async function count%s(db: Database, where = '1 = 1', params = {}) {\n  const row = await db.get(`SELECT count(*) AS n FROM %s WHERE ${where}`, params);\n  return row?.n ?? 0;\n}\n\n", strings.ToUpper(t[:1])+t[1:], t)
		fmt.Fprintf(&b, "export async function exists%s(db: Database, id: string) {\n  return (await db.get('SELECT 1 FROM %s WHERE id = :id', { id })) !== undefined;\n}\n\n", strings.ToUpper(t[:1])+t[1:], t)
	}
	return b.String()
}

func booksTest(_ bool) string {
	var b strings.Builder
	b.WriteString("import request from 'supertest';\nimport { app } from '../src/app';\nimport { seed } from './fixtures';\n\nbeforeAll(() => seed({ books: 55 }));\n\ndescribe('GET /books', () => {\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "  it('case %02d: returns books for filter set %d', async () => {\n    const res = await request(app).get('/books/list?limit=%d');\n    expect(res.status).toBe(200);\n    expect(res.body.items).toHaveLength(%d);\n  });\n\n", i, i, 5+i, 5+i)
	}
	b.WriteString("});\n")
	return b.String()
}

func regressionTest() string {
	return "describe('GET /books', () => {\n  it('never repeats a book across pages', async () => {\n    const seen = new Set<string>();\n    for (const page of [1, 2, 3]) {\n      const res = await request(app).get(`/books/list?page=${page}&limit=10`);\n      for (const b of res.body.items) { expect(seen.has(b.id)).toBe(false); seen.add(b.id); }\n    }\n  });\n\n  it('rejects page 0', async () => {\n    expect((await request(app).get('/books/list?page=0')).status).toBe(400);\n  });\n"
}

func jestRun(pass bool) string {
	var b strings.Builder
	b.WriteString("> shelf@2.3.0 test\n> jest test/books.test.ts\n\n")
	if !pass {
		b.WriteString(" FAIL  test/books.test.ts (4.812 s)\n  GET /books\n")
		for i := 0; i < 14; i++ {
			fmt.Fprintf(&b, "    ✓ case %02d: returns books for filter set %d (%d ms)\n", i, i, 31+i*3)
		}
		b.WriteString("    ✕ paginates without duplicates (58 ms)\n\n  ● GET /books › paginates without duplicates\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: false\n    Received: true\n\n")
		for i := 0; i < 30; i++ {
			fmt.Fprintf(&b, "      at Object.<anonymous> (test/books.test.ts:%d:%d)\n      at processTicksAndRejections (node:internal/process/task_queues:%d:5)\n", 120+i, 9+i, 95+i)
		}
		b.WriteString("\nTests:       1 failed, 14 passed, 15 total\nTime:        5.204 s\n")
		return b.String()
	}
	b.WriteString(" PASS  test/books.test.ts (4.377 s)\n  GET /books\n    ✓ never repeats a book across pages (71 ms)\n    ✓ rejects page 0 (12 ms)\n")
	for i := 0; i < 22; i++ {
		fmt.Fprintf(&b, "    ✓ case %02d: returns books for filter set %d (%d ms)\n", i, i, 29+i*2)
	}
	b.WriteString("\nTests:       24 passed, 24 total\nTime:        4.719 s\n")
	return b.String()
}

func grepDocs() string {
	var b strings.Builder
	for i, ep := range []string{"books", "authors", "loans"} {
		fmt.Fprintf(&b, "docs/api.md:%d:| `page` | integer | no | Page to return, `page` (0-based, default 0) |\n", 40+i*35)
		fmt.Fprintf(&b, "docs/api.md:%d:GET /%s?page=0&limit=20\n", 52+i*35, ep)
	}
	return b.String()
}

func apiDoc() string {
	var b strings.Builder
	b.WriteString("# Shelf HTTP API\n\nAll list endpoints are paginated and return `{ page, limit, items }`.\n\n")
	for _, ep := range []string{"books", "authors", "loans"} {
		fmt.Fprintf(&b, "## GET /%s\n\nReturns one page of %s.\n\n| name | type | required | description |\n|---|---|---|---|\n", ep, ep)
		b.WriteString("| `page` | integer | no | Page to return, `page` (0-based, default 0) |\n| `limit` | integer | no | Items per page, at most 100 (default 20) |\n| `sort` | string | no | One of `newest`, `oldest`, `title` |\n\n")
		fmt.Fprintf(&b, "Example:\n\n```\nGET /%s?page=0&limit=20\n```\n\n```json\n{ \"page\": 0, \"limit\": 20, \"items\": [", ep)
		for i := 0; i < 14; i++ {
			fmt.Fprintf(&b, "\n  { \"id\": \"%s_%04d\", \"title\": \"Example %d\", \"updated_at\": \"2026-02-%02dT10:00:00Z\" },", ep[:1], 1000+i, i, 10+i)
		}
		b.WriteString("\n] }\n```\n\nErrors: `400` for an invalid parameter, `404` when the page is out of range.\n\n")
	}
	return b.String()
}

func openAPI() string {
	var b strings.Builder
	b.WriteString("openapi: 3.1.0\ninfo:\n  title: Shelf\n  version: 2.3.0\npaths:\n")
	for _, ep := range []string{"books", "authors", "loans", "members", "branches", "holds"} {
		fmt.Fprintf(&b, "  /%s:\n    get:\n      operationId: list%s\n      parameters:\n        - name: page\n          in: query\n          schema:\n            type: integer\n            minimum: 0\n          default: 0\n        - name: limit\n          in: query\n          schema:\n            type: integer\n            maximum: 100\n            default: 20\n", ep, strings.ToUpper(ep[:1])+ep[1:])
		b.WriteString("      responses:\n        '200':\n          description: One page\n          content:\n            application/json:\n              schema:\n                type: object\n                properties:\n                  page: { type: integer }\n                  limit: { type: integer }\n                  items:\n                    type: array\n                    items:\n")
		fmt.Fprintf(&b, "                      $ref: '#/components/schemas/%s'\n        '400':\n          $ref: '#/components/responses/BadRequest'\n        '404':\n          $ref: '#/components/responses/NotFound'\n", strings.ToUpper(ep[:1])+ep[1:len(ep)-1])
	}
	b.WriteString("components:\n  schemas:\n")
	for _, s := range []string{"Book", "Author", "Loan", "Member", "Branche", "Hold"} {
		fmt.Fprintf(&b, "    %s:\n      type: object\n      required: [id]\n      properties:\n", s)
		for _, f := range []string{"id", "title", "name", "created_at", "updated_at", "deleted_at", "notes", "status", "branch_id", "member_id"} {
			fmt.Fprintf(&b, "        %s: { type: string }\n", f)
		}
	}
	return b.String()
}

func redoclyLint() string {
	return "validating openapi.yaml...\nopenapi.yaml: validated in 84ms\n\nWoohoo! Your API description is valid. 🎉\n"
}

func fullSuite() string {
	var b strings.Builder
	b.WriteString("> shelf@2.3.0 test\n> jest\n\n")
	for _, f := range []string{"books", "authors", "loans", "members", "auth", "query", "errors", "health"} {
		fmt.Fprintf(&b, " PASS  test/%s.test.ts\n", f)
		for i := 0; i < 40; i++ {
			fmt.Fprintf(&b, "    ✓ %s case %02d (%d ms)\n", f, i, 8+i*3)
		}
	}
	b.WriteString("\nTest Suites: 8 passed, 8 total\nTests:       142 passed, 142 total\nTime:        21.337 s\n")
	return b.String()
}

func e2eRun() string {
	var b strings.Builder
	b.WriteString("> shelf@2.3.0 e2e\n> playwright test\n\nRunning 38 tests using 2 workers\n\n")
	for i := 0; i < 37; i++ {
		fmt.Fprintf(&b, "  ✓  %2d [chromium] › %s.spec.ts › scenario %02d (%.1fs)\n", i+1, []string{"books", "authors", "loans", "members"}[i%4], i, 0.8+float64(i%7)*0.3)
	}
	b.WriteString("  ✘  38 [chromium] › loans.spec.ts › paginates overdue loans (2.1s)\n\n  1) [chromium] › loans.spec.ts › paginates overdue loans\n\n    Error: expect(received).toBe(expected)\n\n    Expected: 200\n    Received: 400\n\n      at web/src/api/loans.ts:41:18\n      at e2e/loans.spec.ts:57:5\n\n  1 failed\n  37 passed (48.2s)\n")
	return b.String()
}
