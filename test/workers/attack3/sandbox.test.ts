/**
 * Issue 20 third attack run, category 1: the JavaScript backend's sandbox in
 * real workerd. Import specifiers a URL parser would rewrite (percent-encoded
 * dots, backslashes, tabs, queries) stay literal Workspace names and never
 * reach the runner's internal modules; platform globals give no network,
 * cache or env; node:fs calls with odd argument types fail as errors the
 * code can catch and the run goes on; links made by the host that lead out
 * of root are never followed by sandbox calls and removing them leaves their
 * targets alone; timers left running after the default export returns write
 * nothing; a race of writes against link swaps writes nothing outside root.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

type Outcome = { exit: number | undefined; value: unknown; stderr: string } | { rejected: string };
type Ws = Parameters<Parameters<typeof inWorkspace>[0]>[0];

async function run(ws: Ws, source: string, options: Record<string, unknown> = {}): Promise<Outcome> {
  try {
    const r = await (await ws.runtime.exec(source, { encoding: "utf8", ...options })).result();
    return { exit: r.exitCode, value: r.value, stderr: r.stderr as string };
  } catch (e) {
    return { rejected: (e as Error).message };
  }
}

const ATTEMPT = `const attempt = async (fn) => { try { const v = await fn(); return v === undefined ? "ok" : v; } catch (e) { return (e && e.code) + " " + (e && e.name) + ": " + (e && e.message); } };`;

describe("attack3: the JavaScript backend's sandbox", () => {
  it("specifiers a URL parser would rewrite stay literal Workspace names; internal modules stay out of reach", async () => {
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/%2e%2e", { recursive: true });
      await ws.fs.mkdir("/workspace/.\t.", { recursive: true });
      const fake = `export const call = async () => ({ ok: true, value: "attacker" }); export function __install(b) { globalThis.__bridge = b; } export function __activate() {} export function __violation() { return null; }`;
      await ws.fs.writeFile("/workspace/%2e%2e/workspace-capabilities.js", fake);
      await ws.fs.writeFile("/workspace/.\t./workspace-capabilities.js", fake);
      await ws.fs.writeFile("/workspace/..\\workspace-capabilities.js", fake);
      await ws.fs.writeFile("/workspace/..\\__modules__\\node-fs-promises.js", `export const readFile = async () => "fake";`);
      await ws.fs.writeFile("/workspace/a.js?x", `export default "query file";`);
      await ws.fs.writeFile("/workspace/a.js", `export default "plain file";`);
      await ws.fs.writeFile("/workspace/x.txt", "real");
      return {
        pct: await run(ws, `import * as c from "./%2e%2e/workspace-capabilities.js"; export default () => 1;`),
        pctUpper: await run(ws, `import * as c from "./%2E%2E/%2E%2E/workspace-capabilities.js"; export default () => 1;`),
        tab: await run(ws, `import * as c from "./.\\t./workspace-capabilities.js"; export default () => 1;`),
        // a backslash name is an ordinary file: the module is that file, and the real channel still serves node:fs
        backslash: await run(
          ws,
          `import * as c from "./..\\\\workspace-capabilities.js"; import { readFile } from "node:fs/promises";
           export default async () => [typeof globalThis.__bridge, await c.call(), await readFile("/workspace/x.txt", "utf8")];`,
        ),
        backslashFs: await run(
          ws,
          `import * as m from "./..\\\\__modules__\\\\node-fs-promises.js"; import { readFile } from "node:fs/promises";
           export default async () => [await m.readFile(), await readFile("/workspace/x.txt", "utf8")];`,
        ),
        query: await run(ws, `import a from "./a.js?x"; import b from "./a.js"; export default () => [a, b];`),
        fragment: await run(ws, `import a from "./a.js#frag"; export default () => a;`),
        data: await run(ws, `export default async () => import("data:text/javascript,export default 1");`),
        blob: await run(ws, `import x from "blob:null/1"; export default () => x;`),
        http: await run(ws, `import x from "https://example.com/x.js"; export default () => x;`),
        file: await run(ws, `import x from "file:///workspace/a.js"; export default () => x;`),
        nodeModule: await run(ws, `import { createRequire } from "node:module"; export default () => 1;`),
        nodeChild: await run(ws, `import cp from "node:child_process"; export default () => 1;`),
        runnerByPath: await run(ws, `import R from "/workspace-runtime-runner.js"; export default () => 1;`),
        internalAbs: await run(ws, `import fs from "/__modules__/node-fs.js"; export default () => 1;`),
        entryName: await run(ws, `import x from "./__workspace_entry__.js"; export default () => 1;`),
        wsPathSegment: await run(ws, `import x from "./ws:git/x.js"; export default () => 1;`),
      };
    });
    const reserved = (spec: string, path: string) => ({ rejected: `Cannot import "${spec}": ${path} is reserved for Workspace internals.` });
    const notConfigured = (spec: string) => ({
      rejected: `Module "${spec}" is not configured for the worker-javascript backend. Import Workspace files with ./, ../ or / paths, node:fs, or a configured module.`,
    });
    expect(r.pct).toEqual(reserved("./%2e%2e/workspace-capabilities.js", "/workspace/%2e%2e/workspace-capabilities.js"));
    expect(r.pctUpper).toEqual(reserved("./%2E%2E/%2E%2E/workspace-capabilities.js", "/workspace/%2E%2E/%2E%2E/workspace-capabilities.js"));
    expect(r.tab).toEqual(reserved("./.\t./workspace-capabilities.js", "/workspace/.\t./workspace-capabilities.js"));
    expect(r.backslash).toEqual({ exit: 0, value: ["undefined", { ok: true, value: "attacker" }, "real"], stderr: "" });
    expect(r.backslashFs).toEqual({ exit: 0, value: ["fake", "real"], stderr: "" });
    expect(r.query).toEqual({ exit: 0, value: ["query file", "plain file"], stderr: "" });
    expect(r.fragment).toMatchObject({ rejected: expect.stringContaining('Cannot find module "./a.js#frag"') });
    expect(r.data).toEqual(notConfigured("data:text/javascript,export default 1"));
    expect(r.blob).toEqual(notConfigured("blob:null/1"));
    expect(r.http).toEqual(notConfigured("https://example.com/x.js"));
    expect(r.file).toEqual(notConfigured("file:///workspace/a.js"));
    expect(r.nodeModule).toEqual(notConfigured("node:module"));
    expect(r.nodeChild).toEqual(notConfigured("node:child_process"));
    expect(r.runnerByPath).toEqual({ rejected: "paths must stay under /workspace: /workspace-runtime-runner.js" });
    expect(r.internalAbs).toEqual({ rejected: "paths must stay under /workspace: /__modules__/node-fs.js" });
    expect(r.entryName).toEqual(reserved("./__workspace_entry__.js", "/workspace/__workspace_entry__.js"));
    expect(r.wsPathSegment).toEqual(reserved("./ws:git/x.js", "/workspace/ws:git/x.js"));
  });

  it("platform globals: no network, no cache, no env or bindings", async () => {
    const r = await inWorkspace((ws) =>
      run(
        ws,
        `${ATTEMPT}
         export default async () => ({
           fetch: await attempt(async () => (await fetch("http://example.com/")).status),
           socket: await attempt(async () => { new WebSocket("wss://example.com/"); return "made"; }),
           cache: await attempt(async () => { await caches.default.put("http://a/", new Response("x")); return "put"; }),
           cacheOpen: await attempt(async () => { const c = await caches.open("x"); await c.put("http://a/", new Response("x")); return String(await c.match("http://a/")); }),
           env: typeof env,
           bindings: Object.getOwnPropertyNames(globalThis).filter((k) => /^[A-Z_]+$/.test(k) && !["NaN", "JSON"].includes(k)),
         });`,
      ),
    );
    const noNet = "undefined Error: This worker is not permitted to access the internet via global functions like fetch(). It must use capabilities (such as bindings in 'env') to talk to the outside world.";
    expect(r).toEqual({
      exit: 0,
      value: {
        fetch: noNet,
        socket: noNet,
        cache: "undefined Error: No Cache was configured",
        cacheOpen: "undefined Error: No Cache was configured",
        env: "undefined",
        bindings: [],
      },
      stderr: "",
    });
  });

  it("node:fs calls with odd argument types are errors the code catches; the run and the Workspace go on", async () => {
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/f.txt", "real");
      const out = await run(
        ws,
        `import * as fs from "node:fs/promises";
         ${ATTEMPT}
         export default async () => {
           let deep = []; for (let i = 0; i < 100000; i++) deep = [deep];
           return {
             latin1: await attempt(() => fs.readFile("f.txt", { encoding: "latin1" })),
             latin2: await attempt(() => fs.readFile("f.txt", { encoding: "latin2" })),
             dataObject: await attempt(() => fs.writeFile("g.txt", { toString() { return "x"; } })),
             dataNumber: await attempt(() => fs.writeFile("g.txt", 42)),
             flagAppend: await attempt(() => fs.writeFile("g.txt", "x", { flag: "a" })),
             chmodString: await attempt(() => fs.chmod("f.txt", "777")),
             chmodNegative: await attempt(() => fs.chmod("f.txt", -1)),
             chmodNaN: await attempt(() => fs.chmod("f.txt", NaN)),
             symlinkNumber: await attempt(() => fs.symlink(123, "s")),
             readdirNumber: await attempt(() => fs.readdir(123)),
             statUndefined: await attempt(() => fs.stat(undefined)),
             rmArray: await attempt(() => fs.rm(["f.txt"])),
             mkdirSymbol: await attempt(() => fs.mkdir(Symbol("x"))),
             deepPath: await attempt(() => fs.readFile(deep)),
             hugePath: await attempt(() => fs.readFile("a".repeat(2_000_000))),
             trapOptions: await attempt(() => fs.mkdir("p", new Proxy({}, { get() { throw new Error("trap"); } }))),
             after: await attempt(() => fs.readFile("f.txt", "utf8")),
           };
         };`,
      );
      return { out, files: await ws.fs.ls("/workspace"), text: await ws.fs.readFile("/workspace/f.txt", "utf8") };
    });
    expect(r.files).toEqual(["/workspace/f.txt"]);
    expect(r.text).toBe("real");
    expect(r.out).toMatchObject({
      exit: 0,
      stderr: "",
      value: {
        // Was (before run 28, fixer JF): refused — readFile took "utf8" only; Node's encodings are read now.
        latin1: "real",
        latin2: "ERR_INVALID_ARG_VALUE TypeError: The argument 'encoding' is invalid encoding. Received 'latin2'",
        dataObject: "undefined TypeError: writeFile: data must be a string or bytes",
        dataNumber: "undefined TypeError: writeFile: data must be a string or bytes",
        flagAppend: 'undefined TypeError: writeFile: flag "a" is not supported; use "w" or "wx"',
        // Since issue 20's thirty-first run chmod reads its mode as Node 22 (an octal string works; RangeErrors).
        chmodString: "ok", // Was: "undefined TypeError: chmod: mode must be a number"
        chmodNegative: 'ERR_OUT_OF_RANGE RangeError: The value of "mode" is out of range. It must be >= 0 && <= 4294967295. Received -1',
        chmodNaN: 'ERR_OUT_OF_RANGE RangeError: The value of "mode" is out of range. It must be an integer. Received NaN',
        symlinkNumber: "undefined TypeError: symlink: target must be a string",
        readdirNumber: "undefined TypeError: path must be a string, got number",
        statUndefined: "undefined TypeError: path must be a string, got undefined",
        rmArray: "undefined TypeError: path must be a string, got object",
        mkdirSymbol: expect.stringContaining("could not be cloned"),
        deepPath: expect.stringMatching(/RangeError: Maximum call stack size exceeded$/),
        hugePath: "E2BIG Error: host call request is 2000008 bytes, over maxCapabilityBytes (1048576)",
        trapOptions: "undefined Error: trap",
        after: "real",
      },
    });
  });

  it("links the host made that lead out of root: never followed by sandbox calls; removing them leaves their targets", async () => {
    const ROOT = "/workspace/proj";
    const r = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir(`${ROOT}/sub`, { recursive: true });
        await ws.fs.mkdir("/outside/dir", { recursive: true });
        await ws.fs.writeFile("/outside/dir/keep.txt", "keep");
        await ws.fs.symlink("/outside/dir", `${ROOT}/out`);
        await ws.fs.symlink("/outside/dir/keep.txt", `${ROOT}/sub/file-out`);
        await ws.fs.symlink("../../../outside/dir/", `${ROOT}/sub/slash-out`);
        const out = await run(
          ws,
          `import * as fs from "node:fs/promises";
           ${ATTEMPT}
           export default async () => ({
             readThrough: await attempt(() => fs.readFile("out/keep.txt", "utf8")),
             readLink: await attempt(() => fs.readFile("sub/file-out", "utf8")),
             writeThrough: await attempt(() => fs.writeFile("out/new.txt", "x")),
             mkdirThrough: await attempt(() => fs.mkdir("out/made", { recursive: true })),
             readdirThrough: await attempt(async () => (await fs.readdir("out")).join(",")),
             readdirSlash: await attempt(async () => (await fs.readdir("sub/slash-out/")).join(",")),
             statLink: await attempt(async () => (await fs.stat("out")).isDirectory()),
             lstatLink: await attempt(async () => (await fs.lstat("out")).isSymbolicLink()),
             chmodThrough: await attempt(() => fs.chmod("sub/file-out", 0o777)),
             rmInside: await attempt(() => fs.rm("out/keep.txt")),
             readlink: await attempt(() => fs.readlink("out")),
             relinkOver: await attempt(() => fs.symlink("sub", "out")),
             linkUnderLink: await attempt(() => fs.symlink("sub", "out/x")),
             rmLink: await attempt(() => fs.rm("out")),
             rmTree: await attempt(() => fs.rm("sub", { recursive: true })),
             rmRoot: await attempt(() => fs.rm("${ROOT}/.", { recursive: true })),
             rmRootSlash: await attempt(() => fs.rm("./", { recursive: true })),
           });`,
          { cwd: ROOT },
        );
        return {
          out,
          keep: await ws.fs.readFile("/outside/dir/keep.txt", "utf8"),
          outside: await ws.fs.ls("/outside"),
          mode: (await ws.fs.stat("/outside/dir/keep.txt")).mode & 0o777,
          root: await ws.fs.ls(ROOT),
        };
      },
      { backend: { root: ROOT } },
    );
    const traverse = (p: string) => `EACCES Error: cannot traverse symbolic link: ${p}`;
    expect(r.out).toEqual({
      exit: 0,
      stderr: "",
      value: {
        readThrough: traverse(`${ROOT}/out`),
        readLink: traverse(`${ROOT}/sub/file-out`),
        writeThrough: traverse(`${ROOT}/out`),
        mkdirThrough: traverse(`${ROOT}/out`),
        readdirThrough: traverse(`${ROOT}/out`),
        readdirSlash: traverse(`${ROOT}/sub/slash-out`),
        statLink: traverse(`${ROOT}/out`),
        lstatLink: true,
        chmodThrough: traverse(`${ROOT}/sub/file-out`),
        rmInside: traverse(`${ROOT}/out`),
        readlink: "/outside/dir",
        relinkOver: expect.stringMatching(/^EEXIST /),
        linkUnderLink: traverse(`${ROOT}/out`),
        rmLink: "ok",
        rmTree: "ok",
        rmRoot: `EPERM Error: refusing to remove the backend root ${ROOT}`,
        rmRootSlash: `EPERM Error: refusing to remove the backend root ${ROOT}`,
      },
    });
    expect(r.keep).toBe("keep");
    expect(r.outside).toEqual(["/outside/dir/keep.txt"]);
    expect(r.mode).toBe(0o644);
    expect(r.root).toEqual([]);
  });

  it("a race of writes against link swaps inside root writes nothing outside it", async () => {
    const ROOT = "/workspace/proj";
    const r = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir(`${ROOT}/x`, { recursive: true });
        await ws.fs.mkdir("/workspace/outside", { recursive: true });
        const out = await run(
          ws,
          `import * as fs from "node:fs/promises";
           export default async () => {
             let written = 0, refused = 0;
             for (let round = 0; round < 40; round++) {
               await fs.rm("w", { recursive: true, force: true });
               await fs.mkdir("w/a/b/c", { recursive: true });
               await fs.rm("x", { recursive: true, force: true });
               await fs.mkdir("x");
               const writes = Array.from({ length: 8 }, (_, i) => fs.writeFile("w/a/b/c/pwn" + i, "x").then(() => written++, () => refused++));
               const swap = (async () => {
                 await fs.rm("w", { recursive: true }).catch(() => {});
                 // accepted: x is a directory now, so w leads to ${ROOT}/outside
                 await fs.symlink("x/../outside", "w").catch(() => {});
                 await fs.rm("x", { recursive: true }).catch(() => {});
                 await fs.symlink(".", "x").catch(() => {});
               })();
               await Promise.all([...writes, swap]);
             }
             return written + refused;
           };`,
          { cwd: ROOT },
        );
        return { out, outside: await ws.fs.find("/workspace/outside", "**") };
      },
      { backend: { root: ROOT, maxCapabilityCalls: 10_000 } },
    );
    expect(r.out).toEqual({ exit: 0, value: 320, stderr: "" });
    expect(r.outside).toEqual([]);
  });

  it("timers left running after the default export returns write nothing and output nothing more", async () => {
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const handle = await ws.runtime.exec(
        `import * as fs from "node:fs/promises";
         export default async () => {
           let n = 0;
           setTimeout(() => setInterval(() => { n++; console.log("late " + n); fs.writeFile("late-" + n + ".txt", "x").catch(() => {}); }, 2), 20);
           return "returned";
         };`,
        { id: "timers", encoding: "utf8" },
      );
      const first = await handle.result();
      await new Promise((res) => setTimeout(res, 500));
      const again = await (await ws.runtime.getExec("timers", { encoding: "utf8" })).result();
      return { first, again, files: await ws.fs.ls("/workspace") };
    });
    expect(r.first).toMatchObject({ exitCode: 0, value: "returned", stdout: "", stderr: "" });
    expect(r.again).toMatchObject({ exitCode: 0, value: "returned", stdout: "", stderr: "" });
    expect(r.files).toEqual([]);
  });
});
