/**
 * Issue 20, run 40, attacker b: `process.stdout.write(v)` / `process.stderr.write(v)` in a JavaScript run with `v`
 * not a string, Buffer/TypedArray or DataView prints `String(v)` — `write(5)` prints `5`, `write(null)` `null`,
 * `write({})` `[object Object]`, `write(undefined)` `undefined` — and returns true. Node's Writable (the reference the
 * runner names: "`process.stdout.write(data[, encoding][, callback])` as Node's Writable", run 38 fixer JR) throws a
 * TypeError synchronously and writes nothing: code `ERR_INVALID_ARG_TYPE` (`The "chunk" argument must be of type
 * string or an instance of Buffer, TypedArray, or DataView. Received type number (5)`), for `null`
 * `ERR_STREAM_NULL_VALUES` (`May not write null values to stream`). A bug such as writing a count or an object
 * instead of its text passes silently with wrong bytes in the output, where Node stops it.
 * Cause: isolate/workspace-runtime-runner.js `streamWrite` hands any `d` to `out.write` without checking its type.
 *
 * Node 22.23.3 on this machine:
 *   node -e 'for (const v of [5, null, {}, true, undefined]) { try { process.stdout.write(v); console.log("ok") }
 *            catch (e) { console.log(e.name, e.code) } }'
 *   → TypeError ERR_INVALID_ARG_TYPE / TypeError ERR_STREAM_NULL_VALUES / TypeError ERR_INVALID_ARG_TYPE ×3, no bytes.
 * Today: stdout "5null[object Object]trueundefined" and every call returns (no error).
 * Severity: low.
 * Fixed in run 40 by fixer f40js: `streamWrite` checks the chunk first (ERR_STREAM_NULL_VALUES / ERR_INVALID_ARG_TYPE) and writes nothing.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("process.stdout.write / stderr.write of a non-chunk throws Node's TypeError and writes nothing", async () => {
  const r = await inWorkspace(async (ws) =>
    (
      await ws.runtime.exec(
        `export default async () => {
           const codes = [];
           for (const s of [process.stdout, process.stderr]) for (const v of [5, null, {}, true, undefined]) {
             try { s.write(v); codes.push("wrote"); } catch (e) { codes.push(e.name + " " + e.code); }
           }
           return codes;
         }`,
        { encoding: "utf8", timeoutMs: 10_000 },
      )
    ).result(),
  );
  const node = ["TypeError ERR_INVALID_ARG_TYPE", "TypeError ERR_STREAM_NULL_VALUES", "TypeError ERR_INVALID_ARG_TYPE", "TypeError ERR_INVALID_ARG_TYPE", "TypeError ERR_INVALID_ARG_TYPE"];
  expect({ status: r.status, value: r.value, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: "completed", value: [...node, ...node], stdout: "", stderr: "" });
}, 60_000);
