/**
 * Issue 20, fourteenth attack run: the provider's streamed append (files over 1 MiB, commit 899907c)
 * loses another writer's append — two appends that both succeed leave only one of them in the file.
 *
 * Tried: two Workspaces on one SQLite file (two `SQLiteWorkspaceProvider`s: each has its own per-path
 * append queue), a 2 MiB log, `a.provider().appendFile("/log", "A\n")` and
 * `b.provider().appendFile("/log", "B\n")` at the same time.
 * Held: the same with a 512 KiB log keeps both lines (the in-memory path is guarded by the content's
 * SHA-256 in the commit, and retried).
 * Found (medium, data loss): over 1 MiB the append is streamed and its guard (same size and mtime) is
 * checked by a `stat` in the copy's `flush`, before the store commits — not in the commit. Both copies
 * pass the check before either commits, both resolve, and the second commit replaces the first:
 * the file ends in one line only ("A\n" or "B\n", 3 of 3 runs). node:fs `appendFile` (O_APPEND) never drops a
 * successful append; neither does the provider for files under 1 MiB. The same window lets any write
 * (the tools, `workspace.fs`) landing after the check be overwritten by the copy.
 * Fixed: the streamed append writes with `ifUnmodified: { size, mtime }` (a new writeFile option): checked
 * before the copy is read, and the file's revision again in the commit; ESTALE → retried.
 * Suggested fix: make the guard part of the commit — a writeFile option such as
 * `ifUnchanged: { size, mtime }` (or the inode's version) checked in the commit transaction, ESTALE
 * → retried as the small-file path does.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

async function twoAppends(size: number): Promise<{ settled: string[]; tail: string }> {
  const file = join(mkdtempSync(join(tmpdir(), "a14b-append-")), "db.sqlite");
  const a = new Workspace({ storage: nodeSqliteStorage(file) });
  const b = new Workspace({ storage: nodeSqliteStorage(file) });
  try {
    await a.fs.writeFile("/log", "L".repeat(size));
    const results = await Promise.allSettled([a.provider().appendFile("/log", "A\n"), b.provider().appendFile("/log", "B\n")]);
    const text = await a.fs.readFile("/log", "utf8");
    return { settled: results.map((r) => r.status), tail: text.slice(size) };
  } finally {
    await a.close();
    await b.close();
  }
}

describe("provider appendFile from two Workspaces on one store", () => {
  it("a 512 KiB file keeps both appends (hash-guarded path)", async () => {
    const { settled, tail } = await twoAppends(512 * 1024);
    expect(settled).toEqual(["fulfilled", "fulfilled"]);
    expect(["A\nB\n", "B\nA\n"]).toContain(tail);
  });

  it("a 2 MiB file keeps both appends (streamed path)", async () => {
    const { settled, tail } = await twoAppends(2 * 1024 * 1024);
    expect(settled).toEqual(["fulfilled", "fulfilled"]);
    expect(["A\nB\n", "B\nA\n"]).toContain(tail); // was "A\n" or "B\n": one successful append was gone
  });
});
