/**
 * Issue 20, run 39, fixer CR: the container daemon's side of two fixes, against the real daemon over a temp directory.
 * - `apply` `rename` with `parents: false` answers as rename(2) (what `mv` reports): a missing parent of the target is
 *   `ENOENT`, a parent that is a file `ENOTDIR`, and nothing moves; without it (or `parents: true`) missing parents
 *   are made, as before; `parents` of another type is `EINVAL`.
 * - `scan` gives a skipped name that is not UTF-8 its stat (a link: its target, decoded lossily), and a directory so
 *   named the files and links under it (`inside`, lossy paths); one holding more than SKIP_INSIDE_MAX is `cut`.
 * - The pull over it keeps a synced file moved to a path past PATH_MAX (held back: the pull cannot look there), which
 *   the workers test cannot make (the test host's cleanup cannot remove such a tree; here the test removes it itself).
 * Siblings: test/workers/fix39/container-scan-skips-keep-source.test.ts, test/workers/fix39/container-rename-order.test.ts.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

type Setup = Awaited<ReturnType<typeof realDaemonWorkspace>>;
type Result = { ok: boolean; error?: { code: string; message: string; path?: string } };
type Skip = { path: string; reason: string; stat?: Record<string, unknown>; inside?: { path: string; kind: string; size: number }[]; cut?: true };

describe("fix39: daemon rename parents, scan skip stats", () => {
  let s: Setup;
  beforeEach(async () => {
    s = await realDaemonWorkspace();
  });
  afterEach(async () => {
    // A tree past PATH_MAX: GNU rm walks it relative (fs.rmSync cannot).
    execFileSync("rm", ["-rf", s.dir]);
    await s.close();
  });
  const apply = async (ops: unknown[]): Promise<Result[]> => ((await (s.daemon as unknown as { apply(a: unknown): Promise<{ results: Result[] }> }).apply({ ops })).results);
  const scan = async (): Promise<Skip[]> => {
    const out: Skip[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = (await (s.daemon as unknown as { scan(a: unknown): Promise<{ skipped: Skip[]; cursor: string | null; done: boolean }> }).scan({ cursor })) as { skipped: Skip[]; cursor: string | null; done: boolean };
      out.push(...page.skipped);
      if (page.done) return out;
      cursor = page.cursor;
    }
  };

  it("rename parents: false is ENOENT / ENOTDIR where rename(2) is, and moves nothing; the default makes parents", async () => {
    fs.mkdirSync(path.join(s.dir, "a/u"), { recursive: true });
    fs.writeFileSync(path.join(s.dir, "f"), "f");
    const r = await apply([
      { op: "rename", from: "a/u", to: "b/x", parents: false },
      { op: "rename", from: "a/u", to: "f/x", parents: false },
      { op: "rename", from: "a/u", to: "b/x", parents: "no" },
      { op: "rename", from: "a/u", to: "a/x", parents: false },
      { op: "rename", from: "a/x", to: "c/d/x" },
      { op: "rename", from: "c/d/x", to: "e/x", parents: true },
    ]);
    expect(r.map((x) => (x.ok ? "ok" : `${x.error!.code} ${x.error!.path}`))).toEqual(["ENOENT b", "ENOTDIR f", "EINVAL a/u", "ok", "ok", "ok"]);
    // As mv: `mv a/u b/x` with no b → "cannot move 'a/u' to 'b/x': No such file or directory".
    expect(execFileSync("sh", ["-c", "cd \"$1\" && find . -mindepth 1 | LC_ALL=C sort", "sh", s.dir], { encoding: "utf8" })).toBe("./a\n./c\n./c/d\n./e\n./e/x\n./f\n");
  });

  it("scan: a Latin-1 file, link and directory carry what they are; a big one is cut", async () => {
    const latin = (name: string) => Buffer.from(name, "latin1");
    const at = (...parts: Buffer[]) => Buffer.concat([Buffer.from(s.dir + "/"), ...parts.flatMap((p, i) => (i === 0 ? [p] : [Buffer.from("/"), p]))]);
    fs.writeFileSync(at(latin("n\xe9.md")), "notes");
    fs.symlinkSync("notes.md", at(latin("l\xe9")));
    fs.mkdirSync(at(latin("d\xe9")));
    fs.mkdirSync(at(latin("d\xe9"), Buffer.from("sub")));
    fs.writeFileSync(at(latin("d\xe9"), Buffer.from("sub"), latin("t\xe9")), "todo!");
    fs.mkdirSync(at(latin("D\xe9")));
    for (let i = 0; i < 300; i++) fs.writeFileSync(at(latin("D\xe9"), Buffer.from(`f${i}`)), "");
    const skipped = await scan();
    const by = new Map(skipped.map((k) => [k.path, k]));
    expect([...by.keys()].sort()).toEqual(["D\uFFFD", "d\uFFFD", "l\uFFFD", "n\uFFFD.md"]);
    expect(by.get("n\uFFFD.md")).toMatchObject({ reason: "encoding", stat: { kind: "file", size: 5, mode: 0o644 } });
    expect(by.get("l\uFFFD")).toMatchObject({ reason: "encoding", stat: { kind: "symlink", target: "notes.md", size: 8 } });
    expect(by.get("d\uFFFD")).toMatchObject({ reason: "encoding", stat: { kind: "directory" }, inside: [{ path: "d\uFFFD/sub/t\uFFFD", kind: "file", size: 5 }] });
    expect(by.get("d\uFFFD")!.cut).toBeUndefined();
    const big = by.get("D\uFFFD")!;
    expect([big.cut, big.inside!.length]).toEqual([true, 255]); // 256 lstat calls: the directory and 255 in it
  });

  it("a synced file moved past PATH_MAX is kept in the Workspace, its deletion reported", async () => {
    const { ws } = s;
    await ws.fs.writeFile("/workspace/deep.md", "deep\n");
    const seg = "s".repeat(250);
    const r = await (await ws.runtime.exec(`top="$PWD"; for i in $(seq 17); do mkdir ${seg} && cd -P ${seg} || exit 9; done; mv "$top/deep.md" . && ls`, { backend: "box", encoding: "utf8" })).result();
    expect([r.exitCode, r.stdout]).toEqual([0, "deep.md\n"]);
    const too = r.skipped.find((k) => k.op === "write")!;
    expect(too.reason).toMatch(/^path longer than the container's PATH_MAX/);
    expect(r.skipped).toContainEqual({ path: "/workspace/deep.md", op: "delete", reason: `the container may have moved it into ${too.path}, which this pull cannot look into (${too.reason}): kept, it is not lost` });
    expect(await ws.fs.readFile("/workspace/deep.md", "utf8")).toBe("deep\n");
  });
});
