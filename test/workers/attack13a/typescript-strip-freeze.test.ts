/**
 * Issue 20, thirteenth attack run: TypeScript modules in the JavaScript backend (0776075: a Workspace module
 * ending .ts/.mts/.cts has its types stripped by sucrase, src/backends/worker-javascript/typescript.ts
 * `stripTypes`, called from graph.ts `buildGraph` in the Durable Object, synchronously, before the run starts).
 *
 * Tried: sucrase on hostile TypeScript shapes (nested generics, arrows, `<T,>(a) =>`, `async (`, parentheses,
 * `f<a,(`…): most are linear or end in a quick "Maximum call stack size exceeded" SyntaxError (held). A chain of
 * less-than comparisons, `x = a < a < … < b;` is quadratic: at each `<` the TypeScript parser tries type
 * arguments and scans ahead before backtracking.
 *
 * Found (medium-high — the object frozen by a small file, past the run's timeout): measured in this pool's workerd,
 * one statement of 1,000 `a <` (4 KB) costs 6.5 s, one of 2,000 (8 KB) 14 s, and 20 statements of 1,000
 * (80 KB, far under maxSourceBytes, 1 MiB) 54 s (10 of them, this test: ~27 s) — all of it synchronous CPU in the Durable Object before the
 * run exists, so `timeoutMs: 1000` does not apply (the run then completes, exit 0), `kill()` has no id to
 * reach, and nothing else in the object (other runs, requests, alarms) is served meanwhile; a 1 MiB module is
 * many minutes (on Cloudflare, past the object's CPU limit: the object is reset). Any agent that can write a
 * file and run it (the model, or a TOOL.md TypeScript tool it writes) can do this. Reproduced 3 of 3.
 * Reproduction:
 *   await ws.fs.writeFile("/workspace/slow.ts", "let x: unknown; const a = 1, b = 2;\n" + ("x = " + "a < ".repeat(1000) + "b;\n").repeat(20) + "export const v: number = 1;\n");
 *   await (await ws.runtime.exec(`import { v } from "./slow.ts"; export default () => v;`, { timeoutMs: 1000 })).result();
 * Fix: strip types where the run's CPU budget and timeout apply (in the run's Dynamic Worker, or a loader
 * Worker of its own, with the run's deadline), or bound the stripping (for example refuse a .ts module whose
 * stripping passes a work limit, with a clear error) — never unbounded synchronous work in the object.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("a TypeScript module of 40 KB does not freeze the object: the run settles within a bounded wait", { timeout: 240_000 }, async () => {
  const outcome = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const statement = "x = " + "a < ".repeat(1000) + "b;\n";
    await ws.fs.writeFile("/workspace/slow.ts", "let x: unknown; const a = 1, b = 2;\n" + statement.repeat(10) + "export const v: number = 1;\n");
    const settled = ws.runtime
      .exec(`import { v } from "./slow.ts"; export default () => v;`, { encoding: "utf8", timeoutMs: 1000 })
      .then((h) => h.result())
      .then(
        (r) => ({ exitCode: r.exitCode }),
        (e: Error) => ({ rejected: `${e.name}: ${e.message}` }),
      );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const first = await Promise.race([settled.then(() => "settled"), new Promise<string>((resolve) => (timer = setTimeout(() => resolve("still busy after 10 s"), 10_000)))]);
    clearTimeout(timer);
    return { first, result: await settled };
  });
  // Found: "still busy after 10 s" (the object was busy stripping types for ~27 s here; the run then completed, exit 0).
  // Fixed: stripping stops at its backtracking budget (STRIP_BACKTRACK_FACTOR × length + STRIP_BACKTRACK_BASE).
  expect(outcome).toEqual({
    first: "settled",
    result: {
      rejected:
        "SyntaxError: /workspace/slow.ts: too costly to strip types from: the TypeScript parser went back over more than 16 × the module's length + 262144 characters " +
        "(long chains of `<` comparisons or deeply nested parentheses make it retry); split such expressions, or write the module as .js",
    },
  });
});
