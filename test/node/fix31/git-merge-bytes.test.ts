/**
 * Issue 20, run 31 (lead, from fixer ST's report): a three-way `merge` of a file both sides changed went through
 * isomorphic-git's `mergeBlobs`, which decodes each side as UTF-8 and writes the merged text back as UTF-8 — a byte
 * that is not UTF-8 (a Latin-1 `é`, `\xe9`) on a line neither side touched came out as U+FFFD (`\xef\xbf\xbd`), and a
 * lone CR was dropped (isomorphic-git's `mergeFile` splits lines at it). Silently: the merge commit, the working
 * tree and the index held the corrupted bytes. A file with a NUL in its first 8,000 bytes was merged as text where git
 * treats it as binary (a conflict).
 * Compared with git 2.39.5: the same repository merged by the real git and by the Workspace — the merged file's bytes,
 * the merge commit's tree id, and for a binary file the refusal.
 * Fixed: scripts/gen-git.mjs patches `mergeBlobs` to hand the merge driver one code unit per byte (a CR as U+E000, the
 * same reading as stash pop's, src/git/ops/stash.ts) and to write the merged text back byte for byte; a side that
 * is binary (git's `buffer_is_binary`) is a conflict.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { cleanupScratch, diskCopy, realGit, realGitResult, realRepo, workspaceCopy, writeTree, wsBytes } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

/** A repository whose `f` both `main` and `side` change on lines far apart; `body` builds the base text. */
function forked(base: Buffer, ours: Buffer, theirs: Buffer): string {
  return realRepo((d) => {
    writeTree(d, { f: base });
    realGit(d, "add", "-A");
    realGit(d, "commit", "-q", "-m", "base");
    realGit(d, "checkout", "-q", "-b", "side");
    writeTree(d, { f: theirs });
    realGit(d, "commit", "-q", "-am", "theirs");
    realGit(d, "checkout", "-q", "main");
    writeTree(d, { f: ours });
    realGit(d, "commit", "-q", "-am", "ours");
  });
}

const lines = (...l: string[]) => Buffer.from(l.join(""), "latin1");

it.each([
  ["a Latin-1 byte on an untouched line", lines("caf\xe9\n", "2\n", "3\n", "4\n", "5\n", "6\n"), 1, 5],
  ["CRLF lines", lines("a\r\n", "b\r\n", "c\r\n", "d\r\n", "e\r\n", "f\r\n"), 0, 5],
  ["a lone CR inside a line", lines("x\ry\n", "b\n", "c\n", "d\n", "e\n", "f\n"), 1, 5],
])("merge keeps every byte: %s", async (_name, base, oursLine, theirsLine) => {
  const change = (buf: Buffer, line: number, text: string) => {
    const parts = buf.toString("latin1").split("\n");
    parts[line] = text + (parts[line]!.endsWith("\r") ? "\r" : "");
    return Buffer.from(parts.join("\n"), "latin1");
  };
  const ours = change(base, oursLine, "OURS");
  const theirs = change(base, theirsLine, "THEIRS");
  const disk = forked(base, ours, theirs);
  const real = diskCopy(disk);
  realGit(real, "merge", "-q", "--no-edit", "side");
  const expected = readFileSync(join(real, "f"));
  const realTree = realGit(real, "rev-parse", "HEAD^{tree}").trim();

  const { ws, git, dir } = await workspaceCopy(disk);
  await git.merge({ dir, theirs: "side", message: "Merge branch 'side'" });
  const got = Buffer.from(await wsBytes(ws, `${dir}/f`));
  // Was (Latin-1): "caf\xef\xbf\xbd\n…" — U+FFFD's bytes for \xe9; (lone CR): "x\ny\n…" / "xy\n…".
  expect(got.toString("latin1")).toBe(expected.toString("latin1"));
  const tree = (await git.revParse({ dir, ref: "HEAD^{tree}" })) as string;
  expect(tree).toBe(realTree);
});

it("a binary file both sides changed is a conflict, as git (nothing merged as text)", async () => {
  const base = Buffer.concat([Buffer.from("a\n\0\nb\nc\nd\ne\n")]);
  const ours = Buffer.from("A\n\0\nb\nc\nd\ne\n");
  const theirs = Buffer.from("a\n\0\nb\nc\nd\nE\n");
  const disk = forked(base, ours, theirs);
  const real = diskCopy(disk);
  expect(realGitResult(real, "merge", "-q", "--no-edit", "side").status).toBe(1); // CONFLICT (content)
  const { ws, git, dir } = await workspaceCopy(disk);
  const error = await git.merge({ dir, theirs: "side" }).then(() => undefined, (e: { code?: string; message?: string }) => e);
  // Was: resolved, a merged "A\n\0\nb\nc\nd\nE\n" committed.
  expect(error).toMatchObject({ code: "EMERGEFAIL", message: "git merge failed: merge conflict in f" });
  expect(Buffer.from(await wsBytes(ws, `${dir}/f`)).equals(ours)).toBe(true);
});
