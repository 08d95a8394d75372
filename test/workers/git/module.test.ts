/**
 * `ws:git` from a JavaScript run in real workerd (spec 02 §4.4, spec 04
 * §2.6): the network, write-access and path-override rules with their exact
 * messages, `-C` folding, dir confinement, and clone / status / diff / log /
 * cli on the Workspace's files — clone from the loopback smart-HTTP server
 * (test/shared/git-server.ts) holding a repository the real git made.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { createGitModule, type GitModuleOptions } from "../../../src/modules/git.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";

const NO_NETWORK_CLONE = "Git clone requires createGitModule({ allowNetwork: true }).";
const NO_NETWORK_CLI = "Git CLI network command requires createGitModule({ allowNetwork: true }).";
const NO_WRITE_CLONE = "Git clone requires Workspace write access.";
const NO_WRITE_CLI = "Git CLI requires Workspace write access.";
const OVERRIDE = "Git CLI path overrides are not available inside a confined Workspace runtime.";

interface RunOptions {
  module?: GitModuleOptions;
  access?: "read" | "read-write";
  git?: boolean;
  setup?: (ws: Workspace) => Promise<void>;
}

/**
 * Runs `source` (an ES module whose default export is called) on a
 * JavaScript backend importing `ws:git`, in a fresh Durable Object whose
 * Workspace has git (unless `git: false`) and a default identity. The
 * Workspace comes back too, to check files afterwards.
 */
async function run<T>(source: string, options: RunOptions = {}, after?: (ws: Workspace) => Promise<T>) {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const backend = new WorkerJavaScriptBackend({
      loader: env.LOADER,
      modules: { "ws:git": createGitModule(options.module) },
      ...(options.access ? { access: options.access } : {}),
    });
    const ws = new Workspace({
      storage: state.storage,
      backends: [backend],
      ...(options.git === false ? {} : { git: createGitClient(), defaultGitIdentity: { name: "Runner", email: "runner@example.com" } }),
    });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await options.setup?.(ws);
      const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 60_000 })).result();
      return { r, extra: after ? await after(ws) : undefined };
    } finally {
      await ws.close();
    }
  });
}

/** Isolate code: calls `fn` of ws:git with `arg` and returns `{ ok, value }` or `{ error: [message, code] }`. */
function attempt(calls: string): string {
  return `import * as git from "ws:git";
    const attempt = async (fn, ...args) => {
      try { return { ok: await git[fn](...args) }; } catch (e) { return { error: [e.message, e.code ?? null] }; }
    };
    export default async () => [${calls}];`;
}

describe("ws:git rules", () => {
  it("without allowNetwork: clone and cli network commands are refused with the spec's messages; local cli works", async () => {
    const { r } = await run(
      attempt(`
        await attempt("clone", { url: "http://127.0.0.1:1/x.git", dir: "x" }),
        await attempt("cli", { argv: ["fetch", "origin"] }),
        await attempt("cli", { argv: ["PULL"] }),
        await attempt("cli", { argv: ["-C", "r", "ls-remote", "origin"] }),
        await attempt("cli", { argv: ["submodule", "update"] }),
        await attempt("cli", { argv: ["clone", "http://127.0.0.1:1/x.git"] }),
        await attempt("cli", { argv: ["push"] }),
        await attempt("cli", { argv: ["init"], cwd: "r" }),
      `),
    );
    expect(r.stderr).toBe("");
    expect(r.value).toEqual([
      { error: [NO_NETWORK_CLONE, "EACCES"] },
      { error: [NO_NETWORK_CLI, "EACCES"] },
      { error: [NO_NETWORK_CLI, "EACCES"] },
      { error: [NO_NETWORK_CLI, "EACCES"] },
      { error: [NO_NETWORK_CLI, "EACCES"] },
      { error: [NO_NETWORK_CLI, "EACCES"] },
      { error: [NO_NETWORK_CLI, "EACCES"] },
      { ok: { stdout: "Initialized empty Git repository in /workspace/r/.git/\n", stderr: "", exitCode: 0 } },
    ]);
  });

  it("a read-only run: clone and cli are refused (write access), status/diff/log still read", async () => {
    const { r } = await run(
      attempt(`
        await attempt("clone", { url: "http://127.0.0.1:1/x.git" }),
        await attempt("cli", { argv: ["status"] }),
        await attempt("cli", { argv: ["log"] }),
        await attempt("status", { dir: "repo" }),
        await attempt("log", { dir: "repo" }),
        await attempt("diff", { dir: "repo" }),
      `),
      {
        access: "read",
        module: { allowNetwork: true },
        setup: async (ws) => {
          await ws.git.init({ dir: "/workspace/repo" });
          await ws.fs.writeFile("/workspace/repo/a.txt", "one\n");
          await ws.git.add({ dir: "/workspace/repo", paths: ["a.txt"] });
          await ws.git.commit({ dir: "/workspace/repo", message: "one" });
          await ws.fs.writeFile("/workspace/repo/a.txt", "two\n");
        },
      },
    );
    expect(r.stderr).toBe("");
    const value = r.value as { ok?: unknown; error?: unknown }[];
    expect(value.slice(0, 3)).toEqual([{ error: [NO_WRITE_CLONE, "EROFS"] }, { error: [NO_WRITE_CLI, "EROFS"] }, { error: [NO_WRITE_CLI, "EROFS"] }]);
    expect(value[3]).toEqual({ ok: [{ path: "a.txt", index: " ", worktree: "M" }] });
    const log = (value[4] as { ok: { message: string; author: { name: string } }[] }).ok;
    expect(log.map((c) => [c.message, c.author.name])).toEqual([["one\n", "Runner"]]);
    expect((value[5] as { ok: string }).ok).toContain("-one\n+two\n");
  });

  it("path overrides are refused; a leading -C <path> becomes the cwd", async () => {
    const { r } = await run(
      attempt(`
        await attempt("cli", { argv: ["--git-dir=/workspace/x/.git", "log"] }),
        await attempt("cli", { argv: ["--git-dir", "/x", "log"] }),
        await attempt("cli", { argv: ["--work-tree=/", "status"] }),
        await attempt("cli", { argv: ["status", "--work-tree", "/"] }),
        await attempt("cli", { argv: ["-C", "a", "-C", "b", "status"] }),
        await attempt("cli", { argv: ["-Ca", "status"] }),
        await attempt("cli", { argv: ["-C", "sub/repo", "init"] }),
        await attempt("cli", { argv: ["-C", "repo", "status", "--porcelain"], cwd: "sub" }),
        await attempt("cli", { argv: ["-C", "/workspace/sub/repo", "rev-parse", "--show-toplevel"] }),
      `),
    );
    expect(r.stderr).toBe("");
    expect(r.value).toEqual([
      { error: [OVERRIDE, "EACCES"] },
      { error: [OVERRIDE, "EACCES"] },
      { error: [OVERRIDE, "EACCES"] },
      { error: [OVERRIDE, "EACCES"] },
      { error: [OVERRIDE, "EACCES"] },
      { error: [OVERRIDE, "EACCES"] },
      { ok: { stdout: "Initialized empty Git repository in /workspace/sub/repo/.git/\n", stderr: "", exitCode: 0 } },
      { ok: { stdout: "", stderr: "", exitCode: 0 } },
      { ok: { stdout: "/workspace/sub/repo\n", stderr: "", exitCode: 0 } },
    ]);
  });

  it("dir and cwd stay under the backend's root; dir must exist except for clone; bad arguments are TypeErrors", async () => {
    const { r } = await run(
      attempt(`
        await attempt("status", { dir: "../etc" }),
        await attempt("cli", { argv: ["status"], cwd: "/etc" }),
        await attempt("status", { dir: "missing" }),
        await attempt("status", "repo"),
        await attempt("status", {}, {}),
        await attempt("cli", { argv: "status" }),
        await attempt("cli", { argv: ["commit", "-m", "x"], env: { GIT_AUTHOR_NAME: 1 } }),
        await attempt("status", {}),
      `),
    );
    expect(r.stderr).toBe("");
    const value = r.value as { error?: [string, string | null]; ok?: unknown }[];
    expect(value[0]!.error![0]).toContain("paths must stay under /workspace");
    expect(value[0]!.error![1]).toBe("EACCES");
    expect(value[1]!.error![0]).toContain("paths must stay under /workspace");
    expect(value[2]!.error![1]).toBe("ENOENT");
    expect(value.slice(3, 7)).toEqual([
      { error: ["ws:git status takes one options object, got string", null] },
      { error: ["ws:git status takes one options object, got 2 arguments", null] },
      { error: ["ws:git cli: argv must be an array of strings (the arguments after `git`)", null] },
      { error: ["ws:git cli: env must be an object of strings", null] },
    ]);
    // The root itself is not a repository: the client's NotARepositoryError, code and message kept.
    expect(value[7]).toEqual({ error: ["not a git repository: /workspace", "ENOTAREPO"] });
  });

  it("cli stays inside the root: no repository above it, no init/clone target outside it", async () => {
    const { r, extra: kept } = await run(
      attempt(`
        await attempt("cli", { argv: ["status"] }),
        await attempt("cli", { argv: ["clean", "-f"], cwd: "deep/er" }),
        await attempt("cli", { argv: ["init", "../outside"] }),
        await attempt("cli", { argv: ["init", "/outside"] }),
        await attempt("cli", { argv: ["clone", "http://127.0.0.1:1/x.git", "/elsewhere"] }),
        await attempt("cli", { argv: ["init", "-b", "trunk", "inside"] }),
        await attempt("cli", { argv: ["status", "--porcelain"], cwd: "inside" }),
      `),
      {
        module: { allowNetwork: true },
        // The whole Workspace is a repository, its root (/) above the backend's (/workspace).
        setup: async (ws) => {
          await ws.git.init({ dir: "/" });
          await ws.fs.writeFile("/keep.txt", "outside the runtime's root\n");
        },
      },
      async (ws) => ws.fs.readFile("/keep.txt", "utf8"),
    );
    expect(r.stderr).toBe("");
    const value = r.value as { error?: [string, string]; ok?: { exitCode: number; stdout: string } }[];
    expect(value[0]!.error).toEqual(["Git CLI cannot use the repository at / from this runtime: paths must stay under /workspace: /", "EACCES"]);
    expect(value[1]!.error![0]).toMatch(/^Git CLI cannot use the repository at \/ from this runtime: /);
    expect(value[2]!.error![0]).toMatch(/^Git CLI cannot use \/workspace\/\.\.\/outside from this runtime: .*paths must stay under \/workspace/);
    expect(value[3]!.error![0]).toMatch(/^Git CLI cannot use \/outside from this runtime: .*paths must stay under \/workspace/);
    expect(value[4]!.error![0]).toMatch(/^Git CLI cannot use \/elsewhere from this runtime: .*paths must stay under \/workspace/);
    expect(value[5]!.ok!.exitCode).toBe(0);
    expect(value[6]!.ok).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    // `clean -f` never ran on the repository at /.
    expect(kept).toBe("outside the runtime's root\n");
  });

  it("a Workspace without git: every export rejects with the not-configured message", async () => {
    const { r } = await run(attempt(`await attempt("status", {}), await attempt("cli", { argv: ["init"] })`), { git: false });
    const message = "git is not configured on this Workspace: pass createGitClient() from agent-computer/git as WorkspaceOptions.git";
    expect(r.value).toEqual([{ error: [message, "ENOCONFIG"] }, { error: [message, "ENOCONFIG"] }]);
  });

  it("the backend's description shows the module's description", async () => {
    const off = createGitModule().description!;
    expect(off).toContain("Network commands are not allowed here");
    const backend = new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:git": createGitModule() } });
    expect(backend.description).toContain("Network commands are not allowed here");
  });
});

describe("ws:git with allowNetwork", () => {
  // Scout after the fifteenth attack run: clone passed every option through, so code could raise the host's
  // download bound (maxResponseBytes: 1e12) and bring back the unbounded clone memory GIT_MAX_PACK_BYTES fixed.
  it("code can lower clone's maxResponseBytes, never raise it past GIT_MAX_PACK_BYTES", async () => {
    const { url } = await forkRepo();
    const { r } = await run(
      attempt(`
        await attempt("clone", { url: ${JSON.stringify(url)}, dir: "big", maxResponseBytes: 1e12 }),
        await attempt("clone", { url: ${JSON.stringify(url)}, dir: "bad", maxResponseBytes: "all" }),
        await attempt("clone", { url: ${JSON.stringify(url)}, dir: "small", maxResponseBytes: 10 }),
      `),
      { module: { allowNetwork: true } },
    );
    expect(r.stderr).toBe("");
    const refused = "ws:git clone: maxResponseBytes must be a number > 0 and at most 16777216 (GIT_MAX_PACK_BYTES): code can lower the bound, not raise it";
    const value = r.value as { error?: [string, string | null] }[];
    expect(value.slice(0, 2)).toEqual([{ error: [refused, null] }, { error: [refused, null] }]);
    // a lowered bound is taken: the clone fails (already on the ref list)
    expect(value[2]!.error![1]).toBe("ECLONEFAIL");
  });

  it("clone from the loopback server, then status / diff / log / cli commit on the clone", async () => {
    const { url, name } = await forkRepo();
    const real = await serverGit(name, ["log", "--format=%H %s", "-n", "1", "HEAD"]);
    const [headOid, ...subject] = real.stdout.trim().split(" ");
    const { r, extra } = await run(
      `import { clone, status, diff, log, cli } from "ws:git";
       import { readFile, writeFile } from "node:fs/promises";
       export default async () => {
         await clone({ url: ${JSON.stringify(url)}, dir: "clone", depth: 1 });
         const [head] = await log({ dir: "clone", depth: 1 });
         const clean = await status({ dir: "clone" });
         await writeFile("clone/NEW.txt", "new\\n");
         const afterWrite = await status({ dir: "clone" });
         const add = await cli({ argv: ["-C", "clone", "add", "NEW.txt"] });
         const staged = await diff({ dir: "clone" });
         const commit = await cli({ argv: ["commit", "-m", "from the isolate"], cwd: "clone" });
         const oneline = await cli({ argv: ["log", "--oneline", "-n", "1"], cwd: "clone" });
         return { head: [head.oid, head.message], clean, afterWrite, add: add.exitCode, staged, commit: commit.exitCode, oneline: oneline.stdout };
       }`,
      { module: { allowNetwork: true } },
      async (ws) => (await ws.fs.readdir("/workspace/clone")).map((e) => e.name).sort(),
    );
    expect(r.stderr).toBe("");
    const value = r.value as Record<string, unknown>;
    expect(value.head).toEqual([headOid, `${subject.join(" ")}\n`]);
    expect(value.clean).toEqual([]);
    expect(value.afterWrite).toEqual([{ path: "NEW.txt", index: " ", worktree: "?" }]);
    expect(value.add).toBe(0);
    expect(value.staged).toContain("+new\n");
    expect(value.commit).toBe(0);
    expect(value.oneline).toMatch(/^[0-9a-f]{7} from the isolate\n$/);
    expect(extra).toContain(".git");
    expect(extra).toContain("NEW.txt");
  });

  it("cli fetch passes the network check (reaching the server)", async () => {
    const { url } = await forkRepo();
    const { r } = await run(
      attempt(`
        await attempt("cli", { argv: ["init"], cwd: "f" }),
        await attempt("cli", { argv: ["remote", "add", "origin", ${JSON.stringify(url)}], cwd: "f" }),
        await attempt("cli", { argv: ["fetch", "origin"], cwd: "f" }),
        await attempt("cli", { argv: ["branch", "-r"], cwd: "f" }),
      `),
      { module: { allowNetwork: true } },
    );
    expect(r.stderr).toBe("");
    const value = r.value as { ok: { exitCode: number; stdout: string; stderr: string } }[];
    expect(value.map((v) => v.ok.exitCode)).toEqual([0, 0, 0, 0]);
    expect(value[3]!.ok.stdout).toContain("origin/main");
  });
});
