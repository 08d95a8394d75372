/**
 * Issue 20, thirteenth attack run: the NUMBER of `.gitignore` rules in the Workspace's git
 * (isomorphic-git's `GitIgnoreManager.isIgnored`, bundled in src/git/generated/isomorphic-git.js, with
 * the `ignore` package; src/git/ops/walk.ts remembers the file reads but not the parsed rules).
 *
 * Tried: a repository whose `.gitignore` holds many plain rules (`rule0` … `rule19999`: 20,000 lines,
 * 230 KB — each a literal, well inside the per-rule bound of docs/git.md ".gitignore patterns are
 * bounded") and 100 untracked files; `git status --porcelain` took 5.9 s (Node, node:sqlite). For every
 * path asked about, isIgnored builds a new `ignore()` and adds ALL rules again (parsing each), then
 * tests the path against all of them — cost rules × paths × ~3 µs, synchronous between storage reads.
 * 40,000 rules and 200 files: past the 15 s bound below; 200,000 rules (2.3 MB) and 1,000 files:
 * about 10 minutes. Real git parses a .gitignore once per run (20,000 × 100 is ~0.05 s there).
 * `status`, `add`, `diff`, `clean` and `stash` all ask, per untracked path.
 *
 * Found (medium-high): a cloned (hostile) repository with a large .gitignore freezes the Durable
 * Object on the agent's first `git status`; docs/git.md bounds each rule, not how many.
 * Reproduction (Node):
 *   await ws.fs.writeFile("/repo/.gitignore", Array.from({ length: 20_000 }, (_, i) => `rule${i}`).join("\n"));
 *   for (let i = 0; i < 100; i++) await ws.fs.writeFile(`/repo/u${i}.txt`, "x");
 *   await git.cli({ argv: ["status", "--porcelain"], cwd: "/repo" });   // 5.9 s
 * Suggested fix: parse each ignore file once per operation (cache the `ignore` instance by path and
 * content in walk.ts's ignoreFs, or patch isIgnored to take prepared matchers), and bound the rules
 * read per file (e.g. 10,000, the rest skipped with a documented note) so rules × paths stays small.
 *
 * Fixed: src/git/ops/ignores.ts compiles each ignore file once per operation; plain-name rules
 * (`rule0`, `node_modules`) are looked up in a set, not tested one by one, and the pattern rules read
 * per file are bounded by GIT_IGNORE_MAX_PATTERNS (10,000; docs/git.md). Exact: the 40,001st rule
 * still ignores u7.txt; a pattern file past the bound is covered in test/node/git/ignore-once.test.ts.
 *
 * The call runs in a worker thread (worker-run.ts) so the bounded wait can see the freeze.
 */
import { describe, expect, it } from "vitest";
import { GIT_SRC, runInWorker } from "./worker-run.js";

function script(rules: number): string {
  return `const ws = new Workspace({ storage: nodeSqliteStorage() });
const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@b" } });
await ws.fs.mkdir("/repo");
await git.cli({ argv: ["init", "-q"], cwd: "/repo" });
await ws.fs.writeFile("/repo/.gitignore", Array.from({ length: ${rules} }, (_, i) => "rule" + i).join("\\n") + "\\nu7.txt\\n");
for (let i = 0; i < 200; i++) await ws.fs.writeFile("/repo/u" + i + ".txt", "x");
post("repository made");
const r = await git.cli({ argv: ["status", "--porcelain"], cwd: "/repo" });
post({ exitCode: r.exitCode, lines: r.stdout.split("\\n").filter(Boolean).length, u7: r.stdout.includes("u7.txt") });`;
}
const PRELUDE = `import { createGitClient } from ${JSON.stringify(GIT_SRC)};`;

describe("attack13b: git status over a .gitignore with many rules", () => {
  it("control: 200 rules and 200 untracked files — status lists 199 files and the .gitignore", { timeout: 60_000 }, async () => {
    const run = await runInWorker(script(200), 15_000, PRELUDE);
    expect(run).toEqual({ messages: ["repository made", { exitCode: 0, lines: 200, u7: false }], settled: true, error: undefined });
  });

  it("status with 40,000 plain rules and 200 untracked files settles within 15 s", { timeout: 60_000 }, async () => {
    const run = await runInWorker(script(40_000), 15_000, PRELUDE);
    expect(run).toEqual({ messages: ["repository made", { exitCode: 0, lines: 200, u7: false }], settled: true, error: undefined });
  });
});
