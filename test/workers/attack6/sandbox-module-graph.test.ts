/**
 * Issue 20 sixth attack run, category 1 (sandbox escapes), JavaScript
 * backend with `root: "/workspace/proj"` in real workerd. New angles, not in
 * runs 2–5: the MODULE GRAPH through links and parent paths — a static
 * import of `../x.js`, of an absolute path above root, of a host-made file
 * link and a directory link that lead out of root, a re-export inside root
 * (`export … from "../../secret.js"`) and a dynamic import of a parent path;
 * node:fs through the same links (readFile, readdir, stat, access); a
 * relative link chain (`s1 -> sub`, then `s1/../../secret.txt`) whose text
 * looks harmless; what the sandbox can learn of its host (import.meta,
 * process.env, argv, the global names) and WebAssembly code generation.
 * All withstood: every attempt is refused with the exact message below, the
 * secret is never read, nothing is created outside root.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

type Ws = Parameters<Parameters<typeof inWorkspace>[0]>[0];
async function run(ws: Ws, source: string) {
  try {
    const r = await (await ws.runtime.exec(source, { encoding: "utf8" })).result();
    return { exit: r.exitCode, value: r.value, stderr: r.stderr as string };
  } catch (e) {
    return { rejected: (e as Error).message };
  }
}
const ATTEMPT = `const attempt = async (fn) => { try { const v = await fn(); return v === undefined ? "ok" : v; } catch (e) { return "ERR " + (e && e.code) + " " + (e && e.message); } };`;

describe("attack6: the module graph and node:fs cannot leave root", () => {
  it("imports through parent paths, absolute paths, file and directory links and re-exports are refused; the secret is never read", async () => {
    const r = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace/proj/sub", { recursive: true });
        await ws.fs.writeFile("/workspace/secret.js", `export default "SECRET";`);
        await ws.fs.writeFile("/workspace/secret.txt", "SECRET");
        await ws.fs.symlink("/workspace/secret.js", "/workspace/proj/m.js");
        await ws.fs.symlink("/workspace", "/workspace/proj/up");
        await ws.fs.writeFile("/workspace/proj/sub/rel.js", `export { default } from "../../secret.js";`);
        return {
          rel: await run(ws, `import s from "../secret.js"; export default () => s;`),
          abs: await run(ws, `import s from "/workspace/secret.js"; export default () => s;`),
          fileLink: await run(ws, `import s from "./m.js"; export default () => s;`),
          dirLink: await run(ws, `import s from "./up/secret.js"; export default () => s;`),
          reexport: await run(ws, `import s from "./sub/rel.js"; export default () => s;`),
          dynamic: await run(ws, `export default async () => (await import("../secret.js")).default;`),
          dynamicLink: await run(ws, `export default async () => (await import("./m.js")).default;`),
          fs: await run(
            ws,
            `import * as fs from "node:fs/promises"; ${ATTEMPT} export default async () => [
              await attempt(() => fs.readFile("/workspace/proj/m.js", "utf8")),
              await attempt(() => fs.readFile("up/secret.txt", "utf8")),
              await attempt(() => fs.readdir("/workspace/proj/up")),
              await attempt(() => fs.stat("/workspace/proj/up")),
              await attempt(() => fs.access("/workspace/secret.txt")),
              await attempt(() => fs.writeFile("/workspace/proj/up/new.txt", "x")),
              await attempt(async () => { await fs.symlink("sub", "/workspace/proj/s1"); return fs.symlink("s1/../../secret.txt", "/workspace/proj/s2"); }),
              await attempt(() => fs.readlink("/workspace/proj/up")),
            ];`,
          ),
          secret: await ws.fs.readFile("/workspace/secret.txt", "utf8"),
          files: (await ws.fs.find("/workspace", "**")).map((e) => e.path),
        };
      },
      { backend: { root: "/workspace/proj" } },
    );
    expect(r.rel).toEqual({ rejected: "paths must stay under /workspace/proj: ../secret.js" });
    expect(r.abs).toEqual({ rejected: "paths must stay under /workspace/proj: /workspace/secret.js" });
    expect(r.fileLink).toEqual({ rejected: "cannot traverse symbolic link: /workspace/proj/m.js" });
    expect(r.dirLink).toEqual({ rejected: "cannot traverse symbolic link: /workspace/proj/up" });
    expect(r.reexport).toEqual({ rejected: "paths must stay under /workspace/proj: ../../secret.js" });
    expect(r.dynamic).toEqual({ rejected: "paths must stay under /workspace/proj: ../secret.js" });
    expect(r.dynamicLink).toEqual({ rejected: "cannot traverse symbolic link: /workspace/proj/m.js" });
    expect(r.fs).toEqual({
      exit: 0,
      stderr: "",
      value: [
        "ERR EACCES cannot traverse symbolic link: /workspace/proj/m.js",
        "ERR EACCES cannot traverse symbolic link: /workspace/proj/up",
        "ERR EACCES cannot traverse symbolic link: /workspace/proj/up",
        "ERR EACCES cannot traverse symbolic link: /workspace/proj/up",
        "ERR EACCES paths must stay under /workspace/proj: /workspace/secret.txt",
        "ERR EACCES cannot traverse symbolic link: /workspace/proj/up",
        "ERR EACCES paths must stay under /workspace/proj: symlink target s1/../../secret.txt",
        // the link's own text is readable (as readlink(2) gives it); nothing it names is
        "/workspace",
      ],
    });
    expect(r.secret).toBe("SECRET");
    expect(r.files).toEqual([
      "/workspace/proj",
      "/workspace/proj/m.js",
      "/workspace/proj/s1",
      "/workspace/proj/sub",
      "/workspace/proj/sub/rel.js",
      "/workspace/proj/up",
      "/workspace/secret.js",
      "/workspace/secret.txt",
    ]);
  });

  it("the sandbox learns nothing of its host: empty import.meta and process.env, no bindings among the globals, no WebAssembly code generation", async () => {
    const r = await inWorkspace(async (ws) => ({
      meta: await run(
        ws,
        `export default () => ({ keys: Object.keys(import.meta), env: Object.keys(process.env), argv: process.argv,
           globals: Object.getOwnPropertyNames(globalThis).filter((k) => !/^[A-Z]/.test(k)).sort() });`,
      ),
      wasm: await run(ws, `export default async () => { try { await WebAssembly.compile(new Uint8Array([0,97,115,109,1,0,0,0])); return "compiled"; } catch (e) { return e.message; } };`),
    }));
    expect(r.meta).toEqual({
      exit: 0,
      stderr: "",
      value: {
        keys: [],
        env: [],
        argv: ["workspace", "__workspace_entry__.js"],
        globals: ["caches", "clearInterval", "clearTimeout", "console", "crypto", "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "eval", "global", "globalThis", "isFinite", "isNaN", "navigator", "origin", "parseFloat", "parseInt", "performance", "process", "scheduler", "self", "setInterval", "setTimeout", "undefined", "unescape"],
      },
    });
    expect(r.wasm).toEqual({ exit: 0, stderr: "", value: "WebAssembly.compile(): Wasm code generation disallowed by embedder" });
  });
});
