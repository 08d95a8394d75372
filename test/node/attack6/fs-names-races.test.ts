/**
 * Issue 20 sixth attack run, category 3 (hostile filesystem input) through
 * workspace.fs on Node, on angles runs 2–5 did not take:
 * - lone UTF-16 surrogates in names (`s\uD800`, `s\uDC00`): canonicalised to
 *   U+FFFD as Node's fs does (src/fs/path.ts), so both spell ONE file — the
 *   documented behaviour, asserted exactly so a change is seen;
 * - bidi override (U+202E) and zero-width (U+200B) names: distinct files,
 *   found by find and grep, removable;
 * - rename onto itself (no-op, content kept); a link renamed onto its own
 *   target (POSIX: the link replaces the file; reading it then is ELOOP);
 *   a directory moved into its own subtree through a link (EINVAL);
 *   rename of a path ending in `..` (normalised first);
 * - races: 100 concurrent `mkdir -p` of one deep path; two `rm -r` of one
 *   tree, an `rm -r` of its subtree, a write into it and a rename of it, all
 *   at once; ten `find`s through a link while its target directory is
 *   renamed away and back twenty times.
 * After each: storage integrity (refs, chunk lists, reachability) is sound.
 * All withstood.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { Workspace } from "../../../src/workspace.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

function fresh() {
  const storage = nodeSqliteStorage(":memory:");
  return { ws: new Workspace({ storage }), sql: storage.sql };
}
const code = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; message?: string }) => e.code ?? `no code: ${e.message}`);

describe("attack6: hostile names and races through workspace.fs", () => {
  it("lone surrogates become U+FFFD (one file, as Node's fs); bidi and zero-width names are distinct, found and removable", async () => {
    const { ws, sql } = fresh();
    await ws.fs.mkdir("/w");
    await ws.fs.writeFile("/w/s\uD800", "hi");
    await ws.fs.writeFile("/w/s\uDC00", "lo");
    expect(await ws.fs.readFile("/w/s\uFFFD", "utf8")).toBe("lo");
    expect(await ws.fs.readFile("/w/s\uD800", "utf8")).toBe("lo");
    expect((await ws.fs.readdir("/w")).map((e) => e.name)).toEqual(["s\uFFFD"]);
    await ws.fs.writeFile("/w/\u202Etxt.exe", "bidi");
    await ws.fs.writeFile("/w/zw\u200B", "zero-width");
    await ws.fs.writeFile("/w/zw", "plain");
    expect([await ws.fs.readFile("/w/zw\u200B", "utf8"), await ws.fs.readFile("/w/zw", "utf8")]).toEqual(["zero-width", "plain"]);
    expect((await ws.fs.find("/w", "*.exe")).map((e) => e.path)).toEqual(["/w/\u202Etxt.exe"]);
    expect((await ws.fs.grep("bidi", "/w")).map((m) => m.path)).toEqual(["/w/\u202Etxt.exe"]);
    for (const n of ["\u202Etxt.exe", "zw\u200B", "s\uD800"]) await ws.fs.rm(`/w/${n}`);
    expect((await ws.fs.readdir("/w")).map((e) => e.name)).toEqual(["zw"]);
    expect(integrityProblems(sql)).toEqual([]);
  });

  it("rename onto itself, a link onto its own target, into its own subtree through a link, and onto `x/..`", async () => {
    const { ws, sql } = fresh();
    await ws.fs.mkdir("/w");
    await ws.fs.writeFile("/w/a", "AAA");
    expect(await code(ws.fs.rename("/w/a", "/w/a"))).toBe("ok");
    expect(await ws.fs.readFile("/w/a", "utf8")).toBe("AAA");
    await ws.fs.symlink("/w/a", "/w/la");
    // rename(2) moves the link itself: /w/a becomes a link to itself (as on Linux)
    expect(await code(ws.fs.rename("/w/la", "/w/a"))).toBe("ok");
    expect((await ws.fs.lstat("/w/a")).isSymbolicLink).toBe(true);
    expect(await code(ws.fs.readFile("/w/a", "utf8"))).toBe("ELOOP");
    await ws.fs.mkdir("/d1/x", { recursive: true });
    await ws.fs.symlink("/d1/x", "/lx");
    expect(await code(ws.fs.rename("/d1", "/lx/d1"))).toBe("EINVAL");
    expect(await code(ws.fs.rename("/d1", "/d1/x/d1"))).toBe("EINVAL");
    // "/d1/x/.." is "/d1": a non-empty directory onto itself's parent
    expect(await code(ws.fs.rename("/d1/x", "/d1/x/.."))).toBe("ENOTEMPTY");
    expect((await ws.fs.find("/d1", "**")).map((e) => e.path)).toEqual(["/d1/x"]);
    expect(integrityProblems(sql)).toEqual([]);
  });

  it("races: 100 mkdir -p of one path; rm -r twice + rm of a subtree + a write + a rename at once; finds through a link while its target moves", async () => {
    const { ws, sql } = fresh();
    await Promise.all(Array.from({ length: 100 }, () => ws.fs.mkdir("/r/a/b/c/d", { recursive: true })));
    expect((await ws.fs.find("/r", "**")).map((e) => e.path)).toEqual(["/r/a", "/r/a/b", "/r/a/b/c", "/r/a/b/c/d"]);
    for (let i = 0; i < 50; i++) await ws.fs.writeFile(`/r/a/b/f${i}`, "x".repeat(i * 1000));
    const settled = await Promise.all([
      code(ws.fs.rm("/r", { recursive: true })),
      code(ws.fs.rm("/r", { recursive: true })),
      code(ws.fs.rm("/r/a/b", { recursive: true })),
      code(ws.fs.writeFile("/r/a/b/late", "late")),
      code(ws.fs.rename("/r/a", "/moved")),
    ]);
    // the first removal wins whole; every other call finds nothing
    expect(settled).toEqual(["ok", "ENOENT", "ENOENT", "ENOENT", "ENOENT"]);
    expect((await ws.fs.readdir("/")).map((e) => e.name)).toEqual([]);
    expect(integrityProblems(sql)).toEqual([]);

    await ws.fs.mkdir("/sw/real/x", { recursive: true });
    for (let i = 0; i < 300; i++) await ws.fs.writeFile(`/sw/real/x/f${i}`, "y");
    await ws.fs.symlink("/sw/real", "/sw/l");
    const finds = Promise.all(Array.from({ length: 10 }, () => ws.fs.find("/sw", "**").then((r) => r.length)));
    for (let i = 0; i < 20; i++) {
      await ws.fs.rename("/sw/real", "/sw/real2");
      await ws.fs.rename("/sw/real2", "/sw/real");
    }
    // each find sees one consistent tree: /sw/l, /sw/real, /sw/real/x and 300 files
    expect(await finds).toEqual(Array.from({ length: 10 }, () => 303));
    expect(integrityProblems(sql)).toEqual([]);
  });
});
