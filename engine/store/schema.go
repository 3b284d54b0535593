package store

// migration is one forward step of the schema.
type migration struct {
	name string
	sql  string
}

// migrations lists every schema version in order: applying migrations[i]
// takes a database from version i to version i+1. Never edit a released
// migration; append a new one.
var migrations = []migration{
	{"sessions", schemaSessions},
	{"episodes and replay runs", schemaReplay},
	{"memory layers", schemaMemory},
	{"annotations and settings", schemaAnnotations},
	{"memory set metadata", schemaMemoryMetadata},
	{"opaque blocks and importer versions", schemaOpaque},
	{"a session's share of its source and the agent's totals", schemaSessionSize},
	{"the change feed", schemaChanges},
	{"user tokens", schemaUserTokens},
	{"user roles", schemaUserRoles},
	{"blobs in parts", schemaBlobParts},
	{"rewinds", schemaRewinds},
	{"no episodes or replay runs", schemaDropReplay},
}

// schemaSessions holds imported sessions. Times are RFC 3339 text in UTC,
// "" for an unknown time. Texts and tool arguments longer than
// blobThreshold live once in blobs, addressed by their SHA-256.
const schemaSessions = `
CREATE TABLE blobs (
	hash TEXT PRIMARY KEY,
	size INTEGER NOT NULL,
	data BLOB NOT NULL
) WITHOUT ROWID;

CREATE TABLE sources (
	id INTEGER PRIMARY KEY,
	path TEXT NOT NULL UNIQUE,
	format TEXT NOT NULL,
	size INTEGER NOT NULL,
	hash TEXT NOT NULL,
	imported_at TEXT NOT NULL
);
CREATE INDEX sources_hash ON sources(hash);

CREATE TABLE sessions (
	id INTEGER PRIMARY KEY,
	key TEXT NOT NULL UNIQUE,
	source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
	sid TEXT NOT NULL,
	format TEXT NOT NULL,
	version INTEGER NOT NULL,
	agent TEXT NOT NULL,
	source TEXT NOT NULL,
	title TEXT NOT NULL,
	cwd TEXT NOT NULL,
	started TEXT NOT NULL,
	diagnostics TEXT NOT NULL,
	generation INTEGER NOT NULL DEFAULT 1,
	revision INTEGER NOT NULL DEFAULT 1,
	imported_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	UNIQUE (source_id, sid)
);

CREATE TABLE threads (
	id INTEGER PRIMARY KEY,
	session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	ord INTEGER NOT NULL,
	tid TEXT NOT NULL,
	kind TEXT NOT NULL,
	parent_tid TEXT NOT NULL,
	title TEXT NOT NULL,
	leaf_id TEXT NOT NULL,
	UNIQUE (session_id, ord)
);

CREATE TABLE entries (
	id INTEGER PRIMARY KEY,
	thread_id INTEGER NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
	ord INTEGER NOT NULL,
	eid TEXT NOT NULL,
	parent_eid TEXT NOT NULL,
	line INTEGER NOT NULL,
	time TEXT NOT NULL,
	kind TEXT NOT NULL,
	type TEXT NOT NULL,
	value TEXT NOT NULL,
	target TEXT NOT NULL,
	raw BLOB,
	summary TEXT,
	first_kept TEXT,
	tokens_before INTEGER,
	role TEXT,
	origin TEXT,
	msg_id TEXT,
	provider TEXT,
	model TEXT,
	stop_reason TEXT,
	error TEXT,
	msg_time TEXT,
	excluded INTEGER,
	blocks_empty INTEGER,
	usage TEXT,
	UNIQUE (thread_id, ord)
);

CREATE TABLE blocks (
	id INTEGER PRIMARY KEY,
	entry_id INTEGER NOT NULL REFERENCES entries(id) ON DELETE CASCADE,
	parent_id INTEGER REFERENCES blocks(id) ON DELETE CASCADE,
	ord INTEGER NOT NULL,
	type TEXT NOT NULL,
	text TEXT,
	text_blob TEXT REFERENCES blobs(hash),
	redacted INTEGER NOT NULL,
	tool_call_id TEXT NOT NULL,
	tool_name TEXT NOT NULL,
	arguments BLOB,
	arguments_blob TEXT REFERENCES blobs(hash),
	is_error INTEGER NOT NULL,
	details BLOB,
	mime TEXT NOT NULL,
	content_empty INTEGER NOT NULL
);
CREATE INDEX blocks_entry ON blocks(entry_id, ord);
CREATE INDEX blocks_text_blob ON blocks(text_blob) WHERE text_blob IS NOT NULL;
CREATE INDEX blocks_arguments_blob ON blocks(arguments_blob) WHERE arguments_blob IS NOT NULL;
`

// schemaReplay holds episodes and cached replay runs. A run is keyed by
// everything that decides its result; its summary and timeline are opaque
// JSON written by the replay engine.
const schemaReplay = `
CREATE TABLE episodes (
	id INTEGER PRIMARY KEY,
	session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	origin TEXT NOT NULL,
	thread TEXT NOT NULL,
	ord INTEGER NOT NULL,
	name TEXT NOT NULL,
	kind TEXT NOT NULL,
	description TEXT NOT NULL,
	dependencies TEXT NOT NULL,
	completed INTEGER NOT NULL,
	start_entry TEXT NOT NULL,
	end_entry TEXT NOT NULL,
	UNIQUE (session_id, origin, thread, ord)
);

CREATE TABLE replay_runs (
	id INTEGER PRIMARY KEY,
	session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
	session_revision INTEGER NOT NULL,
	policy TEXT NOT NULL,
	tau INTEGER NOT NULL,
	tokenizer TEXT NOT NULL,
	episode_mode TEXT NOT NULL,
	engine_version TEXT NOT NULL,
	created_at TEXT NOT NULL,
	summary BLOB NOT NULL,
	timeline BLOB NOT NULL,
	UNIQUE (session_id, policy, tau, tokenizer, episode_mode, engine_version)
);
`

// schemaDropReplay drops what schemaReplay made. Nothing read cached replay
// runs, and a session's declared episodes are derived where they are used
// (the search index reads them from the session), so that the store knows
// nothing of CWL.
const schemaDropReplay = `
DROP TABLE episodes;
DROP TABLE replay_runs;
`

// schemaMemory holds memory layers, grouped in named sets (one per memory
// build: a session, a LoCoMo sample). It follows MemWeaver's data model:
// passages, entities with a lower-cased name index (names and aliases,
// first writer wins), relations with time, condition, provenance and
// origin, passage-contains-entity links, clusters and experience items.
// engine/memory/memstore reads and writes them; their schema is here, in
// the workspace's one migration history.
const schemaMemory = `
CREATE TABLE memory_sets (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	kind TEXT NOT NULL,
	revision INTEGER NOT NULL DEFAULT 1,
	created_at TEXT NOT NULL
);

CREATE TABLE passages (
	id INTEGER PRIMARY KEY,
	set_id INTEGER NOT NULL REFERENCES memory_sets(id) ON DELETE CASCADE,
	pid TEXT NOT NULL,
	text TEXT NOT NULL,
	speaker TEXT NOT NULL,
	timestamp TEXT NOT NULL,
	qa_id TEXT NOT NULL,
	session TEXT NOT NULL,
	UNIQUE (set_id, pid)
);

CREATE TABLE entities (
	id INTEGER PRIMARY KEY,
	set_id INTEGER NOT NULL REFERENCES memory_sets(id) ON DELETE CASCADE,
	eid TEXT NOT NULL,
	name TEXT NOT NULL,
	source TEXT NOT NULL,
	metadata TEXT NOT NULL,
	UNIQUE (set_id, eid)
);

CREATE TABLE entity_names (
	set_id INTEGER NOT NULL REFERENCES memory_sets(id) ON DELETE CASCADE,
	name TEXT NOT NULL,
	entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
	alias INTEGER NOT NULL,
	PRIMARY KEY (set_id, name)
) WITHOUT ROWID;

CREATE TABLE relations (
	id INTEGER PRIMARY KEY,
	set_id INTEGER NOT NULL REFERENCES memory_sets(id) ON DELETE CASCADE,
	rid TEXT NOT NULL,
	source TEXT NOT NULL,
	target TEXT NOT NULL,
	type TEXT NOT NULL,
	time TEXT NOT NULL,
	condition TEXT NOT NULL,
	session TEXT NOT NULL,
	qa_id TEXT NOT NULL,
	passage_id TEXT NOT NULL,
	origin TEXT NOT NULL,
	metadata TEXT NOT NULL,
	UNIQUE (set_id, rid)
);
CREATE INDEX relations_source ON relations(set_id, source);
CREATE INDEX relations_target ON relations(set_id, target);

CREATE TABLE contains_links (
	set_id INTEGER NOT NULL REFERENCES memory_sets(id) ON DELETE CASCADE,
	passage TEXT NOT NULL,
	entity TEXT NOT NULL,
	timestamp TEXT NOT NULL,
	PRIMARY KEY (set_id, passage, entity)
) WITHOUT ROWID;

CREATE TABLE clusters (
	id INTEGER PRIMARY KEY,
	set_id INTEGER NOT NULL REFERENCES memory_sets(id) ON DELETE CASCADE,
	cid TEXT NOT NULL,
	center_text TEXT NOT NULL,
	center_ids TEXT NOT NULL,
	metadata TEXT NOT NULL,
	UNIQUE (set_id, cid)
);

CREATE TABLE experiences (
	id INTEGER PRIMARY KEY,
	set_id INTEGER NOT NULL REFERENCES memory_sets(id) ON DELETE CASCADE,
	xid TEXT NOT NULL,
	cluster TEXT NOT NULL,
	type TEXT NOT NULL,
	content TEXT NOT NULL,
	source_qa_ids TEXT NOT NULL,
	metadata TEXT NOT NULL,
	UNIQUE (set_id, xid)
);
`

// schemaAnnotations holds human judgements of retrieved items and the
// workspace's settings.
const schemaAnnotations = `
CREATE TABLE annotations (
	id INTEGER PRIMARY KEY,
	scope TEXT NOT NULL,
	question TEXT NOT NULL,
	item TEXT NOT NULL,
	annotator TEXT NOT NULL,
	helpful INTEGER,
	sufficient INTEGER,
	notes TEXT NOT NULL,
	time TEXT NOT NULL
);
CREATE INDEX annotations_item ON annotations(scope, item);

CREATE TABLE settings (
	key TEXT PRIMARY KEY,
	value TEXT NOT NULL,
	updated_at TEXT NOT NULL
) WITHOUT ROWID;
`

// schemaMemoryMetadata lets a memory set round-trip through the workspace:
// the set's own metadata (its speakers, what it was built from, merges,
// the embedding component it removes), each passage's absolute time, and
// the order of a passage's contains links, which undoing a merge restores.
// It also indexes entity names by entity, which reading a set's entities
// with their aliases needs (without it that read is quadratic).
const schemaMemoryMetadata = `
ALTER TABLE memory_sets ADD COLUMN metadata TEXT NOT NULL DEFAULT '{}';
CREATE INDEX entity_names_entity ON entity_names(entity_id);
ALTER TABLE passages ADD COLUMN time TEXT NOT NULL DEFAULT '';
ALTER TABLE contains_links ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
`

// schemaOpaque keeps the size of opaque blocks (encrypted reasoning, which
// has no text), which tool calls were read out of text, and the version of the importers that read each source, so
// that a file read by an older importer is read again when it changed how
// it reads its format.
const schemaOpaque = `
ALTER TABLE blocks ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE blocks ADD COLUMN implicit INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sources ADD COLUMN importer INTEGER NOT NULL DEFAULT 0;
`

// schemaSessionSize keeps how many bytes of its source a session takes
// when the source holds several sessions (0: the whole source), and the
// totals the agent recorded for the session (JSON of session.Recorded,
// ” when it recorded none).
const schemaSessionSize = `
ALTER TABLE sessions ADD COLUMN size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN recorded TEXT NOT NULL DEFAULT '';
`
