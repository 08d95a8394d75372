/**
 * Issue 20 ninth attack run, category 1 (sandbox escapes): `ws:tools` from a
 * JavaScript backend whose `root` is narrower than what the tool set reaches.
 *
 * The JavaScript backend confines a run's files to `root` ("Files only under
 * root", docs/runtime.md), and "a host function that reaches files by other
 * means than resolvePath … must keep to `root` itself". The library's own
 * host modules do: `ws:git`'s `cli` stays inside the root, and `ws:container`
 * refuses a root narrower than its backend's reach (attack8
 * container-module-root, fixed with `ctx.root`). `ws:tools` enforces the
 * run's `access` (a read-only run cannot call write: "ws:tools write
 * requires Workspace write access.") but not its `root`: the bindings call
 * the tool set as built, and the tool set docs/runtime.md shows for
 * `ws:tools` (`createPiTools({ workspace })`, no `root`) reaches the whole
 * Workspace.
 *
 * FIXED — createToolBindings checks the `path` of the library's file tools
 * (read, ls, find, grep, write, edit, delete, publish; find's and grep's
 * default `/workspace` when absent), taken as the tool takes it, with
 * `ctx.resolvePath` — the run's own node:fs check (under root, no link on
 * the way) — before the tool runs; a refusal resolves `{ text: "EACCES:
 * paths must stay under <root>: <path>", isError: true, details: { code,
 * path } }`. Sets built with a `root` under the backend's are not checked twice.
 *
 * DEFECT (medium) — a run confined to /workspace/proj reads and writes
 * outside it. Reproduction (inside the object, real Worker Loader):
 *   backend = new WorkerJavaScriptBackend({ loader, root: "/workspace/proj",
 *     modules: { "ws:tools": createToolBindings(forPiTools(createPiTools({ workspace }))) } });
 *   run: import { read, write } from "ws:tools"; import { readFile } from "node:fs/promises";
 *     readFile("/workspace/secret.txt")                      → EACCES (held)
 *     read({ path: "/workspace/secret.txt" })                 → { text: "top secret", isError: false }
 *     write({ path: "/workspace/other/planted.txt", content }) → written
 * Expected: the call is refused with EACCES naming the run's root (as
 * `ws:container` does), or resolved under `ctx.root` — the access rule is
 * already checked there; docs/tools.md's "isolate code using them is
 * confined like the model" holds only when the host also gives the tool set
 * the same `root`, which nothing checks or says on the backend side.
 * Severity medium: the documented setup (one tool set for the model and for
 * `ws:tools`) silently lifts the backend's `root`, the one confinement the
 * host set for code it runs.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forPiTools } from "../../../src/modules/tools.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

const CODE = `import { read, write } from "ws:tools";
import { readFile } from "node:fs/promises";
export default async () => {
  let direct;
  try { direct = await readFile("/workspace/secret.txt", "utf8"); } catch (e) { direct = e.code; }
  const r = await read({ path: "/workspace/secret.txt" });
  let w;
  try { w = await write({ path: "/workspace/other/planted.txt", content: "from the run" }); w = w.isError ? "error: " + w.text : "written"; } catch (e) { w = "rejected: " + (e.code || e.message); }
  return { direct, read: r.isError ? "error: " + r.text : r.text, write: w };
};`;

describe("attack9: ws:tools and the JavaScript backend's root", () => {
  it("a run confined to /workspace/proj cannot read or write outside it through ws:tools", { timeout: 60_000 }, async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const out = await runInDurableObject(stub, async (_i, state) => {
      let tools: ReturnType<typeof createPiTools> | undefined;
      const lazy = { get tools() { return tools!.tools; }, execute: (c: never, o: never) => tools!.execute(c, o), readOnly: ["read", "ls", "find", "grep"] };
      const ws = new Workspace({
        storage: state.storage,
        backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, root: "/workspace/proj", modules: { "ws:tools": createToolBindings(forPiTools(lazy as never)) } })],
      });
      tools = createPiTools({ workspace: ws });
      try {
        await ws.fs.mkdir("/workspace/proj", { recursive: true });
        await ws.fs.writeFile("/workspace/secret.txt", "top secret");
        const result = await (await ws.runtime.exec(CODE, { encoding: "utf8" })).result();
        const planted = await ws.fs.stat("/workspace/other/planted.txt").then(() => true, () => false);
        return { value: result.value, status: result.status, stderr: result.stderr, planted };
      } finally {
        await ws.close();
      }
    });
    expect(out.status).toBe("completed");
    const value = out.value as { direct: string; read: string; write: string };
    expect(value.direct).toBe("EACCES");
    // Expected: both refused, nothing planted outside the root.
    expect({ readLeaked: value.read.includes("top secret"), planted: out.planted }).toEqual({ readLeaked: false, planted: false });
  });
});
