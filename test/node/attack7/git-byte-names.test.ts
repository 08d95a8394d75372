/**
 * Issue 20 seventh attack run, category 3 (names that are not UTF-8) in git:
 * a tree (as a clone from a Linux repository can bring) holding `a.txt` and
 * three files whose names differ only in one byte that is not UTF-8 —
 * `x\xFE`, `x\xFF` — and `x\uFFFD` (UTF-8 `ef bf bd`).
 *
 * DEFECT (medium), FIXED — a tree entry name that is not valid UTF-8 is refused when the tree is parsed (scripts/gen-git.mjs), before anything is written — reproduction: `writeCommit` of that tree on branch
 * `bytes` (test/node/git/attack-helpers.ts), then
 *   git.cli({ argv: ["checkout", "bytes"], cwd: "/repo" })   → exit 0 "Switched to branch 'bytes'"
 *   readdir("/repo")                                        → .git, a.txt, "x\uFFFD" (content "THREE\n")
 *   git.cli({ argv: ["status", "--porcelain=v1"] })         → "D  \"x\\357\\277\\275\"\n" twice
 * Names are decoded to strings with U+FFFD for bytes that are not UTF-8, so
 * three entries become one Workspace file (the last written wins) and the
 * index afterwards disagrees with the tree: a checkout reported as done
 * leaves the repository dirty, and `commit -a` would record two deletions
 * nobody made. Real git on Linux checks out three files.
 * Impact: medium — silent loss of files (and of history on the next
 * commit) for repositories with Latin-1 or other legacy file names.
 * Fix proposal: refuse, before writing anything, a checkout/reset/merge/
 * clone whose tree holds a name that is not valid UTF-8 or two names that
 * decode to the same Workspace name (`E<OP>FAIL`, naming the entries and
 * the reason) — or store such names in an escaped, reversible form.
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, realGit, workspaceCopy } from "../git/worktree-helpers.js";
import { writeCommit, writeLoose } from "../git/attack-helpers.js";

afterAll(cleanupScratch);

async function setup() {
  const disk = committedRepo({ "a.txt": "a\n" });
  const t = await workspaceCopy(disk);
  const base = realGit(disk, "rev-parse", "HEAD").trim();
  const aBlob = realGit(disk, "rev-parse", "HEAD:a.txt").trim();
  const blobs = [await writeLoose(t.ws, t.dir, "blob", "ONE\n"), await writeLoose(t.ws, t.dir, "blob", "TWO\n"), await writeLoose(t.ws, t.dir, "blob", "THREE\n")];
  await writeCommit(t.ws, t.dir, "bytes", [
    { mode: "100644", name: "a.txt", oid: aBlob },
    { mode: "100644", name: new Uint8Array([0x78, 0xfe]), oid: blobs[0]! },
    { mode: "100644", name: new Uint8Array([0x78, 0xff]), oid: blobs[1]! },
    { mode: "100644", name: "x\uFFFD", oid: blobs[2]! },
  ], base);
  return { ...t, base, cli: (...argv: string[]) => t.git.cli({ argv, cwd: t.dir }) };
}

describe("attack7: tree entries whose names are not UTF-8", () => {
  it("DEFECT (medium): checkout maps three names to one file and reports success; status is dirty right after", { timeout: 60_000 }, async () => {
    const t = await setup();
    const checkout = await t.cli("checkout", "bytes");
    const status = await t.cli("status", "--porcelain=v1");
    // Was: checkout exit 0, /repo holds a.txt and one "x\uFFFD" ("THREE\n"), status "D  \"x\\357\\277\\275\"\n" × 2.
    // Now: refused before anything is written, naming the first such entry as real git quotes it; still on main, clean.
    const refusal = 'tree entry "x\\376" has a name that is not valid UTF-8; Workspace file names are UTF-8 text, so this tree cannot be read (rename the entry in a clone on disk)\n';
    expect(checkout).toEqual({ stdout: "", stderr: `git checkout: ${refusal}`, exitCode: 1 });
    expect((await t.ws.fs.readdir(t.dir)).map((e) => e.name)).toEqual([".git", "a.txt"]);
    expect(status).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect(await t.cli("rev-parse", "--abbrev-ref", "HEAD")).toEqual({ stdout: "main\n", stderr: "", exitCode: 0 });
    for (const argv of [["reset", "--hard", "bytes"], ["merge", "bytes"], ["ls-tree", "bytes"]]) {
      expect(await t.cli(...argv)).toEqual({ stdout: "", stderr: `git ${argv[0]}: ${refusal}`, exitCode: 1 });
    }
    expect((await t.ws.fs.readdir(t.dir)).map((e) => e.name)).toEqual([".git", "a.txt"]);
    expect(await t.cli("rev-parse", "HEAD")).toEqual({ stdout: `${t.base}\n`, stderr: "", exitCode: 0 });
  });

  it("going back to main after it leaves main's tree exactly", { timeout: 60_000 }, async () => {
    const t = await setup();
    await t.cli("checkout", "bytes");
    expect(await t.cli("checkout", "main")).toMatchObject({ exitCode: 0 });
    expect((await t.ws.fs.readdir(t.dir)).map((e) => e.name)).toEqual([".git", "a.txt"]);
  });
});
