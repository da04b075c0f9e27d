/**
 * Numbered, forward-only schema migrations. The applied version lives in
 * `PRAGMA user_version`; `db.ts` runs every pending migration in one
 * transaction at open. Never edit a shipped migration: add the next one.
 */

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

// An OR chain, not IN (…): SQLite builds an ephemeral table for an IN list on every insert,
// which cost ~20% of an append when measured.
const KIND_CHECK = ["user", "assistant", "toolResult", "modelSwitch", "approval", "compaction", "rename", "fork"]
  .map((k) => `kind = '${k}'`)
  .join(" OR ");
const TOOL_STATUSES = `'proposed','approved','denied','running','done','error','aborted'`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "initial schema",
    sql: `
      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        last_opened_at INTEGER NOT NULL
      );
      CREATE INDEX workspaces_recent ON workspaces (last_opened_at DESC);

      CREATE TABLE sessions (
        -- Entry ids are (num << 32) | seq: a session's entries are one rowid range.
        num INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        -- last activity; an append only rewrites it when the session is not already the workspace's
        -- most recent, or every second (see entries.ts), so the list order is exact
        updated_at INTEGER NOT NULL,
        -- current model (the modelSwitch entries hold the history)
        model_provider TEXT,
        model_api TEXT,
        model_id TEXT,
        parent_session_id TEXT REFERENCES sessions (id) ON DELETE SET NULL,
        parent_seq INTEGER,
        -- entries with seq above this are not yet searchable (search-index.ts indexes them in batches)
        fts_indexed_seq INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX sessions_by_workspace ON sessions (workspace_id, updated_at DESC, id DESC);
      CREATE INDEX sessions_by_parent ON sessions (parent_session_id) WHERE parent_session_id IS NOT NULL;

      -- No foreign key: entries hang off sessions by id range (trigger below), which needs no index.
      CREATE TABLE entries (
        -- (sessions.num << 32) | seq: the rowid b-tree is the (session, seq) index
        id INTEGER PRIMARY KEY,
        seq INTEGER GENERATED ALWAYS AS (id & 4294967295) VIRTUAL,
        -- the session's text id, for ad-hoc SQL
        session_id TEXT NOT NULL,
        -- message role for messages, entry type otherwise
        kind TEXT NOT NULL CHECK (${KIND_CHECK}),
        timestamp INTEGER NOT NULL,
        -- assistant: the model that wrote it; modelSwitch: the target; compaction: the summariser
        provider TEXT,
        api TEXT,
        model_id TEXT,
        stop_reason TEXT,
        -- toolResult and approval entries
        tool_call_id TEXT,
        -- assistant usage
        input_tokens INTEGER,
        output_tokens INTEGER,
        cache_read_tokens INTEGER,
        cache_write_tokens INTEGER,
        total_tokens INTEGER,
        cost_total REAL,
        -- the session's running totals up to this entry: a summary reads one row, not the session
        running_tokens INTEGER NOT NULL,
        running_cost REAL NOT NULL,
        -- JSON [{id,name}]: calls of the last assistant message still without a result after this
        -- entry; NULL when none. The last row's value drives repair on open.
        open_tool_calls TEXT,
        content TEXT NOT NULL
      );
      -- The one secondary index: usage and cost by model over time, across sessions. Assistant rows
      -- only: every index written by an append costs it another page (~+50% per index measured).
      CREATE INDEX entries_assistant_by_time ON entries (timestamp, model_id) WHERE kind = 'assistant';

      CREATE TRIGGER sessions_delete_entries AFTER DELETE ON sessions BEGIN
        DELETE FROM entries WHERE id BETWEEN old.num * 4294967296 AND old.num * 4294967296 + 4294967295;
      END;

      -- Message text only (user/assistant text blocks, tool-result text). Derived data, filled in
      -- batches after the appends commit (search-index.ts); search_rows maps it back to entries.
      CREATE VIRTUAL TABLE entries_fts USING fts5 (text, tokenize = 'unicode61 remove_diacritics 2');
      CREATE TABLE search_rows (
        fts_rowid INTEGER PRIMARY KEY,
        entry_id INTEGER NOT NULL
      );
      CREATE INDEX search_rows_by_entry ON search_rows (entry_id);
      CREATE TRIGGER entries_delete_search AFTER DELETE ON entries BEGIN
        DELETE FROM entries_fts WHERE rowid IN (SELECT fts_rowid FROM search_rows WHERE entry_id = old.id);
        DELETE FROM search_rows WHERE entry_id = old.id;
      END;

      CREATE TABLE tool_calls (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        -- opaque and not unique across turns (e.g. "functions.Bash:0"), hence not a key
        tool_call_id TEXT NOT NULL,
        tool_name TEXT NOT NULL,
        args TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN (${TOOL_STATUSES})),
        duration_ms INTEGER,
        error_code TEXT,
        output_bytes INTEGER,
        approval_decision TEXT,
        decided_by TEXT,
        decided_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX tool_calls_by_session ON tool_calls (session_id, tool_call_id);

      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE notes (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        author TEXT NOT NULL,
        verdict TEXT CHECK (verdict IN ('ok', 'problem')),
        text TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX notes_by_session ON notes (session_id, seq);
    `,
  },
  {
    version: 2,
    name: "checkpoints",
    sql: `
      -- Workspace states recorded around a session's side effects (electron/core/checkpoints).
      -- The files live in a private git repository per workspace; a row names a kept tree.
      CREATE TABLE checkpoints (
        id INTEGER PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        -- the session's last entry when the state was recorded: the state holds from this step on
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('turnStart', 'afterTool', 'beforeRestore', 'restored')),
        tool_call_id TEXT,
        tree TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        -- set when the size cap pruned the tree: the row stays so the timeline can say so
        pruned_at INTEGER
      );
      CREATE INDEX checkpoints_by_session ON checkpoints (session_id, seq, id);
      CREATE INDEX checkpoints_by_workspace ON checkpoints (workspace_id, id);
    `,
  },
  {
    version: 3,
    name: "session reasoning level and reasoningChange entries",
    // The kind CHECK cannot be altered in place: the entries table is rebuilt (SQLite's documented
    // procedure), its index and the triggers that name it recreated; rows are copied as they are.
    sql: `
      ALTER TABLE sessions ADD COLUMN reasoning TEXT NOT NULL DEFAULT 'default';

      DROP TRIGGER sessions_delete_entries;
      DROP TRIGGER entries_delete_search;
      DROP INDEX entries_assistant_by_time;
      ALTER TABLE entries RENAME TO entries_v1;
      CREATE TABLE entries (
        id INTEGER PRIMARY KEY,
        seq INTEGER GENERATED ALWAYS AS (id & 4294967295) VIRTUAL,
        session_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (${KIND_CHECK} OR kind = 'reasoningChange'),
        timestamp INTEGER NOT NULL,
        provider TEXT,
        api TEXT,
        model_id TEXT,
        stop_reason TEXT,
        tool_call_id TEXT,
        input_tokens INTEGER,
        output_tokens INTEGER,
        cache_read_tokens INTEGER,
        cache_write_tokens INTEGER,
        total_tokens INTEGER,
        cost_total REAL,
        running_tokens INTEGER NOT NULL,
        running_cost REAL NOT NULL,
        open_tool_calls TEXT,
        content TEXT NOT NULL
      );
      INSERT INTO entries (id, session_id, kind, timestamp, provider, api, model_id, stop_reason, tool_call_id,
          input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_total,
          running_tokens, running_cost, open_tool_calls, content)
        SELECT id, session_id, kind, timestamp, provider, api, model_id, stop_reason, tool_call_id,
          input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_total,
          running_tokens, running_cost, open_tool_calls, content
        FROM entries_v1 ORDER BY id;
      DROP TABLE entries_v1;
      CREATE INDEX entries_assistant_by_time ON entries (timestamp, model_id) WHERE kind = 'assistant';
      CREATE TRIGGER sessions_delete_entries AFTER DELETE ON sessions BEGIN
        DELETE FROM entries WHERE id BETWEEN old.num * 4294967296 AND old.num * 4294967296 + 4294967295;
      END;
      CREATE TRIGGER entries_delete_search AFTER DELETE ON entries BEGIN
        DELETE FROM entries_fts WHERE rowid IN (SELECT fts_rowid FROM search_rows WHERE entry_id = old.id);
        DELETE FROM search_rows WHERE entry_id = old.id;
      END;
    `,
  },
  {
    version: 4,
    name: "approval rules and the rule that decided a call",
    sql: `
      CREATE TABLE approval_rules (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        tool TEXT NOT NULL CHECK (tool = 'bash' OR tool = 'write' OR tool = 'edit'),
        action TEXT NOT NULL CHECK (action = 'allow' OR action = 'deny'),
        pattern TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE (workspace_id, tool, action, pattern)
      );
      -- JSON array of the deciding rules ({ tool, action, pattern, source }).
      ALTER TABLE tool_calls ADD COLUMN decided_by_rule TEXT;
    `,
  },
  {
    version: 5,
    name: "review comments anchored to a file and line; per-hunk approval decisions",
    sql: `
      ALTER TABLE notes ADD COLUMN path TEXT;
      ALTER TABLE notes ADD COLUMN line INTEGER CHECK (line IS NULL OR line >= 1);
      -- JSON array of the user's decision per hunk ("accepted" | "rejected"), in the proposal's order.
      ALTER TABLE tool_calls ADD COLUMN hunk_decisions TEXT;
    `,
  },
  {
    version: 6,
    name: "staged imports",
    sql: `
      -- Set while an import writes the session in slices (the time it started): such a session is left out
      -- of list, search, open, indexing and repair until the import clears this in one transaction, and one
      -- left by a process that died mid-import is discarded at the next open (staged-imports.ts).
      ALTER TABLE sessions ADD COLUMN staged_at INTEGER;
      CREATE INDEX sessions_staged ON sessions (staged_at) WHERE staged_at IS NOT NULL;
    `,
  },
  {
    version: 7,
    name: "sub-agent sessions and planEdit entries",
    // A sub-agent's session hangs off the parent step that started it (parent_session_id, parent_seq: the
    // assistant entry holding the task call) and names that call; a fork leaves parent_tool_call_id NULL.
    // The kind CHECK gains 'planEdit': the entries table is rebuilt as in version 3.
    sql: `
      ALTER TABLE sessions ADD COLUMN parent_tool_call_id TEXT;

      DROP TRIGGER sessions_delete_entries;
      DROP TRIGGER entries_delete_search;
      DROP INDEX entries_assistant_by_time;
      ALTER TABLE entries RENAME TO entries_v3;
      CREATE TABLE entries (
        id INTEGER PRIMARY KEY,
        seq INTEGER GENERATED ALWAYS AS (id & 4294967295) VIRTUAL,
        session_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (${KIND_CHECK} OR kind = 'reasoningChange' OR kind = 'planEdit'),
        timestamp INTEGER NOT NULL,
        provider TEXT,
        api TEXT,
        model_id TEXT,
        stop_reason TEXT,
        tool_call_id TEXT,
        input_tokens INTEGER,
        output_tokens INTEGER,
        cache_read_tokens INTEGER,
        cache_write_tokens INTEGER,
        total_tokens INTEGER,
        cost_total REAL,
        running_tokens INTEGER NOT NULL,
        running_cost REAL NOT NULL,
        open_tool_calls TEXT,
        content TEXT NOT NULL
      );
      INSERT INTO entries (id, session_id, kind, timestamp, provider, api, model_id, stop_reason, tool_call_id,
          input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_total,
          running_tokens, running_cost, open_tool_calls, content)
        SELECT id, session_id, kind, timestamp, provider, api, model_id, stop_reason, tool_call_id,
          input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, total_tokens, cost_total,
          running_tokens, running_cost, open_tool_calls, content
        FROM entries_v3 ORDER BY id;
      DROP TABLE entries_v3;
      CREATE INDEX entries_assistant_by_time ON entries (timestamp, model_id) WHERE kind = 'assistant';
      CREATE TRIGGER sessions_delete_entries AFTER DELETE ON sessions BEGIN
        DELETE FROM entries WHERE id BETWEEN old.num * 4294967296 AND old.num * 4294967296 + 4294967295;
      END;
      CREATE TRIGGER entries_delete_search AFTER DELETE ON entries BEGIN
        DELETE FROM entries_fts WHERE rowid IN (SELECT fts_rowid FROM search_rows WHERE entry_id = old.id);
        DELETE FROM search_rows WHERE entry_id = old.id;
      END;
    `,
  },
  {
    version: 8,
    name: "every unanswered tool call tracked, not only the last assistant message's",
    sql: `
      -- 0: the session's rows were written when open_tool_calls held only the last assistant message's
      -- calls, so an unanswered call further back is not recorded there; repair scans such a session
      -- once (repair.ts) and sets 1. New sessions start at 1.
      ALTER TABLE sessions ADD COLUMN calls_checked INTEGER NOT NULL DEFAULT 1;
      UPDATE sessions SET calls_checked = 0;
    `,
  },
  {
    version: 9,
    name: "the request body behind each assistant message, recorded as sent",
    sql: `
      -- Distinct content-defined chunks of a session's request bodies, deflated (request-records.ts).
      CREATE TABLE request_chunks (
        id INTEGER PRIMARY KEY,
        session_num INTEGER NOT NULL,
        hash BLOB NOT NULL,
        data BLOB NOT NULL,
        UNIQUE (session_num, hash)
      );
      -- One per recorded request, keyed like the assistant entry it was answered by; chunks: 16-byte hashes in order.
      CREATE TABLE request_records (
        entry_id INTEGER PRIMARY KEY,
        chunks BLOB NOT NULL,
        bytes INTEGER NOT NULL
      );
      CREATE TRIGGER sessions_delete_requests AFTER DELETE ON sessions BEGIN
        DELETE FROM request_records WHERE entry_id BETWEEN old.num * 4294967296 AND old.num * 4294967296 + 4294967295;
        DELETE FROM request_chunks WHERE session_num = old.num;
      END;
    `,
  },
];

export const LATEST_VERSION = MIGRATIONS.length === 0 ? 0 : MIGRATIONS[MIGRATIONS.length - 1].version;
