/**
 * Issue 20 (a lead left by the twentieth attack run, then documented as a difference): the typed git API dropped a
 * path's trailing `/` or `/.`, so `paths: ["a.txt/"]` named the FILE a.txt — `checkout({ paths: ["a.txt/"] })`
 * restored it from HEAD (its edits lost), `add` staged it, `rm` unstaged it, `status`/`diff`/`lsTree` listed it.
 * As in git (and as the CLI already did), a path in directory form now names only a directory: the file does not
 * match it (EPATHSPEC where nothing matching is an error, an empty answer where it is not), and a real directory
 * written `sub/` or `sub/.` still matches everything below it. Each case checks the bytes left in the working tree
 * and what the index holds (real git's `status --porcelain` of the exported repository agrees).
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

async function edited() {
  const base = committedRepo({ "a.txt": "a\n", "sub/b.txt": "b\n" }, "one");
  const { ws, git } = await workspaceCopy(base);
  const dir = "/repo";
  await ws.fs.writeFile("/repo/a.txt", "edited\n");
  await ws.fs.writeFile("/repo/sub/b.txt", "edited\n");
  return { ws, git, dir };
}

const rejection = (p: Promise<unknown>) => p.then(() => "resolved", (e: { name: string; code: string; message: string }) => ({ name: e.name, code: e.code, message: e.message }));

describe("typed git API: a path in directory form naming a file matches nothing", () => {
  for (const form of ["a.txt/", "a.txt/.", "/repo/a.txt/", "./a.txt/./"]) {
    it(`checkout, add, rm and reset of ${JSON.stringify(form)} reject with EPATHSPEC and change nothing`, async () => {
      const { ws, git, dir } = await edited();
      await git.add({ dir, paths: ["sub/b.txt"] });
      const before = await git.status({ dir });
      expect(before).toEqual([
        { path: "a.txt", index: " ", worktree: "M" },
        { path: "sub/b.txt", index: "M", worktree: " " },
      ]);
      const notFound = { name: "PathspecNotFoundError", code: "EPATHSPEC", message: `pathspec '${form}' did not match any files` };
      expect(await rejection(git.checkout({ dir, ref: "HEAD", paths: [form] }))).toEqual(notFound);
      expect(await rejection(git.add({ dir, paths: [form] }))).toEqual(notFound);
      expect(await rejection(git.rm({ dir, paths: [form] }))).toEqual(notFound);
      expect(await rejection(git.reset({ dir, paths: [form] }))).toEqual(notFound);
      expect(await ws.fs.readFile("/repo/a.txt", "utf8")).toBe("edited\n");
      expect(await git.status({ dir })).toEqual(before);
    });
  }

  it("status, diff, diffSummary and lsTree of a.txt/ list nothing; of sub/ and sub/. what is below sub", async () => {
    const { git, dir } = await edited();
    expect(await git.status({ dir, paths: ["a.txt/"] })).toEqual([]);
    expect(await git.diff({ dir, paths: ["a.txt/"] })).toBe("");
    expect(await git.diffSummary({ dir, paths: ["a.txt/."] })).toEqual([]);
    expect(await git.lsTree({ dir, ref: "HEAD", path: "a.txt/" })).toEqual([]);
    expect(await git.lsTree({ dir, ref: "HEAD", path: "a.txt" })).toEqual([expect.objectContaining({ path: "a.txt", type: "blob" })]);
    expect(await git.status({ dir, paths: ["sub/"] })).toEqual([{ path: "sub/b.txt", index: " ", worktree: "M" }]);
    expect((await git.diffSummary({ dir, paths: ["sub/."] })).map((e) => e.path)).toEqual(["sub/b.txt"]);
    expect((await git.lsTree({ dir, ref: "HEAD", path: "sub/" })).map((e) => e.path)).toEqual(["sub/b.txt"]);
  });

  it("a real directory in directory form still matches: checkout of sub/. restores sub/b.txt, add/rm/reset of sub/ act on it", async () => {
    const { ws, git, dir } = await edited();
    await git.add({ dir, paths: ["sub/"] });
    expect(await git.status({ dir })).toEqual([
      { path: "a.txt", index: " ", worktree: "M" },
      { path: "sub/b.txt", index: "M", worktree: " " },
    ]);
    await git.reset({ dir, paths: ["sub/."] });
    await git.checkout({ dir, ref: "HEAD", paths: ["sub/."] });
    expect(await ws.fs.readFile("/repo/sub/b.txt", "utf8")).toBe("b\n");
    expect(await ws.fs.readFile("/repo/a.txt", "utf8")).toBe("edited\n");
    await git.rm({ dir, paths: ["sub/"] });
    expect(await git.lsFiles({ dir })).toEqual(["a.txt"]);
  });
});
