/**
 * Issue 20, twenty-sixth attack run: `ws:tools` refuses a file tool's path holding a NUL byte with the whole path,
 * JSON-escaped, in its `text` — a long one makes the call reject E2BIG instead of resolving the refusal.
 *
 * Tried: a JavaScript run (`root: "/workspace"`, read-write) with `ws:tools` over `createAITools({ workspace })`
 * calls `read({ path })` for (1) `/workspace/` + 200,000 × U+0001 (missing), (2) `/etc/` + 200,000 × U+0001
 * (outside the root), (3) `/workspace/` + 100,000 × U+0001 + NUL, (4) `/workspace/` + 200,000 × U+0001 + NUL.
 * Held: (1) `File not found: …` and (2) `EACCES: paths must stay under /workspace: …` come back cut to 4,096
 * characters of path (`[… N characters cut …]`, text ≈ 4,150 characters), `details.path` cut too; the run's own
 * node:fs errors for the same paths are cut (16,414 characters).
 * Found (low–medium — the model's code gets a refusal 150× the size of the others, and past 1 MiB of JSON not a
 * refusal at all but a host-call size error that names no path; 3 of 3 runs): (3) resolves `{ isError: true }`
 * with a `text` of 600,000+ characters — `EINVAL: path contains a NUL byte: "/workspace/\u0001\u0001…"` — the
 * path JSON-escaped whole; (4) rejects `E2BIG host call response is 1204236 bytes, over maxCapabilityBytes
 * (1048576)`. src/modules/tools.ts refusedPath cuts the path in the message with
 * `text.split(path).join(echoedText(path))`, but ctx.resolvePath's NUL message (src/backends/worker-javascript/
 * paths.ts validated(): `path contains a NUL byte: ${JSON.stringify(input)}`) quotes the path JSON-escaped, so the
 * raw path is never found in it and nothing is cut.
 * Suggested fix: quote the path cut in paths.ts validated() (`quoteCut(input)` / a cut JSON form), or in
 * refusedPath build the NUL refusal's text itself from `echoedText(given)` instead of searching the message.
 * Fixed: validated() in src/backends/worker-javascript/paths.ts quotes the path with quoteCut (its first 64
 * characters JSON-quoted and its length, as resolveCwd's `cwd contains a NUL byte` does; `err.path` keeps it
 * whole), so the refusal, and the run's own node:fs error, is `EINVAL: path contains a NUL byte:
 * "/workspace/\u0001…" (100013 characters)`. Sibling: refusedPath in src/modules/tools.ts also cuts the path the
 * error names (`err.path`), so `cannot traverse symbolic link: <link>` through a link of a long name is cut too
 * (second test).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forAISDKTools } from "../../../src/modules/tools.js";
import { createAITools } from "../../../src/tools/ai-sdk.js";

const CODE = `import { read } from "ws:tools";
export default async () => {
  const out = {};
  const cases = {
    missing: "/workspace/" + "\\u0001".repeat(200000),
    outside: "/etc/" + "\\u0001".repeat(200000),
    nul: "/workspace/" + "\\u0001".repeat(100000) + "\\0",
    nulLong: "/workspace/" + "\\u0001".repeat(200000) + "\\0",
  };
  for (const [k, path] of Object.entries(cases)) {
    try {
      const r = await read({ path });
      out[k] = { isError: r.isError, head: r.text.slice(0, 34), short: r.text.length < 30000, code: r.details?.code, pathCut: r.details?.path?.length === 4096 + "[… ".length + String(path.length - 4096).length + " characters cut …]".length, text: r.text.length < 1000 ? r.text : undefined };
    } catch (e) {
      out[k] = { threw: e.code + " " + e.message };
    }
  }
  return out;
};`;

it("ws:tools refuses a long path holding NUL with the path cut, as it refuses other paths", async () => {
  const value = await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    let tools: Record<string, unknown> = {};
    const ws: Workspace = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({
          loader: env.LOADER,
          root: "/workspace",
          access: "read-write",
          modules: { "ws:tools": createToolBindings(forAISDKTools((): never => tools as never)) },
        }),
      ],
    });
    tools = createAITools({ workspace: ws }) as never;
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const result = await (await ws.runtime.exec(CODE, { encoding: "utf8" })).result();
      expect([result.exitCode, result.stderr]).toEqual([0, ""]);
      return result.value;
    } finally {
      await ws.close();
    }
  });
  // Held: the missing and outside paths come back cut.
  expect((value as Record<string, unknown>).missing).toEqual({ isError: true, head: "File not found: /workspace/\u0001\u0001\u0001\u0001\u0001\u0001\u0001", short: true, pathCut: false });
  expect((value as Record<string, unknown>).outside).toEqual({ isError: true, head: "EACCES: paths must stay under /wor", short: true, code: "EACCES", pathCut: true });
  // Found: nul → { isError: true, short: false, … } (a 600,000+ character text); nulLong → { threw: "E2BIG host call
  // response is 1204236 bytes, over maxCapabilityBytes (1048576)" }.
  const refused = (length: number) => ({
    isError: true,
    head: "EINVAL: path contains a NUL byte: ",
    short: true,
    code: "EINVAL",
    pathCut: true,
    text: `EINVAL: path contains a NUL byte: ${JSON.stringify(`/workspace/${"\u0001".repeat(53)}…`)} (${length} characters)`,
  });
  expect({ nul: (value as Record<string, unknown>).nul, nulLong: (value as Record<string, unknown>).nulLong }).toEqual({ nul: refused(100_012), nulLong: refused(200_012) });
}, 120_000);

/** Runs `code` in a read-write JavaScript run under /workspace with ws:tools over createAITools, after `prepare`. */
async function runWithTools(code: string, prepare: (ws: Workspace) => Promise<void>): Promise<unknown> {
  return runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    let tools: Record<string, unknown> = {};
    const ws: Workspace = new Workspace({
      storage: state.storage,
      backends: [
        new WorkerJavaScriptBackend({
          loader: env.LOADER,
          root: "/workspace",
          access: "read-write",
          modules: { "ws:tools": createToolBindings(forAISDKTools((): never => tools as never)) },
        }),
      ],
    });
    tools = createAITools({ workspace: ws }) as never;
    try {
      await ws.fs.mkdir("/workspace/d", { recursive: true });
      await prepare(ws);
      const result = await (await ws.runtime.exec(code, { encoding: "utf8" })).result();
      expect([result.exitCode, result.stderr]).toEqual([0, ""]);
      return result.value;
    } finally {
      await ws.close();
    }
  });
}

it("the run's node:fs error for a path with NUL quotes it cut; a refusal through a link of a long name cuts the link", async () => {
  const link = `/workspace/${"L".repeat(100_000)}`;
  const value = await runWithTools(
    `import { read } from "ws:tools";
import { readFile } from "node:fs/promises";
export default async () => {
  let fsError;
  try { await readFile("/workspace/" + "\u0001".repeat(100000) + "\0"); } catch (e) { fsError = e.code + " " + e.message; }
  const r = await read({ path: ${JSON.stringify(link)} + "/f.txt" });
  return { fsError, link: { isError: r.isError, text: r.text.length < 10000 ? r.text : r.text.length, details: r.details } };
};`,
    async (ws) => ws.fs.symlink("/workspace/d", link),
  );
  const cut = `${link.slice(0, 4096)}[… ${link.length - 4096} characters cut …]`;
  expect(value).toEqual({
    fsError: `EINVAL path contains a NUL byte: ${JSON.stringify(`/workspace/${"\u0001".repeat(53)}…`)} (100012 characters)`,
    // Before: the link's whole 100,011 characters (refusedPath looked only for the path given and its normal form).
    link: { isError: true, text: `EACCES: cannot traverse symbolic link: ${cut}`, details: { code: "EACCES", path: `${link.slice(0, 4096)}[… ${link.length + 6 - 4096} characters cut …]` } },
  });
}, 120_000);
