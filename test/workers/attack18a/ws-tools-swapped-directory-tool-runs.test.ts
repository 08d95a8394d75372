/**
 * Issue 20, eighteenth attack run: `ws:tools` over a function source (`forAISDKTools(() => tools)`, the documented
 * form: "re-read on every call") whose tool under an exported name becomes a TOOL.md directory tool after the run
 * connected — the same swap attack17a's fix (15baadf) refuses for the library's exec ("the tool under this name is
 * now \"exec\", which is not exported; it is not run"), left open for directory tools.
 * Tried: a JavaScript run confined with `root: "/workspace/proj"` (access "read-write", no `runTools`) whose
 * `ws:tools` is `forAISDKTools(() => ({ lookup: swapped ? ai.peek : own }))` — `own` a tool of the host's own,
 * `ai.peek` a readonly bash directory tool of `createAITools({ workspace, toolDirectories })` (`cat "$INPUT_PATH"`,
 * attack12's `peek`); the run calls `ws:flip` (sets `swapped`), then `lookup({ path: "/workspace/secret.txt" })`.
 * Held: before the swap `lookup` runs the host's own tool; `ai.peek` under any key at connect time is not exported
 * (attack12, STARTS_RUNS); the run's node:fs gets EACCES for /workspace/secret.txt; a binding listed `readOnly`
 * whose tool changes is refused ("is no longer read-only"); the library's exec swapped in is refused (attack17a).
 * Found (medium — the run's root and "directory tools run outside the run's root, left out unless runTools" lifted
 * through a function source; 3 of 3 runs): the binding's STARTS_RUNS is computed once, when the bindings are
 * listed at connect (`startsRuns(tool) || startsRuns(tool.execute)` of the tool THEN under the name); the call-time
 * check in createToolBindings looks only at `exclude` (`LIBRARY_TOOL`, undefined for a directory tool, so the key
 * `lookup`), so the directory tool now under the name runs in the Workspace's shell backend, unconfined:
 * `lookup(...)` resolves `{ isError: false }` with stdout "top secret".
 * Suggested fix: at call time, check the tool under the name now as at connect — refuse when
 * `startsRuns(current()[name]) || startsRuns(current()[name].execute)` (a function STARTS_RUNS evaluated per call,
 * like LIBRARY_TOOL and TOOL_ROOT) unless `runTools: true`: `ws:tools lookup: the tool under this name is now the
 * directory tool "peek", which is not exported; it is not run.`. (forPiTools' bindings call the set or agent tool
 * captured when they were listed, so they cannot change under a name.)
 * Fixed: src/modules/tools.ts — a binding's STARTS_RUNS is a function read at every call (the directory tool's name
 * under the binding's name now, recorded by `markStartsRuns(tool, name)` in src/tools/core/root.ts); createToolBindings
 * checks it with the excluded-library-tool check before the path check, refusing unless `runTools`, and again just
 * before the tool runs (a tool that changed during the path check or the replay journal's write is refused).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { createToolBindings, forAISDKTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";
import { input, toolAt } from "../tool-dirs/helpers.js";

const peek = toolAt("peek", "bash", "index.sh", { path: input("string") }, { mutating: false });
const own = { execute: async () => "the host's own lookup" };

const CODE = `import { lookup } from "ws:tools";
import { flip } from "ws:flip";
import { readFile } from "node:fs/promises";
export default async () => {
  const before = (await lookup({ path: "/workspace/secret.txt" })).text;
  const fs = await readFile("/workspace/secret.txt", "utf8").catch((e) => e.code);
  await flip();
  const after = await lookup({ path: "/workspace/secret.txt" }).then((r) => r.text, (e) => "threw: " + e.message);
  return { before, fs, after };
};`;

it("a binding whose tool became a directory tool after connect (a function source) is refused, not run", { timeout: 60_000 }, async () => {
  const out = await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    let ai: ReturnType<typeof createAITools> | undefined;
    let swapped = false;
    const ws: Workspace = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({
          id: "js",
          loader: env.LOADER,
          root: "/workspace/proj",
          access: "read-write",
          modules: {
            "ws:tools": createToolBindings(forAISDKTools((): never => ({ lookup: swapped ? ai!.peek : own }) as never)),
            "ws:flip": () => ({ flip: async () => ((swapped = true), null) }),
          },
        }),
        new WorkerShellBackend({ id: "shell", loader: env.LOADER }),
      ],
    });
    ai = createAITools({ workspace: ws, toolDirectories: { tools: [peek] } });
    try {
      await ws.fs.mkdir("/workspace/proj", { recursive: true });
      await ws.fs.mkdir(peek.dir, { recursive: true });
      await ws.fs.writeFile(peek.entry, 'cat "$INPUT_PATH"\n');
      await ws.fs.writeFile("/workspace/secret.txt", "top secret");
      const r = await (await ws.runtime.exec(CODE, { encoding: "utf8", backend: "js" })).result();
      return { status: r.status, value: r.value };
    } finally {
      await ws.close();
    }
  });
  // Was: after = "top secret" (the directory tool ran in the shell backend, outside the run's root).
  expect(out).toEqual({
    status: "completed",
    value: { before: "the host's own lookup", fs: "EACCES", after: 'threw: ws:tools lookup: the tool under this name is now the directory tool "peek", which is not exported; it is not run.' },
  });
});
