/**
 * Issue 20, fifteenth attack run: the type-stripping budget of the JavaScript backend (typescript.ts
 * `stripTypes`, STRIP_BACKTRACK_FACTOR × length + STRIP_BACKTRACK_BASE — the fix of attack13a
 * typescript-strip-freeze) is per MODULE, and every module of the graph gets the whole 256 Ki-character base.
 *
 * Tried: one module with a chain of `a <` comparisons past the budget (refused, held); then the same work split
 * over many modules, each just under the budget (one statement of 360 `a <`, 1.5 KB), all imported by the
 * entry (80 of them here, 120 KB in all, far under maxSourceBytes; MAX_GRAPH_MODULES = 128 allows 127).
 *
 * Found (medium-high — the fix is bypassed: the object is busy for tens of seconds before the run exists):
 * measured in this pool's workerd, 40 such .ts modules take 15.5 s to build (the same 40 as .js: 83 ms), 120 take
 * 33 s; `timeoutMs: 1000` does not apply (the run then completes, exit 0) and nothing can stop it meanwhile —
 * all of it type stripping, synchronous CPU in the Durable Object, a few hundred ms per module. Reproduced 3 of 3.
 * Reproduction:
 *   for (i < 80) await ws.fs.writeFile(`/workspace/m${i}.ts`, "let x: unknown; const a = 1, b = 2;\nx = " + "a < ".repeat(360) + "b;\nexport const v: number = 1;\n");
 *   await (await ws.runtime.exec(`import { v as v0 } from "./m0.ts"; … (80 imports) export default () => v0;`, { timeoutMs: 1000 })).result();
 * Suggested fix: one budget per run (graph build), not per module: STRIP_BACKTRACK_FACTOR × the total source
 * stripped + ONE STRIP_BACKTRACK_BASE, refusing with the same SyntaxError once spent (or strip under the run's
 * deadline, so its timeout and kill apply).
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const MODULES = 80;
const SOURCE = "let x: unknown; const a = 1, b = 2;\nx = " + "a < ".repeat(360) + "b;\nexport const v: number = 1;\n";

it.fails("80 TypeScript modules each under the strip budget do not hold the object: the run settles within a bounded wait", { timeout: 240_000 }, async () => {
  const outcome = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    for (let i = 0; i < MODULES; i++) await ws.fs.writeFile(`/workspace/m${i}.ts`, SOURCE);
    const entry = Array.from({ length: MODULES }, (_, i) => `import { v as v${i} } from "./m${i}.ts";`).join("\n") + "\nexport default () => v0;";
    const settled = ws.runtime
      .exec(entry, { encoding: "utf8", timeoutMs: 1000 })
      .then((h) => h.result())
      .then(
        (r) => ({ status: r.status, exitCode: r.exitCode }),
        (e: Error) => ({ rejected: `${e.name}: ${e.message}` }),
      );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const first = await Promise.race([settled.then(() => "settled"), new Promise<string>((resolve) => (timer = setTimeout(() => resolve("still busy after 10 s"), 10_000)))]);
    clearTimeout(timer);
    return { first, result: await settled };
  });
  // Found: { first: "still busy after 10 s", result: { status: "completed", exitCode: 0 } } (~30–45 s here).
  expect(outcome.first).toBe("settled");
  // Fixed: refused like one over-budget module (the run's whole stripping past one budget), or timed out.
  expect(outcome.result).not.toEqual({ status: "completed", exitCode: 0 });
});
