/**
 * Issue 20, thirteenth attack run (follow-up of git-module-tree-bomb.test.ts): the Workers shell's `git` built-in
 * did not hand its command's stop to git, so a `git checkout` of a "git bomb" (trees whose entries all name one
 * subtree) went on writing after the shell command was killed, and `git status` / `git diff` against a bomb read
 * every path it expands to.
 * Reproduction: a bomb commit written by hand (8^4 = 4,096 files), `git checkout small` in the shell, the command
 * killed once files appear: the file count kept growing after the command had settled.
 * Fix: the shell backend's LiveCommand carries an AbortSignal, aborted when the command starts to stop (timeout,
 * kill, close) or settles, and passed to `workspace.git.cli`; the reads are bounded by GIT_MAX_TREE_ENTRIES (see
 * test/node/git/tree-bomb-reads.test.ts).
 * Fixed: nothing is written after the killed command has settled; `git status` with a bomb HEAD prints the
 * refusal (exit 1) after one tree read per level.
 */
import { expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import type { Workspace } from "../../../src/workspace.js";
import { inShellWorkspace } from "../shell/helpers.js";

const DIR = "/workspace/repo";
const enc = new TextEncoder();

/** Writes one loose object under `<DIR>/.git/objects` and returns its id. */
async function writeObject(ws: Workspace, type: string, body: Uint8Array): Promise<{ hex: string; raw: Uint8Array }> {
  const head = enc.encode(`${type} ${body.length}\0`);
  const all = new Uint8Array(head.length + body.length);
  all.set(head);
  all.set(body, head.length);
  const raw = new Uint8Array(await crypto.subtle.digest("SHA-1", all));
  const hex = [...raw].map((b) => b.toString(16).padStart(2, "0")).join("");
  const z = new Uint8Array(await new Response(new Blob([all]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
  await ws.fs.mkdir(`${DIR}/.git/objects/${hex.slice(0, 2)}`, { recursive: true });
  await ws.fs.writeFile(`${DIR}/.git/objects/${hex.slice(0, 2)}/${hex.slice(2)}`, z);
  return { hex, raw };
}

/** A commit (branch `branch`) whose tree has `fanOut` entries per level, `depth` levels, every entry of a level naming one object. */
async function writeBomb(ws: Workspace, branch: string, fanOut: number, depth: number): Promise<string> {
  const fan = async (mode: string, child: { raw: Uint8Array }) => {
    const parts: number[] = [];
    for (const name of Array.from({ length: fanOut }, (_, i) => `e${i}`).sort()) parts.push(...enc.encode(`${mode} ${name}\0`), ...child.raw);
    return writeObject(ws, "tree", new Uint8Array(parts));
  };
  let tree = await fan("100644", await writeObject(ws, "blob", enc.encode("x")));
  for (let d = 1; d < depth; d++) tree = await fan("40000", tree);
  const commit = await writeObject(ws, "commit", enc.encode(`tree ${tree.hex}\nauthor a <a@a> 0 +0000\ncommitter a <a@a> 0 +0000\n\nx\n`));
  await ws.fs.writeFile(`${DIR}/.git/refs/heads/${branch}`, `${commit.hex}\n`);
  return commit.hex;
}

const gitOptions = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "R", email: "r@e.com" } } };

it("shell git: a checkout stops when its command is killed; nothing is written after the command has settled", { timeout: 120_000 }, async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.git.init({ dir: DIR, defaultBranch: "main" });
    await writeBomb(ws, "small", 8, 4);
    const files = async () => (await ws.fs.find(DIR)).filter((e) => !e.path.startsWith(`${DIR}/.git`) && e.type !== "dir").length;
    const handle = await ws.runtime.exec("git checkout small", { cwd: DIR, encoding: "utf8" });
    for (let i = 0; i < 300 && (await files()) < 20; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const atKill = await files();
    await handle.kill();
    const result = await handle.result();
    const atSettle = await files();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const later = await files();
    const head = await ws.fs.readFile(`${DIR}/.git/HEAD`, "utf8");
    const index = await ws.fs.lstat(`${DIR}/.git/index`).then(() => true, () => false);
    return { atKill, exit: result.exitCode, atSettle, later, head, index };
  }, gitOptions);
  expect(out.atKill).toBeGreaterThanOrEqual(20);
  expect(out.exit).toBe(130);
  expect(out.later).toBe(out.atSettle);
  expect(out.atSettle).toBeLessThan(8 ** 4);
  expect(out.head).toBe("ref: refs/heads/main\n");
  expect(out.index).toBe(false);
});

it("shell git: status with a bomb HEAD (10^5 files) prints the GIT_MAX_TREE_ENTRIES refusal and exits 1", { timeout: 120_000 }, async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.git.init({ dir: DIR, defaultBranch: "main" });
    const bomb = await writeBomb(ws, "bomb", 10, 5);
    await ws.fs.writeFile(`${DIR}/.git/HEAD`, "ref: refs/heads/bomb\n");
    const result = await (await ws.runtime.exec("git status; echo status=$?; git diff --stat bomb; echo diff=$?", { cwd: DIR, encoding: "utf8" })).result();
    return { bomb, stdout: result.stdout, stderr: result.stderr };
  }, gitOptions);
  const refusal = `tree too large: commit ${out.bomb} expands to more than 100000 files and directories (the limit, GIT_MAX_TREE_ENTRIES); the Workspace's git does not read a tree this large`;
  expect(out.stdout).toBe("status=1\ndiff=1\n");
  expect(out.stderr).toBe(`git status: ${refusal}\ngit diff: ${refusal}\n`);
});
