/**
 * Issue 20, run 40, attacker b: the JavaScript runner's console prints a logged number -0 as `0` and a logged
 * function as its whole source text, where Node prints `-0` and `[Function: f]` / `[class A]` /
 * `[Function (anonymous)]` / `[AsyncFunction: g]` / `[GeneratorFunction: h]` / `[Function: max]`.
 * Cause: isolate/workspace-runtime-runner.js `show` — a number or a function falls through to `String(a)`
 * (`String(-0)` is "0"; `String(fn)` is the function's source, `function max() { [native code] }` for a builtin).
 * The `%s`/`%d` path already prints -0 as `-0` (run 39, `num`), so `console.log("%s", -0)` and `console.log(-0)`
 * disagree within one run. The documented differences (docs/porting.md Runtime, docs/runtime.md "Inside the
 * isolate") are about objects printed as JSON; a number and a function are neither JSON nor documented. Logging a
 * function (a callback, a class) dumps its full source into the output an agent reads.
 *
 * Node 22.23.3 on this machine:
 *   node -e 'console.log(-0); console.log("n", -0); console.error(-0); console.log(function f(a) { return a; });
 *            console.log(class A {}); console.log(() => 1); console.log(async function g() {});
 *            console.log(function* h() {}); console.log(Math.max)'
 *   → stdout "-0\nn -0\n[Function: f]\n[class A]\n[Function (anonymous)]\n[AsyncFunction: g]\n[GeneratorFunction: h]\n
 *     [Function: max]\n", stderr "-0\n".
 * Today: stdout "0\nn 0\nfunction f(a) { return a; }\nclass A {}\n() => 1\nasync function g() {}\nfunction* h() {}\n
 *   function max() { [native code] }\n", stderr "0\n".
 * Severity: low.
 * Fixed in run 40 by fixer f40js: `show` prints a number with `num` (-0) and a function with `fnName` (Node's `[Function: f]` / `[class A]`).
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("console.log prints -0 as -0 and a function as Node's [Function: name]", async () => {
  const r = await inWorkspace(async (ws) =>
    (
      await ws.runtime.exec(
        `export default async () => {
           console.log(-0); console.log("n", -0); console.error(-0); console.log(function f(a) { return a; });
           console.log(class A {}); console.log(() => 1); console.log(async function g() {});
           console.log(function* h() {}); console.log(Math.max);
           return 0;
         }`,
        { encoding: "utf8", timeoutMs: 10_000 },
      )
    ).result(),
  );
  expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
    status: "completed",
    stdout: "-0\nn -0\n[Function: f]\n[class A]\n[Function (anonymous)]\n[AsyncFunction: g]\n[GeneratorFunction: h]\n[Function: max]\n",
    stderr: "-0\n",
  });
}, 60_000);
