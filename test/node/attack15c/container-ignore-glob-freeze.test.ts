/**
 * Issue 20, fifteenth attack run: the ignore globs a container's daemon announces are compiled with
 * picomatch on the host and matched against every pushed path — a hostile daemon freezes the object.
 *
 * Tried: `RemoteSync` (src/runtime/sync.ts) with a stand-in daemon (the "hostile daemon" of the module's
 * own header: "Nothing the daemon answers is trusted (a command can take it over)") whose `info()` answers
 * `ignore: ["/workspace/" + "*a" × 12 + "*b"]` — one 35-character glob — then a push of one Workspace file
 * named with 50 `a`s. (Held: invalid paths, entries and link targets in `scan` are refused; `apply` results
 * are checked; scan pages and push batches are sized.)
 *
 * Found (medium): `ignoreMatcher` takes the daemon's globs as they come (no count, length or shape check)
 * and picomatch turns each `*` into `[^/]*?`: the regex backtracks polynomially in the name's length
 * (measured: 30 `a`s 3.6 s, 40 `a`s 31 s for ONE test; 50 runs for minutes), synchronously, for every path
 * the push looks at (and each of its ancestors). A Durable Object is frozen — every request, every run,
 * `close()` — by one answer of a compromised container plus a name the model or the container chose.
 * Reproduction:
 *
 *   const sync = new RemoteSync(ws.db, ws.fs, "box", { info: async () => ({ mountPoint: "/workspace",
 *     ignore: ["/workspace/" + "*a".repeat(12) + "*b"], bootId: "b" }), apply: … ok … , … });
 *   await ws.fs.writeFile("/workspace/" + "a".repeat(50), "x");
 *   await sync.push();     // does not return for minutes; nothing else runs meanwhile
 *
 * Suggested fix: match the daemon's globs with the Workspace's own linear glob matcher (src/fs/glob.ts,
 * Shift-And), or refuse globs past a documented count/length/`*`-run bound (EPROTO) like other invalid
 * daemon answers.
 *
 * Fixed: the daemon's globs never reach picomatch — they are matched by the Workspace's linear glob
 * matcher (src/fs/glob.ts), each directory's decision kept; a glob with one of `{}[]?\()|` (which the
 * daemon's picomatch reads as syntax, and on which picomatch's makeRe itself can hang) or globs over
 * MAX_GLOB_SIZE (4096) characters together fail the push with EPROTO; `X/**` still ignores `X` (as picomatch).
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ignoreMatcher } from "../../../src/runtime/sync.js";
import { runInWorker } from "../attack13b/worker-run.js";

const SYNC = resolve(import.meta.dirname, "../../../src/runtime/sync.ts");

describe("attack15c: a hostile daemon's ignore glob freezes the host's push", () => {
  it("a push with the daemon's glob `*a` × 12 + `*b` over a 50-character name settles within 15 s and sends the file", { timeout: 60_000 }, async () => {
    const run = await runInWorker(
      `const ws = new Workspace({ storage: nodeSqliteStorage() });
const sent: string[] = [];
const rpc = {
  info: async () => ({ mountPoint: "/workspace", ignore: ["/workspace/" + "*a".repeat(12) + "*b"], bootId: "boot-1" }),
  scan: async () => ({ entries: [], skipped: [], cursor: null, done: true }),
  read: async () => ({ data: new Uint8Array(0), size: 0, eof: true }),
  apply: async ({ ops }: { ops: { op: string; path: string }[] }) => {
    for (const op of ops) sent.push(op.op + " " + op.path.length);
    return { results: ops.map(() => ({ ok: true })) };
  },
};
await ws.fs.mkdir("/workspace", { recursive: true });
await ws.fs.writeFile("/workspace/" + "a".repeat(50), "x");
const sync = new RemoteSync(ws.db, ws.fs as never, "box", rpc as never);
const out = await sync.push().then((o) => ({ pushed: o.pushed, skipped: o.skipped.length }), (e) => ({ error: String(e?.message ?? e).slice(0, 120) }));
post({ out, sent });`,
      15_000,
      `import { RemoteSync } from ${JSON.stringify(SYNC)};`,
    );
    // Found: settled false (the worker was still matching one name against one glob when terminated).
    expect(run.settled).toBe(true);
    // The name has no "b": not ignored, so the push sends it (one write op of the 50-character path).
    expect(run.messages).toEqual([{ out: { pushed: 1, skipped: 0 }, sent: ["write 50"] }]);
  });
  it("a daemon's glob with picomatch syntax, or too many characters, fails the push with EPROTO; nothing is sent", async () => {
    const run = await runInWorker(
      `const results: unknown[] = [];
for (const ignore of [["/workspace/[a]" + "\\\\".repeat(4)], ["**/x", "!/workspace/+(y)"], ["/workspace/" + "a".repeat(3000), "/workspace/" + "b".repeat(1100)], "**/x", [""]]) {
  const ws = new Workspace({ storage: nodeSqliteStorage() });
  const sent: string[] = [];
  const rpc = {
    info: async () => ({ mountPoint: "/workspace", ignore, bootId: "boot-1" }),
    scan: async () => ({ entries: [], skipped: [], cursor: null, done: true }),
    read: async () => ({ data: new Uint8Array(0), size: 0, eof: true }),
    apply: async ({ ops }: { ops: { op: string; path: string }[] }) => {
      for (const op of ops) sent.push(op.op + " " + op.path);
      return { results: ops.map(() => ({ ok: true })) };
    },
  };
  await ws.fs.mkdir("/workspace", { recursive: true });
  await ws.fs.writeFile("/workspace/a", "x");
  const sync = new RemoteSync(ws.db, ws.fs as never, "box", rpc as never);
  results.push(await sync.push().then((o) => "pushed " + o.pushed, (e) => String(e?.code) + " " + String(e?.message)), sent.length);
}
post(results);`,
      15_000,
      `import { RemoteSync } from ${JSON.stringify(SYNC)};`,
    );
    expect(run.settled).toBe(true);
    const unsupported = (shown: string) =>
      `EPROTO EPROTO: the container's daemon announced ignore glob ${shown}, which the Workspace cannot match as the daemon does (empty, a second "!", or one of {}[]?\\()|); use globs of "*", "**" and plain names (restart the container if its daemon was taken over)`;
    expect(run.messages).toEqual([
      [
        unsupported(JSON.stringify("/workspace/[a]" + "\\".repeat(4))),
        0,
        unsupported(JSON.stringify("!/workspace/+(y)")),
        0,
        "EPROTO EPROTO: the container's daemon announced ignore globs of more than 4096 characters together (MAX_GLOB_SIZE); use fewer or shorter globs",
        0,
        "EPROTO EPROTO: the container's daemon announced ignore globs that are not an array; restart the container",
        0,
        unsupported(JSON.stringify("")),
        0,
      ],
    ]);
  });

  it("the daemon's rule as picomatch has it: last glob decides, `!` re-includes, ancestors count, `X/**` covers X", () => {
    const ignored = ignoreMatcher("/workspace/", ["**/node_modules", "/workspace/build/**", "/workspace/*.log", "!/workspace/keep.log", "**/.git/**"]);
    const paths = ["node_modules", "a/node_modules/x/y", "build", "build/out.js", "buildx", "x.log", "keep.log", "d/x.log", ".git", "sub/.git/HEAD", "src/a.ts", "a".repeat(50)];
    expect(paths.filter(ignored)).toEqual(["node_modules", "a/node_modules/x/y", "build", "build/out.js", "x.log", ".git", "sub/.git/HEAD"]);
    const deep = Array.from({ length: 2000 }, () => "d").join("/");
    expect([ignored(`${deep}/f`), ignored(`${deep}/node_modules/f`), ignoreMatcher("/workspace", [])(deep)]).toEqual([false, true, false]);
  });
});
