/**
 * To git a file's leading U+FEFF (the bytes EF BB BF) is content. `TextDecoder` drops it unless told
 * `ignoreBOM`, and three of git's decoders did (found while fixing the daemon's name decoder, nineteenth attack
 * run's leads): `git diff` compared texts without it, so removing a BOM showed no hunk while git shows one; a
 * checked-out symlink whose target starts with U+FEFF lost it; `git show <blob>` printed the blob without it.
 * (`readFile(p, "utf8")` and the read tool drop a leading BOM as spec 01 §3 and spec 03 say — not changed.)
 */
import { afterAll, describe, expect, it } from "vitest";
import { at, gitAt, twin, writeBoth } from "./repo-helpers.js";
import { TIME, cleanupScratch, realGit } from "./worktree-helpers.js";

afterAll(cleanupScratch);

const BOM = "\uFEFF";

describe("git keeps a leading byte-order mark", () => {
  it("git diff shows a removed BOM as git does; checkout keeps it in a symlink target; show keeps it in a blob", async () => {
    const { ws, git, dir, disk } = await twin();
    await writeBoth(ws, dir, disk, { "a.txt": `${BOM}alpha\nbeta\n`, link: { link: `${BOM}a.txt` } });
    await git.add({ dir, all: true });
    await git.commit({ dir, message: "base", ...at(TIME) });
    gitAt(disk, TIME, "add", "-A");
    gitAt(disk, TIME, "commit", "-q", "-m", "base");
    await writeBoth(ws, dir, disk, { "a.txt": "alpha\nbeta\n" });
    const ours = await git.diff({ dir });
    const real = realGit(disk, "diff", "--no-renames", "--no-color", "--no-ext-diff", "HEAD");
    expect(ours).toBe(real);
    expect(ours).toContain(`-${BOM}alpha\n+alpha\n`);
    // A fresh checkout writes the link's target with its BOM.
    await ws.fs.rm(`${dir}/link`);
    await git.checkout({ dir, ref: "HEAD", force: true });
    expect(await ws.fs.readlink(`${dir}/link`)).toBe(`${BOM}a.txt`);
    expect(realGit(disk, "show", "HEAD:a.txt")).toBe(`${BOM}alpha\nbeta\n`);
    const shown = await git.cli({ argv: ["show", "HEAD:a.txt"], cwd: dir });
    expect(shown).toEqual({ stdout: `${BOM}alpha\nbeta\n`, stderr: "", exitCode: 0 });
  });
});
