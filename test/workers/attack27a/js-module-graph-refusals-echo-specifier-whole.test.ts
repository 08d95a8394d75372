/**
 * Issue 20, twenty-seventh attack run: the JavaScript backend's module-graph refusals quote the caller's import
 * specifier (and an export name) whole — `Module "<spec>" is not configured …`, `Cannot find module "<spec>" …
 * (looked for <path>)`, `It exports \`<name>\`, but no default.` — while every other refusal of `exec` quotes what
 * the caller gave by its first 64 characters and its length. A 300,000-character specifier makes a 300,150-
 * character rejection (400,092 for a missing relative import: the specifier and the path it looked for), and the
 * exec tool passes it on whole as its `error`: the model pays for its own long import once more (pi: twice, text
 * and details).
 *
 * Tried: `workspace.runtime.exec` on a WorkerJavaScriptBackend with sources (each under maxSourceBytes) importing a
 * 300,000-character bare specifier, `ws:` + 300,000 characters, a `./` + 200,000-character `.js` file that does not
 * exist, a Workspace module that itself imports the long bare specifier, and an entry with no default export whose
 * one export has a 300,001-character name; and the same through `createPiTools({ workspace }).execute` (exec).
 * Held: cwd refusals (`cwd does not exist: "…" (100011 characters)`, ENAMETOOLONG for a cwd over MAX_PATH_BYTES),
 * a relative import over MAX_PATH_BYTES (ENAMETOOLONG, cut), env / input / source over their byte limits (short
 * E2BIG-style messages), a syntax error (`Unexpected token (1:300023)`), a long env name (accepted, runs).
 * Found (low — an unbounded echo of the caller's own text, up to maxSourceBytes (1 MiB) per refusal, where
 * docs/runtime.md says "Refusals quote what the caller gave cut to its first 64 characters and its length";
 * 2 of 2 runs).
 * Suggested fix: src/backends/worker-javascript/graph.ts — quote `spec` with `quoteCut` (src/util/cut.ts) in
 * notConfigured() and in the `Cannot find module` message (and cut its `looked for` path as the cwd refusals do),
 * and the export names of the no-default refusal (each with quoteCut, and the list bounded).
 *
 * Fixed: src/backends/worker-javascript/graph.ts quotes import specifiers with `quoteCut` and the paths it names
 * (`looked for`, `imported from`, a module's path before its syntax error, reserved/not-a-file/too-deep/too-big
 * paths) with `pathCut` (src/util/cut.ts: as they are up to 64 characters, else `quoteCut`, as the cwd refusals);
 * a confinement refusal met while resolving an import has the specifier and its path cut the same way; the
 * no-default refusal lists at most 16 export names, each `` `name` `` or, past 64 characters, `quoteCut`;
 * typescript.ts cuts the path before a strip error. `err.path` keeps every path whole.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { quoteCut } from "../../../src/util/cut.js";

it("quotes a long import specifier or export name cut to 64 characters and its length", async () => {
  const spec = "k".repeat(300_000);
  const mid = "m".repeat(200_000);
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/lib.js", `import y from "${spec}"; export default 1;`);
    const cases: Record<string, string> = {
      bare: `import x from "${spec}"; export default () => 1;`,
      ws: `import x from "ws:${spec}"; export default () => 1;`,
      missing: `import x from "./${mid}.js"; export default () => 1;`,
      viaLib: `import l from "./lib.js"; export default () => l;`,
      noDefault: `export const a${spec} = 1;`,
    };
    const rows: Record<string, { code: string; short: boolean; quoted: boolean }> = {};
    const quotedForm: Record<string, string> = {
      bare: quoteCut(spec),
      ws: quoteCut(`ws:${spec}`),
      missing: quoteCut(`./${mid}.js`),
      viaLib: quoteCut(spec),
      noDefault: quoteCut(`a${spec}`),
    };
    for (const [k, source] of Object.entries(cases)) {
      const error = await ws.runtime.exec(source).then(
        () => ({ code: "none", message: "ran" }),
        (e: { code?: string; message: string }) => ({ code: String(e.code), message: e.message }),
      );
      rows[k] = { code: error.code, short: error.message.length < 1_000, quoted: error.message.includes(quotedForm[k]) };
    }
    const pi = await createPiTools({ workspace: ws }).execute({ id: "p1", name: "exec", arguments: { command: cases.bare } } as never);
    return { rows, piChars: JSON.stringify(pi.content).length };
  });
  // Was: every `short: false, quoted: false` — messages of 300,150 (bare, viaLib), 300,112 (ws), 400,092 (missing)
  // and 300,152 (noDefault) characters, each holding the whole specifier or name; pi's exec result 300,172 characters.
  expect(out.rows).toEqual({
    bare: { code: "ENOENT", short: true, quoted: true },
    ws: { code: "ENOENT", short: true, quoted: true },
    missing: { code: "ENOENT", short: true, quoted: true },
    viaLib: { code: "ENOENT", short: true, quoted: true },
    noDefault: { code: "EINVAL", short: true, quoted: true },
  });
  expect(out.piChars).toBeLessThan(1_000);
}, 120_000);
