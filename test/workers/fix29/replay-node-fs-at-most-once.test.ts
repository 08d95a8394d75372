/**
 * Issue 20, run 29, fixer RP — siblings of test/workers/attack29a/replay-node-fs-mkdir-in-flight-runs-again-eexist.test.ts.
 *
 * In a replay run (`onInterrupt: "replay"`) the run's own node:fs calls whose repeat answers differently — mkdir
 * without recursive, rm without force, symlink, writeFile with flag "wx" — run at most once: their start is journaled
 * before they run (not with the 50 ms flush), and a call in flight when the run was interrupted is not run again when
 * it resumes: it rejects `EEXEC_LOST` ("node:fs <name> '<path>': this call was in flight when the run was interrupted
 * (call "<id>:<n>"), and it may have made its change; it is not run again. Look at the path to see whether it was
 * made."), as ws:tools' changing tools do. The changing calls whose repeat leaves the same tree and answer (writeFile
 * "w", chmod, rm with force) — and mkdir with recursive, whose repeat answers what it made itself — run again.
 * The run's node:fs has no rename (nothing to guard).
 *
 * Each case: a first Workspace runs the code, the chosen Workspace fs method does its work (or not) and never answers
 * (the object evicted before the answer is journaled), the run's owner is set to a gone connection, and a second
 * Workspace on the same storage recovers the run (`runtime.recover()`), as the attack test does.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";

type Fn = (...a: unknown[]) => Promise<unknown>;

const backend = () => new WorkerJavaScriptBackend({ id: "js", loader: env.LOADER, onInterrupt: "replay" });

const lost = (what: string, seq: number) =>
  `node:fs ${what}: this call was in flight when the run was interrupted (call "e:${seq}"), and it may have made its change; it is not run again. Look at the path to see whether it was made.`;

interface Case {
  /** Workspace fs method to stop. */
  method: "mkdir" | "rm" | "symlink" | "writeFile" | "chmod";
  /** Which of its calls never answers. */
  match: (a: unknown[]) => boolean;
  /** Whether that call does its work before hanging. */
  doesWork?: boolean;
  setup?: (ws: Workspace) => Promise<void>;
  code: string;
}

/** Runs `c` to its interruption and recovery; the result, the journal seen when the call began, and the second Workspace. */
async function interrupted(c: Case, state: DurableObjectState) {
  const ws1 = new Workspace({ storage: state.storage, backends: [backend()] });
  await ws1.fs.mkdir("/workspace", { recursive: true });
  await c.setup?.(ws1);
  const fs1 = ws1.fs as unknown as Record<string, Fn>;
  const real = fs1[c.method]!.bind(ws1.fs);
  let journalAtCall: unknown[] | undefined;
  fs1[c.method] = async (...a: unknown[]) => {
    if (!c.match(a)) return real(...a);
    // What is journaled when the Workspace is asked: the call's start is written before it runs.
    journalAtCall = state.storage.sql.exec("SELECT seq, kind, name, state FROM __ws_exec_calls WHERE id = 'e' ORDER BY seq").toArray();
    if (c.doesWork !== false) await real(...a);
    return new Promise<never>(() => {});
  };
  await ws1.runtime.exec(c.code, { id: "e", encoding: "utf8", timeoutMs: 50_000 });
  for (let i = 0; i < 200 && journalAtCall === undefined; i++) await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 300));
  state.storage.sql.exec("UPDATE __ws_exec_runs SET owner = 'an-aborted-instance' WHERE id = 'e'");
  const ws2 = new Workspace({ storage: state.storage, backends: [backend()] });
  await ws2.runtime.recover();
  const r = await (await ws2.runtime.getExec("e", { encoding: "utf8" })).result();
  return { outcome: { status: r.status, exitCode: r.exitCode, value: r.value, stderr: r.stderr }, journalAtCall, ws2 };
}

const inDO = (fn: (state: DurableObjectState) => Promise<void>) =>
  runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => fn(state));

const names = async (ws: Workspace, dir: string) => (await ws.fs.readdir(dir)).map((e) => (typeof e === "string" ? e : e.name)).sort();

describe("replay run: node:fs calls a repeat answers differently run at most once (EEXEC_LOST)", () => {
  it("mkdir: started journaled at once; resumed in flight it rejects EEXEC_LOST, the directory made once", { timeout: 60_000 }, async () => {
    await inDO(async (state) => {
      const { outcome, journalAtCall, ws2 } = await interrupted(
        {
          method: "mkdir",
          match: (a) => a[0] === "/workspace/out",
          code: `import { mkdir, writeFile } from "node:fs/promises";
export default async () => { await mkdir("out"); await writeFile("out/a.txt", "1"); return "ok"; };`,
        },
        state,
      );
      // Written before the Workspace was asked (not with the 50 ms flush).
      expect(journalAtCall).toEqual([{ seq: 1, kind: "fs", name: "mkdir", state: "started" }]);
      expect(outcome).toEqual({ status: "failed", exitCode: 1, value: undefined, stderr: `${lost("mkdir 'out'", 1)}\n` });
      expect((await ws2.fs.stat("/workspace/out")).isDirectory).toBe(true);
      expect(await names(ws2, "/workspace/out")).toEqual([]);
    });
  });

  it("mkdir interrupted before it made anything: still not run again (the journal cannot tell)", { timeout: 60_000 }, async () => {
    await inDO(async (state) => {
      const { outcome, ws2 } = await interrupted(
        {
          method: "mkdir",
          match: (a) => a[0] === "/workspace/out",
          doesWork: false,
          code: `import { mkdir } from "node:fs/promises";
export default async () => { await mkdir("out"); return "ok"; };`,
        },
        state,
      );
      expect(outcome).toEqual({ status: "failed", exitCode: 1, value: undefined, stderr: `${lost("mkdir 'out'", 1)}\n` });
      expect(await names(ws2, "/workspace")).toEqual([]);
    });
  });

  it("code that catches EEXEC_LOST looks and carries on: the run completes", { timeout: 60_000 }, async () => {
    await inDO(async (state) => {
      const { outcome, ws2 } = await interrupted(
        {
          method: "mkdir",
          match: (a) => a[0] === "/workspace/out",
          code: `import { mkdir, stat, writeFile } from "node:fs/promises";
export default async () => {
  let code = "none";
  try { await mkdir("out"); } catch (e) { if (e.code !== "EEXEC_LOST") throw e; code = e.code; if (!(await stat("out")).isDirectory()) await mkdir("out"); }
  await writeFile("out/a.txt", "1");
  return code;
};`,
        },
        state,
      );
      expect(outcome).toEqual({ status: "completed", exitCode: 0, value: "EEXEC_LOST", stderr: "" });
      expect(await ws2.fs.readFile("/workspace/out/a.txt", "utf8")).toBe("1");
    });
  });

  it("rm without force: resumed in flight it rejects EEXEC_LOST, not ENOENT; the file removed once", { timeout: 60_000 }, async () => {
    await inDO(async (state) => {
      const { outcome, journalAtCall, ws2 } = await interrupted(
        {
          method: "rm",
          match: (a) => a[0] === "/workspace/gone.txt",
          setup: async (ws) => {
            await ws.fs.writeFile("/workspace/gone.txt", "x");
            await ws.fs.writeFile("/workspace/keep.txt", "k");
          },
          code: `import { rm, writeFile } from "node:fs/promises";
export default async () => { await rm("gone.txt"); await writeFile("after.txt", "2"); return "ok"; };`,
        },
        state,
      );
      expect(journalAtCall).toEqual([{ seq: 1, kind: "fs", name: "rm", state: "started" }]);
      expect(outcome).toEqual({ status: "failed", exitCode: 1, value: undefined, stderr: `${lost("rm 'gone.txt'", 1)}\n` });
      expect(await names(ws2, "/workspace")).toEqual(["keep.txt"]);
      expect(await ws2.fs.readFile("/workspace/keep.txt", "utf8")).toBe("k");
    });
  });

  it("symlink: resumed in flight it rejects EEXEC_LOST, not EEXIST; the link made once", { timeout: 60_000 }, async () => {
    await inDO(async (state) => {
      const { outcome, journalAtCall, ws2 } = await interrupted(
        {
          method: "symlink",
          match: (a) => a[1] === "/workspace/ln",
          setup: async (ws) => ws.fs.writeFile("/workspace/t.txt", "t"),
          code: `import { readFile, symlink } from "node:fs/promises";
export default async () => { const before = await readFile("t.txt", "utf8"); await symlink("t.txt", "ln"); return before; };`,
        },
        state,
      );
      // The readFile before it was flushed with the symlink's start.
      expect(journalAtCall).toEqual([
        { seq: 1, kind: "fs", name: "readFile", state: "done" },
        { seq: 2, kind: "fs", name: "symlink", state: "started" },
      ]);
      expect(outcome).toEqual({ status: "failed", exitCode: 1, value: undefined, stderr: `${lost("symlink 'ln'", 2)}\n` });
      expect(await ws2.fs.readlink("/workspace/ln")).toBe("t.txt");
      expect(await names(ws2, "/workspace")).toEqual(["ln", "t.txt"]);
    });
  });

  it('writeFile with flag "wx": resumed in flight it rejects EEXEC_LOST, not EEXIST; the file written once', { timeout: 60_000 }, async () => {
    await inDO(async (state) => {
      const { outcome, journalAtCall, ws2 } = await interrupted(
        {
          method: "writeFile",
          match: (a) => a[0] === "/workspace/lock",
          code: `import { writeFile } from "node:fs/promises";
export default async () => { await writeFile("lock", "mine", { flag: "wx" }); return "ok"; };`,
        },
        state,
      );
      expect(journalAtCall).toEqual([{ seq: 1, kind: "fs", name: "writeFile", state: "started" }]);
      expect(outcome).toEqual({ status: "failed", exitCode: 1, value: undefined, stderr: `${lost("writeFile 'lock'", 1)}\n` });
      expect(await ws2.fs.readFile("/workspace/lock", "utf8")).toBe("mine");
      expect(await names(ws2, "/workspace")).toEqual(["lock"]);
    });
  });

  it("the run's node:fs has no rename (nothing to guard)", { timeout: 60_000 }, async () => {
    await inDO(async (state) => {
      const ws = new Workspace({ storage: state.storage, backends: [backend()] });
      const r = await (
        await ws.runtime.exec(`import * as fs from "node:fs/promises";
export default async () => [typeof fs.rename, typeof fs.mkdir];`, { encoding: "utf8", onInterrupt: "replay" })
      ).result();
      expect({ status: r.status, value: r.value }).toEqual({ status: "completed", value: ["undefined", "function"] });
    });
  });
});

describe("replay run: node:fs calls whose repeat leaves the same tree run again", () => {
  it('writeFile "w": its start waits for the flush, and resumed in flight it is written again; the run completes', { timeout: 60_000 }, async () => {
    await inDO(async (state) => {
      const { outcome, journalAtCall, ws2 } = await interrupted(
        {
          method: "writeFile",
          match: (a) => a[0] === "/workspace/f.txt",
          code: `import { readFile, writeFile } from "node:fs/promises";
export default async () => { await writeFile("f.txt", "new"); return readFile("f.txt", "utf8"); };`,
        },
        state,
      );
      expect(journalAtCall).toEqual([]);
      expect(outcome).toEqual({ status: "completed", exitCode: 0, value: "new", stderr: "" });
      expect(await ws2.fs.readFile("/workspace/f.txt", "utf8")).toBe("new");
      expect((await ws2.fs.stat("/workspace/f.txt")).mode & 0o7777).toBe(0o644);
    });
  });

  it("rm with force, chmod and mkdir with recursive run again; the run completes", { timeout: 60_000 }, async () => {
    for (const c of [
      {
        method: "rm" as const,
        match: (a: unknown[]) => a[0] === "/workspace/gone.txt",
        setup: async (ws: Workspace) => ws.fs.writeFile("/workspace/gone.txt", "x"),
        code: `import { access, rm } from "node:fs/promises";
export default async () => { await rm("gone.txt", { force: true }); return access("gone.txt").then(() => "there", (e) => e.code); };`,
        value: "ENOENT",
        tree: [],
      },
      {
        method: "chmod" as const,
        match: (a: unknown[]) => a[0] === "/workspace/x.sh",
        setup: async (ws: Workspace) => ws.fs.writeFile("/workspace/x.sh", "#!/bin/sh\n", { mode: 0o644 }),
        code: `import { chmod, stat } from "node:fs/promises";
export default async () => { await chmod("x.sh", 0o755); return (await stat("x.sh")).mode & 0o7777; };`,
        value: 0o755,
        tree: ["x.sh"],
      },
      {
        method: "mkdir" as const,
        match: (a: unknown[]) => a[0] === "/workspace/a/b",
        // The repeat answers what it made itself: nothing (its first attempt made a/ and a/b).
        code: `import { mkdir, writeFile } from "node:fs/promises";
export default async () => { const first = await mkdir("a/b", { recursive: true }); await writeFile("a/b/c.txt", "c"); return first ?? null; };`,
        value: null,
        tree: ["a"],
      },
    ]) {
      await inDO(async (state) => {
        const { outcome, ws2 } = await interrupted(c, state);
        expect({ method: c.method, outcome }).toEqual({ method: c.method, outcome: { status: "completed", exitCode: 0, value: c.value, stderr: "" } });
        expect(await names(ws2, "/workspace")).toEqual(c.tree);
      });
    }
  });
});
