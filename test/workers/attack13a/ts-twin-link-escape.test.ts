/**
 * Issue 20, thirteenth attack run: the JavaScript backend's module graph with `root: "/workspace/proj"` and the
 * TypeScript twin lookup of 0776075 (graph.ts `buildGraph`: "`./x.js` that does not exist finds `./x.ts`").
 *
 * Tried: a symbolic link `/workspace/proj/x.ts` → `/workspace/config.ts` (outside the root), made by the host
 * (docs/runtime.md: links the host makes are kept as written, and a run never traverses one), imported as
 * `./x.ts` (refused: "cannot traverse symbolic link", held), and as `./x.js`; a linked directory `lib` → /workspace/lib
 * imported as `./lib/y.ts` and `./lib/y.js` (both refused, held).
 *
 * Found (medium-high — a confined run reads modules outside its root): `import { KEY } from "./x.js"` resolves
 * `./x.js` with resolveConfined (no link on the way), finds it missing, and takes the twin `/workspace/proj/x.ts`
 * WITHOUT that check: stat/readFile follow the final link, and the run returns "top secret" from
 * /workspace/config.ts. Any JavaScript/TypeScript file (config modules holding keys, other projects' sources) is
 * readable. The run itself can make such a link with ws:git (see git-module-link-escape.test.ts: a checkout writes
 * link targets unchecked), so no host help is needed when ws:git is configured. Reproduced 3 of 3.
 * Fixed: the twin goes through resolveConfined as the `.ts` spelling does.
 * Suggested fix: resolve the twin with resolveConfined too (or check `exists` with lstat and refuse a link), as the
 * `.ts` spelling is.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const ROOT = "/workspace/proj";

it("the .js → .ts twin of an import keeps to the root: a link named x.ts is not followed", async () => {
  const out = await inWorkspace(
    async (ws) => {
      await ws.fs.mkdir(ROOT, { recursive: true });
      await ws.fs.writeFile("/workspace/config.ts", 'export const KEY: string = "top secret";\n');
      await ws.fs.symlink("/workspace/config.ts", `${ROOT}/x.ts`);
      const run = async (src: string) => {
        try {
          const r = await (await ws.runtime.exec(src, { encoding: "utf8", cwd: ROOT })).result();
          return { exit: r.exitCode, value: r.value };
        } catch (e) {
          return { rejected: (e as Error).message };
        }
      };
      return {
        direct: await run(`import { KEY } from "./x.ts"; export default () => KEY;`),
        twin: await run(`import { KEY } from "./x.js"; export default () => KEY;`),
      };
    },
    { backend: { root: ROOT } },
  );
  expect(out.direct).toEqual({ rejected: "cannot traverse symbolic link: /workspace/proj/x.ts" });
  // Found: twin = { exit: 0, value: "top secret" }.
  // Fixed: refused like the .ts spelling (or "Cannot find module"): a rejection, nothing read through the link.
  expect(out.twin).toEqual({ rejected: "cannot traverse symbolic link: /workspace/proj/x.ts" });
});
