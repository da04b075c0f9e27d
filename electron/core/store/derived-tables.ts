/** Tables derived from the others (the search index and its shadow tables) and SQLite's own: rebuilt, never salvaged or checked alone. */
export const DERIVED_TABLES = /^(entries_fts(_.*)?|search_rows|sqlite_.*)$/;
