/**
 * Issue 20, twentieth attack run: the git CLI's `git clone <url> <dir>` (and `git clone <url> .`) into an existing
 * directory that holds files overwrites the ones the commit also has; real git refuses a non-empty destination.
 * Tried: /work holding README.md ("mine\n", a name the fixture repository also has) and notes.txt; the CLI
 * `git clone <fixture url> work` from /, and `git clone <fixture url> .` from /work; side by side with real git
 * 2.39.5 cloning the same URL into a non-empty directory.
 * Held: notes.txt (a name the commit lacks) stays; (by the code, not probed here) a destination holding a .git is
 * refused (`destination ... already holds a repository`).
 * Found (medium — an agent's "git clone <url> ." in its working directory silently replaces its own files with
 * the repository's): both clones exit 0 and README.md holds the fixture's text; "mine\n" is gone (2 of 2 runs).
 * Real git: `fatal: destination path 'work' already exists and is not an empty directory.`, exit 128, nothing
 * written. The API documents the overwrite (src/git/ops/network.ts clone: "a forced checkout overwrites those the
 * commit also has"); the CLI, which promises git's behaviour, takes it over unchanged.
 * Suggested fix: the CLI's clone refuses an existing non-empty directory (exit 128 with git's message) before it
 * calls the client; (the API may keep its documented behaviour, or refuse without an explicit option).
 * Fixed: the CLI's clone hands the client a command-line-only option (registered symbol CLONE_INTO_EMPTY, the
 * destination as typed); the clone then refuses a destination that exists and is not an empty directory before
 * writing anything, and the CLI prints real git's line (`git clone: destination path 'work' already exists and is
 * not an empty directory.`), exit 128. The API's clone keeps its documented overwrite.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, expect, it } from "vitest";
import { repoUrl } from "../../shared/git-remote.js";
import { cleanupScratch, identityEnv, newWorkspace, realGitResult, tempDir } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

it("real git refuses to clone into a non-empty directory (the oracle)", () => {
  const parent = tempDir();
  mkdirSync(`${parent}/work`);
  writeFileSync(`${parent}/work/README.md`, "mine\n");
  const r = realGitResult(parent, "clone", "-q", repoUrl("fixture"), "work");
  expect({ status: r.status, stderr: r.stderr, readme: readFileSync(`${parent}/work/README.md`, "utf8") }).toEqual({
    status: 128,
    stderr: "fatal: destination path 'work' already exists and is not an empty directory.\n",
    readme: "mine\n",
  });
});

it("the CLI refuses it too: exit 128, README.md kept", async () => {
  const out: { exitCode: number; stderr: string; readme: string; notes: string; names: string[] }[] = [];
  for (const [dirArg, cwd] of [["work", "/"], [".", "/work"]] as const) {
    const { ws, git } = newWorkspace();
    await ws.fs.mkdir("/work");
    await ws.fs.writeFile("/work/README.md", "mine\n");
    await ws.fs.writeFile("/work/notes.txt", "notes\n");
    const r = await git.cli({ argv: ["clone", "-q", repoUrl("fixture"), dirArg], cwd, env: identityEnv() });
    out.push({
      exitCode: r.exitCode,
      stderr: r.stderr,
      readme: await ws.fs.readFile("/work/README.md", "utf8"),
      notes: await ws.fs.readFile("/work/notes.txt", "utf8"),
      names: (await ws.fs.readdir("/work")).map((e) => e.name).sort(),
    });
  }
  // Real git's line after `git clone: ` (the name as typed, `.` too); nothing written: no .git, no fixture file.
  expect(out).toEqual(
    ["work", "."].map((typed) => ({
      exitCode: 128,
      stderr: `git clone: destination path '${typed}' already exists and is not an empty directory.\n`,
      readme: "mine\n",
      notes: "notes\n",
      names: ["README.md", "notes.txt"],
    })),
  );
});

it("the CLI still clones into an existing empty directory (as real git)", async () => {
  const { ws, git } = newWorkspace();
  await ws.fs.mkdir("/work");
  const r = await git.cli({ argv: ["clone", "-q", repoUrl("fixture"), "."], cwd: "/work", env: identityEnv() });
  expect({ exitCode: r.exitCode, stderr: r.stderr, git: (await ws.fs.readdir("/work")).map((e) => e.name).includes(".git") }).toEqual({ exitCode: 0, stderr: "", git: true });
});
