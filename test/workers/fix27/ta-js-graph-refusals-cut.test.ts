/**
 * Issue 20, run 27, fixer TA: siblings of attack27a/js-module-graph-refusals-echo-specifier-whole — every
 * module-graph refusal quotes a long specifier, export name or module path by its first 64 characters and its
 * length (`pathCut` / `quoteCut`, src/util/cut.ts), and short ones read as before.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";
import { quoteCut } from "../../../src/util/cut.js";

it("cuts specifiers, paths and export names in module-graph refusals; short ones read as before", async () => {
  const dir = `/workspace/${"d".repeat(100)}`;
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir(`${dir}/${"e".repeat(100)}`, { recursive: true });
    await ws.fs.writeFile(`${dir}/lib.js`, `import x from "./nope.js"; export default x;`);
    await ws.fs.writeFile(`${dir}/bad.js`, `export default = 1;`);
    await ws.fs.writeFile(`${dir}/bad.ts`, `export default (x: number =>;`);
    await ws.fs.writeFile(`${dir}/dyn.js`, `export default () => import(globalThis.x);`);
    await ws.fs.writeFile("/workspace/short.js", `import x from "./gone.js"; export default x;`);
    const cases: Record<string, string> = {
      viaLongPath: `import l from "${dir}/lib.js"; export default () => l;`,
      syntax: `import b from "${dir}/bad.js"; export default () => b;`,
      typescript: `import b from "${dir}/bad.ts"; export default () => b;`,
      dynamic: `import d from "${dir}/dyn.js"; export default () => d;`,
      directory: `import e from "./${"d".repeat(100)}/${"e".repeat(100)}"; export default () => e;`,
      outside: `import o from "/etc/${"k".repeat(200)}.js"; export default () => o;`,
      manyExports: `${Array.from({ length: 20 }, (_, i) => `export const n${i} = ${i};`).join("\n")}`,
      shortMissing: `import s from "./short.js"; export default () => s;`,
      shortBare: `import p from "left-pad"; export default () => p;`,
    };
    const rows: Record<string, string> = {};
    for (const [k, source] of Object.entries(cases)) {
      rows[k] = await ws.runtime.exec(source).then(
        () => "ran",
        (e: { code?: string; name?: string; message: string }) => `${e.code ?? e.name}: ${e.message}`,
      );
    }
    return rows;
  });
  const at = (p: string) => quoteCut(p);
  expect(out).toEqual({
    viaLongPath: `ENOENT: Cannot find module "./nope.js" imported from ${at(`${dir}/lib.js`)} (looked for ${at(`${dir}/nope.js`)})`,
    syntax: `SyntaxError: ${at(`${dir}/bad.js`)}: Unexpected token (1:15)`,
    typescript: expect.stringMatching(new RegExp(`^SyntaxError: ${at(`${dir}/bad.ts`).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: `)),
    dynamic: `EINVAL: ${at(`${dir}/dyn.js`)}: dynamic imports must use a string literal, e.g. import("./data.js")`,
    directory: `EISDIR: Cannot import ${quoteCut(`./${"d".repeat(100)}/${"e".repeat(100)}`)}: ${at(`${dir}/${"e".repeat(100)}`)} is not a file`,
    outside: `EACCES: paths must stay under /workspace: ${quoteCut(`/etc/${"k".repeat(200)}.js`)}`,
    manyExports: `EINVAL: The module has nothing to run: it must have a default export, e.g. \`export default async function (input) { … }\`. It exports ${Array.from({ length: 16 }, (_, i) => `\`n${i}\``).join(", ")} and 4 more, but no default.`,
    shortMissing: 'ENOENT: Cannot find module "./gone.js" imported from /workspace/short.js (looked for /workspace/gone.js)',
    shortBare: 'ENOENT: Module "left-pad" is not configured for the worker-javascript backend. Import Workspace files with ./, ../ or / paths, node:fs, or a configured module.',
  });
  // the TypeScript error's text is sucrase's; only its prefix is the path's
  expect(out.typescript.length).toBeLessThan(400);
}, 120_000);
