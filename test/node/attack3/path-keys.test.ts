/**
 * Issue 20 third attack run, category 3: names that collide with how paths
 * are stored and matched — the path-key separator U+0001 and its escape
 * U+0002/U+0003, SQL LIKE wildcards `%` and `_`, glob characters — in names
 * of directories whose subtree is removed, moved, listed, found and grepped.
 * Siblings that share a prefix with the subtree stay untouched.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

const SIBLINGS = ["a\u0001", "a\u0002", "a\u0003", "a\u0001b", "a\u0002\u0002", "a b", "a%", "a_", "a*", "a?", "a[1]", "a\\", "ab"];

async function tree() {
  const storage = nodeSqliteStorage(":memory:");
  const ws = new Workspace({ storage });
  await ws.fs.mkdir("/a/in", { recursive: true });
  await ws.fs.writeFile("/a/in/f", "inside needle\n");
  for (const s of SIBLINGS) {
    await ws.fs.mkdir(`/${s}/in`, { recursive: true });
    await ws.fs.writeFile(`/${s}/in/f`, `sibling ${JSON.stringify(s)} needle\n`);
  }
  return { ws, sql: storage.sql };
}

const siblingFiles = SIBLINGS.map((s) => `/${s}/in/f`);

describe("attack3: names that look like the store's own separators and wildcards", () => {
  it("find, grep and ls of /a see only /a's subtree; each sibling is found by its own name", async () => {
    const { ws } = await tree();
    expect((await ws.fs.find("/a")).map((e) => e.path)).toEqual(["/a/in", "/a/in/f"]);
    expect((await ws.fs.grep("needle", "/a")).map((m) => m.path)).toEqual(["/a/in/f"]);
    expect(await ws.fs.ls("/a/")).toEqual(["/a/in/f"]);
    // segment-aware (spec 01 §3.3): never a sibling that merely starts with "a"
    expect(await ws.fs.ls("/a")).toEqual(["/a/in/f"]);
    expect(await ws.fs.ls("/a%")).toEqual(["/a%/in/f"]);
    expect(await ws.fs.ls("/a_")).toEqual(["/a_/in/f"]);
    expect(await ws.fs.ls("/a\u0001")).toEqual(["/a\u0001/in/f"]);
    for (const s of SIBLINGS) {
      expect((await ws.fs.find(`/${s}`)).map((e) => e.path), JSON.stringify(s)).toEqual([`/${s}/in`, `/${s}/in/f`]);
      expect(await ws.fs.readFile(`/${s}/in/f`, "utf8")).toBe(`sibling ${JSON.stringify(s)} needle\n`);
    }
    // the whole tree, every file once, in one order
    const all = (await ws.fs.find("/", "**/f")).map((e) => e.path);
    expect([...all].sort()).toEqual(["/a/in/f", ...siblingFiles].sort());
    expect(new Set(all).size).toBe(all.length);
    expect((await ws.fs.grep("needle", "/")).length).toBe(SIBLINGS.length + 1);
  });

  it("rm -r and rename of /a move only /a's subtree", async () => {
    const { ws, sql } = await tree();
    await ws.fs.rename("/a", "/a\u0002\u0003");
    expect(await ws.fs.readFile("/a\u0002\u0003/in/f", "utf8")).toBe("inside needle\n");
    for (const f of siblingFiles) expect(await ws.fs.stat(f).then(() => "ok", (e) => e.code), f).toBe("ok");
    await ws.fs.rm("/a\u0002\u0003", { recursive: true });
    for (const f of siblingFiles) expect(await ws.fs.stat(f).then(() => "ok", (e) => e.code), f).toBe("ok");
    expect((await ws.fs.find("/", "**/f")).length).toBe(SIBLINGS.length);
    for (const s of SIBLINGS) await ws.fs.rm(`/${s}`, { recursive: true });
    expect(await ws.fs.readdir("/")).toEqual([]);
    expect(integrityProblems(sql)).toEqual([]);
  });
});
