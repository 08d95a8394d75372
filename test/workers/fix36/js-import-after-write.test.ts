/**
 * Issue 20, run 36, fixer DI: a JavaScript run's dynamic `import()` of a Workspace module that changed after the run
 * started. The run's modules are handed to the Worker Loader when it starts and a running isolate takes no new
 * module, so the import cannot load the new text; it now rejects with `ERR_MODULE_CHANGED` (naming the module and
 * what to do) instead of silently running the old text. Node 22 (checked on a temp dir with the same files) caches
 * a module once loaded: an import of a module already loaded — statically with the entry, or by an earlier dynamic
 * import — returns that module whatever was written since; only the first load reads the file. These tests follow
 * Node there (the cached namespace, the old values, as Node prints them) and differ only where Node would load the
 * new text (it rejects instead). The check reads each module once (one `fs.readFile`) and compares a SHA-256 of
 * its text: a write of the same text, or a change by another writer that is undone before the import, is not a
 * change; a change by another writer (the host's own `ws.fs`) is caught as the run's own.
 * Siblings: test/workers/attack36a/js-dynamic-import-after-write-runs-stale-module.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

type Outcome = { exitCode: number; value: unknown; stderr: string };

async function run(files: Record<string, string>, source: string, during?: (ws: any) => Promise<void>): Promise<Outcome> {
  return inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    for (const [p, text] of Object.entries(files)) {
      await ws.fs.mkdir(p.slice(0, p.lastIndexOf("/")) || "/", { recursive: true });
      await ws.fs.writeFile(p, text);
    }
    const h = await ws.runtime.exec(source, { encoding: "utf8" });
    if (during) await during(ws);
    const res = await h.result();
    return { exitCode: res.exitCode, value: res.value, stderr: String(res.stderr ?? "") };
  });
}

/** Catches an import's failure in the run and returns its code, path and message. */
const attempt = (expr: string) => `(async () => { try { return { ok: await (${expr}) }; } catch (e) { return { code: e.code, path: e.path, message: e.message }; } })()`;

describe("dynamic import after the module changed during the run", () => {
  it("write then import: ERR_MODULE_CHANGED naming the module and what to do", async () => {
    const r = await run({ "/workspace/routes.js": `export const rows = ["old"];` }, `
      import fs from "node:fs/promises";
      export default async () => {
        await fs.writeFile("routes.js", 'export const rows = ["a", "b"];');
        return ${attempt(`import("./routes.js").then((m) => m.rows)`)};
      }`);
    expect(r.exitCode).toBe(0);
    expect(r.value).toEqual({
      code: "ERR_MODULE_CHANGED",
      path: "/workspace/routes.js",
      message:
        `ERR_MODULE_CHANGED: import("./routes.js"): /workspace/routes.js was changed after this run started, and a run loads its modules when it starts; ` +
        `write the module in one run and import it in the next, or read it with node:fs and use its text yourself`,
    });
  }, 60_000);

  it("an unchanged module, and one rewritten with the same text, still load", async () => {
    const r = await run({ "/workspace/a.js": `export const v = 1;`, "/workspace/b.js": `export const v = 2;` }, `
      import fs from "node:fs/promises";
      export default async () => {
        await fs.writeFile("b.js", "export const v = 2;");
        await fs.writeFile("other.txt", "x");
        return [(await import("./a.js")).v, (await import("./b.js")).v];
      }`);
    expect(r).toMatchObject({ exitCode: 0, value: [1, 2] });
  }, 60_000);

  it("a module changed by another writer during the run is refused alike", async () => {
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/c.js", `export const v = "old";`);
      await ws.fs.writeFile("/workspace/go", "");
      const h = await ws.runtime.exec(`
        import fs from "node:fs/promises";
        export default async () => {
          // Waits until the host removed "go" (after changing c.js).
          for (let i = 0; i < 2000; i++) { try { await fs.access("go"); } catch { break; } await new Promise((r) => setTimeout(r, 5)); }
          return ${attempt(`import("./c.js").then((m) => m.v)`)};
        }`, { encoding: "utf8" });
      // Renamed onto the module (the host's fs has rename; a run's node:fs has not).
      await ws.fs.writeFile("/workspace/c.tmp", `export const v = "new";`);
      await ws.fs.rename("/workspace/c.tmp", "/workspace/c.js");
      await ws.fs.rm("/workspace/go");
      return (await h.result()).value;
    });
    expect(r).toMatchObject({ code: "ERR_MODULE_CHANGED", path: "/workspace/c.js" });
  }, 60_000);

  it("a link put onto the module, removal, and a JSON module (node:fs in a run has no rename)", async () => {
    const r = await run({
      "/workspace/m.js": `export const v = "old";`,
      "/workspace/n.js": `export const v = "n";`,
      "/workspace/gone.js": `export const v = "gone";`,
      "/workspace/data.json": `{"v": 1}`,
    }, `
      import fs from "node:fs/promises";
      export default async () => {
        await fs.writeFile("tmp.js", 'export const v = "new";');
        await fs.rm("m.js");
        await fs.symlink("tmp.js", "m.js");
        await fs.rm("gone.js");
        await fs.writeFile("data.json", '{"v": 2}');
        return [
          await ${attempt(`import("./m.js").then((m) => m.v)`)},
          await ${attempt(`import("./gone.js").then((m) => m.v)`)},
          await ${attempt(`import("./data.json", { with: { type: "json" } }).then((m) => m.default)`)},
          await ${attempt(`import("./n.js").then((m) => m.v)`)},
        ];
      }`);
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    const [m, gone, data, n] = r.value as any[];
    expect(m).toMatchObject({ code: "ERR_MODULE_CHANGED", path: "/workspace/m.js" });
    // The run's node:fs refuses to read through a link (EACCES), as a new run's import of it would.
    expect(m.message).toContain("/workspace/m.js can no longer be read as a module (EACCES) after this run started");
    expect(gone).toMatchObject({ code: "ERR_MODULE_CHANGED", path: "/workspace/gone.js" });
    expect(gone.message).toContain("/workspace/gone.js was removed after this run started");
    expect(data).toMatchObject({ code: "ERR_MODULE_CHANGED", path: "/workspace/data.json" });
    expect(n).toEqual({ ok: "n" });
  }, 60_000);

  it("a TypeScript module (found as the .js import's .ts twin) is compared by its text before type stripping", async () => {
    const r = await run({ "/workspace/t.ts": `export const v: string = "old";`, "/workspace/u.ts": `export const v: number = 1;` }, `
      import fs from "node:fs/promises";
      export default async () => {
        await fs.writeFile("t.ts", 'export const v: string = "new";');
        await fs.writeFile("u.ts", "export const v: number = 1;");
        return [await ${attempt(`import("./t.js").then((m) => m.v)`)}, await ${attempt(`import("./u.js").then((m) => m.v)`)}];
      }`);
    expect(r.value).toEqual([
      expect.objectContaining({ code: "ERR_MODULE_CHANGED", path: "/workspace/t.ts" }),
      { ok: 1 },
    ]);
  }, 60_000);

  it("a module changed behind a re-export chain is caught; the chain's own modules are checked", async () => {
    const r = await run({
      "/workspace/index.js": `export * from "./mid.js";`,
      "/workspace/mid.js": `export { rows } from "./leaf.js";`,
      "/workspace/leaf.js": `export const rows = ["old"];`,
    }, `
      import fs from "node:fs/promises";
      export default async () => {
        await fs.writeFile("leaf.js", 'export const rows = ["new"];');
        return ${attempt(`import("./index.js").then((m) => m.rows)`)};
      }`);
    expect(r.value).toMatchObject({ code: "ERR_MODULE_CHANGED", path: "/workspace/leaf.js" });
  }, 60_000);

  it("as Node: a module imported before the write returns the cached namespace after it (old values, no error)", async () => {
    // Node 22: import("./k.js") → "old"; write; import("./k.js") → "old" again (the module map keeps the first).
    const r = await run({ "/workspace/k.js": `export const v = "old";`, "/workspace/s.js": `export const v = "static-old";` }, `
      import fs from "node:fs/promises";
      import * as s from "./s.js";
      export default async () => {
        const first = (await import("./k.js")).v;
        await fs.writeFile("k.js", 'export const v = "new";');
        await fs.writeFile("s.js", 'export const v = "static-new";');
        const again = (await import("./k.js")).v;
        const stat = (await import("./s.js")).v;
        return [first, again, stat, s.v];
      }`);
    expect(r).toMatchObject({ exitCode: 0, value: ["old", "old", "static-old", "static-old"] });
  }, 60_000);

  it("an uncaught refusal fails the run with the message on stderr", async () => {
    const r = await run({ "/workspace/routes.js": `export const rows = ["old"];` }, `
      import fs from "node:fs/promises";
      export default async () => {
        await fs.writeFile("routes.js", 'export const rows = ["a"];');
        return (await import("./routes.js")).rows;
      }`);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`ERR_MODULE_CHANGED: import("./routes.js"): /workspace/routes.js was changed after this run started`);
  }, 60_000);
});
