/**
 * Issue 20, run 40, fixer f40js: sibling of attack40b/js-stdout-write-non-chunk-printed and
 * js-nexttick-non-function-uncatchable — Node's exact messages for each kind of value (-0, an ArrayBuffer, a symbol,
 * a BigInt, a function, an array; a string, null and undefined to `nextTick`), a DataView still written, and
 * `nextTick`'s extra arguments still passed. Expected: Node 22.23.3 on this machine, the same default export run with
 * `node -e 'import("/tmp/p.mjs").then(async (m) => console.log(JSON.stringify(await m.default())))'` (stdout "hi\n"
 * from the DataView, nothing on stderr).
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const SOURCE = "export default async () => {\n  const msgs = [];\n  for (const v of [5, -0, null, {}, true, undefined, new ArrayBuffer(1), Symbol(\"s\"), 5n, function f() {}, [1], \"x\"]) {\n    try { process.stderr.write(typeof v === \"string\" ? \"\" : v); msgs.push(\"wrote\"); } catch (e) { msgs.push(e.code + \" \" + e.message); }\n  }\n  process.stdout.write(new DataView(new Uint8Array([104, 105, 10]).buffer));\n  for (const v of [undefined, null, \"s\", { a: 1 }, \"it's a long string of more than 28 chars\"]) {\n    try { process.nextTick(v); } catch (e) { msgs.push(e.code + \" \" + e.message); }\n  }\n  const seen = await new Promise((r) => process.nextTick((a, b) => r([a, b]), 1, 2));\n  return [msgs, seen];\n};";

it("process.stdout/stderr.write and process.nextTick check their argument as Node's", async () => {
  const r = await inWorkspace(async (ws) => (await ws.runtime.exec(SOURCE, { encoding: "utf8", timeoutMs: 10_000 })).result());
  expect({ status: r.status, value: r.value, stdout: r.stdout, stderr: r.stderr }).toEqual({
    status: "completed",
    value: [["ERR_INVALID_ARG_TYPE The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received type number (5)","ERR_INVALID_ARG_TYPE The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received type number (-0)","ERR_STREAM_NULL_VALUES May not write null values to stream","ERR_INVALID_ARG_TYPE The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received an instance of Object","ERR_INVALID_ARG_TYPE The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received type boolean (true)","ERR_INVALID_ARG_TYPE The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received undefined","ERR_INVALID_ARG_TYPE The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received an instance of ArrayBuffer","ERR_INVALID_ARG_TYPE The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received type symbol (Symbol(s))","ERR_INVALID_ARG_TYPE The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received type bigint (5n)","ERR_INVALID_ARG_TYPE The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received function f","ERR_INVALID_ARG_TYPE The \"chunk\" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received an instance of Array","wrote","ERR_INVALID_ARG_TYPE The \"callback\" argument must be of type function. Received undefined","ERR_INVALID_ARG_TYPE The \"callback\" argument must be of type function. Received null","ERR_INVALID_ARG_TYPE The \"callback\" argument must be of type function. Received type string ('s')","ERR_INVALID_ARG_TYPE The \"callback\" argument must be of type function. Received an instance of Object","ERR_INVALID_ARG_TYPE The \"callback\" argument must be of type function. Received type string (\"it's a long string of mor...\")"],[1,2]],
    stdout: "hi\n",
    stderr: "",
  });
}, 60_000);
