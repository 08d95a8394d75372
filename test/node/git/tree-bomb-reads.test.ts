/**
 * Issue 20, thirteenth attack run (follow-up of the git-bomb fix, attack13a git-module-tree-bomb): the operations
 * that only READ trees — `diff` and `diffSummary` (between commits, to the index, to the working tree), `status`
 * against a bomb HEAD, `lsFiles` of a commit, `log`, and the CLI commands built on them (`status`, `diff`, `show`,
 * `ls-files`) — read the whole expanded tree of a "git bomb" (trees whose entries all name one subtree: fan^depth
 * paths from a few hundred bytes), unbounded CPU and memory, and ignored the operation's `signal`, so the git work
 * of a killed `ws:git` run kept going.
 * Reproduction: a commit written by hand whose tree has 10 entries per level, 5 levels (10^5 files and 11,110
 * directories from five 140-byte trees); `diff({ ref: "main", to: "bomb" })` etc. walk all 111,110 paths.
 * Fix: the same bound as the writing operations (GIT_MAX_TREE_ENTRIES, counted per distinct tree level by level
 * before the walk) and the signal checked between the paths and commits they read.
 * Fixed: a tree side past GIT_MAX_TREE_ENTRIES is refused with `E<OP>FAIL` `tree too large: commit <oid> expands
 * to more than 100000 files and directories (the limit, GIT_MAX_TREE_ENTRIES); the Workspace's git does not read
 * a tree this large`, after reading one tree per level; an aborted signal stops the read with `ECANCELED`
 * (`git <op> cancelled: <reason>; it stopped while reading the repository; nothing was changed`).
 */
import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { GIT_MAX_TREE_ENTRIES } from "../../../src/git/index.js";
import type { GitClient } from "../../../src/git/types.js";
import type { Workspace } from "../../../src/workspace.js";
import { cleanupScratch, newWorkspace, rejection } from "./worktree-helpers.js";

afterAll(cleanupScratch);

const DIR = "/repo";
const IDENTITY = { name: "R", email: "r@e.com", timestamp: 1_700_000_000, timezoneOffset: 0 };

/** Writes one loose object under `<dir>/.git/objects` and returns its id (hex and raw). */
async function writeObject(ws: Workspace, type: string, body: Uint8Array): Promise<{ hex: string; raw: Uint8Array }> {
  const all = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
  const hash = createHash("sha1").update(all);
  const raw = new Uint8Array(hash.copy().digest());
  const hex = hash.digest("hex");
  await ws.fs.mkdir(`${DIR}/.git/objects/${hex.slice(0, 2)}`, { recursive: true });
  await ws.fs.writeFile(`${DIR}/.git/objects/${hex.slice(0, 2)}/${hex.slice(2)}`, new Uint8Array(deflateSync(all)));
  return { hex, raw };
}

/** A commit (branch `branch`) whose tree has `fanOut` entries per level, `depth` levels, every entry of a level naming one object. */
async function writeBomb(ws: Workspace, branch: string, fanOut: number, depth: number): Promise<string> {
  const fan = async (mode: string, child: { raw: Uint8Array }) => {
    const parts: Buffer[] = [];
    for (const name of Array.from({ length: fanOut }, (_, i) => `e${i}`).sort()) parts.push(Buffer.from(`${mode} ${name}\0`), Buffer.from(child.raw));
    return writeObject(ws, "tree", Buffer.concat(parts));
  };
  let tree = await fan("100644", await writeObject(ws, "blob", Buffer.from("x")));
  for (let d = 1; d < depth; d++) tree = await fan("40000", tree);
  const commit = await writeObject(ws, "commit", Buffer.from(`tree ${tree.hex}\nauthor a <a@a> 0 +0000\ncommitter a <a@a> 0 +0000\n\nx\n`));
  await ws.fs.writeFile(`${DIR}/.git/refs/heads/${branch}`, `${commit.hex}\n`);
  return commit.hex;
}

/** A repository at /repo with one commit on main (`a.txt`), a bomb branch `bomb` (10^5 files) and a small one `small` (4^3 files). */
async function setup(): Promise<{ ws: Workspace; git: GitClient; bomb: string; small: string; main: string }> {
  const { ws, git } = newWorkspace();
  await git.init({ dir: DIR, defaultBranch: "main" });
  await ws.fs.writeFile(`${DIR}/a.txt`, "a\n");
  await git.add({ dir: DIR, paths: ["a.txt"] });
  const { oid: main } = await git.commit({ dir: DIR, message: "base", author: IDENTITY, committer: IDENTITY });
  const bomb = await writeBomb(ws, "bomb", 10, 5);
  const small = await writeBomb(ws, "small", 4, 3);
  return { ws, git, bomb, small, main };
}

const tooLarge = (oid: string) =>
  `tree too large: commit ${oid} expands to more than 100000 files and directories (the limit, GIT_MAX_TREE_ENTRIES); the Workspace's git does not read a tree this large`;

/**
 * A real AbortSignal that aborts itself (reason: `stopped by the test`) when the operation checks it for the
 * `at`-th time — the operation's `at`-th check point — so a cancellation lands mid-read without timing.
 */
function abortsAtCheck(at: number): AbortSignal {
  const controller = new AbortController();
  const signal = controller.signal;
  const aborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted")!.get!;
  let checks = 0;
  Object.defineProperty(signal, "aborted", {
    get() {
      if (++checks >= at && !aborted.call(signal)) controller.abort(new Error("stopped by the test"));
      return aborted.call(signal) as boolean;
    },
  });
  return signal;
}

const cancelled = (op: string) => ({
  name: "GitError",
  code: "ECANCELED",
  message: `git ${op} cancelled: stopped by the test; it stopped while reading the repository; nothing was changed`,
});

describe("reading a git bomb: refused past GIT_MAX_TREE_ENTRIES", () => {
  it("diff, diffSummary, lsFiles and status refuse the bomb's tree with E<OP>FAIL; the small tree is read whole", { timeout: 120_000 }, async () => {
    expect(GIT_MAX_TREE_ENTRIES).toBe(100_000);
    const { ws, git, bomb, small, main } = await setup();
    const diffFail = { name: "GitError", code: "EDIFFFAIL", message: `git diff failed: ${tooLarge(bomb)}` };
    expect(await rejection(git.diff({ dir: DIR, ref: "main", to: "bomb" }))).toEqual(diffFail);
    expect(await rejection(git.diff({ dir: DIR, ref: "bomb", to: "main" }))).toEqual(diffFail);
    expect(await rejection(git.diffSummary({ dir: DIR, ref: "main", to: "bomb" }))).toEqual(diffFail);
    expect(await rejection(git.diff({ dir: DIR, ref: "bomb" }))).toEqual(diffFail);
    expect(await rejection(git.diff({ dir: DIR, ref: "bomb", cached: true }))).toEqual(diffFail);
    expect(await rejection(git.lsFiles({ dir: DIR, ref: "bomb" }))).toEqual({ name: "GitError", code: "ELSFILESFAIL", message: `git ls-files failed: ${tooLarge(bomb)}` });

    // Within the limit, the same reads give the whole tree.
    const files = Array.from({ length: 64 }, (_, i) => `e${i >> 4}/e${(i >> 2) & 3}/e${i & 3}`);
    expect(await git.lsFiles({ dir: DIR, ref: "small" })).toEqual(files);
    expect(await git.diffSummary({ dir: DIR, ref: "main", to: "small" })).toEqual([
      { path: "a.txt", status: "D", insertions: 0, deletions: 1 },
      ...files.map((path) => ({ path, status: "A", insertions: 1, deletions: 0 })),
    ]);

    // HEAD at the bomb (as a hand-written HEAD puts it): status refuses it, before listing anything.
    await ws.fs.writeFile(`${DIR}/.git/HEAD`, "ref: refs/heads/bomb\n");
    expect(await rejection(git.status({ dir: DIR }))).toEqual({ name: "GitError", code: "ESTATUSFAIL", message: `git status failed: ${tooLarge(bomb)}` });
    expect(await rejection(git.diff({ dir: DIR }))).toEqual(diffFail);
    expect(await rejection(git.diff({ dir: DIR, cached: true }))).toEqual(diffFail);
    expect(await git.revParse({ dir: DIR, ref: "main" })).toBe(main);
    expect(small).toMatch(/^[0-9a-f]{40}$/);
  });

  it("the CLI's status, diff, show and ls-files print the refusal and exit 1", { timeout: 120_000 }, async () => {
    const { ws, git, bomb } = await setup();
    const run = async (...argv: string[]) => git.cli({ argv, cwd: DIR });
    expect(await run("diff", "main", "bomb")).toEqual({ stdout: "", stderr: `git diff: ${tooLarge(bomb)}\n`, exitCode: 1 });
    expect(await run("diff", "--stat", "main", "bomb")).toEqual({ stdout: "", stderr: `git diff: ${tooLarge(bomb)}\n`, exitCode: 1 });
    // The commit is printed, then its patch is refused.
    expect(await run("show", "bomb")).toEqual({
      stdout: `commit ${bomb}\nAuthor: a <a@a>\nDate:   1970-01-01 00:00:00 +0000\n\n    x\n`,
      stderr: `git show: ${tooLarge(bomb)}\n`,
      exitCode: 1,
    });
    expect(await run("ls-files", "--ref=bomb")).toEqual({ stdout: "", stderr: `git ls-files: ${tooLarge(bomb)}\n`, exitCode: 1 });
    await ws.fs.writeFile(`${DIR}/.git/HEAD`, "ref: refs/heads/bomb\n");
    expect(await run("status")).toEqual({ stdout: "", stderr: `git status: ${tooLarge(bomb)}\n`, exitCode: 1 });
  });
});

describe("reads stop at their signal (ECANCELED)", () => {
  it("diff, diffSummary, status, lsFiles and log stop at the check where the signal aborts; unaborted they finish", { timeout: 120_000 }, async () => {
    const { ws, git, small } = await setup();
    expect(await rejection(git.diff({ dir: DIR, ref: "main", to: "small", signal: abortsAtCheck(20) }))).toEqual(cancelled("diff"));
    expect(await rejection(git.diffSummary({ dir: DIR, ref: "main", to: "small", signal: abortsAtCheck(20) }))).toEqual(cancelled("diff"));
    expect(await rejection(git.diff({ dir: DIR, ref: "small", signal: abortsAtCheck(20) }))).toEqual(cancelled("diff"));
    expect(await rejection(git.lsFiles({ dir: DIR, ref: "small", signal: abortsAtCheck(20) }))).toEqual(cancelled("ls-files"));
    expect(await rejection(git.log({ dir: DIR, signal: abortsAtCheck(2) }))).toEqual(cancelled("log"));
    // A signal that never aborts: the same reads finish.
    expect((await git.lsFiles({ dir: DIR, ref: "small", signal: new AbortController().signal })).length).toBe(64);
    expect((await git.log({ dir: DIR, signal: new AbortController().signal })).map((c) => c.message)).toEqual(["base\n"]);
    await ws.fs.writeFile(`${DIR}/.git/HEAD`, "ref: refs/heads/small\n");
    expect(await rejection(git.status({ dir: DIR, signal: abortsAtCheck(20) }))).toEqual(cancelled("status"));
    expect((await git.status({ dir: DIR, signal: new AbortController().signal })).length).toBe(65);
    expect(small).toMatch(/^[0-9a-f]{40}$/);
  });

  it("cli with a signal: a read command stops and exits 1 with the cancellation", { timeout: 120_000 }, async () => {
    const { git } = await setup();
    expect(await git.cli({ argv: ["diff", "main", "small"], cwd: DIR, signal: abortsAtCheck(20) })).toEqual({
      stdout: "",
      stderr: "git diff: cancelled: stopped by the test; it stopped while reading the repository; nothing was changed\n",
      exitCode: 1,
    });
  });
});
