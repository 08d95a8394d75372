/**
 * Ignore decisions of one operation (src/git/ops/ignores.ts, WorktreeIgnores;
 * issue 20, thirteenth attack run): each `.gitignore` / `info/exclude` is
 * read and compiled once per operation, plain names are looked up in a set,
 * and pattern rules are bounded by GIT_IGNORE_MAX_PATTERNS per path, summed
 * over the ignore files above it (fifteenth attack run: per file, a chain of
 * nested files got round it).
 *
 * The answers must be isomorphic-git's `isIgnored`'s (what status used
 * before): compared here path by path over many rule sets, and with the real
 * git (/usr/bin/git) where both agree on case.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { GitContext } from "../../../src/git/context.js";
import { createWorkspaceFsBridge } from "../../../src/git/fs-bridge.js";
import { loadIsomorphicGit } from "../../../src/git/load.js";
import { GIT_IGNORE_MAX_PATTERNS, WorktreeIgnores, compileIgnoreFile } from "../../../src/git/ops/ignores.js";
import { porcelain, realPorcelain, twin, writeBoth, type FileSpec } from "./repo-helpers.js";
import { cleanupScratch, newWorkspace } from "./worktree-helpers.js";

afterAll(cleanupScratch);

const FILES = [
  "a.log",
  "A.LOG",
  "keep.log",
  "node_modules/x/index.js",
  "src/node_modules/y.js",
  "src/main.ts",
  "src/gen/out.js",
  "src/gen/keep.js",
  "build/app.js",
  "docs/build/page.html",
  "docs/readme.md",
  "deep/a/b/c/d.tmp",
  "deep/a/b/c/e.txt",
  "deep/a/.DS_Store",
  ".DS_Store",
  "x.min.js",
  "sub/x.min.js",
];

/** Rule sets: [name, files to write (path → text)]. */
const RULE_SETS: [string, Record<string, string>][] = [
  ["plain names only", { ".gitignore": "node_modules\n.DS_Store\nbuild\n" }],
  ["plain names and patterns", { ".gitignore": "*.log\nnode_modules\n/build/\nsrc/gen/*\n" }],
  ["negations", { ".gitignore": "*.log\n!keep.log\nnode_modules\nsrc/gen/*\n!src/gen/keep.js\n" }],
  ["a negation under an ignored directory", { ".gitignore": "build\ndocs\n!docs/readme.md\n" }],
  ["nested files", { ".gitignore": "*.tmp\n", "deep/.gitignore": "!*.tmp\ne.txt\n", "deep/a/b/.gitignore": "c\n" }],
  ["nested re-include of a plain name", { ".gitignore": "keep.js\nmain.ts\n", "src/.gitignore": "!gen/keep.js\n" }],
  ["info/exclude with a root .gitignore", { ".git/info/exclude": "*.min.js\nnode_modules\n", ".gitignore": "!sub/x.min.js\n" }],
  ["info/exclude alone", { ".git/info/exclude": ".DS_Store\nbuild/\n" }],
  ["comments, blanks, trailing spaces, escapes", { ".gitignore": "# node_modules\n\n   \nbuild  \n\\#x\n\\!a.log\nA.LOG\n" }],
  ["case differs (ignore is case-insensitive)", { ".gitignore": "NODE_MODULES\nBuild\n*.LOG\n" }],
  ["dots", { ".gitignore": ".\n..\n...\n.DS_Store\n" }],
];

async function context(ws: ReturnType<typeof newWorkspace>["ws"]): Promise<GitContext> {
  const { git } = await loadIsomorphicGit();
  // The two parts WorktreeIgnores uses: the real isomorphic-git module and the real fs bridge.
  return { git, fs: await createWorkspaceFsBridge(ws) } as unknown as GitContext;
}

describe("WorktreeIgnores answers as isomorphic-git's isIgnored", () => {
  for (const [name, ignoreFiles] of RULE_SETS) {
    it(name, async () => {
      const { ws, git } = newWorkspace();
      await git.init({ dir: "/repo" });
      for (const path of FILES) {
        await ws.fs.mkdir(`/repo/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
        await ws.fs.writeFile(`/repo/${path}`, "x");
      }
      for (const [path, text] of Object.entries(ignoreFiles)) await ws.fs.writeFile(`/repo/${path}`, text);
      const ctx = await context(ws);
      const asked = new Set<string>();
      for (const path of FILES) {
        const parts = path.split("/");
        for (let i = 1; i <= parts.length; i++) asked.add(parts.slice(0, i).join("/"));
      }
      const ignores = new WorktreeIgnores(ctx, "/repo");
      const ours: Record<string, boolean> = {};
      const theirs: Record<string, boolean> = {};
      for (const path of [...asked].sort()) {
        ours[path] = await ignores.isIgnored(path);
        theirs[path] = await ctx.git.isIgnored({ fs: ctx.fs, dir: "/repo", filepath: path });
      }
      expect(ours).toEqual(theirs);
      expect(Object.values(ours)).toContain(true);
      await ws.close();
    });
  }
});

describe("compileIgnoreFile (plain names in a set) answers as one `ignore` matcher of all the rules", () => {
  it("200 seeded random rule sets × every path of a small tree, test() and ignores()", async () => {
    const { git } = await loadIsomorphicGit();
    let seed = 20_13;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const NAMES = ["a", "b", "c", "A", "B", "node_modules", ".x", "d.e", "f-1"];
    const PATTERNS = ["*.e", "a/", "/b", "c/**", "**/a", "a/b", "*", "b/*/c", "[ab]", "?", "d.e/", "/A"];
    const paths: string[] = [];
    const grow = (prefix: string, depth: number) => {
      for (const name of ["a", "b", "c", "A", "d.e", "f-1", "node_modules"]) {
        const path = prefix === "" ? name : `${prefix}/${name}`;
        paths.push(path, `${path}/`);
        if (depth < 2) grow(path, depth + 1);
      }
    };
    grow("", 0);
    let differences = 0;
    let ignoredSeen = 0;
    for (let set = 0; set < 200; set++) {
      const negate = set % 2 === 1;
      const rules = Array.from({ length: 1 + random(6) }, () => {
        const rule = random(3) === 0 ? PATTERNS[random(PATTERNS.length)]! : NAMES[random(NAMES.length)]!;
        return negate && random(3) === 0 ? `!${rule}` : rule;
      });
      const text = rules.join("\n");
      const ours = compileIgnoreFile(git, [text])!;
      const reference = git.createIgnore();
      reference.add(git.boundIgnoreRules(text));
      for (const path of paths) {
        const a = ours.test(path);
        const b = reference.test(path);
        if (a.ignored !== b.ignored || a.unignored !== b.unignored || ours.ignores(path) !== reference.ignores(path)) differences++;
        if (a.ignored) ignoredSeen++;
      }
    }
    expect(differences).toBe(0);
    expect(ignoredSeen).toBeGreaterThan(5_000);
  });
});

describe("status with plain-name rules: the same as real git", () => {
  const TREE: Record<string, FileSpec> = Object.fromEntries(FILES.filter((f) => f !== "A.LOG").map((f) => [f, "x\n"]));
  const cases: [string, string][] = [
    ["plain names", "node_modules\n.DS_Store\nbuild\nmain.ts\n"],
    ["plain names among patterns", "*.tmp\nnode_modules\n/docs/*\n!/docs/readme.md\nc\n"],
    ["re-includes after plain names", "build\n!build\nkeep.log\n*.log\n!keep.log\n"],
  ];
  for (const [name, gitignore] of cases) {
    it(name, async () => {
      const { ws, git, dir, disk } = await twin();
      await writeBoth(ws, dir, disk, { ...TREE, ".gitignore": gitignore });
      expect(porcelain(await git.status({ dir }))).toEqual(realPorcelain(disk));
      await ws.close();
    });
  }

  it("20,000 plain names and 200 untracked files: exactly the files not named (case-insensitive, as isIgnored)", async () => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/repo" });
    const names = Array.from({ length: 20_000 }, (_, i) => `rule${i}`);
    await ws.fs.writeFile("/repo/.gitignore", `${names.join("\n")}\nu7.txt\nRULE20000\n`);
    for (let i = 0; i < 200; i++) await ws.fs.writeFile(`/repo/u${i}.txt`, "x");
    await ws.fs.mkdir("/repo/d/rule19999", { recursive: true });
    await ws.fs.writeFile("/repo/d/rule19999/f", "x");
    await ws.fs.writeFile("/repo/Rule20000", "x");
    const expected = ["?? .gitignore", ...Array.from({ length: 200 }, (_, i) => `?? u${i}.txt`).filter((l) => l !== "?? u7.txt")].sort();
    expect(porcelain(await git.status({ dir: "/repo" }))).toEqual(expected);
    await ws.close();
  });
});

describe(`pattern rules past GIT_IGNORE_MAX_PATTERNS (${GIT_IGNORE_MAX_PATTERNS}) for one path are skipped`, () => {
  it("is 10,000", () => {
    expect(GIT_IGNORE_MAX_PATTERNS).toBe(10_000);
  });

  async function statusWith(gitignore: string): Promise<string[]> {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/repo" });
    await ws.fs.writeFile("/repo/.gitignore", gitignore);
    for (const f of ["x.log", "y.tmp", "keep", "z.n1"]) await ws.fs.writeFile(`/repo/${f}`, "x");
    const lines = porcelain(await git.status({ dir: "/repo" }));
    await ws.close();
    return lines;
  }
  const patterns = (n: number) => Array.from({ length: n }, (_, i) => `*.n${i}`).join("\n");

  it("the 10,000th pattern applies; the 10,001st does not (comments, blanks and plain names do not count)", async () => {
    const head = "# comment\n\nkeep\n";
    expect(await statusWith(`${head}${patterns(GIT_IGNORE_MAX_PATTERNS - 1)}\n*.log\n`)).toEqual(["?? .gitignore", "?? y.tmp"]);
    expect(await statusWith(`${head}${patterns(GIT_IGNORE_MAX_PATTERNS)}\n*.log\n`)).toEqual(["?? .gitignore", "?? x.log", "?? y.tmp"]);
  });

  it("with a '!' rule every rule counts, plain names too", async () => {
    const names = Array.from({ length: GIT_IGNORE_MAX_PATTERNS - 1 }, (_, i) => `name${i}`).join("\n");
    expect(await statusWith(`!nothing\n${names}\nkeep\n*.tmp\n`)).toEqual(["?? .gitignore", "?? keep", "?? x.log", "?? y.tmp", "?? z.n1"]);
  });

  it("clean (and add of a named path) keep to the same bound as status", async () => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/repo" });
    await ws.fs.writeFile("/repo/.gitignore", `plain\n${patterns(GIT_IGNORE_MAX_PATTERNS - 1)}\n*.log\n*.tmp\n`);
    for (const f of ["x.log", "y.tmp", "plain", "z.n1", "w.txt"]) await ws.fs.writeFile(`/repo/${f}`, "x");
    expect(await git.clean({ dir: "/repo", dryRun: true })).toEqual([".gitignore", "w.txt", "y.tmp"]);
    await expect(git.add({ dir: "/repo", paths: ["x.log"] })).rejects.toMatchObject({
      code: "EADDFAIL",
      message: "git add failed: the path 'x.log' is ignored by one of your .gitignore files (pass force to add it)",
    });
    await git.add({ dir: "/repo", paths: ["y.tmp"] });
    expect(porcelain(await git.status({ dir: "/repo" }))).toEqual(["?? .gitignore", "?? w.txt", "A  y.tmp"]);
    await ws.close();
  });

  it("the bound is per path, over the files above it: a nested .gitignore keeps what the root's left (issue 20, attack 15b)", async () => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/repo" });
    await ws.fs.mkdir("/repo/sub");
    await ws.fs.mkdir("/repo/other");
    // The root keeps 9,999 patterns; below it one more applies: `*.tmp` in sub, `*.bak` in other.
    await ws.fs.writeFile("/repo/.gitignore", `${patterns(GIT_IGNORE_MAX_PATTERNS - 2)}\n*.log\n`);
    await ws.fs.writeFile("/repo/sub/.gitignore", "*.tmp\n*.bak\nplain\n");
    await ws.fs.writeFile("/repo/other/.gitignore", "*.bak\n");
    for (const f of ["x.log", "sub/x.log", "sub/y.tmp", "sub/z.bak", "sub/plain", "other/z.bak", "y.tmp"]) await ws.fs.writeFile(`/repo/${f}`, "x");
    expect(porcelain(await git.status({ dir: "/repo" }))).toEqual(["?? .gitignore", "?? other/.gitignore", "?? sub/.gitignore", "?? sub/z.bak", "?? y.tmp"]);
    // add of a named path reads only the files above it, and keeps the same rules.
    await expect(git.add({ dir: "/repo", paths: ["other/z.bak"] })).rejects.toMatchObject({
      code: "EADDFAIL",
      message: "git add failed: the path 'other/z.bak' is ignored by one of your .gitignore files (pass force to add it)",
    });
    await git.add({ dir: "/repo", paths: ["sub/z.bak"] });
    expect(porcelain(await git.status({ dir: "/repo" }))).toEqual(["?? .gitignore", "?? other/.gitignore", "?? sub/.gitignore", "A  sub/z.bak", "?? y.tmp"]);
    await ws.close();
  });

  it(".git/info/exclude counts first: 10,000 patterns there leave none for .gitignore (plain names still apply)", async () => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/repo" });
    await ws.fs.writeFile("/repo/.git/info/exclude", `${patterns(GIT_IGNORE_MAX_PATTERNS)}\n`);
    await ws.fs.writeFile("/repo/.gitignore", "*.log\nkeep\n");
    for (const f of ["x.log", "keep", "z.n1"]) await ws.fs.writeFile(`/repo/${f}`, "x");
    expect(porcelain(await git.status({ dir: "/repo" }))).toEqual(["?? .gitignore", "?? x.log"]);
    await ws.close();
  });
});

describe("deep untracked trees read each .gitignore once", () => {
  it("a 60-deep chain with .gitignore files at levels 10 and 40: the same status as real git", async () => {
    const { ws, git, dir, disk } = await twin();
    const level = (n: number) => Array(n).fill("a").join("/");
    await writeBoth(ws, dir, disk, {
      [`${level(60)}/f.txt`]: "1\n",
      [`${level(60)}/g.tmp`]: "2\n",
      [`${level(30)}/h.tmp`]: "3\n",
      [`${level(50)}/k.log`]: "4\n",
      [`${level(10)}/.gitignore`]: "*.tmp\n",
      [`${level(40)}/.gitignore`]: "!g.tmp\n*.log\n",
    });
    expect(porcelain(await git.status({ dir }))).toEqual(realPorcelain(disk));
    expect(porcelain(await git.status({ dir })).length).toBe(4);
    await ws.close();
  });

  it("reads no .gitignore where the walk listed none, and each present one once", async () => {
    const { ws, git } = newWorkspace();
    await git.init({ dir: "/repo" });
    const deep = `/repo/${Array(40).fill("a").join("/")}`;
    await ws.fs.mkdir(deep, { recursive: true });
    await ws.fs.writeFile(`${deep}/f.txt`, "x");
    await ws.fs.writeFile("/repo/a/a/.gitignore", "nothing\n");
    const ctx = await context(ws);
    const reads: string[] = [];
    const readFile = ctx.fs.promises.readFile.bind(ctx.fs.promises);
    const fs = { promises: { ...ctx.fs.promises, readFile: (path: string, options?: unknown) => (reads.push(path), readFile(path, options as "utf8")) } };
    const ignores = new WorktreeIgnores({ ...ctx, fs } as unknown as GitContext, "/repo");
    let path = "";
    for (let i = 0; i < 40; i++) {
      ignores.noteListing(`/repo${path}`, i === 2 ? ["a", ".gitignore"] : ["a"]);
      path += "/a";
      expect(await ignores.isIgnored(path.slice(1))).toBe(false);
    }
    ignores.noteListing(`/repo${path}`, ["f.txt"]);
    expect(await ignores.isIgnored(`${path.slice(1)}/f.txt`)).toBe(false);
    expect(reads).toEqual(["/repo/.git/info/exclude", "/repo/a/a/.gitignore"]);
    await ws.close();
  });
});
