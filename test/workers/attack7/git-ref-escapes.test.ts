/**
 * Issue 20 seventh attack run, category 1 (sandbox escapes, git paths) and
 * category 3 (hostile files in `.git`): the JavaScript backend (root
 * `/workspace`) with `ws:git`, where the run writes its own repository's
 * `.git` files — angles runs 2–6 and issue 15 did not take (they tried
 * gitfiles, core.worktree, env, -c, -C, output options, hostile TREE names):
 *
 * - `.git/HEAD` = `ref: ../../../host-secret.txt` (a relative symbolic ref
 *   leaving `.git`) — DEFECT below (high);
 * - `.git/HEAD` = `ref: refs/heads/../../../../host-secret.txt` and
 *   `ref: /host-secret.txt`: commit refuses the ref name (`would be an
 *   invalid git reference`), nothing is read or written outside root;
 * - `.git/refs/heads/main` = `ref: ../../../../../host-secret.txt` and
 *   `ref: refs/heads/../../../../host-secret.txt` (a symbolic branch):
 *   nothing outside is read into any output, nor written;
 * - `.git/objects/info/alternates` = `/victim/.git/objects` (borrow another
 *   repository's objects) and a `packed-refs` line naming an outside path:
 *   ignored — `cat-file` of the victim's commit is `EOBJECT…`/not found;
 * - `branch`, `tag`, `update-ref`, `checkout -b` and `remote add` with `..`
 *   names: refused with exact messages; `symbolic-ref HEAD
 *   refs/heads/../../x` was accepted (exit 0); now refused with real git's
 *   "Refusing to set 'HEAD' to invalid ref '…'".
 * Host secret after all: unchanged; no file outside root made.
 *
 * DEFECT (high), FIXED — a HEAD not `ref: refs/…`/an oid is no repository (as real git); ref names failing check-ref-format are refused before any read; `symbolic-ref` checks its target — reproduction, code run by `exec` with root /workspace:
 *   await cli({ argv: ["init"], cwd: "r" });
 *   await writeFile("r/.git/HEAD", "ref: ../../../host-secret.txt\n");
 *   (await cli({ argv: ["status"], cwd: "r" })).stderr
 *   // → "git status: Could not find TOKEN=hunter2\nsecond line.\n"
 * isomorphic-git resolves a symbolic ref by reading `<gitdir>/<target>`, and
 * `../../../host-secret.txt` from `/workspace/r/.git` is `/host-secret.txt`
 * — outside the backend's root; it is not a ref, so the error quotes the
 * whole file. `git stash` does the same. Any file the Workspace holds is
 * readable this way from a confined run (the backend's `root` is the only
 * wall between the model's code and the host's files), and through the
 * shell's git and `WorkspaceGitStub.cli` by any agent.
 * Impact: high — a read of arbitrary Workspace files from a confined
 * JavaScript run, content returned verbatim in an error message.
 * Fix proposal: validate every symbolic-ref target read from disk before
 * following it (real git: `refs/…` only, `check_refname_format`, no `..`
 * components, no absolute paths; HEAD may hold only `ref: refs/…` or an
 * oid) — in scripts/gen-git.mjs patch `GitRefManager.resolve`, or check in
 * the fs bridge that every path under a gitdir stays under it; never quote
 * file contents in "Could not find" messages (name the ref file instead);
 * refuse `symbolic-ref` targets outside `refs/`.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { createGitModule } from "../../../src/modules/git.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";

const SECRET = "TOKEN=hunter2\nsecond line\n";

/** Runs `body` (statements, may use `cli`, `writeFile`, `mkdir`, `a`, `o`) in a run with root /workspace; a repository /workspace/r with one commit. */
async function confined(body: string) {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({
      storage: state.storage,
      backends: [new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:git": createGitModule() } })],
      git: createGitClient(),
      defaultGitIdentity: { name: "R", email: "r@e.com" },
    });
    try {
      await ws.fs.writeFile("/host-secret.txt", SECRET);
      await ws.fs.mkdir("/victim", { recursive: true });
      await ws.fs.writeFile("/victim/v.txt", "victim\n");
      await ws.git.init({ dir: "/victim" });
      await ws.git.add({ dir: "/victim", paths: ["v.txt"] });
      const victimCommit = (await ws.git.commit({ dir: "/victim", message: "v" })).oid;
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      await ws.fs.writeFile("/workspace/r/a.txt", "a\n");
      await ws.git.init({ dir: "/workspace/r" });
      await ws.git.add({ dir: "/workspace/r", paths: ["a.txt"] });
      await ws.git.commit({ dir: "/workspace/r", message: "base" });
      const src = `import { cli } from "ws:git"; import { writeFile, mkdir } from "node:fs/promises";
        const a = async (f) => { try { return await f(); } catch (e) { return "ERR " + e.code + " " + String(e.message).slice(0, 300); } };
        export default async () => { const o = {}; ${body.replaceAll("VICTIM_COMMIT", victimCommit)}; return o; };`;
      const r = await (await ws.runtime.exec(src, { encoding: "utf8", timeoutMs: 60_000 })).result();
      const outside = (await ws.fs.find("/", "**")).map((e) => e.path).filter((p) => !p.startsWith("/workspace") && !p.startsWith("/victim/.git/objects") && !p.startsWith("/.computer"));
      return { exit: r.exitCode, stderr: r.stderr as string, value: r.value as Record<string, { stdout: string; stderr: string; exitCode: number }>, secret: await ws.fs.readFile("/host-secret.txt", "utf8"), outside };
    } finally {
      await ws.close();
    }
  });
}
const OUTSIDE = ["/host-secret.txt", "/victim", "/victim/.git", "/victim/.git/HEAD", "/victim/.git/config", "/victim/.git/hooks", "/victim/.git/index", "/victim/.git/info", "/victim/.git/refs", "/victim/.git/refs/heads", "/victim/.git/refs/heads/main", "/victim/.git/refs/tags", "/victim/v.txt"];
const leaks = (v: Record<string, unknown>) => Object.entries(v).filter(([, x]) => JSON.stringify(x).includes("hunter2")).map(([k]) => k);

describe("attack7: a confined run's own .git files pointing out of root", () => {
  it("DEFECT (high): HEAD = 'ref: ../../../host-secret.txt' — status and stash quote the outside file in their error", { timeout: 60_000 }, async () => {
    const r = await confined(`
      await writeFile("r/.git/HEAD", "ref: ../../../host-secret.txt\\n");
      o.status = await a(() => cli({ argv: ["status"], cwd: "r" }));
      o.stash = await a(() => cli({ argv: ["stash"], cwd: "r" }));
      await writeFile("r/.git/HEAD", "ref: refs/heads/main\\n");
      o.revParse = await a(() => cli({ argv: ["rev-parse", "../../../host-secret.txt"], cwd: "r" }));`);
    expect(r.exit).toBe(0);
    // Was: status.stderr = "git status: Could not find TOKEN=hunter2\nsecond line.\n", stash the same.
    // Now as real git ("fatal: not a git repository", 128): a HEAD that is not `ref: refs/…` or an oid makes no repository.
    expect(leaks(r.value)).toEqual([]);
    expect(r.value).toEqual({
      status: { stdout: "", stderr: "git status: not a git repository: /workspace/r\n", exitCode: 128 },
      stash: { stdout: "", stderr: "git stash: not a git repository: /workspace/r\n", exitCode: 128 },
      // 128 since issue 20's twenty-fifth attack run: an unknown revision is real git's fatal (it was 1).
      revParse: { stdout: "", stderr: "git rev-parse: unknown revision '../../../host-secret.txt'\n", exitCode: 128 },
    });
  });

  it("HEAD = 'ref: refs/heads/../…' or an absolute ref, and symbolic branches out of .git: nothing outside is read into output or written", { timeout: 60_000 }, async () => {
    const cmds = `for (const argv of [["status"], ["log"], ["branch"], ["rev-parse", "HEAD"], ["show"], ["diff", "HEAD"], ["commit", "--allow-empty", "-m", "x"], ["stash"], ["reset", "--hard"]]) o[k + " " + argv[0]] = await a(() => cli({ argv, cwd: "r" }));`;
    const r = await confined(`
      const heads = { refsUp: ["r/.git/HEAD", "ref: refs/heads/../../../../host-secret.txt\\n"], abs: ["r/.git/HEAD", "ref: /host-secret.txt\\n"],
                      symMain: ["r/.git/refs/heads/main", "ref: ../../../../../host-secret.txt\\n"], symMain2: ["r/.git/refs/heads/main", "ref: refs/heads/../../../../host-secret.txt\\n"] };
      const base = { head: "ref: refs/heads/main\\n" };
      for (const [k, [path, content]] of Object.entries(heads)) {
        const before = (await cli({ argv: ["rev-parse", "HEAD"], cwd: "r" })).stdout.trim();
        await writeFile(path, content);
        ${cmds}
        await writeFile("r/.git/HEAD", base.head);
        if (path.endsWith("main")) await writeFile(path, (before || "${"0".repeat(40)}") + "\\n");
      }`);
    expect(r.exit).toBe(0);
    expect(leaks(r.value)).toEqual([]);
    expect(r.value["refsUp commit"]).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/^git commit: "refs\/heads\/\.\.\/\.\.\/\.\.\/\.\.\/host-secret\.txt" would be an invalid git reference/) });
    // As real git: a HEAD that does not point into refs/ makes the directory no repository (exit 128).
    for (const cmd of ["status", "log", "branch", "rev-parse", "show", "diff", "commit", "stash", "reset"]) {
      expect(r.value[`abs ${cmd}`]).toEqual({ stdout: "", stderr: `git ${cmd}: not a git repository: /workspace/r\n`, exitCode: 128 });
    }
    expect(r.secret).toBe(SECRET);
    expect(r.outside).toEqual(OUTSIDE);
  });

  it("alternates and packed-refs naming outside paths are ignored; ref names with .. are refused", { timeout: 60_000 }, async () => {
    const r = await confined(`
      await mkdir("r/.git/objects/info", { recursive: true });
      await writeFile("r/.git/objects/info/alternates", "/victim/.git/objects\\n../../../../victim/.git/objects\\n");
      o.catAlt = await a(() => cli({ argv: ["cat-file", "-t", "VICTIM_COMMIT"], cwd: "r" }));
      await writeFile("r/.git/packed-refs", "# pack-refs with: peeled\\nVICTIM_COMMIT refs/heads/stolen\\n");
      o.logStolen = await a(() => cli({ argv: ["log", "stolen"], cwd: "r" }));
      o.branch = await a(() => cli({ argv: ["branch", "../../../../x"], cwd: "r" }));
      o.tag = await a(() => cli({ argv: ["tag", "../../../../../x"], cwd: "r" }));
      o.updateRef = await a(() => cli({ argv: ["update-ref", "refs/heads/../../../../../x", "HEAD"], cwd: "r" }));
      o.checkoutB = await a(() => cli({ argv: ["checkout", "-b", "../../x"], cwd: "r" }));
      o.remote = await a(() => cli({ argv: ["remote", "add", "../../../../x", "http://x"], cwd: "r" }));
      o.symref = await a(() => cli({ argv: ["symbolic-ref", "HEAD", "refs/heads/../../../../../x"], cwd: "r" }));
      o.symrefOut = await a(() => cli({ argv: ["symbolic-ref", "HEAD", "../../x"], cwd: "r" }));
      o.commitAfter = await a(() => cli({ argv: ["commit", "--allow-empty", "-m", "x"], cwd: "r" }));`);
    expect(r.exit).toBe(0);
    const v = r.value;
    expect(v.catAlt!.exitCode).not.toBe(0);
    expect(v.logStolen!.exitCode).not.toBe(0);
    expect(v.branch).toEqual({ stdout: "", stderr: "git branch: '../../../../x' is not a valid branch name\n", exitCode: 128 });
    expect(v.tag).toEqual({ stdout: "", stderr: "git tag: '../../../../../x' is not a valid tag name\n", exitCode: 128 });
    expect(v.updateRef!.exitCode).toBe(1);
    expect(v.updateRef!.stderr).toMatch(/^git update-ref: "refs\/heads\/\.\.\/\.\.\/\.\.\/\.\.\/\.\.\/x" would be an invalid git reference/);
    expect(v.checkoutB).toEqual({ stdout: "", stderr: "git checkout: '../../x' is not a valid branch name\n", exitCode: 128 });
    expect(v.remote).toEqual({ stdout: "", stderr: "git remote: '../../../../x' is not a valid remote name\n", exitCode: 1 });
    // Refused as real git does ("fatal: Refusing to set 'HEAD' to invalid ref …"); HEAD stays on main, so the commit lands.
    expect(v.symref).toEqual({ stdout: "", stderr: "git symbolic-ref: Refusing to set 'HEAD' to invalid ref 'refs/heads/../../../../../x'\n", exitCode: 1 });
    expect(v.symrefOut).toEqual({ stdout: "", stderr: "git symbolic-ref: Refusing to point HEAD outside of refs/\n", exitCode: 1 });
    expect(v.commitAfter).toMatchObject({ exitCode: 0, stderr: "" });
    expect(r.outside).toEqual(OUTSIDE);
  });
});
