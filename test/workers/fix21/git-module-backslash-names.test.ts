/**
 * Issue 20, twenty-first attack run (fixer GB), siblings of
 * test/workers/attack21b/git-module-backslash-name-reads-outside-root.test.ts in real workerd: a JavaScript run
 * confined to /workspace/proj whose repository holds `..\..\host-secret.txt` (one file) and a directory named
 * `c:` (a Windows drive to isomorphic-git's old join) commits, lists, checks out, restores, stashes and cleans
 * them as the literal files they are; the host's /workspace/host-secret.txt is never read, changed or removed.
 * And the backstop: the client confined to the run's root (what `ws:git` uses) reads nothing outside that root,
 * even when it is pointed at a repository there from the host.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { createGitClient } from "../../../src/git/index.js";
import { CONFINED_TO } from "../../../src/git/confine.js";
import type { GitClient } from "../../../src/git/types.js";
import { inConfinedGitWorkspace, ROOT } from "../git/confined.js";

it("commit, ls-files, checkout, stash and clean of ..\\..\\host-secret.txt and c:/x.txt stay in the repository", async () => {
  const out = await inConfinedGitWorkspace("TOKEN=hunter2\n", async (ws) => {
    const src = `import { cli } from "ws:git"; import { writeFile, mkdir, readFile, rm, readdir } from "node:fs/promises";
      const NAME = "..\\\\..\\\\host-secret.txt";
      export default async () => {
        const o = [];
        const git = async (...argv) => { const r = await cli({ argv, cwd: "r" }); o.push([argv.join(" "), r.exitCode, r.stdout, r.stderr]); };
        await mkdir("r/c:", { recursive: true });
        await cli({ argv: ["init", "-b", "main"], cwd: "r" });
        await writeFile("r/a.txt", "a\\n");
        await writeFile("r/" + NAME, "innocent\\n");
        await writeFile("r/c:/x.txt", "x\\n");
        await git("add", "-A");
        await git("commit", "-q", "-m", "one");
        await git("ls-files");
        await rm("r/" + NAME);
        await writeFile("r/c:/x.txt", "X\\n");
        await git("status", "--porcelain=v1");
        await git("checkout", "--", ".");
        o.push(["read", await readFile("r/" + NAME, "utf8"), await readFile("r/c:/x.txt", "utf8")]);
        await writeFile("r/" + NAME, "edited\\n");
        await git("stash", "-q");
        o.push(["after stash", await readFile("r/" + NAME, "utf8")]);
        o.push(["stash pop", (await cli({ argv: ["stash", "pop"], cwd: "r" })).exitCode]); // its output is another matter
        await git("diff", "--stat");
        await git("reset", "-q", "--hard");
        await writeFile("r/..\\\\new.txt", "n\\n");
        await git("clean", "-f");
        o.push(["tree", (await readdir("r")).sort()]);
        return o;
      }`;
    const run = await (await ws.runtime.exec(src, { encoding: "utf8" })).result();
    return { exit: run.exitCode, value: run.value, host: await ws.fs.readFile("/workspace/host-secret.txt", "utf8").catch((e: { code: string }) => e.code), top: (await ws.fs.readdir("/workspace")).map((e) => e.name) };
  });
  const NAME = "..\\..\\host-secret.txt";
  const Q = '"..\\\\..\\\\host-secret.txt"';
  expect(out).toEqual({
    exit: 0,
    value: [
      ["add -A", 0, "", ""],
      ["commit -q -m one", 0, "", ""],
      ["ls-files", 0, `${Q}\na.txt\nc:/x.txt\n`, ""],
      ["status --porcelain=v1", 0, ` D ${Q}\n M c:/x.txt\n`, ""],
      ["checkout -- .", 0, "", ""],
      ["read", "innocent\n", "x\n"],
      ["stash -q", 0, "", ""],
      ["after stash", "innocent\n"],
      ["stash pop", 0],
      ["diff --stat", 0, ` ${Q} | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n`, ""],
      ["reset -q --hard", 0, "", ""],
      ["clean -f", 0, 'Removing "..\\\\new.txt"\n', ""],
      ["tree", [NAME, ".git", "a.txt", "c:"]],
    ],
    host: "TOKEN=hunter2\n",
    top: ["host-secret.txt", "proj"],
  });
});

it("the client confined to a root reads nothing outside it, even pointed at a repository there", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, git: createGitClient(), defaultGitIdentity: { name: "R", email: "r@e.com" } });
    try {
      const git = ws.git as GitClient & { [CONFINED_TO](root: string): GitClient };
      await ws.fs.mkdir("/workspace/other", { recursive: true });
      await git.init({ dir: "/workspace/other" });
      await ws.fs.writeFile("/workspace/other/a.txt", "secret\n");
      await git.add({ dir: "/workspace/other", paths: ["a.txt"] });
      const confined = git[CONFINED_TO](ROOT);
      const fail = (p: Promise<unknown>) => p.then(() => "resolved", (e: { code: string; message: string }) => `${e.code}: ${e.message}`);
      return {
        status: await fail(confined.status({ dir: "/workspace/other" })),
        diff: await fail(confined.diff({ dir: "/workspace/other", cached: true })),
        add: await fail(confined.add({ dir: "/workspace/other", paths: ["a.txt"] })),
        hostStatus: await git.status({ dir: "/workspace/other" }),
      };
    } finally {
      await ws.close();
    }
  });
  expect(out).toEqual({
    status: "ENOTAREPO: not a git repository: /workspace/other",
    diff: "ENOTAREPO: not a git repository: /workspace/other",
    add: "ENOTAREPO: not a git repository: /workspace/other",
    hostStatus: [{ path: "a.txt", index: "A", worktree: " " }],
  });
});
