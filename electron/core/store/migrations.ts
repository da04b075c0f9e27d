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

const ENTRY_KINDS = `'user','assistant','toolResult','modelSwitch','approval','compaction','rename','fork'`;
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
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        -- current model (the model-switch entries hold the history)
        model_provider TEXT,
        model_api TEXT,
        model_id TEXT,
        parent_session_id TEXT REFERENCES sessions (id) ON DELETE SET NULL,
        parent_seq INTEGER,
        -- maintained on append so summaries never scan entries; entry_count is also the last seq
        entry_count INTEGER NOT NULL DEFAULT 0,
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        cache_read_tokens INTEGER NOT NULL DEFAULT 0,
        cache_write_tokens INTEGER NOT NULL DEFAULT 0,
        total_tokens INTEGER NOT NULL DEFAULT 0,
        total_cost REAL NOT NULL DEFAULT 0,
        -- JSON [{id,name}]: calls of the last assistant message still without a result; NULL when none
        open_tool_calls TEXT
      );
      CREATE INDEX sessions_by_workspace ON sessions (workspace_id, updated_at DESC, id DESC);
      CREATE INDEX sessions_needing_repair ON sessions (id) WHERE open_tool_calls IS NOT NULL;
      CREATE INDEX sessions_by_parent ON sessions (parent_session_id) WHERE parent_session_id IS NOT NULL;

      CREATE TABLE entries (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        -- message role for messages, entry type otherwise
        kind TEXT NOT NULL CHECK (kind IN (${ENTRY_KINDS})),
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
        content TEXT NOT NULL,
        UNIQUE (session_id, seq)
      );
      CREATE INDEX entries_by_time ON entries (timestamp);
      CREATE INDEX entries_by_model ON entries (model_id, provider) WHERE model_id IS NOT NULL;

      -- Message text only (user/assistant text blocks, tool-result text); rowid = entries.id.
      CREATE VIRTUAL TABLE entries_fts USING fts5 (text, tokenize = 'unicode61 remove_diacritics 2');
      -- Also fires for ON DELETE CASCADE from sessions.
      CREATE TRIGGER entries_fts_delete AFTER DELETE ON entries BEGIN
        DELETE FROM entries_fts WHERE rowid = old.id;
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
];

export const LATEST_VERSION = MIGRATIONS.length === 0 ? 0 : MIGRATIONS[MIGRATIONS.length - 1].version;
