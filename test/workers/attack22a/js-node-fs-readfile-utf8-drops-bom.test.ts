/**
 * Issue 20, twenty-second attack run: the JavaScript backend's node:fs `readFile(p, "utf8")` drops a file's leading
 * byte-order mark, so a read-modify-write strips it from the file.
 * Tried: node:fs/promises in a WorkerJavaScriptBackend run (Durable Object, default options) on /workspace/bom.csv
 * holding EF BB BF "a,b\n1,2\n" (a spreadsheet export): `readFile(p, "utf8")`, `readFile(p, { encoding: "utf-8" })`,
 * `readFile(p)` (bytes), and the usual edit — `writeFile(p, (await readFile(p, "utf8")).replace("1,2", "3,4"))`.
 * The project keeps a leading U+FEFF as content everywhere else a run sees it (a2b5bde: a run's output; 8e580c6:
 * git; the daemon's scan; 17dff0e: one BOM-keeping decoder), and workspace.provider() — the node:fs-shaped API
 * (docs/filesystem.md) — hands bytes that Node's Buffer decodes with the BOM.
 * Held: `readFile(p)` gives all 11 bytes (EF BB BF first).
 * Found (low–medium — a silent change to a file the code never meant to touch at its start; 3 of 3 runs): both
 * utf8 forms answer "a,b\n1,2\n" (8 characters, no U+FEFF) — the bridge (src/backends/worker-javascript/bridge.ts,
 * readFile) returns `fs.readFile(p, "utf8")`, whose decoder drops a leading BOM (spec 01's rule for
 * workspace.fs) — and the edited file is written back without its BOM (bytes start 61 2C, not EF BB BF): Excel then
 * reads the UTF-8 CSV as ANSI. Node on Linux answers "\uFEFFa,b\n1,2\n" (9 characters; readFile's utf8 is
 * Buffer#toString, which keeps it), so the same code keeps the BOM there.
 * Suggested fix: in the bridge's readFile with "utf8", read the bytes and decode them with the BOM-keeping
 * `decodeUtf8` (src/util/bytes.ts), as Node does; note it in runtime.md's node:fs section (spec 02 §3.4 does not say
 * the BOM is dropped).
 * Fixed: the bridge's readFile (src/backends/worker-javascript/bridge.ts) reads the bytes and decodes "utf8" with
 * the BOM-keeping `decodeUtf8` (src/util/bytes.ts), as Node's Buffer#toString does — the one node:fs decode path
 * (fs/promises and node:fs share it; the backend has no sync, stream or FileHandle API). runtime.md says so.
 * Siblings (invalid bytes, a BOM not at the start, node:fs's default and `promises`): test/workers/fix22/fjs-node-fs.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("node:fs readFile utf8 keeps a leading BOM, and a read-modify-write keeps it in the file", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/bom.csv", new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("a,b\n1,2\n")]));
    const h = await ws.runtime.exec(
      `import fs from "node:fs/promises";
       export default async () => {
         const p = "/workspace/bom.csv";
         const utf8 = await fs.readFile(p, "utf8");
         const options = await fs.readFile(p, { encoding: "utf-8" });
         const bytes = await fs.readFile(p);
         await fs.writeFile(p, utf8.replace("1,2", "3,4"));
         return { utf8: [...utf8].map((c) => c.codePointAt(0).toString(16)).join(" "), options: options.length, bytes: bytes.byteLength };
       }`,
    );
    const r = await h.result();
    const after = new Uint8Array(await new Response(await ws.fs.readFile("/workspace/bom.csv")).arrayBuffer());
    return { value: r.value, after: Array.from(after.subarray(0, 5), (b) => b.toString(16)).join(" ") };
  });
  // Found: value { utf8: "61 2c 62 a 31 2c 32 a", options: 8, bytes: 11 }, after "61 2c 62 a 33".
  expect(out).toEqual({
    value: { utf8: "feff 61 2c 62 a 31 2c 32 a", options: 9, bytes: 11 },
    after: "ef bb bf 61 2c",
  });
}, 120_000);
