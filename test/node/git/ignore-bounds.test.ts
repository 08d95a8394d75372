/**
 * `.gitignore` rules are bounded before the `ignore` package compiles them
 * to backtracking regexes (scripts/gen-git.mjs, boundIgnoreRules; issue 20,
 * ninth attack run, test/node/attack9/git-ignore-redos.test.ts):
 * consecutive `**` segments collapse into one — the same matches as real
 * git, compared here with /usr/bin/git — and a rule with more than 3 runs of
 * `*` is skipped (a documented difference from real git, docs/git.md).
 */
import { afterAll, describe, expect, it } from "vitest";
import { porcelain, realPorcelain, twin, writeBoth, type FileSpec } from "./repo-helpers.js";
import { cleanupScratch } from "./worktree-helpers.js";

afterAll(cleanupScratch);

const TREE: Record<string, FileSpec> = {
  "a/b": "1\n",
  "a/x/b": "2\n",
  "a/x/y/z/b": "3\n",
  "a/keep/b": "4\n",
  "c/d/e.tmp": "5\n",
  "e.tmp": "6\n",
  "f/g/h/i": "7\n",
  "f/j": "8\n",
  "k/l/m.min.js": "9\n",
  "n.txt": "10\n",
};

describe(".gitignore rules with repeated '**' segments: the same status as real git", () => {
  const cases: [string, string][] = [
    ["a/**/**/b", "a/**/**/b\n"],
    ["leading **/**/", "**/**/*.tmp\n"],
    ["/**/**/ anchored", "/**/**/**/e.tmp\n"],
    ["trailing /**/**", "f/**/**\n"],
    ["negation after collapse", "a/**/**/b\n!a/**/**/keep/**/**/b\n"],
    ["trailing spaces kept off", "f/**/** \n"],
    ["several collapses and a 3-run rule", "**/**/k/**/**/m.min.*\nn.txt\n"],
  ];
  for (const [name, gitignore] of cases) {
    it(name, async () => {
      const { ws, git, dir, disk } = await twin();
      await writeBoth(ws, dir, disk, { ...TREE, ".gitignore": gitignore });
      const ours = porcelain(await git.status({ dir }));
      expect(ours).toEqual(realPorcelain(disk));
      await ws.close();
    });
  }
});

describe(".gitignore rules with more than 3 runs of '*' are skipped", () => {
  it("'*.*.*' ignores as real git; '*.*.*.*' ignores nothing (real git ignores the file)", async () => {
    const { ws, git, dir, disk } = await twin();
    await writeBoth(ws, dir, disk, { "a.b.c": "1\n", "a.b.c.d": "2\n", "plain": "3\n", ".gitignore": "*.*.*\n" });
    expect(porcelain(await git.status({ dir }))).toEqual(realPorcelain(disk));
    expect(porcelain(await git.status({ dir }))).toEqual(["?? .gitignore", "?? plain"]);

    await writeBoth(ws, dir, disk, { ".gitignore": "*.*.*.*\n" });
    expect(realPorcelain(disk)).toEqual(["?? .gitignore", "?? a.b.c", "?? plain"]);
    expect(porcelain(await git.status({ dir }))).toEqual(["?? .gitignore", "?? a.b.c", "?? a.b.c.d", "?? plain"]);
    await ws.close();
  });

  it("'*a' x 12 + '*b' against a 30-character name: skipped, status lists the file; `add` stages it", async () => {
    const { ws, git, dir, disk } = await twin();
    const name = "a".repeat(30);
    await writeBoth(ws, dir, disk, { [name]: "1\n", [`${"a".repeat(29)}b`]: "2\n", ".gitignore": `${"*a".repeat(12)}*b\n` });
    expect(porcelain(await git.status({ dir }))).toEqual(["?? .gitignore", `?? ${name}`, `?? ${"a".repeat(29)}b`]);
    await git.add({ dir, paths: [`${"a".repeat(29)}b`] });
    expect(porcelain(await git.status({ dir }))).toEqual(["?? .gitignore", `?? ${name}`, `A  ${"a".repeat(29)}b`]);
    await ws.close();
  });

  it("a skipped rule with '!' re-includes nothing, as it ignores nothing", async () => {
    const { ws, git, dir, disk } = await twin();
    await writeBoth(ws, dir, disk, { "x.log": "1\n", "y.a.b.c.log": "2\n", ".gitignore": "*.log\n!*.*.*.*.log\n" });
    expect(realPorcelain(disk)).toEqual(["?? .gitignore", "?? y.a.b.c.log"]);
    expect(porcelain(await git.status({ dir }))).toEqual(["?? .gitignore"]);
    await ws.close();
  });
});
