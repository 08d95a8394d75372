/**
 * Issue 20, run 36, fixer GA: sibling of test/workers/attack36e/git-gitattributes-text-eol-ignored.test.ts and
 * test/workers/fix36/git-attributes.test.ts, on src/git/ops/attributes.ts.
 * 1. Which attributes apply to which path — `WorktreeFilters.attributes` against git 2.39.5's `git check-attr text
 *    eol diff crlf` on the same files: patterns without `/` (base name at any depth), with `/` (relative to the
 *    file's directory, `*` stopping at `/`, `**`), anchored `/x`, `dir/` (never a file), `!x` (ignored), quoted
 *    names, `-x`/`!x`/`x=v` states, the `binary` macro, later lines and deeper files winning, info/attributes over all.
 * 2. Files without attributes do not pay: the attribute files read per operation, counted through the Workspace —
 *    none for `add`/`status` of files holding no CR, at most one per directory (+ info/attributes) otherwise.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import type { GitContext } from "../../../src/git/context.js";
import { createGitClient } from "../../../src/git/index.js";
import { WorktreeFilters } from "../../../src/git/ops/attributes.js";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";

const scratch: string[] = [];
afterAll(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));

const ATTR_FILES: Record<string, string> = {
  ".gitattributes": [
    "* text=auto",
    "*.bat text eol=crlf",
    "*.bin binary",
    "*.nd -diff",
    "docs/*.md text eol=lf",
    "docs/**/deep.md -text",
    "/top.txt eol=crlf",
    "lib/ -text",
    "!neg.txt -text",
    '"sp ace.txt" -text',
    "*.x text",
    "*.x !text",
    "*.v diff=word crlf=input",
    "a?c.txt -diff",
    "[ab]*.z eol=lf",
    "",
  ].join("\n"),
  "docs/.gitattributes": "*.bat -text\nsub/*.md eol=crlf\n",
  "docs/sub/.gitattributes": "x.md text=auto\n",
  ".git/info/attributes": "info.txt -text\n*.q eol=crlf\n",
};
const PATHS = [
  "a.txt", "run.bat", "k/run.bat", "docs/run.bat", "data.bin", "p/data.bin", "plain.nd", "docs/a.md", "docs/sub/b.md",
  "docs/sub/x.md", "docs/sub/z/deep.md", "docs/deep.md", "top.txt", "k/top.txt", "lib/f.c", "lib", "neg.txt",
  "sp ace.txt", "f.x", "w.v", "abc.txt", "a/abc.txt", "azc.txt", "a.z", "c.z", "info.txt", "k/info.txt", "m.q",
  "docs/sub/m.q",
];

/** git check-attr's word for one of our states. */
const word = (v: boolean | string | undefined) => (v === true ? "set" : v === false ? "unset" : v === undefined ? "unspecified" : v);

it("attributes per path are git check-attr's (text, eol, diff, crlf)", async () => {
  const disk = mkdtempSync(join(tmpdir(), "ga-attr-"));
  scratch.push(disk);
  execFileSync("git", ["init", "-q", disk]);
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  await ws.fs.mkdir("/repo/.git/info", { recursive: true });
  for (const [path, text] of Object.entries(ATTR_FILES)) {
    mkdirSync(join(disk, path, ".."), { recursive: true });
    writeFileSync(join(disk, path), text);
    await ws.fs.mkdir(`/repo/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await ws.fs.writeFile(`/repo/${path}`, text);
  }
  const real = execFileSync("git", ["-C", disk, "check-attr", "text", "eol", "diff", "crlf", "--", ...PATHS], {
    env: { ...process.env, HOME: disk, GIT_CONFIG_NOSYSTEM: "1" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const filters = new WorktreeFilters({ workspace: ws } as unknown as GitContext, "/repo");
  let ours = "";
  for (const path of PATHS) {
    const a = await filters.attributes(path);
    for (const name of ["text", "eol", "diff", "crlf"] as const) ours += `${path}: ${name}: ${word(a[name])}\n`;
  }
  expect(ours).toBe(real);
});

it("files without attributes cost at most one attribute-file lookup per directory per operation", async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const reads: string[] = [];
  const fs = new Proxy(ws.fs, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key !== "readFile" || typeof value !== "function") return typeof value === "function" ? value.bind(target) : value;
      return (path: string, ...rest: unknown[]) => {
        if (typeof path === "string" && /(^|\/)(\.gitattributes|info\/attributes)$/.test(path)) reads.push(path);
        return (value as (...a: unknown[]) => unknown).apply(target, [path, ...rest]);
      };
    },
  });
  const git = createGitClient()({ ws: { fs }, defaultIdentity: { name: "x", email: "x@y" } });
  await git.init({ dir: "/repo" });
  const DIRS = 40;
  for (let d = 0; d < DIRS; d++) {
    await ws.fs.mkdir(`/repo/d${d}/e`, { recursive: true });
    for (let f = 0; f < 5; f++) await ws.fs.writeFile(`/repo/d${d}/e/f${f}.txt`, `line ${f}\nmore\n`);
  }
  reads.length = 0;
  await git.add({ dir: "/repo", paths: ["."] });
  await git.commit({ dir: "/repo", message: "m" });
  await git.status({ dir: "/repo" });
  // No file holds a CR: nothing to clean, so no attribute file is looked up at all.
  expect(reads).toEqual([]);
  // A CRLF file in every directory: each directory's .gitattributes looked up once (d<n>, d<n>/e, the root, info).
  for (let d = 0; d < DIRS; d++) await ws.fs.writeFile(`/repo/d${d}/e/crlf.txt`, "a\r\nb\r\n");
  await git.add({ dir: "/repo", paths: ["."] });
  expect(reads.length).toBeLessThanOrEqual(2 * DIRS + 2);
  expect(new Set(reads).size).toBe(reads.length);
  // A checkout writing every file (LF: each may need CRLF): again at most once per directory.
  reads.length = 0;
  for (let d = 0; d < DIRS; d++) await ws.fs.rm(`/repo/d${d}`, { recursive: true });
  await git.checkout({ dir: "/repo", paths: ["."] } as never);
  expect(reads.length).toBeLessThanOrEqual(2 * DIRS + 2);
  expect(new Set(reads).size).toBe(reads.length);
  expect(await ws.fs.readFile("/repo/d3/e/f1.txt", "utf8")).toBe("line 1\nmore\n");
});
