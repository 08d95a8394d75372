/**
 * Issue 20, thirty-second attack run: the JavaScript backend's `node:fs` `readFile(p)` without an encoding resolves a
 * plain `Uint8Array`, not a `Buffer`, so the everyday Node forms `JSON.parse(await readFile(p))`,
 * `(await readFile(p)).toString()` and `String(await readFile(p)).split("\n")` silently compute something else.
 * Tried: node:fs/promises in a WorkerJavaScriptBackend run (a Durable Object, default options, nodejs_compat) against
 * real Node 22 on a temp dir, ~75 snippets (readFile/writeFile encodings and flags, typed-array views, mkdir recursive
 * return values, readdir withFileTypes/recursive, rm recursive/force over links, symlink/readlink, stat, access).
 * Held: writeFile of a `subarray`/`DataView` view writes just the view; encodings round-trip; mkdir recursive returns
 * the first created path as written; readdir recursive order and parentPath; rm of a link to a directory keeps the
 * target; error codes ENOENT/EEXIST/EISDIR/ENOTDIR/EINVAL/ERR_FS_EISDIR match.
 * Found (medium — silently wrong text from a form agent scripts commonly write: `(await readFile(p)).toString()` is
 * "104,195,169" for "hé", `String(buf).split("\n")` one element of byte numbers, `JSON.parse(await readFile(p))`
 * throws a SyntaxError on valid JSON, or for a file "7" returns 55; 3 of 3 runs). Node: a `Buffer` (a Uint8Array
 * subclass, so the spec's "bytes" still holds), whose toString() decodes UTF-8.
 * Suggested fix: src/backends/worker-javascript/isolate/__modules__/node-fs-promises.js `readFile`: when
 * `globalThis.Buffer` exists (nodejs_compat, the default), hand back `Buffer.from(bytes.buffer, bytes.byteOffset,
 * bytes.byteLength)` instead of the bare Uint8Array.
 * Fixed: isolate/__modules__/node-fs-promises.js `nodeBytes` hands `readFile`'s bytes over as a `Buffer` over the same
 * memory when `globalThis.Buffer` exists (a plain `Uint8Array` without nodejs_compat); siblings on the way —
 * `readlink`/`readdir` take Node's encodings (`"buffer"` a Buffer of the names' UTF-8 bytes, `"hex"`, …; they ignored
 * the encoding) and `fs.constants` is Node's object — in test/workers/fix32/js-node-fs-buffer.test.ts (fixer JB).
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("readFile without an encoding resolves a Buffer whose toString() is the UTF-8 text", async () => {
  const value = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/t.txt", "hé\nx\n");
    await ws.fs.writeFile("/workspace/d.json", '{"a":1}');
    await ws.fs.writeFile("/workspace/n.json", "7");
    const h = await ws.runtime.exec(
      `import { readFile } from "node:fs/promises";
       export default async () => {
         const buf = await readFile("t.txt");
         let parsed; try { parsed = JSON.parse(await readFile("d.json")); } catch (e) { parsed = "SyntaxError"; }
         return {
           isBuffer: Buffer.isBuffer(buf),
           text: buf.toString(),
           utf8: buf.toString("utf8"),
           lines: String(buf).split("\\n"),
           parsed,
           seven: JSON.parse(await readFile("n.json")),
         };
       }`,
    );
    const r = await h.result();
    expect(r.exitCode).toBe(0);
    return r.value;
  });
  expect(value).toEqual({
    isBuffer: true, // Was: false
    text: "hé\nx\n", // Was: "104,195,169,10,120,10"
    utf8: "hé\nx\n", // Was: "104,195,169,10,120,10"
    lines: ["hé", "x", ""], // Was: ["104,195,169,10,120,10"]
    parsed: { a: 1 }, // Was: "SyntaxError"
    seven: 7, // Was: 55
  });
}, 120_000);
