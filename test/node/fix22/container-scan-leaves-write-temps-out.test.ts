/**
 * Fix22 FCD2 (leftover of attack22c/container-push-enospc-torn-file-pulled-over-workspace): a whole-file `write` goes
 * to `.ws-sync-write-<16 hex>` beside the file and is renamed into place (container/lib/sync.mjs `writeWhole`). A daemon
 * that died between creating that temporary and the rename left it there, and the next scan listed it like any file:
 * the pull copied the half-written temporary into the Workspace as if the command had made it.
 *
 * Fixed: `scan` never lists a regular file whose name is exactly `.ws-sync-write-` and 16 lowercase hex digits
 * (`WRITE_TEMP`), and removes one whose mtime is older than a minute (`WRITE_TEMP_STALE_MS`; a write in flight moves
 * its mtime with each piece). Names that only look alike, and a directory so named, sync as before.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

type Setup = Awaited<ReturnType<typeof realDaemonWorkspace>>;
type Page = { entries: { path: string }[]; skipped: unknown[]; cursor: string | null; done: boolean };

const FRESH = ".ws-sync-write-0123456789abcdef";
const STALE = ".ws-sync-write-fedcba9876543210";
/** Names like the temporaries' that are not theirs: ordinary files. */
const ALIKE = [
  ".ws-sync-write-0123456789abcde", // 15 digits
  ".ws-sync-write-0123456789abcdef0", // 17
  ".ws-sync-write-0123456789ABCDEF", // upper case
  ".ws-sync-write-0123456789abcdeg", // not hex
  "x.ws-sync-write-0123456789abcdef",
  ".ws-sync-write-",
];

describe("fix22: the daemon's scan leaves its write temporaries out", () => {
  let s: Setup;
  beforeEach(async () => {
    s = await realDaemonWorkspace();
  });
  afterEach(async () => {
    await s.close();
  });
  const scanAll = async (limit?: number): Promise<string[]> => {
    const out: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = (await (s.daemon as unknown as { scan(a: unknown): Promise<Page> }).scan({ cursor, limit })) as Page;
      out.push(...page.entries.map((e) => e.path));
      expect(page.skipped).toEqual([]);
      if (page.done) return out;
      cursor = page.cursor;
    }
  };

  it("a temporary a dead daemon left is never pulled; a stale one is removed; names alike and a directory so named sync", async () => {
    const { ws, dir } = s;
    const ls = async (p: string): Promise<string[]> => ((await ws.fs.readdir(p)) as unknown as { name: string }[]).map((e) => e.name).sort();
    const old = new Date(Date.now() - 120_000);
    fs.mkdirSync(path.join(dir, "sub"));
    fs.writeFileSync(path.join(dir, FRESH), "half of a pushed fi");
    fs.writeFileSync(path.join(dir, "sub", STALE), "half of another");
    fs.utimesSync(path.join(dir, "sub", STALE), old, old);
    for (const n of ALIKE) fs.writeFileSync(path.join(dir, n), n);
    fs.mkdirSync(path.join(dir, ".ws-sync-write-1111111111111111"));
    fs.writeFileSync(path.join(dir, ".ws-sync-write-1111111111111111", "inside"), "in");
    fs.symlinkSync("sub", path.join(dir, ".ws-sync-write-2222222222222222"));

    const r = await (await ws.runtime.exec("printf made > made.txt", { backend: "box", encoding: "utf8" })).result();
    expect(r.exitCode).toBe(0);
    const expected = [...ALIKE, ".ws-sync-write-1111111111111111", ".ws-sync-write-2222222222222222", "made.txt", "sub"].sort();
    expect(await ls("/workspace")).toEqual(expected);
    expect(await ls("/workspace/sub")).toEqual([]);
    expect(await ls("/workspace/.ws-sync-write-1111111111111111")).toEqual(["inside"]);
    for (const n of ALIKE) expect(await ws.fs.readFile(`/workspace/${n}`, "utf8")).toBe(n);
    // On the container's disk: the fresh one (perhaps a write in flight) is left, the stale one is gone.
    expect(fs.readdirSync(dir).sort()).toEqual([...expected, FRESH].sort());
    expect(fs.readdirSync(path.join(dir, "sub"))).toEqual([]);

    // The next command's pull after the fresh one went stale: removed, still never in the Workspace.
    fs.utimesSync(path.join(dir, FRESH), old, old);
    expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).exitCode).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual(expected);
    expect(await ls("/workspace")).toEqual(expected);
  });

  it("scan pages of one entry step over a temporary (the cursor may end on it) and list the rest once", async () => {
    const { dir } = s;
    for (const n of ["a", FRESH, "b", STALE, "c"]) fs.writeFileSync(path.join(dir, n), n);
    const all = await scanAll();
    expect(all).toEqual(["a", "b", "c"]);
    expect(await scanAll(1)).toEqual(all);
    expect(fs.readdirSync(dir).sort()).toEqual(["a", "b", "c", FRESH, STALE].sort());
  });

  it("a Workspace file named as a temporary is not pushed, so no pull takes it for deleted (src/runtime/sync.ts)", async () => {
    const { ws, dir } = s;
    await ws.fs.mkdir("/workspace/sub", { recursive: true });
    await ws.fs.writeFile(`/workspace/${FRESH}`, "mine");
    await ws.fs.writeFile(`/workspace/sub/${STALE}`, "mine too");
    for (let i = 0; i < 2; i++) {
      const r = await (await ws.runtime.exec("ls -a | sort | tr '\\n' ' '", { backend: "box", encoding: "utf8" })).result();
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(". .. sub ");
    }
    expect(await ws.fs.readFile(`/workspace/${FRESH}`, "utf8")).toBe("mine");
    expect(await ws.fs.readFile(`/workspace/sub/${STALE}`, "utf8")).toBe("mine too");
    expect(fs.readdirSync(dir).sort()).toEqual(["sub"]);
  });
});
