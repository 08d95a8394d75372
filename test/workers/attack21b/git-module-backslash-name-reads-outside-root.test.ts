/**
 * Issue 20, twenty-first attack run: a JavaScript run confined with `root: "/workspace/proj"` reads a file OUTSIDE
 * its root through `ws:git`: it names a file of its repository `..\..\host-secret.txt` (one segment holding
 * backslashes — a legal Linux and git name), and `git add -A` stages the host's /workspace/host-secret.txt instead
 * (isomorphic-git's path join turns `\` into `/`), then `git diff --cached` prints its content to the run.
 * Tried: in the run, `readFile("../host-secret.txt")` (EACCES, the sandbox holds), then `cli init` in r/, a first
 * commit, `writeFile("r/..\\..\\host-secret.txt", "innocent\n")`, `cli add -A`, `cli diff --cached`; also commit,
 * stash, stash pop, checkout -- ., rm --cached, clean -f after it. On the host (node, no root): the same name
 * `..\outside\secret.txt` in /repo stages /outside/secret.txt (its oid, `git diff --cached` shows it).
 * Held: the run's own node:fs (EACCES); commit and stash refuse the staged `..` path ("The filepath \"..\" contains
 * unsafe character sequences"); rm --cached refuses it as outside the repository; clean -f removes only the
 * literal file; checkout -f -b, switch -c, reset (mixed) leave the outside file alone.
 * Also found (the same cause, write side): after that `add -A`, `reset --hard` (and `checkout -f HEAD`, on the
 * host) DELETES /workspace/host-secret.txt — the staged `../../host-secret.txt` is not in HEAD, so the reset
 * removes it from the "working tree" (second test).
 * Found (high — sandbox root escape, read and delete: any file of the Workspace readable through a crafted name; 2 of 2 runs):
 * add exits 0 and the index holds `../../host-secret.txt` with the secret's blob; `diff --cached` exits 0 with
 * `+TOKEN=hunter2`. Real git on Linux stages the literal file `..\..\host-secret.txt` ("innocent").
 * Suggested fix: in the git fs bridge (src/git/fs-bridge.ts) or the generated isomorphic-git's path helpers, never
 * translate `\` to `/` (POSIX names); until then refuse (or skip as unsafe) any working-tree name holding `\` when
 * walking (add, status, diff), and check every path git reads against the confined root as symlink targets are
 * (src/git/confine.ts covers links only).
 * Fixed (fixer GB): `\` is an ordinary name character everywhere git touches the Workspace. scripts/gen-git.mjs
 * patches the vendored isomorphic-git: normalize/join keep `\` (and no longer take `c:/…` for a Windows absolute
 * path), dirname/basename/hasExactCasePath split only at `/`, a tree entry may hold `\` (refused only as `.git\…`
 * / `git~N\…`, git's core.protectNTFS rule), and the index reader refuses a path with an empty, `.` or `..`
 * SEGMENT instead of any `..\`. And, as a backstop, every path an operation reads, writes or removes (isomorphic-
 * git's fs and workspace.fs) must be under the repository and, in a confined run, the run's root
 * (src/git/confine.ts containedContext, applied per operation in src/git/client.ts): else EACCES, nothing touched.
 * Both tests now pass as written; siblings: test/workers/fix21/git-module-backslash-names.test.ts and
 * test/node/fix21/git-backslash-names.test.ts.
 */
import { expect, it } from "vitest";
import { inConfinedGitWorkspace } from "../git/confined.js";

it("a name holding backslashes never makes git read a file outside the run's root", async () => {
  const out = await inConfinedGitWorkspace("TOKEN=hunter2\n", async (ws) => {
    const src = `import { cli } from "ws:git"; import { writeFile, mkdir, readFile } from "node:fs/promises";
      const a = async (f) => { try { return await f(); } catch (e) { return "ERR " + e.code; } };
      export default async () => {
        const o = {};
        o.direct = await a(() => readFile("../host-secret.txt", "utf8"));
        await mkdir("r", { recursive: true });
        await cli({ argv: ["init", "-b", "main"], cwd: "r" });
        await writeFile("r/a.txt", "a\\n");
        await cli({ argv: ["add", "a.txt"], cwd: "r" });
        await cli({ argv: ["commit", "-m", "one"], cwd: "r" });
        await writeFile("r/..\\\\..\\\\host-secret.txt", "innocent\\n");
        o.add = (await cli({ argv: ["add", "-A"], cwd: "r" })).exitCode;
        o.diff = (await cli({ argv: ["diff", "--cached"], cwd: "r" })).stdout;
        return o;
      }`;
    const run = await (await ws.runtime.exec(src, { encoding: "utf8" })).result();
    return { exit: run.exitCode, value: run.value as { direct: string; add: number; diff: string } };
  });
  // Found: { direct: "ERR EACCES", add: 0, diff: "diff --git a/../../host-secret.txt …\n+TOKEN=hunter2\n" }.
  expect(out.exit).toBe(0);
  expect(out.value.direct).toBe("ERR EACCES");
  expect(out.value.diff).not.toContain("hunter2");
  // As real git on Linux: the literal file is staged with its own content.
  expect(out.value).toEqual({
    direct: "ERR EACCES",
    add: 0,
    diff:
      'diff --git "a/..\\\\..\\\\host-secret.txt" "b/..\\\\..\\\\host-secret.txt"\nnew file mode 100644\nindex 0000000..feb9ccb\n--- /dev/null\n+++ "b/..\\\\..\\\\host-secret.txt"\n@@ -0,0 +1 @@\n+innocent\n',
  });
});

it("nor makes git remove a file outside the run's root (add -A, then reset --hard)", async () => {
  const out = await inConfinedGitWorkspace("TOKEN=hunter2\n", async (ws) => {
    const src = `import { cli } from "ws:git"; import { writeFile, mkdir } from "node:fs/promises";
      export default async () => {
        await mkdir("r", { recursive: true });
        await cli({ argv: ["init", "-b", "main"], cwd: "r" });
        await writeFile("r/a.txt", "a\\n");
        await cli({ argv: ["add", "a.txt"], cwd: "r" });
        await cli({ argv: ["commit", "-m", "one"], cwd: "r" });
        await writeFile("r/..\\\\..\\\\host-secret.txt", "innocent\\n");
        await cli({ argv: ["add", "-A"], cwd: "r" });
        return (await cli({ argv: ["reset", "--hard"], cwd: "r" })).exitCode;
      }`;
    const run = await (await ws.runtime.exec(src, { encoding: "utf8" })).result();
    return { exit: run.exitCode, value: run.value, host: await ws.fs.readFile("/workspace/host-secret.txt", "utf8").catch((e: { code: string }) => e.code) };
  });
  // Found: { exit: 0, value: 0, host: "ENOENT" } — the host's file outside the root is gone.
  expect(out).toEqual({ exit: 0, value: 0, host: "TOKEN=hunter2\n" });
});
