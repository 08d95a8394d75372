/**
 * Issue 20, run 40, fixer f40ct: the daemon's side of two fixes, against the real daemon over a temp directory
 * (siblings of test/workers/attack40f/container-link-non-utf8-target-blocks-every-deletion.test.ts and
 * test/workers/attack40f/container-fractional-timeout-fails-every-python-tool.test.ts).
 * - `scan` reports a link with a valid name whose target is not UTF-8 as `reason: "target"` with its lstat (the target
 *   decoded lossily); under a directory whose name is not UTF-8 it stays in `inside` as before. The pull lists it as
 *   `link target is not valid UTF-8`, holds back no deletion for it, and keeps a synced file the command replaced by
 *   such a link (as a fifo there: the write is not applied, nothing is deleted).
 * - A command's `timeoutMs` reaches the daemon as whole ms, rounded up (`200.5` → 201: a fraction never becomes 0,
 *   "no timeout"); NaN, Infinity, a negative number or a string rejects `EINVAL` on the host, the daemon never asked.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { realDaemonWorkspace, workspaceOver, wrapDaemon } from "../attack18c/real-daemon.js";

type Setup = Awaited<ReturnType<typeof realDaemonWorkspace>>;
type Skip = { path: string; reason: string; stat?: Record<string, unknown>; inside?: { path: string; kind: string; target?: string }[] };

describe("fix40: a link whose target is not UTF-8; a fractional timeoutMs", () => {
  let s: Setup;
  beforeEach(async () => {
    s = await realDaemonWorkspace();
  });
  afterEach(async () => {
    await s.close();
  });
  const latin = (name: string) => Buffer.from(name, "latin1");
  const at = (...parts: Buffer[]) => Buffer.concat([Buffer.from(s.dir + "/"), ...parts.flatMap((p, i) => (i === 0 ? [p] : [Buffer.from("/"), p]))]);
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
  const sh = async (command: string, timeoutMs?: number) => (await s.ws.runtime.exec(command, { backend: "box", encoding: "utf8", ...(timeoutMs === undefined ? {} : { timeoutMs }) })).result();

  it("scan: a link whose target is not UTF-8 is skipped as \"target\" with its stat; inside a Latin-1 directory as before", async () => {
    fs.symlinkSync(latin("x\xe9"), at(Buffer.from("weird")));
    fs.mkdirSync(at(latin("d\xe9")));
    fs.symlinkSync(latin("y\xe9"), at(latin("d\xe9"), Buffer.from("l")));
    const skipped = await scan();
    expect(skipped.map((k) => k.path).sort()).toEqual(["d\uFFFD", "weird"]);
    const weird = skipped.find((k) => k.path === "weird")!;
    expect(weird).toMatchObject({ reason: "target", stat: { kind: "symlink", target: "x\uFFFD", size: 2, mode: 0o777 } });
    expect(weird.inside).toBeUndefined();
    expect(skipped.find((k) => k.path === "d\uFFFD")).toMatchObject({ reason: "encoding", inside: [{ path: "d\uFFFD/l", kind: "symlink", target: "y\uFFFD" }] });
  });

  it("pull: listed with its own reason; deletions beside it apply; a synced file it replaced is kept", async () => {
    const { ws } = s;
    await ws.fs.writeFile("/workspace/gone.md", "gone\n");
    await ws.fs.writeFile("/workspace/notes.md", "notes\n");
    expect((await sh("true")).exitCode).toBe(0);
    const r = await sh(`ln -s "$(printf 'x\\351')" weird && rm gone.md && rm notes.md && ln -s "$(printf 'n\\351')" notes.md`);
    expect(r.exitCode).toBe(0);
    expect(r.skipped).toEqual([
      { path: "/workspace/notes.md", op: "write", reason: "link target is not valid UTF-8" },
      { path: "/workspace/weird", op: "write", reason: "link target is not valid UTF-8" },
    ]);
    expect((await ws.fs.readdir("/workspace")).map((e) => e.name)).toEqual(["notes.md"]);
    expect(await ws.fs.readFile("/workspace/notes.md", "utf8")).toBe("notes\n");
    // Once the link is gone, the next pull is clean.
    const r2 = await sh("rm weird");
    expect(r2.skipped).toEqual([{ path: "/workspace/notes.md", op: "write", reason: "link target is not valid UTF-8" }]);
  });

  it("exec: a fractional timeoutMs is sent rounded up and still times the command out; NaN, Infinity, -1, a string: EINVAL on the host", async () => {
    const sent: unknown[] = [];
    const daemon = wrapDaemon(s.daemon, {
      exec: (input: never) => {
        sent.push((input as { timeoutMs?: unknown }).timeoutMs);
        return (s.daemon as unknown as { exec(i: unknown): Promise<unknown> }).exec(input);
      },
    });
    const ws = await workspaceOver(daemon);
    try {
      const run = async (command: string, timeoutMs: unknown) => (await ws.runtime.exec(command, { backend: "box", encoding: "utf8", timeoutMs: timeoutMs as number })).result();
      const ok = await run("echo hi", 1500.5);
      expect([ok.exitCode, ok.stdout]).toEqual([0, "hi\n"]);
      const started = Date.now();
      const slow = await run("sleep 5", 200.5);
      expect(slow.exitCode).toBe(143); // SIGTERM at the (rounded) timeout
      expect(Date.now() - started).toBeLessThan(4000);
      await run("true", 0.25); // sent as 1 ms: a fraction never becomes 0, "no timeout"
      expect(sent).toEqual([1501, 201, 1]);
      for (const bad of [NaN, Infinity, -1, -0.5, "100"]) {
        const e = await ws.runtime.exec("echo no", { backend: "box", timeoutMs: bad as number }).then(() => null, (err: unknown) => err);
        expect(e).toMatchObject({ code: "EINVAL" });
        expect((e as Error).message).toMatch(/timeoutMs must be a non-negative number of milliseconds \(got (NaN|Infinity|-1|-0\.5|"100")\)/);
      }
      expect(sent).toEqual([1501, 201, 1]);
    } finally {
      await ws.close();
    }
  });
});
