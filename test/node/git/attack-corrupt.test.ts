/**
 * A damaged `.git` in the Workspace (issue 15 "Bad input", issue 20
 * "nothing lost, nothing stuck"): garbage, truncated and wrong-type loose
 * objects, a garbage/truncated/empty index, garbage packed-refs, HEAD
 * pointing at garbage, a garbage config. Every read and write operation
 * either answers or rejects with a `GitError` that has a code — never a
 * TypeError or another raw error from isomorphic-git, never a hang — and
 * the working tree is left as it was.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deflateSync } from "node:zlib";
import { cleanupScratch, committedRepo, realGit, workspaceCopy, writeTree, wsSnapshot } from "./worktree-helpers.js";
import { failure, within } from "./attack-helpers.js";
import type { GitClient } from "../../../src/git/types.js";
import type { Workspace } from "../../../src/workspace.js";

afterAll(cleanupScratch);

function disk() {
  return committedRepo({ "a.txt": "a\n", "sub/b.txt": "b\n" }, "one", (d) => {
    writeTree(d, { "a.txt": "a two\n" });
    realGit(d, "commit", "-q", "-am", "two");
    realGit(d, "branch", "side");
    realGit(d, "pack-refs", "--all");
    writeTree(d, { "a.txt": "edited\n", "new.txt": "new\n" });
  });
}

const objectPath = (dir: string, oid: string) => `${dir}/.git/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;

type Damage = (ws: Workspace, dir: string, oids: { head: string; tree: string; blob: string }) => Promise<void>;

const damages: [string, Damage][] = [
  ["HEAD commit object: not zlib", async (ws, dir, o) => ws.fs.writeFile(objectPath(dir, o.head), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]))],
  ["HEAD commit object: truncated zlib", async (ws, dir, o) => {
    const bytes = Buffer.from(await new Response(await ws.fs.readFile(objectPath(dir, o.head))).arrayBuffer());
    await ws.fs.writeFile(objectPath(dir, o.head), bytes.subarray(0, Math.floor(bytes.length / 2)));
  }],
  ["HEAD commit object: empty file", async (ws, dir, o) => ws.fs.writeFile(objectPath(dir, o.head), new Uint8Array(0))],
  ["HEAD commit object: holds a blob (wrong type)", async (ws, dir, o) => ws.fs.writeFile(objectPath(dir, o.head), deflateSync("blob 5\0hello"))],
  ["HEAD commit object: header lies about the size", async (ws, dir, o) => ws.fs.writeFile(objectPath(dir, o.head), deflateSync("commit 999\0tree x\n"))],
  ["HEAD commit object: commit text without a tree line", async (ws, dir, o) => ws.fs.writeFile(objectPath(dir, o.head), deflateSync("commit 12\0garbage\n\nmsg"))],
  ["HEAD commit object: a directory", async (ws, dir, o) => {
    await ws.fs.rm(objectPath(dir, o.head));
    await ws.fs.mkdir(objectPath(dir, o.head));
  }],
  ["root tree object: garbage tree body", async (ws, dir, o) => ws.fs.writeFile(objectPath(dir, o.tree), deflateSync("tree 7\0garbage"))],
  ["root tree object: holds a commit (wrong type)", async (ws, dir, o) => ws.fs.writeFile(objectPath(dir, o.tree), deflateSync("commit 5\0hello"))],
  ["a.txt blob: missing", async (ws, dir, o) => ws.fs.rm(objectPath(dir, o.blob))],
  ["a.txt blob: holds a tree (wrong type)", async (ws, dir, o) => ws.fs.writeFile(objectPath(dir, o.blob), deflateSync("tree 0\0"))],
  ["index: garbage", async (ws, dir) => ws.fs.writeFile(`${dir}/.git/index`, "this is not an index at all, just text\n")],
  ["index: truncated", async (ws, dir) => {
    const bytes = Buffer.from(await new Response(await ws.fs.readFile(`${dir}/.git/index`)).arrayBuffer());
    await ws.fs.writeFile(`${dir}/.git/index`, bytes.subarray(0, 40));
  }],
  ["index: empty file", async (ws, dir) => ws.fs.writeFile(`${dir}/.git/index`, new Uint8Array(0))],
  ["packed-refs: garbage", async (ws, dir) => ws.fs.writeFile(`${dir}/.git/packed-refs`, "zzz not refs\n\u0000\u0001\n^^^\n")],
  ["packed-refs: short oid for main", async (ws, dir) => ws.fs.writeFile(`${dir}/.git/packed-refs`, "1234 refs/heads/main\n")],
  ["HEAD: garbage", async (ws, dir) => ws.fs.writeFile(`${dir}/.git/HEAD`, "garbage\n")],
  ["HEAD: empty", async (ws, dir) => ws.fs.writeFile(`${dir}/.git/HEAD`, "")],
  ["HEAD: ref escaping .git", async (ws, dir) => ws.fs.writeFile(`${dir}/.git/HEAD`, "ref: ../../../outside/x\n")],
  ["HEAD: ref to itself", async (ws, dir) => ws.fs.writeFile(`${dir}/.git/HEAD`, "ref: HEAD\n")],
  ["HEAD: two refs pointing at each other", async (ws, dir) => {
    await ws.fs.writeFile(`${dir}/.git/HEAD`, "ref: refs/heads/loop\n");
    await ws.fs.writeFile(`${dir}/.git/refs/heads/loop`, "ref: HEAD\n");
  }],
  ["HEAD: binary", async (ws, dir) => ws.fs.writeFile(`${dir}/.git/HEAD`, new Uint8Array([0xff, 0xfe, 0, 1, 2]))],
  ["HEAD: a directory", async (ws, dir) => {
    await ws.fs.rm(`${dir}/.git/HEAD`);
    await ws.fs.mkdir(`${dir}/.git/HEAD`);
  }],
  ["config: garbage", async (ws, dir) => ws.fs.writeFile(`${dir}/.git/config`, "[[[ not ini\n\u0000=\n[core\nx=\"unterminated\n")],
  ["objects dir: a file", async (ws, dir) => {
    await ws.fs.rm(`${dir}/.git/objects`, { recursive: true });
    await ws.fs.writeFile(`${dir}/.git/objects`, "x");
  }],
];

const operations = (git: GitClient, dir: string): [string, () => Promise<unknown>][] => [
  ["status", () => git.status({ dir })],
  ["log", () => git.log({ dir })],
  ["show", () => git.show({ dir, ref: "HEAD" })],
  ["diff", () => git.diff({ dir })],
  ["diffSummary", () => git.diffSummary({ dir })],
  ["diff HEAD~1..HEAD", () => git.diff({ dir, ref: "HEAD~1", to: "HEAD" })],
  ["lsFiles", () => git.lsFiles({ dir })],
  ["lsTree", () => git.lsTree({ dir, ref: "HEAD" })],
  ["revParse", () => git.revParse({ dir, ref: "HEAD" })],
  ["currentBranch", () => git.currentBranch({ dir })],
  ["branchList", () => git.branchList({ dir })],
  ["tagList", () => git.tagList({ dir })],
  ["configGet", () => git.configGet({ dir, path: "user.name" })],
  ["stashList", () => git.stashList({ dir })],
  ["add", () => git.add({ dir, paths: ["new.txt"] })],
  ["commit", () => git.commit({ dir, message: "x" })],
  ["checkout side", () => git.checkout({ dir, ref: "side" })],
  ["stashPush", () => git.stashPush({ dir })],
  ["cli status", () => git.cli({ argv: ["status"], cwd: dir })],
  ["cli log", () => git.cli({ argv: ["log"], cwd: dir })],
];

/** `ok` | `<code>` | `CRASH <name>: <message>` | `HANG`. */
async function outcome(run: () => Promise<unknown>): Promise<string> {
  let value: unknown;
  try {
    value = await within(10_000, run());
  } catch (error) {
    const f = (await failure(Promise.reject(error)))!;
    if (f.message.startsWith("hung for")) return "HANG";
    if (!f.isGitError || typeof f.code !== "string" || !/^E[A-Z]+$/.test(f.code)) return `CRASH ${f.name}: ${f.message.slice(0, 160)}`;
    return f.code;
  }
  if (value && typeof value === "object" && "exitCode" in value) {
    const r = value as { exitCode: number; stderr: string };
    if (r.exitCode !== 0 && !/^(git|fatal|error)/.test(r.stderr)) return `CRASH cli exit ${r.exitCode} ${r.stderr.slice(0, 160)}`;
    return `exit ${r.exitCode}`;
  }
  return "ok";
}

describe("a damaged .git: GitError with a code from every operation, the working tree intact", () => {
  for (const [label, damage] of damages) {
    it(label, { timeout: 120_000 }, async () => {
      const d = disk();
      const oids = {
        head: realGit(d, "rev-parse", "HEAD").trim(),
        tree: realGit(d, "rev-parse", "HEAD^{tree}").trim(),
        blob: realGit(d, "rev-parse", "HEAD:a.txt").trim(),
      };
      const crashes: string[] = [];
      for (const [op] of operations(undefined as never, "")) {
        // a fresh copy per operation: one failing write must not change what the next one sees
        const { ws, git, dir } = await workspaceCopy(d);
        await damage(ws, dir, oids);
        const tree = await wsSnapshot(ws, dir);
        const run = operations(git, dir).find(([name]) => name === op)![1];
        const result = await outcome(run);
        if (result.startsWith("CRASH") || result === "HANG") crashes.push(`${op}: ${result}`);
        if (!["add", "commit", "checkout side", "stashPush"].includes(op) || result !== "ok") {
          const after = await wsSnapshot(ws, dir);
          if (JSON.stringify(after) !== JSON.stringify(tree)) crashes.push(`${op}: changed the working tree (${result})`);
        }
      }
      expect(crashes).toEqual([]);
    });
  }
});

describe("an index that is a directory (isomorphic-git reads it as an empty index)", () => {
  it("stashPush, checkout, reset --hard and checkout of paths refuse before writing anything: the local edit is not lost", { timeout: 60_000 }, async () => {
    const d = disk();
    for (const [op, code] of [["stashPush", "ESTASHFAIL"], ["checkout", "ECHECKOUTFAIL"], ["reset", "ERESETFAIL"], ["checkout -- .", "ECHECKOUTFAIL"]] as const) {
      const { ws, git, dir } = await workspaceCopy(d);
      await ws.fs.rm(`${dir}/.git/index`);
      await ws.fs.mkdir(`${dir}/.git/index`);
      const before = await wsSnapshot(ws, `${dir}`);
      const run = {
        stashPush: () => git.stashPush({ dir }),
        checkout: () => git.checkout({ dir, ref: "HEAD~1" }),
        reset: () => git.reset({ dir, hard: true }),
        "checkout -- .": () => git.checkout({ dir, ref: "HEAD", paths: ["."] }),
      }[op];
      expect({ op, error: await failure(within(10_000, run())) }).toEqual({
        op,
        error: { name: "GitError", code, isGitError: true, message: `git ${op === "stashPush" ? "stash" : op.split(" ")[0]} failed: index file /repo/.git/index is not a regular file` },
      });
      expect(await wsSnapshot(ws, dir)).toEqual(before);
      expect(await ws.fs.readFile(`${dir}/a.txt`, "utf8")).toBe("edited\n");
      expect(await ws.fs.lstat(`${dir}/.git/refs/stash`).catch(() => "absent")).toBe("absent");
    }
  });

  it("commit, status, add, rm, lsFiles and diff refuse with their own code; HEAD and the working tree stay", { timeout: 60_000 }, async () => {
    const { ws, git, dir } = await workspaceCopy(disk());
    await ws.fs.rm(`${dir}/.git/index`);
    await ws.fs.mkdir(`${dir}/.git/index`);
    const head = await git.revParse({ dir, ref: "HEAD" });
    const before = await wsSnapshot(ws, dir);
    const runs: [string, string, () => Promise<unknown>][] = [
      ["commit", "ECOMMITFAIL", () => git.commit({ dir, message: "m" })],
      ["status", "ESTATUSFAIL", () => git.status({ dir })],
      ["add", "EADDFAIL", () => git.add({ dir, paths: ["a.txt"] })],
      ["add", "EADDFAIL", () => git.add({ dir, all: true })],
      ["rm", "ERMFAIL", () => git.rm({ dir, paths: ["a.txt"] })],
      ["ls-files", "ELSFILESFAIL", () => git.lsFiles({ dir })],
      ["diff", "EDIFFFAIL", () => git.diff({ dir })],
      ["diff", "EDIFFFAIL", () => git.diff({ dir, cached: true })],
      ["diff", "EDIFFFAIL", () => git.diff({ dir, fromIndex: true })],
      ["diff", "EDIFFFAIL", () => git.diffSummary({ dir })],
    ];
    for (const [op, code, run] of runs) {
      expect({ op, error: await failure(within(10_000, run())) }).toEqual({
        op,
        error: { name: "GitError", code, isGitError: true, message: `git ${op} failed: index file /repo/.git/index is not a regular file` },
      });
    }
    expect(await git.revParse({ dir, ref: "HEAD" })).toBe(head);
    expect(await wsSnapshot(ws, dir)).toEqual(before);
    // what reads no index still works: ls-files of a commit, a diff of two commits
    expect(await git.lsFiles({ dir, ref: "HEAD" })).toEqual(["a.txt", "sub/b.txt"]);
    expect(await git.diff({ dir, ref: "HEAD", to: "HEAD" })).toBe("");
  });
});
