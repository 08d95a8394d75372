/**
 * Issue 20, twenty-first attack run (fixer GC): glob pathspecs. A pathspec holding `*`, `?`, `[` or `\` is matched
 * as git matches it — the literal path first (exactly, or as a directory above the path), then the whole path against
 * the pattern by wildmatch WITHOUT `WM_PATHNAME` (`*` and `?` cross `/`), on UTF-8 bytes. Checked side by side with
 * real git (2.39.5): `ls-files` over an index of odd names for many patterns (the matcher itself), then the CLI's
 * status (untracked directories shown collapsed only where git collapses them), rm (each removed file printed),
 * checkout, reset and the typed API's `paths`.
 */
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { compareBytes, matchesSpec, worthEntering } from "../../../src/git/ops/pathspec.js";
import { wildmatch } from "../../../src/git/wildmatch.js";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGit, realGitResult, realRepo, workspaceCopy, writeTree } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const NAMES = [
  "a.txt", "b.md", "sub/c.txt", "sub/d.md", "sub/x/e.txt", "[ab].txt", "*star.txt", "xstar.txt", "é.txt", "e.txt",
  "a\\b", "q?", "qz", "-dash", "x]y", "x-y", "x!y", "UP.TXT", "9", "tab\there", "sp ace", "a/b/c/d", "ab/c",
  "sub/.hidden", ".dot", "a*b", "aXb", "a^b", "x:y", "[", "]", "foo/bar", "foo/x/bar", "foobar",
];

const PATTERNS = [
  "*.txt", "*", "**", "*/*", "sub/*", "s*", "s?b", "su?", "sub/**", "**/e.txt", "*/x", "?.txt", "??.txt", "???",
  "[ab].txt", "[!a].txt", "[^a].txt", "[a-c].txt", "[[:alpha:]].txt", "[[:digit:]]", "[[:upper:]]*", "[[:punct:]]*",
  "[[:space:]]*", "*[[:space:]]*", "[[:alnum:]][[:alnum:]]", "[[:xdigit:]]*", "[[:foo:]]", "[", "a[", "[]]", "[]a]",
  "x[]-]y", "x[!]]y", "x[-!]y", "x[a-]y", "x[\\]]y", "a\\*b", "a\\b", "a\\\\b", "\\*star.txt", "*star.txt", "q\\?",
  "q?", "a\\", "*b", "a*", "a*b*", "*a*b*c*d*", "a/*/c/d", "a/**/d", "foo/**/bar", "foo**bar", "*/b/*", "x[:]y",
  "[[:]", "[a-c-e]*", "*.TXT", "*.[tT][xX][tT]", "[é].txt", "?\\t*", "tab?here", "*[/]*", "sub/?*", "s*/x",
];

function emptyIndexRepo(names: string[]): string {
  return realRepo((dir) => {
    const blob = execFileSync("/usr/bin/git", ["hash-object", "-w", "--stdin"], { cwd: dir, input: "x\n", encoding: "utf8" }).trim();
    execFileSync("/usr/bin/git", ["update-index", "--add", "--index-info"], {
      cwd: dir,
      input: names.map((n) => `100644 ${blob}\t${n}\n`).join(""),
    });
  });
}

describe("wildmatch as git matches pathspecs", () => {
  it("ls-files lists the same names as matchesSpec for every pattern", () => {
    const dir = emptyIndexRepo(NAMES);
    const sorted = [...NAMES].sort(compareBytes);
    const real = PATTERNS.map((p) => ({ p, names: realGit(dir, "ls-files", "-z", "--", p).split("\0").filter((n) => n !== "") }));
    const ours = PATTERNS.map((p) => ({ p, names: sorted.filter((n) => matchesSpec(n, p)) }));
    expect(ours).toEqual(real);
    // A few pinned, so a change of both sides is seen.
    const of = (p: string) => real.find((r) => r.p === p)!.names;
    expect(of("*.txt")).toEqual(["*star.txt", "[ab].txt", "a.txt", "e.txt", "sub/c.txt", "sub/x/e.txt", "xstar.txt", "é.txt"]);
    expect(of("??.txt")).toEqual(["é.txt"]);
    expect(of("[ab].txt")).toEqual(["[ab].txt", "a.txt"]);
    expect(of("a\\*b")).toEqual(["a*b"]);
    expect(of("[[:foo:]]")).toEqual([]);
  });

  it("agrees with real git on 300 random patterns over random names", () => {
    // mulberry32, seeded: the same names and patterns on every run.
    let seed = 21;
    const random = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const letters = ["a", "b", "a", "/", ".", "é", "-", "x"];
    const names = new Set<string>();
    while (names.size < 40) {
      const n = Array.from({ length: 1 + random(6) }, () => letters[random(letters.length)]).join("");
      if (!n.startsWith("/") && !n.endsWith("/") && !n.includes("//") && !/(^|\/)\.\.?(\/|$)/.test(n)) names.add(n);
    }
    // No name may be a directory of another (the index refuses a file `a` beside `a/b`).
    const files = [...names].filter((n) => ![...names].some((m) => m.startsWith(`${n}/`)));
    const dir = emptyIndexRepo(files);
    const tokens = ["a", "b", "/", "*", "**", "?", "[ab]", "[!a]", "[a-b]", "[/]", "[]a]", "[[:alpha:]]", "\\a", "\\*", "é", ".", "x", "[", "-"];
    const patterns = new Set<string>();
    while (patterns.size < 300) {
      const p = Array.from({ length: 1 + random(5) }, () => tokens[random(tokens.length)]).join("");
      if (!p.startsWith("/") && !p.includes("//") && !/(^|\/)\.\.?(\/|$)/.test(p)) patterns.add(p);
    }
    const sorted = files.sort(compareBytes);
    let matching = 0;
    const mismatches = [...patterns].flatMap((p) => {
      const real = realGit(dir, "ls-files", "-z", "--", p).split("\0").filter((n) => n !== "");
      const ours = sorted.filter((n) => matchesSpec(n, p));
      if (real.length > 0) matching++;
      return JSON.stringify(real) === JSON.stringify(ours) ? [] : [{ p, real, ours }];
    });
    expect(mismatches).toEqual([]);
    expect(matching).toBeGreaterThan(50);
  });

  it("costs a pass over the name per piece, whatever the pattern", () => {
    const name = "a".repeat(4000);
    const started = Date.now();
    expect(wildmatch(`*${"a".repeat(300)}b*`, name)).toBe(false);
    expect(wildmatch(`${"*a".repeat(500)}*b`, name)).toBe(false);
    expect(wildmatch(`*${"?".repeat(3000)}*`, name)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a walk enters a directory a glob may match below", () => {
    expect(worthEntering("sub", ["*.txt"])).toBe(true);
    expect(worthEntering("sub", ["sub/*"])).toBe(true);
    expect(worthEntering("sub/x", ["sub/x*"])).toBe(true);
    expect(worthEntering("other", ["sub/*"])).toBe(false);
    expect(worthEntering("su", ["sub*"])).toBe(false);
  });
});

/** A repository (real git) with two tracked files edited and untracked `new.txt`, `u/f.txt`, `v/w/q.md`; its disk and Workspace copies. */
async function edited() {
  const base = committedRepo({ "a.txt": "a\n", "b.md": "b\n", "sub/c.txt": "c\n", "sub/d.md": "d\n", "sub/x/e.txt": "e\n" }, "one");
  const disk = diskCopy(base);
  const { ws, git } = await workspaceCopy(base);
  for (const [p, c] of [["a.txt", "A\n"], ["sub/c.txt", "C\n"], ["new.txt", "n\n"], ["u/f.txt", "f\n"], ["v/w/q.md", "q\n"]] as const) {
    writeTree(disk, { [p]: c });
    await ws.fs.mkdir(`/repo/${p}/..`, { recursive: true });
    await ws.fs.writeFile(`/repo/${p}`, c);
  }
  const ours = async (argv: string[], cwd = "/repo") => {
    const r = await git.cli({ argv, cwd, env: identityEnv() });
    return { exitCode: r.exitCode, stdout: r.stdout };
  };
  const theirs = (argv: string[], sub = "") => {
    const r = realGitResult(sub === "" ? disk : `${disk}/${sub}`, ...argv);
    return { exitCode: r.status, stdout: r.stdout };
  };
  return { disk, ws, git, ours, theirs };
}

describe("the CLI with glob pathspecs, side by side with real git", () => {
  it("status collapses an untracked directory only where git does", async () => {
    const { ours, theirs } = await edited();
    const cases = [
      ["*.txt"], ["u*"], ["u"], ["u/f.txt"], ["u/*"], ["u/?*"], ["?/"], ["v/w"], ["v/w*"], ["v*/q.md"], ["*.md"], ["v/w?"],
      ["u/f.txt", "u"], ["u*", "*.txt"], ["*"], ["s*"],
    ];
    const real = cases.map((specs) => ({ specs, ...theirs(["status", "--porcelain=v1", "--", ...specs]) }));
    const mine: unknown[] = [];
    for (const specs of cases) mine.push({ specs, ...(await ours(["status", "--porcelain=v1", "--", ...specs])) });
    expect(mine).toEqual(real);
    const of = (specs: string[]) => real.find((r) => r.specs.join(" ") === specs.join(" "))!.stdout;
    expect(of(["*.txt"])).toBe(" M a.txt\n M sub/c.txt\n?? new.txt\n?? u/f.txt\n");
    expect(of(["u*"])).toBe("?? u/\n");
    expect(of(["u/f.txt", "u"])).toBe("?? u/f.txt\n");
    expect(of(["v/w?"])).toBe("");
  });

  it("ls-files and diff from a subdirectory prefix the cwd; diff takes a glob without --", async () => {
    const { ours, theirs } = await edited();
    const cases: [string[], string][] = [
      [["ls-files", "*.txt"], "sub"],
      [["ls-files", "--", "*"], "sub/x"],
      [["diff", "--name-only", "*.txt"], ""],
      [["diff", "--name-only", "--", "*.md"], ""],
      [["diff", "--stat", "--", "s*"], ""],
    ];
    const real = cases.map(([argv, sub]) => theirs(argv, sub));
    const mine: unknown[] = [];
    for (const [argv, sub] of cases) mine.push(await ours(argv, sub === "" ? "/repo" : `/repo/${sub}`));
    expect(mine).toEqual(real);
    expect(real[0]!.stdout).toBe("c.txt\nx/e.txt\n");
    expect(real[2]!.stdout).toBe("a.txt\nsub/c.txt\n");
  });

  it("add, rm --cached, checkout -- and reset -- with a glob change what real git changes", async () => {
    const steps: string[][] = [
      ["add", "sub/*"],
      ["rm", "--cached", "-r", "sub"],
      ["rm", "--cached", "*.txt"],
      ["checkout", "--", "*.txt"],
      ["add", "*.zz"],
      ["rm", "--cached", "*.zz"],
    ];
    for (const argv of steps) {
      const { ours, theirs } = await edited();
      const real = theirs(argv);
      const mine = await ours(argv);
      expect({ argv, exitCode: mine.exitCode, status: (await ours(["status", "--porcelain=v1"])).stdout }).toEqual({
        argv,
        exitCode: real.exitCode,
        status: theirs(["status", "--porcelain=v1"]).stdout,
      });
      // rm prints each file it removes, as real git.
      if (argv[0] === "rm") expect(mine.stdout).toBe(real.stdout);
    }
    // reset -- <glob> unstages what it matches.
    const { ours, theirs } = await edited();
    theirs(["add", "-A"]);
    await ours(["add", "-A"]);
    theirs(["reset", "-q", "--", "*.md"]);
    await ours(["reset", "-q", "--", "*.md"]);
    expect((await ours(["status", "--porcelain=v1"])).stdout).toBe(theirs(["status", "--porcelain=v1"]).stdout);
    expect(theirs(["status", "--porcelain=v1"]).stdout).toBe("M  a.txt\nA  new.txt\nM  sub/c.txt\nA  u/f.txt\n?? v/\n");
  });

  it("add of a glob matching nothing fails 128 naming it as typed", async () => {
    const { git } = await edited();
    const r = await git.cli({ argv: ["add", "*.zz"], cwd: "/repo", env: identityEnv() });
    expect(r).toMatchObject({ exitCode: 128, stdout: "", stderr: "git add: pathspec '*.zz' did not match any files\n" });
  });
});

describe("the typed API's paths match globs as git does", () => {
  it("status, diffSummary, add and rm", async () => {
    const { git, theirs } = await edited();
    const entries = await git.status({ dir: "/repo", paths: ["*.txt"] });
    expect(entries.map((e) => e.path)).toEqual(["a.txt", "new.txt", "sub/c.txt", "u/f.txt"]);
    expect(theirs(["status", "--porcelain=v1", "-uall", "--", "*.txt"]).stdout).toBe(" M a.txt\n M sub/c.txt\n?? new.txt\n?? u/f.txt\n");
    expect((await git.diffSummary({ dir: "/repo", paths: ["s*"] })).map((e) => e.path)).toEqual(["sub/c.txt"]);
    await git.add({ dir: "/repo", paths: ["*.md"] });
    expect((await git.status({ dir: "/repo" })).filter((e) => e.index !== " " && e.index !== "?").map((e) => e.path)).toEqual(["v/w/q.md"]);
    await git.rm({ dir: "/repo", paths: ["sub/?.md"] });
    expect(await git.lsFiles({ dir: "/repo" })).toEqual(["a.txt", "b.md", "sub/c.txt", "sub/x/e.txt", "v/w/q.md"]);
    await expect(git.rm({ dir: "/repo", paths: ["*.zz"] })).rejects.toMatchObject({ code: "EPATHSPEC", message: "pathspec '*.zz' did not match any files" });
  });
});
