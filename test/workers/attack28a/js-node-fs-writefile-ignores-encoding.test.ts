/**
 * Issue 20, twenty-eighth attack run: the JavaScript backend's `node:fs` `writeFile` ignores its encoding argument
 * (`"base64"`, `{ encoding: "hex" }`, `"latin1"`): the string is stored as UTF-8 text, with status 0. Node decodes
 * the string with that encoding, so `writeFile("logo.png", b64, "base64")` — the usual way to save an image or a
 * binary an API returned as base64 — stores the base64 text itself (`aGVsbG8=`, 8 bytes) instead of the bytes
 * (`hello`, 5). `readFile` of the same run refuses an encoding other than UTF-8 with a TypeError, and the
 * Workspace's node:fs provider refuses one with EINVAL; only `writeFile` silently writes something else.
 *
 * Tried: `workspace.runtime.exec` on a WorkerJavaScriptBackend writing `"aGVsbG8="` with `"base64"`, `"ff00"` with
 * `{ encoding: "hex" }` and `"é"` with `"latin1"`, against Node 22's `fs.promises.writeFile` on Linux.
 * Held: `"utf8"` / `{ encoding: "utf8" }` / no encoding store UTF-8; bytes (`Uint8Array`, other views,
 * `ArrayBuffer`) are stored as given; `readFile(p, "base64")` is a TypeError; an unsupported `flag` is a TypeError.
 * Found (medium — a file's bytes are silently not what the code wrote (a binary saved as its base64 text), where
 * node:fs and the provider either decode or refuse; 2 of 2 runs).
 * Suggested fix: src/backends/worker-javascript/isolate/__modules__/node-fs-promises.js, `writeFile` — read the
 * encoding as `readFile` does (`encodingOf(options, "writeFile")`: a string option or `options.encoding`) and throw
 * its TypeError for anything but utf8 when `data` is a string (or decode base64/hex/latin1 to bytes there, as Node).
 *
 * Fixed (run 28, fixer JF): src/backends/worker-javascript/isolate/__modules__/node-fs-promises.js decodes a
 * string in any of Node's encodings (`decodeString`, as `Buffer.from(string, encoding)`) before the host call, and
 * `readFile` encodes bytes in them (`encodeBytes`); an unknown name is Node's TypeError (`ERR_INVALID_ARG_VALUE`,
 * `ERR_UNKNOWN_ENCODING` for "buffer"). Siblings in test/workers/fix28/js-node-fs.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("node:fs writeFile decodes a string with the encoding given (or refuses it), as Node's does", async () => {
  const result = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const handle = await ws.runtime.exec(
      `import { readFile, writeFile } from "node:fs/promises";
       export default async function () {
         const out = {};
         for (const [name, data, options] of [["b64.bin", "aGVsbG8=", "base64"], ["hex.bin", "ff00", { encoding: "hex" }], ["l1.bin", "\\u00e9", "latin1"]]) {
           try {
             await writeFile(name, data, options);
             out[name] = Array.from(await readFile(name));
           } catch (e) {
             out[name] = e.name;
           }
         }
         return out;
       }`,
    );
    return handle.result();
  });
  expect(result.status).toBe("completed");
  // Node's answer: the decoded bytes; or, as readFile answers these encodings, a TypeError for each.
  const decoded = {
    "b64.bin": [104, 101, 108, 108, 111], // Was: [97, 71, 86, 115, 98, 71, 56, 61] ("aGVsbG8=" as text)
    "hex.bin": [255, 0], // Was: [102, 102, 48, 48] ("ff00" as text)
    "l1.bin": [233], // Was: [195, 169] (UTF-8)
  };
  const refused = { "b64.bin": "TypeError", "hex.bin": "TypeError", "l1.bin": "TypeError" };
  expect([decoded, refused]).toContainEqual(result.value);
});
