/**
 * Issue 20 sixth attack run, category 1 (sandbox escapes, git paths): the
 * `ws:git` module from a JavaScript run (root /workspace) against a
 * repository OUTSIDE root (/victim), on angles runs 2–5 and issue 15 did not
 * take: a `.git` FILE inside root pointing outside (`gitdir: /victim/.git`,
 * a "gitfile") used for status/add/commit/log; `core.worktree` set to the
 * victim with `config`, then status and `checkout -f HEAD -- .`; `env`
 * GIT_DIR / GIT_WORK_TREE; `-c core.worktree=/`; output-file options and
 * commands (`diff --output=`, `archive -o`, `format-patch -o`, `bundle
 * create`, `worktree add`, `mv` to ../..); `remote add` of a local path;
 * `-C../..` glued and `-C ../..` leading; `submodule add`; status with
 * `dir: "../victim"`. Each is refused (exact message) or ignored (the
 * gitfile is not followed, core.worktree and env are not honoured); the
 * victim repository keeps its one commit and its files. All withstood.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { createGitModule } from "../../../src/modules/git.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
it("gitfiles, core.worktree, env, -c, output-file commands and parent paths never reach a repository outside root", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:git": createGitModule() } })], git: createGitClient(), defaultGitIdentity: { name: "R", email: "r@e.com" } });
    await ws.fs.mkdir("/workspace/mine", { recursive: true });
    await ws.fs.mkdir("/victim", { recursive: true });
    await ws.fs.writeFile("/victim/v.txt", "victim\n");
    await ws.git.init({ dir: "/victim" });
    await ws.git.add({ dir: "/victim", paths: ["v.txt"] });
    await ws.git.commit({ dir: "/victim", message: "v" });
    await ws.fs.writeFile("/workspace/mine/m.txt", "mine\n");
    const src = `import { cli, status } from "ws:git"; import { writeFile, mkdir } from "node:fs/promises";
      const a = async (f) => { try { const r = await f(); return r; } catch (e) { return "ERR " + e.code + " " + e.message.slice(0, 200); } };
      export default async () => {
        const o = {};
        await mkdir("/workspace/p", { recursive: true });
        await writeFile("/workspace/p/.git", "gitdir: /victim/.git\\n");
        await writeFile("/workspace/p/new.txt", "evil\\n");
        o.gitfileStatus = await a(() => cli({ argv: ["status", "--porcelain"], cwd: "p" }));
        o.gitfileAdd = await a(() => cli({ argv: ["add", "new.txt"], cwd: "p" }));
        o.gitfileCommit = await a(() => cli({ argv: ["commit", "-m", "evil"], cwd: "p" }));
        o.gitfileLog = await a(() => cli({ argv: ["log", "--oneline"], cwd: "p" }));
        o.init = await a(() => cli({ argv: ["init"], cwd: "mine" }));
        o.add = await a(() => cli({ argv: ["add", "."], cwd: "mine" }));
        o.commit = await a(() => cli({ argv: ["commit", "-m", "one"], cwd: "mine" }));
        o.cflag = await a(() => cli({ argv: ["-c", "core.worktree=/", "status", "--porcelain"], cwd: "mine" }));
        o.cfgWorktree = await a(() => cli({ argv: ["config", "core.worktree", "/victim"], cwd: "mine" }));
        o.afterWorktree = await a(() => cli({ argv: ["status", "--porcelain"], cwd: "mine" }));
        o.checkoutWt = await a(() => cli({ argv: ["checkout", "-f", "HEAD", "--", "."], cwd: "mine" }));
        o.envGitDir = await a(() => cli({ argv: ["status", "--porcelain"], cwd: "mine", env: { GIT_DIR: "/victim/.git", GIT_WORK_TREE: "/victim" } }));
        o.diffOutput = await a(() => cli({ argv: ["diff", "--output=/victim/leak", "HEAD"], cwd: "mine" }));
        o.archive = await a(() => cli({ argv: ["archive", "-o", "/victim/a.tar", "HEAD"], cwd: "mine" }));
        o.formatPatch = await a(() => cli({ argv: ["format-patch", "-o", "/victim", "-1"], cwd: "mine" }));
        o.bundle = await a(() => cli({ argv: ["bundle", "create", "/victim/b.bundle", "HEAD"], cwd: "mine" }));
        o.remoteAdd = await a(() => cli({ argv: ["remote", "add", "o", "/victim"], cwd: "mine" }));
        o.cOpt = await a(() => cli({ argv: ["-C../../victim", "status"], cwd: "mine" }));
        o.leadC = await a(() => cli({ argv: ["-C", "../../victim", "status"], cwd: "mine" }));
        o.submoduleAdd = await a(() => cli({ argv: ["submodule", "add", "/victim", "sub"], cwd: "mine" }));
        o.statusDirUp = await a(() => status({ dir: "../victim" }));
        o.worktreeAdd = await a(() => cli({ argv: ["worktree", "add", "/victim/wt"], cwd: "mine" }));
        o.stash = await a(() => cli({ argv: ["mv", "m.txt", "../../victim/m.txt"], cwd: "mine" }));
        return o;
      };`;
    const r = await (await ws.runtime.exec(src, { encoding: "utf8", timeoutMs: 60_000 })).result();
    const victim = { files: (await ws.fs.find("/victim", "**")).map((e) => e.path).filter((p) => !p.includes("/.git/objects/")), log: await ws.git.cli({ argv: ["log", "--oneline"], cwd: "/victim" }), cfg: await ws.fs.readFile("/workspace/mine/.git/config", "utf8").catch(() => "none") };
    await ws.close();
    return { r: { exit: r.exitCode, value: r.value, stderr: (r.stderr as string).slice(0, 500) }, victim };
  });
  const ok = (stdout: string, stderr = "", exitCode = 0) => ({ stdout, stderr, exitCode });
  const notRepo = (cmd: string) => ok("", `git ${cmd}: not a git repository: /workspace/p\n`, 128);
  const unsupported = (cmd: string) => ok("", `git: '${cmd}' is not a supported workspace git command\n`, 1);
  expect(out.r.exit).toBe(0);
  expect(out.r.stderr).toBe("");
  const v = out.r.value as Record<string, unknown>;
  expect(v).toEqual({
    gitfileStatus: notRepo("status"),
    gitfileAdd: notRepo("add"),
    gitfileCommit: notRepo("commit"),
    gitfileLog: notRepo("log"),
    init: ok("Initialized empty Git repository in /workspace/mine/.git/\n"),
    add: ok(""),
    commit: expect.objectContaining({ stderr: "", exitCode: 0 }),
    cflag: unsupported("-c"),
    cfgWorktree: ok(""),
    afterWorktree: ok(""),
    checkoutWt: ok(""),
    envGitDir: ok(""),
    diffOutput: ok("", "git diff: unknown option '--output'\n", 129),
    archive: unsupported("archive"),
    formatPatch: unsupported("format-patch"),
    bundle: unsupported("bundle"),
    remoteAdd: ok("", "git remote: unsupported transport '/victim' (only https://, http:// and file:// URLs are supported)\n", 1),
    cOpt: "ERR EACCES Git CLI path overrides are not available inside a confined Workspace runtime.",
    leadC: "ERR EACCES paths must stay under /workspace: mine/../../victim",
    submoduleAdd: "ERR EACCES Git CLI network command requires createGitModule({ allowNetwork: true }).",
    statusDirUp: "ERR EACCES paths must stay under /workspace: ../victim",
    worktreeAdd: unsupported("worktree"),
    stash: unsupported("mv"),
  });
  expect(out.victim.files).toEqual([
    "/victim/.git",
    "/victim/.git/HEAD",
    "/victim/.git/config",
    "/victim/.git/hooks",
    "/victim/.git/index",
    "/victim/.git/info",
    "/victim/.git/objects",
    "/victim/.git/refs",
    "/victim/.git/refs/heads",
    "/victim/.git/refs/heads/main",
    "/victim/.git/refs/tags",
    "/victim/v.txt",
  ]);
  expect(out.victim.log).toMatchObject({ exitCode: 0, stderr: "" });
  expect((out.victim.log as { stdout: string }).stdout).toMatch(/^[0-9a-f]{7} v\n$/);
}, 300_000);
