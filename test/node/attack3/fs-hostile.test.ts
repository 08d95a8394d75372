/**
 * Issue 20 third attack run, category 3: hostile filesystem input through
 * workspace.fs — NUL bytes, dot segments, Unicode twins, very long names,
 * link loops, renames into their own subtree, concurrent writes to one
 * file, huge directories and deep trees. Each probe checks the error code
 * and that storage stays sound (refs match references, nothing orphaned).
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { integrityProblems, unleasedOrphans } from "../../shared/attack3/integrity.js";
import { expectFilesReadWhole, writeTwentyTrees } from "./fs-helpers.js";

function fresh() {
  const storage = nodeSqliteStorage(":memory:");
  const ws = new Workspace({ storage });
  return { ws, sql: storage.sql };
}
const code = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; message?: string }) => e.code ?? `no code: ${e.message}`);
const nodes = (sql: { exec(q: string): { toArray(): object[] } }) => (sql.exec("SELECT count(*) AS n FROM __ws_nodes").toArray()[0] as { n: number }).n;

describe("attack3: hostile paths through workspace.fs", () => {
  it("a NUL byte anywhere is EINVAL for every method and creates nothing", async () => {
    const { ws, sql } = fresh();
    await ws.fs.mkdir("/d");
    await ws.fs.writeFile("/d/f", "x");
    const before = nodes(sql);
    const bad = ["/d/a\0b", "/d\0/f", "\0", "/d/f\0"];
    for (const p of bad) {
      expect(await code(ws.fs.writeFile(p, "y")), p).toBe("EINVAL");
      expect(await code(ws.fs.mkdir(p, { recursive: true })), p).toBe("EINVAL");
      expect(await code(ws.fs.readFile(p, "utf8")), p).toBe("EINVAL");
      expect(await code(ws.fs.stat(p)), p).toBe("EINVAL");
      expect(await code(ws.fs.rm(p, { recursive: true, force: true })), p).toBe("EINVAL");
      expect(await code(ws.fs.rename("/d/f", p)), p).toBe("EINVAL");
      expect(await code(ws.fs.rename(p, "/d/g")), p).toBe("EINVAL");
      expect(await code(ws.fs.symlink("/d/f", p)), p).toBe("EINVAL");
      expect(await code(ws.fs.chmod(p, 0o644)), p).toBe("EINVAL");
    }
    expect(await code(ws.fs.symlink("/d/\0", "/d/l"))).toBe("EINVAL");
    expect(nodes(sql)).toBe(before);
    expect(await ws.fs.readFile("/d/f", "utf8")).toBe("x");
    expect(integrityProblems(sql)).toEqual([]);
  });

  it("dot segments stay at / (no parent of the root), and '..' in a rename cannot escape or self-nest", async () => {
    const { ws, sql } = fresh();
    await ws.fs.mkdir("/a/b", { recursive: true });
    await ws.fs.writeFile("/a/../a/./b//f/", "x");
    expect(await ws.fs.readFile("/a/b/f", "utf8")).toBe("x");
    // '..' above the root is EINVAL (spec 01 §2.1), for reads and writes alike
    expect(await code(ws.fs.readdir("/.."))).toBe("EINVAL");
    expect(await code(ws.fs.writeFile("/../a/b/g", "x"))).toBe("EINVAL");
    expect(await code(ws.fs.symlink("/a", "/a/../../l"))).toBe("EINVAL");
    // into its own subtree, spelt plainly and with dot segments
    expect(await code(ws.fs.rename("/a", "/a/b/c"))).toBe("EINVAL");
    expect(await code(ws.fs.rename("/a", "/a/b/../b/./c"))).toBe("EINVAL");
    expect(await code(ws.fs.rename("/a/b", "/a/b/b"))).toBe("EINVAL");
    // the root cannot be moved, removed or replaced
    expect(await code(ws.fs.rename("/", "/a/r"))).not.toBe("ok");
    expect(await code(ws.fs.rename("/a", "/"))).not.toBe("ok");
    expect(await code(ws.fs.rm("/", { recursive: true }))).not.toBe("ok");
    expect(await code(ws.fs.rm("/..", { recursive: true }))).not.toBe("ok");
    expect(await ws.fs.readFile("/a/b/f", "utf8")).toBe("x");
    // a rename onto itself changes nothing
    await ws.fs.rename("/a/b/f", "/a/b/./f");
    expect(await ws.fs.readFile("/a/b/f", "utf8")).toBe("x");
    expect(integrityProblems(sql)).toEqual([]);
  });

  it("a name that is its own NFC/NFD twin is two files, each read back as written", async () => {
    const { ws, sql } = fresh();
    const nfc = "/caf\u00e9";
    const nfd = "/cafe\u0301";
    await ws.fs.writeFile(nfc, "composed");
    await ws.fs.writeFile(nfd, "decomposed");
    expect(await ws.fs.readFile(nfc, "utf8")).toBe("composed");
    expect(await ws.fs.readFile(nfd, "utf8")).toBe("decomposed");
    expect((await ws.fs.readdir("/")).map((e) => e.name).sort()).toEqual([nfd.slice(1), nfc.slice(1)].sort());
    // a lone surrogate cannot be stored as UTF-8: it is stored as U+FFFD, as Node's fs
    // does on Linux (writeFileSync("x\ud800y") creates "x\ufffdy"), so both spellings name one file
    await ws.fs.writeFile("/x\ud800y", "lone");
    expect(await ws.fs.readFile("/x\ud800y", "utf8")).toBe("lone");
    expect(await ws.fs.readFile("/x\ufffdy", "utf8")).toBe("lone");
    expect((await ws.fs.readdir("/")).map((e) => e.name)).toContain("x\ufffdy");
    expect(integrityProblems(sql)).toEqual([]);
  });

  it("a 100,000-character name and a 300-deep path work and are removed whole", async () => {
    const { ws, sql } = fresh();
    const long = "n".repeat(100_000);
    await ws.fs.mkdir(`/${long}`);
    await ws.fs.writeFile(`/${long}/f`, "x");
    expect(await ws.fs.readFile(`/${long}/f`, "utf8")).toBe("x");
    expect((await ws.fs.stat(`/${long}/f`)).size).toBe(1);
    const deep = "/" + Array.from({ length: 300 }, (_, i) => `d${i}`).join("/");
    await ws.fs.mkdir(deep, { recursive: true });
    await ws.fs.writeFile(`${deep}/leaf`, "deep");
    await ws.fs.symlink(`${deep}/leaf`, "/short");
    expect(await ws.fs.readFile("/short", "utf8")).toBe("deep");
    await ws.fs.rename("/d0", `/${long}/moved`);
    expect(await ws.fs.readFile(`/${long}/moved/${deep.slice(4)}/leaf`, "utf8")).toBe("deep");
    await ws.fs.rm(`/${long}`, { recursive: true });
    expect((await ws.fs.readdir("/")).map((e) => e.name)).toEqual(["short"]);
    expect(await code(ws.fs.readFile("/short", "utf8"))).toBe("ENOENT");
    expect(nodes(sql)).toBe(2);
    expect(integrityProblems(sql)).toEqual([]);
    expect(unleasedOrphans(sql)).toBe(0);
  });

  it("link loops: ELOOP on every following call, nothing created through them, the links themselves removable", async () => {
    const { ws, sql } = fresh();
    await ws.fs.symlink("/b", "/a");
    await ws.fs.symlink("/a", "/b");
    await ws.fs.symlink("self", "/self");
    await ws.fs.mkdir("/d");
    await ws.fs.symlink("../d/..", "/d/up"); // not a loop: /d/up -> /
    const before = nodes(sql);
    for (const p of ["/a", "/b", "/self", "/a/x", "/self/x/y"]) {
      expect(await code(ws.fs.readFile(p, "utf8")), p).toBe("ELOOP");
      expect(await code(ws.fs.stat(p)), p).toBe("ELOOP");
      expect(await code(ws.fs.writeFile(p, "z")), p).toBe("ELOOP");
      expect(await code(ws.fs.mkdir(p + "/m", { recursive: true })), p).toBe("ELOOP");
      expect(await code(ws.fs.readdir(p)), p).toBe("ELOOP");
    }
    expect(await ws.fs.find("/", "**")).toBeInstanceOf(Array); // the walk does not follow links: it ends
    expect(await ws.fs.grep("x", "/")).toEqual([]);
    expect(nodes(sql)).toBe(before);
    expect((await ws.fs.lstat("/a")).isSymbolicLink).toBe(true);
    expect((await ws.fs.readdir("/d/up/d/up/d/up/d")).map((e) => e.name)).toEqual(["up"]);
    await ws.fs.rm("/a");
    await ws.fs.rm("/self");
    expect(await code(ws.fs.readFile("/b", "utf8"))).toBe("ENOENT");
    expect(integrityProblems(sql)).toEqual([]);
  });

  it("41 chained links are ELOOP, 40 resolve", async () => {
    const { ws } = fresh();
    await ws.fs.writeFile("/end", "end");
    await ws.fs.symlink("/end", "/l0");
    for (let i = 1; i <= 40; i++) await ws.fs.symlink(`/l${i - 1}`, `/l${i}`);
    expect(await ws.fs.readFile("/l39", "utf8")).toBe("end");
    expect(await code(ws.fs.readFile("/l40", "utf8"))).toBe("ELOOP");
  });

  it("50 concurrent writes of different sizes to one file: one of them whole, refs exact, no orphans", async () => {
    const { ws, sql } = fresh();
    const bodies = Array.from({ length: 50 }, (_, i) => new Uint8Array((i % 5) * 300_000 + 7).fill(i));
    await Promise.all(bodies.map((b) => ws.fs.writeFile("/f", b)));
    const got = new Uint8Array(await new Response(await ws.fs.readFile("/f")).arrayBuffer());
    const match = bodies.find((b) => b.byteLength === got.byteLength && b[0] === got[0]);
    expect(match).toBeDefined();
    expect(got.every((x) => x === match![0])).toBe(true);
    expect(integrityProblems(sql)).toEqual([]);
    expect(unleasedOrphans(sql)).toBe(0);
  });

  it("concurrent rename, rm and write over one subtree leave a sound tree", async () => {
    const { ws, sql } = fresh();
    await writeTwentyTrees(ws);
    const ops: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      ops.push(ws.fs.rename(`/t${i}`, `/u${i}`).catch(() => undefined));
      ops.push(ws.fs.rm(`/t${i}`, { recursive: true, force: true }).catch(() => undefined));
      ops.push(ws.fs.writeFile(`/t${i}/s/f`, "small").catch(() => undefined));
      ops.push(ws.fs.rename(`/u${(i + 1) % 20}`, `/t${i}/s/g`).catch(() => undefined));
    }
    await Promise.all(ops);
    expect(integrityProblems(sql)).toEqual([]);
    // every file still found reads back whole
    await expectFilesReadWhole(ws);
  });

  it("a 20,000-entry directory: readdir with a limit reads a page, rm -r removes it in one go", async () => {
    const { ws, sql } = fresh();
    await ws.fs.mkdir("/big");
    const ops = [];
    for (let i = 0; i < 20_000; i++) ops.push(ws.fs.writeFile(`/big/f${i}`, ""));
    await Promise.all(ops);
    const page = await ws.fs.readdir("/big", { limit: 10 } as never);
    expect(page.length).toBe(10);
    expect((await ws.fs.readdir("/big")).length).toBe(20_000);
    const t = Date.now();
    await ws.fs.rm("/big", { recursive: true });
    expect(Date.now() - t).toBeLessThan(5000);
    expect(nodes(sql)).toBe(1);
    expect(integrityProblems(sql)).toEqual([]);
  }, 30_000);
});
