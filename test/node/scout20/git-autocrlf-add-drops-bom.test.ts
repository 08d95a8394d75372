/**
 * Issue 20, scout after the twentieth attack run: git keeps a leading U+FEFF (8e580c6: "a leading BOM is content,
 * as in git" — diff.ts, tree-state.ts and cli/commands.ts decode with ignoreBOM).
 * Tried: the same edits in a Workspace repository and in one on disk with the real git (test/node/git/repo-helpers.ts
 * `twin`/`writeBoth`); diff, diff --numstat/--stat, show, cat-file -p/-s and a merge of BOM files matched git byte for
 * byte. Then `git config core.autocrlf true` (isomorphic-git honours it when it hashes and stages worktree files) and
 * `git add` of `c.txt` = U+FEFF "x\r\ny\r\n".
 * Found (medium — the committed content silently changes; 2 of 2 files): with core.autocrlf=true, add stores the
 * blob WITHOUT its BOM: ours `x\ny\n` (b77b4eb…), git `\uFEFFx\ny\n` (327c896…). isomorphic-git's FileSystem.read
 * converts CRLF through `new TextDecoder("utf8", { fatal: true })` (src/git/generated/isomorphic-git.js, the
 * `options.autocrlf === "true"` branch), which drops a leading BOM — the same decoder flaw the session fixed
 * elsewhere. Status then reports the file modified forever (`git status` on disk is clean), and a merge of two
 * branches editing different lines of a BOM file conflicts where git merges.
 * Suggested fix: in scripts/gen-git.mjs, patch that decoder to `{ fatal: true, ignoreBOM: true }` (and look for
 * other `TextDecoder` uses in the generated bundle that decode file content).
 * Fixed: gen-git.mjs patches FileSystem.read's autocrlf decoder with `ignoreBOM: true` (the bundle's other decoder,
 * isUtf8Name, only tests validity).
 */
import { afterAll, expect, it } from "vitest";
import { twin, writeBoth } from "../git/repo-helpers.js";
import { cleanupScratch, realGit } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const BOM = "\uFEFF";

it("with core.autocrlf=true, git add keeps a file's leading BOM (blob as git's) and status stays clean", async () => {
  const { ws, git, dir, disk } = await twin();
  await writeBoth(ws, dir, disk, { "c.txt": `${BOM}x\r\ny\r\n`, "plain.txt": "x\r\ny\r\n" });
  const both = async (...argv: string[]) => ({ ours: await git.cli({ argv, cwd: dir }), real: realGit(disk, ...argv) });
  await both("config", "core.autocrlf", "true");
  await both("add", "-A");
  await both("commit", "-q", "-m", "base");
  const oids = await both("rev-parse", "HEAD:c.txt", "HEAD:plain.txt");
  // Held: without a BOM, CRLF is converted as git does.
  expect(oids.ours.stdout.split("\n")[1]).toBe(oids.real.split("\n")[1]);
  const blob = await both("cat-file", "-p", "HEAD:c.txt");
  expect(blob.real).toBe(`${BOM}x\ny\n`);
  // Today: "x\ny\n" (b77b4eb1…) — the BOM is gone from the commit.
  expect(blob.ours.stdout).toBe(blob.real);
  expect(oids.ours.stdout).toBe(oids.real);
  const status = await both("status", "--porcelain");
  expect(status.real).toBe("");
  expect(status.ours.stdout).toBe("");
});
