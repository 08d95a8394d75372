/**
 * Issue 20, thirty-sixth attack run: a JavaScript run that writes a module with `node:fs` and then imports it with a
 * literal `import("./routes.js")` — the ordinary code-generation form (regenerate a table, a config, a route list,
 * then load it) — silently gets the version the module had when the run started: the module graph is built before
 * the run exists, so the dynamic import resolves to the pre-run text, while the file in the Workspace holds the new
 * one. Node 22 (and any process) loads the file as it is at the time of the `import()` when it was not imported
 * before. The agent acts on stale data with no error; a module that did not exist before the run is refused loudly
 * at `exec` ("Cannot find module"), so only the overwrite case is silent.
 * Tried: the run below against Node 22 on a temp dir (prints ["a","b"]); the same with a statically imported module
 * changed between runs (held), changed inside a run then read by the next run (held), JSON modules changed between
 * runs (held), cycles, `export *` with a default, `.ts` twins, `?query` specifiers (refused loudly).
 * Held: a module changed between runs is read anew by the next run; the Workspace file holds the run's write.
 * Found (medium — a wrong result an agent would act on: generated code/data silently replaced by the old version,
 * no error; 2 of 2 runs): the run returns ["old"] where Node returns ["a","b"]; the file reads back the new text.
 * Suggested fix: src/backends/worker-javascript/graph.ts (the import rewriter) and the isolate's node:fs shim
 * (isolate/__modules__/node-fs-promises.js): wrap each rewritten dynamic `import("<path>")` in a check that rejects
 * (e.g. `ESTALE`, naming the path and saying the graph is taken when the run starts) when the run itself has
 * written, removed or linked that path (or a graph module) since it started — or document the snapshot in
 * docs/runtime.md's module section if it stays.
 * Fixed: a dynamic `import()` of a Workspace module the entry does not import statically is rewritten
 * (src/backends/worker-javascript/graph.ts `FRESH_MODULE`) to first read the modules it loads for the first time and
 * compare their SHA-256 with the text the run was built from (isolate/workspace-capabilities.js `__fresh`); a change
 * rejects `ERR_MODULE_CHANGED` naming the module and what to do (issue 20, run 36, fixer DI). The assertion changed:
 * loading the new text is not possible — the Worker Loader takes a run's modules when it starts and a running
 * isolate takes no new module — so the run now fails loudly (exit 1, the refusal on stderr) instead of returning
 * ["old"]; Node's ["a","b"] stays out of reach. Siblings: test/workers/fix36/js-import-after-write.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("a dynamic import after the run rewrote the module refuses loudly (ERR_MODULE_CHANGED), never the old text", async () => {
  const r = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/routes.js", `export const rows = ["old"];`);
    const h = await ws.runtime.exec(
      `import fs from "node:fs/promises";
       export default async () => {
         await fs.writeFile("routes.js", 'export const rows = ["a", "b"];');
         const m = await import("./routes.js");
         return m.rows;
       }`,
      { encoding: "utf8" },
    );
    const res = await h.result();
    return { exitCode: res.exitCode, value: res.value, stderr: String(res.stderr), file: await ws.fs.readFile("/workspace/routes.js", "utf8") };
  });
  expect(r).toMatchObject({
    exitCode: 1, // Was: 0 with value ["old"] (the module as it was when the run started; no error). Node: ["a","b"].
    file: `export const rows = ["a", "b"];`,
  });
  expect(r.value).not.toEqual(["old"]);
  expect(r.stderr).toContain(`ERR_MODULE_CHANGED: import("./routes.js"): /workspace/routes.js was changed after this run started`);
}, 60_000);
