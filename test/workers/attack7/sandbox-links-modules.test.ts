/**
 * Issue 20 seventh attack run, category 1 (sandbox escapes), JavaScript
 * backend with `root: "/workspace/proj"` in real workerd. New angles, not in
 * runs 2–6 or test/workers/runtime/symlink-targets.test.ts:
 *
 * - link CREATION ORDER: the link whose target holds `..` is made first,
 *   while the component before the `..` is missing (checked lexically, so
 *   accepted), and that component is made a link afterwards (its own target
 *   is inside root, so accepted too) — DEFECT below;
 * - the same with an absolute target (`/workspace/proj/e/../…`), and with a
 *   middle link to a missing directory (its tail taken lexically): held when
 *   the middle link's own target does not resolve (ENOENT for the host);
 * - chmod with odd modes from the sandbox: 0o7777 and 2^40 are accepted and
 *   masked with 0o7777 as docs/filesystem.md says; -1 and NaN are EINVAL (since run 31: Node's RangeError for
 *   2^40, -1 and NaN, before the host is asked);
 * - sources nested ~600+ levels deep (arrays, parentheses, `+ (`, blocks)
 *   within maxSourceBytes: the host's parser (acorn) refuses them with a
 *   SyntaxError `Not enough stack space to parse input (1:<col>)` before any
 *   Worker is made — bounded, and the object goes on;
 * - host modules (`ws:mod`): a namespace import exposes only the
 *   configured function (`__proto__`/`constructor` are nothing), named
 *   imports of `constructor`, `toString` and `default` fail the link step;
 *   a non-literal dynamic import is refused by the graph; `eval` and
 *   `new Function` of `import()` are code generation and refused.
 *
 * DEFECT (medium), FIXED — a confined run stores a target's `..` after a name lexically (paths.ts `storedLinkTarget`), so no later link can move it. Reproduction (sandbox code, cwd = root):
 *   await symlink("d/../host-secret.txt", "esc");   // ok: d missing, lexically /workspace/proj/host-secret.txt
 *   await symlink(".", "d");                         // ok: leads to root itself
 *   // host: await workspace.fs.readFile("/workspace/proj/esc", "utf8") === "secret"  (/workspace/host-secret.txt)
 *   // and workspace.fs.writeFile("/workspace/proj/esc", …) overwrites it.
 * The issue-4 fix (paths.ts `checkLinkTarget`) checks a new link's target as
 * the filesystem resolves it NOW; a later link can change where an earlier
 * link's `..` lands. The sandbox itself never follows the link (it refuses
 * any link on a path), but the host, tools without `root`, the shell and git
 * do — e.g. a host that reads or writes the run's output file
 * `/workspace/proj/out.txt` reads or writes outside the project.
 * symlink-targets.test.ts shows the same with rm + re-point and asserts only
 * the sandbox side.
 * Impact: medium — the issue-4 escape again (needs the host or another
 * unconfined reader to use a path under root the code prepared).
 * Fix proposal: store sandbox-made link targets lexically normalised (no
 * `..` left: `d/../host-secret.txt` is stored as `host-secret.txt`, checked
 * inside root); then no later link can move where a stored target leads,
 * because without `..` an expansion cannot climb out — or refuse any target
 * holding a `..` component that follows a name.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const ROOT = "/workspace/proj";
type Ws = Parameters<Parameters<typeof inWorkspace>[0]>[0];
async function run(ws: Ws, source: string) {
  try {
    const r = await (await ws.runtime.exec(source, { encoding: "utf8", cwd: ROOT })).result();
    return { exit: r.exitCode, value: r.value, stderr: r.stderr as string };
  } catch (e) {
    return { rejected: (e as Error).message, name: (e as Error).name };
  }
}
const ATTEMPT = `const attempt = async (fn) => { try { const v = await fn(); return v === undefined ? "ok" : v; } catch (e) { return "ERR " + (e && e.code) + " " + (e && e.message); } };`;

function withRoot<T>(fn: (ws: Ws) => Promise<T>, modules?: Record<string, unknown>) {
  return inWorkspace(
    async (ws) => {
      await ws.fs.mkdir(ROOT, { recursive: true });
      await ws.fs.writeFile("/workspace/host-secret.txt", "secret");
      return fn(ws);
    },
    { backend: { root: ROOT, ...(modules ? { modules: modules as never } : {}) } },
  );
}

describe("attack7: links made in an order the target check does not see", () => {
  it("FIXED: esc -> d/../host-secret.txt made while d is missing is stored as host-secret.txt; d -> '.' made later cannot move it out of root", async () => {
    const r = await withRoot(async (ws) => {
      const made = await run(
        ws,
        `import { symlink, readlink } from "node:fs/promises"; ${ATTEMPT}
         export default async () => ({ esc: await attempt(() => symlink("d/../host-secret.txt", "esc")), d: await attempt(() => symlink(".", "d")), stored: await readlink("esc") });`,
      );
      const read = await ws.fs.readFile(`${ROOT}/esc`, "utf8").catch((e: { code: string }) => e.code);
      await ws.fs.writeFile(`${ROOT}/esc`, "through esc");
      return {
        made: made.value,
        read,
        inside: await ws.fs.readFile(`${ROOT}/host-secret.txt`, "utf8"),
        secret: await ws.fs.readFile("/workspace/host-secret.txt", "utf8"),
      };
    });
    // Before the fix: made = { esc: "ok", d: "ok" } and read = "secret" (/workspace/host-secret.txt).
    expect(r).toEqual({ made: { esc: "ok", d: "ok", stored: "host-secret.txt" }, read: "ENOENT", inside: "through esc", secret: "secret" });
  });

  it("the absolute form through a middle link whose own target is missing leads nowhere; the secret stays", async () => {
    const r = await withRoot(async (ws) => {
      const made = await run(
        ws,
        `import { symlink } from "node:fs/promises"; ${ATTEMPT}
         export default async () => ({ esc2: await attempt(() => symlink("${ROOT}/e/../host-secret.txt", "esc2")), e: await attempt(() => symlink("sub/..", "e")) });`,
      );
      return { made: made.value, read: await ws.fs.readFile(`${ROOT}/esc2`, "utf8").catch((e: { code: string }) => e.code), secret: await ws.fs.readFile("/workspace/host-secret.txt", "utf8") };
    });
    expect(r).toEqual({ made: { esc2: "ok", e: "ok" }, read: "ENOENT", secret: "secret" });
  });
});

describe("attack7: chmod modes and deep sources", () => {
  it("chmod: 0o7777 and 2^40 are masked with 0o7777; -1 and NaN are EINVAL", async () => {
    const r = await withRoot(async (ws) => {
      await ws.fs.writeFile(`${ROOT}/f`, "x");
      const v = await run(
        ws,
        `import { chmod, stat } from "node:fs/promises"; ${ATTEMPT}
         export default async () => ({
           all: await attempt(() => chmod("f", 0o7777)), allMode: (await stat("f")).mode,
           big: await attempt(() => chmod("f", 2 ** 40 + 0o640)), bigMode: (await stat("f")).mode,
           neg: await attempt(() => chmod("f", -1)), nan: await attempt(() => chmod("f", NaN)),
         });`,
      );
      return v.value;
    });
    // Since issue 20's thirty-first run node:fs chmod reads its mode as Node 22 does (test/workers/fix31/js-chmod-mode):
    // a mode past 2^32-1, below 0 or not an integer is Node's RangeError before the host is asked.
    expect(r).toEqual({
      all: "ok",
      allMode: 0o7777,
      big: 'ERR ERR_OUT_OF_RANGE The value of "mode" is out of range. It must be >= 0 && <= 4294967295. Received 1_099_511_628_192', // Was: "ok"
      bigMode: 0o7777, // Was: 0o640 (masked)
      neg: 'ERR ERR_OUT_OF_RANGE The value of "mode" is out of range. It must be >= 0 && <= 4294967295. Received -1', // Was: EINVAL from the host
      nan: 'ERR ERR_OUT_OF_RANGE The value of "mode" is out of range. It must be an integer. Received NaN', // Was: EINVAL from the host
    });
  });

  it("sources nested hundreds of levels deep are refused by the host's parser before any Worker is made; the next run works", async () => {
    const r = await withRoot(async (ws) => {
      const shapes = [
        `export default () => ${"[".repeat(300_000)}${"]".repeat(300_000)};`,
        `export default () => ${"(".repeat(3000)}1${")".repeat(3000)};`,
        `export default () => 1${" + (1".repeat(20_000)}${")".repeat(20_000)};`,
        `export default () => { ${"{".repeat(50_000)}${"}".repeat(50_000)} return 1; };`,
      ];
      const out = [];
      for (const s of shapes) out.push(await run(ws, s));
      out.push(await run(ws, `export default () => ${"[".repeat(100)}7${"]".repeat(100)}.flat(Infinity)[0];`));
      return out;
    });
    for (const x of r.slice(0, 4)) {
      expect(x).toMatchObject({ name: "SyntaxError" });
      expect((x as { rejected: string }).rejected).toMatch(/^Not enough stack space to parse input \(1:\d+\)$/);
    }
    expect(r[4]).toEqual({ exit: 0, value: 7, stderr: "" });
  });
});

describe("attack7: host module names and imports the graph cannot see", () => {
  it("a namespace import exposes the configured function only; eval/new Function import() is code generation", async () => {
    const r = await withRoot(
      async (ws) => {
        await ws.fs.writeFile(`${ROOT}/lib.js`, "export const x = 1;");
        return run(
          ws,
          `import * as m from "ws:mod"; ${ATTEMPT}
           export default async () => ({
             keys: Object.keys(m), proto: await attempt(() => m.__proto__), ctor: await attempt(() => typeof m.constructor),
             call: await attempt(() => m.hello("a")), dyn: await attempt(async () => Object.keys(await import("ws:mod"))),
             lib: await attempt(async () => (await import("./lib.js")).x), libAbs: await attempt(async () => (await import("${ROOT}/lib.js")).x),
             evalImport: await attempt(async () => (await (0, eval)("import('./lib.js')")).x),
             fnImport: await attempt(async () => (await new Function("return import('./lib.js')")()).x),
           });`,
        );
      },
      { "ws:mod": { hello: (s: string) => `hi ${s}` } },
    );
    expect(r).toEqual({
      exit: 0,
      stderr: "",
      value: {
        keys: ["hello"],
        proto: "ok",
        ctor: "undefined",
        call: "hi a",
        dyn: ["hello"],
        lib: 1,
        libAbs: 1,
        evalImport: "ERR undefined Code generation from strings disallowed for this context",
        fnImport: "ERR undefined Code generation from strings disallowed for this context",
      },
    });
  });

  it("named imports of constructor / toString / default from a host module, and non-literal or upper-case dynamic imports, are refused", async () => {
    const r = await withRoot(
      async (ws) => [
        await run(ws, `import { hello, constructor } from "ws:mod"; export default () => 1;`),
        await run(ws, `import { toString } from "ws:mod"; export default () => typeof toString;`),
        await run(ws, `import m from "ws:mod"; export default () => typeof m;`),
        await run(ws, `export default async () => Object.keys(await import(["ws", "mod"].join(":")));`),
        await run(ws, `export default async () => Object.keys(await import("WS:mod"));`),
      ],
      { "ws:mod": { hello: (s: string) => `hi ${s}` } },
    );
    expect(r.slice(0, 3)).toEqual(
      ["constructor", "toString", "default"].map((n) => ({ exit: 1, value: undefined, stderr: `The requested module '/__modules__/ws/mod.js' does not provide an export named '${n}'\n` })),
    );
    expect(r[3]).toEqual({ rejected: 'dynamic imports must use a string literal, e.g. import("./data.js")', name: "Error" });
    expect(r[4]).toEqual({
      rejected: 'Module "WS:mod" is not configured for the worker-javascript backend. Import Workspace files with ./, ../ or / paths, node:fs, or a configured module.',
      name: "Error",
    });
  });
});
