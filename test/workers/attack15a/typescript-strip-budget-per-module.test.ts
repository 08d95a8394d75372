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
 * Fixed: graph.ts `buildGraph` makes one `stripBudget()` per run and passes it to every `stripTypes` call: the
 * run's stripping may backtrack over STRIP_BACKTRACK_FACTOR × the total length of its TypeScript modules + ONE
 * STRIP_BACKTRACK_BASE; here the first module spends nearly all the base, so the second is refused at once
 * (a SyntaxError naming the limit, before any Worker exists). A run of 80 light TypeScript modules still runs.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const MODULES = 80;
const SOURCE = "let x: unknown; const a = 1, b = 2;\nx = " + "a < ".repeat(360) + "b;\nexport const v: number = 1;\n";

/** Writes `MODULES` copies of `source` as /workspace/m<i>.ts and runs an entry importing them all. */
async function runAll(source: string) {
  return inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    for (let i = 0; i < MODULES; i++) await ws.fs.writeFile(`/workspace/m${i}.ts`, source);
    const entry =
      Array.from({ length: MODULES }, (_, i) => `import { v as v${i} } from "./m${i}.ts";`).join("\n") +
      `\nexport default () => ${Array.from({ length: MODULES }, (_, i) => `v${i}`).join(" + ")};`;
    const settled = ws.runtime
      .exec(entry, { encoding: "utf8", timeoutMs: 1000 })
      .then((h) => h.result())
      .then(
        (r) => ({ status: r.status, exitCode: r.exitCode, value: r.value }),
        (e: Error) => ({ rejected: `${e.name}: ${e.message}` }),
      );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const first = await Promise.race([settled.then(() => "settled"), new Promise<string>((resolve) => (timer = setTimeout(() => resolve("still busy after 10 s"), 10_000)))]);
    clearTimeout(timer);
    return { first, result: await settled };
  });
}

it("80 TypeScript modules each under the strip budget do not hold the object: the run settles within a bounded wait", { timeout: 240_000 }, async () => {
  const outcome = await runAll(SOURCE);
  // Found: { first: "still busy after 10 s", result: { status: "completed", exitCode: 0 } } (~30–45 s here).
  // Fixed: m0.ts (1,511 characters) backtracks over 270,010 of 16 × 1,511 + 262,144 = 286,320 (measured with stripTypes);
  // m1.ts adds only 16 × 1,511 = 24,176 to the 16,310 left, so it is refused.
  expect(outcome).toEqual({
    first: "settled",
    result: {
      rejected:
        "SyntaxError: /workspace/m1.ts: too costly to strip types from: the TypeScript parser went back over more than 16 × the length of this module and the " +
        "1 TypeScript module stripped before it in this run + 262144 characters (one budget for the run's whole module graph; " +
        "long chains of `<` comparisons or deeply nested parentheses make it retry); split such expressions, import fewer such modules in one run, or write them as .js",
    },
  });
});

it("80 light TypeScript modules share the run's budget and run (the shared budget grows with every module stripped)", { timeout: 240_000 }, async () => {
  // 40 `a <` per module (231 characters): sucrase backtracks over 4,410 characters, a little more than 16 × 231 = 3,696,
  // so the 80 modules spend ~57,000 of the run's one 262,144 base (measured with stripTypes and a stripBudget()).
  const light = "let x: unknown; const a = 1, b = 2;\nx = " + "a < ".repeat(40) + "b;\nexport const v: number = 1;\n";
  expect(await runAll(light)).toEqual({ first: "settled", result: { status: "completed", exitCode: 0, value: MODULES } });
});
