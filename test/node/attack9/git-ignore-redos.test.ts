/**
 * Issue 20 ninth attack run, category 2 (pathological globs) in the
 * Workspace's git: `.gitignore` patterns are compiled to regular
 * expressions by the `ignore` package inside the isomorphic-git bundle
 * (src/git/generated/isomorphic-git.js, via `git.isIgnored` in
 * src/git/ops/walk.ts), and matched by a backtracking engine against every
 * untracked path the status walk meets. Runs 2–8 bounded the Workspace's own
 * globs (find/grep: length and shape limits) and grep's regexes, not these.
 *
 * FIXED — isIgnored (patched in scripts/gen-git.mjs) hands `ignore` each
 * ignore file through boundIgnoreRules: consecutive `**` segments collapse
 * into one (the 14 segments of this test's rule become one, the same
 * matches), and a rule still holding more than 3 runs of `*` (`*a` × 12 +
 * `*b`) is skipped as a comment — a documented limit (docs/git.md,
 * docs/porting.md).
 *
 * DEFECT (medium) — a `.gitignore` that arrives with a clone, or that the
 * model writes, freezes `git status` (and the other operations that ask
 * `isIgnored` about untracked paths: `add` (src/git/ops/repo.ts), `diff`'s
 * working-tree walk, `clean`/`stash` (src/git/ops/worktree.ts)).
 * Reproduction (Node; the same code runs in the Durable Object, also for
 * `ws:git` calls from sandboxed code):
 *   /workspace/r/.gitignore = "**" + "/**".repeat(9) + "/x\n"   (10 `**` segments)
 *   /workspace/r/d/d/…/d/f   (25 directories deep)
 *   await ws.git.cli({ argv: ["status", "--short"], cwd: "/workspace/r" })
 *   → " ? .gitignore\n ? d/\n" after 13 s of synchronous regex backtracking;
 *   with 14 segments and 40 directories it does not end in minutes.
 *   Also: "*a" × 12 + "*b" against a 30-character name "aaa…a": 1.6 s
 *   (9 stars, 24 characters: 0.37 s) — polynomial in the name's length with
 *   the number of stars as the exponent.
 * Real git matches these with wildmatch (no backtracking blow-up) in
 * microseconds. Expected: the status answers promptly (a linear matcher, or
 * patterns past a complexity bound refused or treated literally, as the
 * Workspace's own globs are).
 *
 * How it is asserted: the scenario (14 segments, 40 directories) runs in a
 * child `node` process (the source bundled with esbuild) that is killed after
 * 30 s; a fixed status prints its answer in well under a second. The child
 * is needed because a synchronous regex cannot be interrupted in-process.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildSync } from "esbuild";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../../src");

const SCRIPT = `
import { Workspace, nodeSqliteStorage } from ${JSON.stringify(join(SRC, "index.ts"))};
import { createGitClient } from ${JSON.stringify(join(SRC, "git/index.ts"))};
const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: { name: "A", email: "a@example.com" } });
const dir = "/workspace/r";
await ws.fs.mkdir(dir, { recursive: true });
await ws.git.cli({ argv: ["init"], cwd: dir });
await ws.fs.writeFile(dir + "/.gitignore", "**" + "/**".repeat(13) + "/x\\n");
const deep = dir + "/" + Array.from({ length: 40 }, () => "d").join("/");
await ws.fs.mkdir(deep, { recursive: true });
await ws.fs.writeFile(deep + "/f", "x");
const r = await ws.git.cli({ argv: ["status", "--short"], cwd: dir });
process.stdout.write(JSON.stringify(r));
await ws.close();
`;

describe("attack9: .gitignore patterns and git status", () => {
  it("a .gitignore of 14 '**' segments over a 40-deep tree: status answers (child killed after 30 s)", { timeout: 120_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), "attack9-redos-"));
    try {
      const entry = join(dir, "entry.ts");
      const out = join(dir, "entry.mjs");
      writeFileSync(entry, SCRIPT);
      buildSync({
        entryPoints: [entry],
        outfile: out,
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        logLevel: "silent",
        banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
      });
      const child = spawnSync(process.execPath, ["--no-warnings", out], { timeout: 30_000, encoding: "utf8" });
      expect({ signal: child.signal, status: child.status, stderr: child.stderr.slice(0, 500) }).toEqual({ signal: null, status: 0, stderr: "" });
      expect(JSON.parse(child.stdout)).toEqual({ stdout: " ? .gitignore\n ? d/\n", stderr: "", exitCode: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
