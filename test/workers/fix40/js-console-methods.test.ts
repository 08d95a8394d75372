/**
 * Issue 20, run 40, fixer f40js: sibling of attack40b/js-console-dir-count-assert-group-trace-lost and
 * js-console-format-o-string-unquoted — the cases they do not cover: `console.table` (rows of objects, an object of
 * primitives, `properties`, a primitive, a Map, a Set), `console.dir` of a string (quoted) and -0, `dirxml`,
 * `groupCollapsed` with a format string, nested groups and one `groupEnd` too many, a multi-line line indented,
 * `count` with a number label and `countReset`, `assert` with a non-string first argument and a format string,
 * `trace()` with no message, a class with `extends`, an async generator function, `%o` of -0 and `%O` of a string
 * holding both quotes. Expected: Node 22.23.3 on this machine, the same default export run with
 * `node -e 'import("/tmp/ref.mjs").then((m) => m.default())'` (its stdout exactly; stderr's first lines).
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const SOURCE = "export default async () => {\n  console.table([{ a: 1, b: \"Y\" }, { a: \"Z\", c: true }]); console.table({ x: 1, y: \"s\" }); console.table([[1, 2], 3], [\"0\"]);\n  console.table(5); console.table(new Map([[\"k\", 1]])); console.table(new Set([\"v\"]));\n  console.dir(\"it's\"); console.dir(-0); console.dirxml(\"x %d\", 1);\n  console.group(); console.log(\"a\\nb\"); console.groupCollapsed(\"G\", 2); console.warn(\"w\"); console.groupEnd(); console.groupEnd(); console.groupEnd(); console.info(\"z\");\n  console.count(5); console.count(\"5\"); console.countReset(\"5\"); console.count(5);\n  console.assert(false, 5, \"y\"); console.assert(1, \"no\"); console.assert(null, \"%s!\", \"x\");\n  console.trace();\n  class A {} class B extends A {}\n  console.log(B, async function* ag() {}, \"%o\", \"\\x1b\\n'\");\n  console.log(\"%o %O\", -0, \"a\\\"b'c\");\n  return 0;\n};";

it("the rest of Node's console methods print as Node 22's", async () => {
  const r = await inWorkspace(async (ws) => (await ws.runtime.exec(SOURCE, { encoding: "utf8", timeoutMs: 10_000 })).result());
  expect({ status: r.status, stdout: r.stdout }).toEqual({
    status: "completed",
    stdout: "┌─────────┬─────┬─────┬──────┐\n│ (index) │ a   │ b   │ c    │\n├─────────┼─────┼─────┼──────┤\n│ 0       │ 1   │ 'Y' │      │\n│ 1       │ 'Z' │     │ true │\n└─────────┴─────┴─────┴──────┘\n┌─────────┬────────┐\n│ (index) │ Values │\n├─────────┼────────┤\n│ x       │ 1      │\n│ y       │ 's'    │\n└─────────┴────────┘\n┌─────────┬───┐\n│ (index) │ 0 │\n├─────────┼───┤\n│ 0       │ 1 │\n│ 1       │   │\n└─────────┴───┘\n5\n┌───────────────────┬─────┬────────┐\n│ (iteration index) │ Key │ Values │\n├───────────────────┼─────┼────────┤\n│ 0                 │ 'k' │ 1      │\n└───────────────────┴─────┴────────┘\n┌───────────────────┬────────┐\n│ (iteration index) │ Values │\n├───────────────────┼────────┤\n│ 0                 │ 'v'    │\n└───────────────────┴────────┘\n\"it's\"\n-0\nx 1\n  a\n  b\n  G 2\nz\n5: 1\n5: 2\n5: 1\n[class B extends A] [AsyncGeneratorFunction: ag] %o \u001b\n'\n-0 `a\"b'c`\n",
  });
  const err = String(r.stderr).split("\n");
  expect(err.slice(0, 4)).toEqual(["    w", "Assertion failed 5 y", "Assertion failed: x!", "Trace"]);
  expect(err[4]).toMatch(/^    at /);
}, 60_000);
