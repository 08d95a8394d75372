/**
 * Issue 20 tenth attack run, category 1 (sandbox escapes): `ws:tools` root
 * confinement (attack9 tools-module-root, fixed in f8d7dc2) and a `path` of
 * `null`.
 *
 * `createToolBindings` checks a file tool's `path` with `ctx.resolvePath`
 * before the tool runs (src/modules/tools.ts `refusedPath`): an absent
 * `path` checks the tool's default (`/workspace` for find and grep), and a
 * path that is not a string is "left to the tool's own validation". But the
 * pi tool set (`createPiTools`, the set docs/runtime.md shows for ws:tools)
 * drops a `null` given for an optional argument before validation (pi's
 * null dropping, src/tools/core/schema.ts `dropNulls`: strict sampling sends
 * an omitted optional field as `null`), and find's and grep's `path` then
 * take their default, `/workspace` — a path the check never saw.
 *
 * DEFECT (medium: a confined run reads files outside its root) —
 * reproduction, a run on a JavaScript backend with `root: "/workspace/proj"`
 * and `ws:tools` over `forPiTools(createPiTools({ workspace }))`:
 *   import { grep, find } from "ws:tools";
 *   await grep({ query: "secret" });                 // EACCES: paths must stay under /workspace/proj (held)
 *   await grep({ path: null, query: "secret" });     // /workspace/secret.txt:1: top secret
 *   await find({ path: null, pattern: "**" });       // lists /workspace, outside the root
 * Expected: the path checked is the one the tool will use — a `null` (or
 * any value the tool set turns into its default) checks the default, and is
 * refused EACCES here as an absent `path` is.
 *
 * FIXED: `refusedPath` takes a `null` path as absent and checks the default.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forPiTools } from "../../../src/modules/tools.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

const CODE = `import { grep, find } from "ws:tools";
export default async () => {
  const absent = await grep({ query: "top secret" });
  const nulled = await grep({ path: null, query: "top secret" });
  const listed = await find({ path: null, pattern: "**" });
  return { absent: absent.text, nulled: nulled.text, listed: listed.text };
};`;

describe("attack10: ws:tools find/grep with path null in a confined run", () => {
  it("grep and find with path: null are refused as an absent path is (nothing outside the root is read)", { timeout: 60_000 }, async () => {
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
        await ws.fs.writeFile("/workspace/proj/mine.txt", "mine");
        await ws.fs.writeFile("/workspace/secret.txt", "top secret");
        const result = await (await ws.runtime.exec(CODE, { encoding: "utf8" })).result();
        return { value: result.value, status: result.status, stderr: result.stderr };
      } finally {
        await ws.close();
      }
    });
    expect(out.status).toBe("completed");
    const value = out.value as { absent: string; nulled: string; listed: string };
    // Held: no path → the default /workspace is checked and refused.
    expect(value.absent).toMatch(/^EACCES/);
    // Actual: grep answers "/workspace/secret.txt:1: top secret", find lists /workspace/secret.txt.
    expect({ grepLeaked: value.nulled.includes("top secret"), findLeaked: value.listed.includes("secret.txt") }).toEqual({ grepLeaked: false, findLeaked: false });
  });
});
