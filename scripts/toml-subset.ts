/**
 * The TOML the models.dev catalog is written in, and no more: comments,
 * `key = value` with bare, quoted or dotted keys, basic and literal strings,
 * integers and floats (with `_`), booleans, arrays, inline tables, `[table]`
 * and `[[array of tables]]`. Anything else fails with the line it is on, so a
 * catalog that starts using more TOML stops the snapshot instead of skewing it.
 */

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

export class TomlError extends Error {
  constructor(message: string, line: number) {
    super(`line ${line}: ${message}`);
    this.name = "TomlError";
  }
}

export function parseToml(source: string): TomlTable {
  return new Parser(source).document();
}

class Parser {
  private pos = 0;
  constructor(private readonly text: string) {}

  document(): TomlTable {
    const root: TomlTable = {};
    let current = root;
    for (;;) {
      this.skipBlank(true);
      if (this.pos >= this.text.length) return root;
      if (this.text.startsWith("[[", this.pos)) {
        this.pos += 2;
        const path = this.keyPath();
        this.expect("]]");
        const parent = this.tableAt(root, path.slice(0, -1));
        const last = path[path.length - 1];
        const list = parent[last] ?? [];
        if (!Array.isArray(list)) this.fail(`"${path.join(".")}" is not an array of tables`);
        const table: TomlTable = {};
        list.push(table);
        parent[last] = list;
        current = table;
      } else if (this.text[this.pos] === "[") {
        this.pos += 1;
        const path = this.keyPath();
        this.expect("]");
        current = this.tableAt(root, path);
      } else {
        this.pair(current);
      }
      this.endOfLine();
    }
  }

  private pair(into: TomlTable): void {
    const path = this.keyPath();
    this.skipSpaces();
    this.expect("=");
    this.skipSpaces();
    const value = this.value();
    const table = this.tableAt(into, path.slice(0, -1));
    const last = path[path.length - 1];
    if (last in table) this.fail(`duplicate key "${path.join(".")}"`);
    table[last] = value;
  }

  /** The table at `path` under `root`, created as needed; the last element of an array of tables. */
  private tableAt(root: TomlTable, path: readonly string[]): TomlTable {
    let node = root;
    for (const key of path) {
      const next: TomlValue = node[key] ?? {};
      const table = Array.isArray(next) ? next[next.length - 1] : next;
      if (typeof table !== "object" || table === null || Array.isArray(table)) this.fail(`"${key}" is not a table`);
      node[key] = next;
      node = table;
    }
    return node;
  }

  private keyPath(): string[] {
    const keys: string[] = [];
    for (;;) {
      this.skipSpaces();
      const c = this.text[this.pos];
      if (c === '"' || c === "'") keys.push(this.string());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.pos, this.pos + 200));
        if (!m) this.fail("expected a key");
        keys.push(m[0]);
        this.pos += m[0].length;
      }
      this.skipSpaces();
      if (this.text[this.pos] !== ".") return keys;
      this.pos += 1;
    }
  }

  private value(): TomlValue {
    const c = this.text[this.pos];
    if (c === '"' || c === "'") return this.string();
    if (c === "[") return this.array();
    if (c === "{") return this.inlineTable();
    const rest = this.text.slice(this.pos, this.pos + 100);
    const bool = /^(true|false)(?![A-Za-z0-9_])/.exec(rest);
    if (bool) {
      this.pos += bool[0].length;
      return bool[0] === "true";
    }
    const num = /^[+-]?[0-9][0-9_]*(\.[0-9][0-9_]*)?([eE][+-]?[0-9]+)?(?![A-Za-z0-9_:-])/.exec(rest);
    if (num) {
      this.pos += num[0].length;
      return Number(num[0].replace(/_/g, ""));
    }
    this.fail(`unsupported value starting "${rest.slice(0, 20)}"`);
  }

  private string(): string {
    const quote = this.text[this.pos];
    if (this.text.startsWith(quote.repeat(3), this.pos)) this.fail("multi-line strings are not supported");
    this.pos += 1;
    let out = "";
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined || c === "\n") this.fail("unterminated string");
      this.pos += 1;
      if (c === quote) return out;
      if (c !== "\\" || quote === "'") {
        out += c;
        continue;
      }
      const e = this.text[this.pos];
      this.pos += 1;
      const simple: Record<string, string> = { '"': '"', "\\": "\\", n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" };
      if (e in simple) out += simple[e];
      else if (e === "u" || e === "U") {
        const len = e === "u" ? 4 : 8;
        const hex = this.text.slice(this.pos, this.pos + len);
        if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== len) this.fail("bad unicode escape");
        out += String.fromCodePoint(parseInt(hex, 16));
        this.pos += len;
      } else this.fail(`bad escape "\\${e}"`);
    }
  }

  private array(): TomlValue[] {
    this.pos += 1;
    const out: TomlValue[] = [];
    for (;;) {
      this.skipBlank(true);
      if (this.text[this.pos] === "]") {
        this.pos += 1;
        return out;
      }
      out.push(this.value());
      this.skipBlank(true);
      if (this.text[this.pos] === ",") this.pos += 1;
      else if (this.text[this.pos] !== "]") this.fail("expected , or ] in an array");
    }
  }

  private inlineTable(): TomlTable {
    this.pos += 1;
    const table: TomlTable = {};
    this.skipSpaces();
    if (this.text[this.pos] === "}") {
      this.pos += 1;
      return table;
    }
    for (;;) {
      this.pair(table);
      this.skipSpaces();
      const c = this.text[this.pos];
      this.pos += 1;
      if (c === "}") return table;
      if (c !== ",") this.fail("expected , or } in an inline table");
    }
  }

  private skipSpaces(): void {
    while (this.text[this.pos] === " " || this.text[this.pos] === "\t") this.pos += 1;
  }

  /** Spaces, comments and (when `newlines`) line breaks. */
  private skipBlank(newlines: boolean): void {
    for (;;) {
      this.skipSpaces();
      const c = this.text[this.pos];
      if (c === "#") while (this.pos < this.text.length && this.text[this.pos] !== "\n") this.pos += 1;
      else if (newlines && (c === "\n" || c === "\r")) this.pos += 1;
      else return;
    }
  }

  private endOfLine(): void {
    this.skipBlank(false);
    const c = this.text[this.pos];
    if (c === undefined) return;
    if (c === "\r" && this.text[this.pos + 1] === "\n") this.pos += 1;
    if (this.text[this.pos] !== "\n") this.fail("expected the end of the line");
    this.pos += 1;
  }

  private expect(token: string): void {
    if (!this.text.startsWith(token, this.pos)) this.fail(`expected "${token}"`);
    this.pos += token.length;
  }

  private fail(message: string): never {
    throw new TomlError(message, this.text.slice(0, this.pos).split("\n").length);
  }
}
