/**
 * Issue 20, thirty-seventh attack run: on `nodeSqliteStorage(file)` shared by two processes (documented as
 * supported), `workspace.fs.appendFile` reads the file's row (`#target`: size, single chunk id) and its revision
 * stamp (`stampOf`) in two separate statements outside any transaction (src/fs/write.ts `FileWriter.append`). When
 * another process commits a write to the file between them, the append takes the new stamp with the old row: its
 * commit check ("unchanged since": same inode and stamp) passes, and it splices onto the old content. The other
 * process's write is lost, and `ChunkStore.splice` releases the old chunk id (which the file no longer references):
 * the new content's chunk leaks (refs 1, no reference) and the old chunk loses a reference it still has — when
 * another file shares it (same bytes, deduplicated), the next sweep deletes it and that file reads `EIO`.
 * Tried: a Workspace on a SQLite file; /f and /g both "aaaa" (one shared chunk); `appendFile("/f", "XY")` while
 * another process (the built dist/, `execFileSync`) runs `writeFile("/f", "bbbb")` exactly between the two
 * statements (injected through the storage's `sql.exec`, the first `SELECT rev FROM __ws_nodes WHERE ino = ?`); then
 * a write + rm to run the sweep. Also two processes left to race freely for 4 s (A appending, B rewriting /f):
 * only 11 appends and 131 writes (fsync per commit), no hit — the window is two statements wide.
 * Held (by reading the code): a write committed before the row read, or after the stamp read, is seen (re-made on it);
 * within one process (one Durable Object) the two statements cannot be split; multi-chunk files read their tail
 * through the chunk-list rows, which are the new ones (consistent, or `EIO` when the sizes disagree).
 * Found (medium — silent loss of the other process's write and of an unrelated file's content, in a narrow window
 * that two busy processes on one store eventually hit; 3 of 3 runs with the injection): /f = "aaaaXY" (want
 * "bbbbXY"), the store then has refs off by one on both chunks, and /g reads `EIO: stored chunk 0 is missing`.
 * Suggested fix: src/fs/write.ts `FileWriter.append`: read the row and its stamp in one statement (or re-read the
 * row after `stampOf` and start again when its size/chunk moved), and check at commit that the file's size and
 * chunk are still the ones the tail was read from. `#pin` (writeFile's `ifMatch`) has the same two-statement read.
 * Fixed: the append reads the file's stamp first, then its row and partial chunk by inode (`FileWriter.#appendBase`);
 * `#pin` (ifMatch / ifUnmodified) does the same: a stamp unchanged at commit covers every read made after it (issue 20,
 * run 37, fixer AP). Siblings: test/node/fix37/fs-append-turns.test.ts.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

const text = (ws: Workspace, p: string) =>
  ws.fs.readFile(p).then(
    async (s) => new TextDecoder().decode(new Uint8Array(await new Response(s).arrayBuffer())),
    (e: { code?: string }) => e.code,
  );

it("another process's write between the append's row read and stamp read is kept, and no other file loses its chunk", async () => {
  const dir = mkdtempSync(join(tmpdir(), "attack37g-"));
  const file = join(dir, "w.db");
  const storage = nodeSqliteStorage(file);
  try {
    const ws = new Workspace({ storage });
    await ws.fs.writeFile("/f", "aaaa");
    await ws.fs.writeFile("/g", "aaaa");
    const exec = storage.sql.exec;
    let armed = true;
    // The other process commits its write right before the append reads the file's stamp.
    (storage.sql as { exec: typeof exec }).exec = ((query: string, ...args: unknown[]) => {
      if (armed && /SELECT rev FROM __ws_nodes WHERE ino = \?/.test(query)) {
        armed = false;
        const script = `import { Workspace, nodeSqliteStorage } from ${JSON.stringify(join(process.cwd(), "dist/index.js"))};
          const s = nodeSqliteStorage(process.argv[1]);
          await new Workspace({ storage: s }).fs.writeFile("/f", "bbbb");
          s.close();`;
        execFileSync(process.execPath, ["--input-type=module", "-e", script, file], { stdio: "inherit" });
      }
      return exec(query, ...(args as never[]));
    }) as typeof exec;
    await ws.fs.appendFile("/f", "XY");
    (storage.sql as { exec: typeof exec }).exec = exec;
    expect(armed).toBe(false);
    // Was: "aaaaXY" (the other process's "bbbb" lost).
    expect(await text(ws, "/f")).toBe("bbbbXY");
    // Was: refs differ from references (the "bbbb" chunk leaked), inode /g names a missing chunk.
    expect(integrityProblems(storage.sql as never)).toEqual([]);
    await ws.fs.writeFile("/h", "zzz");
    await ws.fs.rm("/h"); // a sweep
    // Was: "EIO" (stored chunk 0 is missing).
    expect(await text(ws, "/g")).toBe("aaaa");
  } finally {
    storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
