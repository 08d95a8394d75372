/**
 * "No SQL outside the storage owners" (DESIGN.md): every statement lives in
 * the module that owns its table, and nothing else calls the database.
 *
 * The check parses every `src/**\/*.ts` file with the TypeScript compiler (so
 * comments and prose never count) and flags, outside the owners below:
 *
 * - a call of a database method (`exec`, `all`, `one`, `run`, `tx`,
 *   `prepare`, `transaction`, `transactionSync`) on a database-shaped
 *   receiver: one named `db`, `sql`, `storage` or `database` (also
 *   `#db`, `this.db`, `ctx.storage.sql`, `fooDb`, …). `runtime.exec(…)`,
 *   `Promise.all(…)`, `store.run(…)` and `/re/.exec(…)` are not SQL;
 * - any mention of `transactionSync`;
 * - string or template text that names a workspace table (`__ws_…`) or
 *   starts like a statement (`SELECT … FROM`, `INSERT INTO`, `DELETE FROM`, …).
 *
 * Inside the owners, a statement that changes a table (`INSERT INTO`,
 * `UPDATE`, `DELETE FROM`) must be in that table's owner; reads may join
 * other tables (a path walk fetching a small file's bytes, a subtree's
 * chunk references).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../../..");
const src = join(root, "src");

/** The modules allowed to talk to the database, and the tables each one changes. */
const OWNERS: Record<string, readonly string[]> = {
  /** The tree: inode rows, path resolution, listings, and its change log (tombstones of deleted and renamed paths). */
  "src/fs/nodes.ts": ["__ws_nodes", "__ws_tombstones"],
  /** Content: chunk index, chunk bytes, chunk lists and their reference counts. */
  "src/fs/chunks.ts": ["__ws_chunks", "__ws_blobs", "__ws_file_chunks", "__ws_chunk_leases"],
  /** Mount records (spec 01 §6). */
  "src/fs/mount-records.ts": ["__ws_mounts"],
  /** DDL of every VFS table, and the schema version. */
  "src/fs/schema.ts": ["__ws_meta"],
  /** The JavaScript backend's durable run journal. */
  "src/backends/worker-javascript/journal.ts": ["__ws_exec_runs", "__ws_exec_events"],
  /** Restart and replay runs' saved start, journal of calls and tape (spec 02 §5). */
  "src/backends/worker-javascript/durable.ts": ["__ws_exec_durable", "__ws_exec_calls", "__ws_exec_answers", "__ws_exec_tape", "__ws_exec_spec"],
  /** Container sync: per-backend push cursor and pending pull, and the manifest of what the container holds (spec 02 §7.3). */
  "src/runtime/sync.ts": ["__ws_sync_state", "__ws_sync_manifest", "__ws_sync_temps", "__ws_sync_owed"],
};

/** The storage layer: the SQL interface and its adapters (Durable Object, node:sqlite). */
const STORAGE_DIR = "src/storage/";

const isOwner = (file: string) => file in OWNERS || file.startsWith(STORAGE_DIR);

const DB_METHODS = new Set(["exec", "all", "one", "run", "tx", "prepare", "transaction", "transactionSync"]);
/** A receiver that is a database handle: `db`, `#db`, `sql`, `storage`, `database`, or a camel-case name ending in one. */
const DB_RECEIVER = /^#?(?:(?:db|sql|storage|database)|[a-z_$][\w$]*(?:Db|Sql|Storage|Database))$/i;
const STATEMENT_START = /^\s*(?:SELECT\s[\s\S]*\sFROM\s|INSERT\s+(?:OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX)\s|DROP\s+(?:TABLE|INDEX)\s|WITH\s+RECURSIVE\s|PRAGMA\s)/;
const WORKSPACE_TABLE = /\b__ws_[a-z_]+\b/;
const CHANGES = /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+(__ws_[a-z_]+)\b/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The last name of a receiver expression: `db` for `this.#db`, `sql` for `ctx.storage.sql`. */
function receiverName(node: ts.Expression): string | undefined {
  if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node)) return node.name.text;
  if (ts.isNonNullExpression(node) || ts.isParenthesizedExpression(node)) return receiverName(node.expression);
  return undefined;
}

interface Finding {
  file: string;
  line: number;
  what: string;
}

/** Database calls and SQL text in one file. */
function scan(file: string, text: string): { calls: Finding[]; sql: { line: number; text: string }[] } {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const calls: Finding[] = [];
  const sql: { line: number; text: string }[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = ts.isNonNullExpression(node.expression) ? node.expression.expression : node.expression;
      if (ts.isPropertyAccessExpression(callee) && DB_METHODS.has(callee.name.text)) {
        const receiver = receiverName(callee.expression);
        if (receiver !== undefined && DB_RECEIVER.test(receiver)) {
          calls.push({ file, line: lineOf(node), what: `${callee.expression.getText(source).replace(/\s+/g, "")}.${callee.name.text}(…)` });
        }
      }
    }
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && node.text === "transactionSync") {
      calls.push({ file, line: lineOf(node), what: "transactionSync" });
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const literal = node.getText(source).slice(1, -1);
      if (WORKSPACE_TABLE.test(literal) || STATEMENT_START.test(literal)) sql.push({ line: lineOf(node), text: literal });
      if (ts.isTemplateExpression(node)) return; // its spans are part of the text just checked
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { calls, sql };
}

const files = sourceFiles(src).map((path) => ({ file: relative(root, path).split("\\").join("/"), text: readFileSync(path, "utf8") }));
const scanned = files.map(({ file, text }) => ({ file, ...scan(file, text) }));

describe("SQL lives in its owners", () => {
  it("scans the source tree (sanity: the owners are found and do call the database)", () => {
    const found = new Set(files.map((f) => f.file));
    for (const owner of Object.keys(OWNERS)) expect(found, `${owner} is listed as an owner but does not exist`).toContain(owner);
    for (const owner of Object.keys(OWNERS)) {
      expect(scanned.find((s) => s.file === owner)!.calls.length, `${owner} runs no statement: the check no longer sees it`).toBeGreaterThan(0);
    }
  });

  it("no module outside the owners calls the database", () => {
    const offenders = scanned.filter((s) => !isOwner(s.file)).flatMap((s) => s.calls.map((c) => `${c.file}:${c.line} ${c.what}`));
    expect(offenders, "move the statement into its owner module (see OWNERS in this test)").toEqual([]);
  });

  it("no module outside the owners holds SQL text", () => {
    const offenders = scanned
      .filter((s) => !isOwner(s.file))
      .flatMap((s) => s.sql.map((q) => `${s.file}:${q.line} ${q.text.replace(/\s+/g, " ").slice(0, 80)}`));
    expect(offenders, "move the statement into its owner module (see OWNERS in this test)").toEqual([]);
  });

  it("a statement that changes a table lives in that table's owner", () => {
    const owning = new Map<string, string>();
    for (const [owner, tables] of Object.entries(OWNERS)) for (const table of tables) owning.set(table, owner);
    const misplaced: string[] = [];
    for (const s of scanned) {
      if (!(s.file in OWNERS)) continue;
      for (const q of s.sql) {
        for (const [, table] of q.text.matchAll(CHANGES)) {
          if (owning.get(table) !== s.file) misplaced.push(`${s.file}:${q.line} changes ${table} (owner: ${owning.get(table) ?? "none listed"})`);
        }
      }
    }
    expect(misplaced).toEqual([]);
  });

  it("the check itself: flags database calls and SQL, not look-alikes", () => {
    const probe = scan(
      "probe.ts",
      [
        "this.#db.run(`DELETE FROM __ws_nodes WHERE ino = ?`, 1);",
        "this.#db\n  .all<{ root: string }>('SELECT root FROM t');",
        "ctx.storage.sql.exec('SELECT 1 AS x FROM t');",
        "host.db.one(q);",
        "storage.transactionSync!(() => 1);",
        "workspaceDb.tx(() => 1);",
        // look-alikes
        "await runtime.exec(source, options);",
        "await Promise.all(list);",
        "store.run(context, fn);",
        "/x/.exec(text); finder.exec(text); handle.rpc.shell.exec(request);",
        "// db.run('DELETE FROM __ws_nodes') in a comment",
        "throw new Error('SELECT a backend first');",
      ].join("\n"),
    );
    // Line 2 spans two lines. Line 6 twice: a call on `storage`, and the name `transactionSync`.
    expect(probe.calls.map((c) => c.line)).toEqual([1, 2, 4, 5, 6, 6, 7]);
    expect(probe.sql.map((q) => q.line)).toEqual([1, 3, 4]);
  });
});
