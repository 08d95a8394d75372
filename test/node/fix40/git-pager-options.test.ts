/**
 * Issue 20, run 40, fixer f40g2: cases beside attack40e's `--no-pager` test — `--paginate`/`-p` (git 2.39.5 runs the
 * command, with no pager when stdout is no terminal: `git -p log --oneline | cat` prints the log), pager options on
 * both sides of `-C <path>`, and the ws:git module: foldCliPath drops them so the confinement reads the subcommand
 * (`--no-pager init <path>` is checked as an `init`), and cliWrites sees `--no-pager log` as read-only.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { cliWrites, foldCliPath } from "../../../src/modules/git.js";

it("git -p/--paginate and pager options around -C run the command", { timeout: 20_000 }, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@x" } });
  const run = (...argv: string[]) => git.cli({ argv, cwd: "/" });
  await ws.fs.mkdir("/r");
  await run("-C", "r", "init", "-q");
  await ws.fs.writeFile("/r/a", "a\n");
  await run("-C", "r", "add", "a");
  await run("-C", "r", "commit", "-qm", "first");
  const oneline = (await run("-C", "r", "log", "--oneline")).stdout;
  expect(oneline).toMatch(/^[0-9a-f]{7} first\n$/);
  for (const argv of [["-p", "-C", "r"], ["--paginate", "-C", "r"], ["-P", "-C", "r", "--no-pager"], ["-C", "r", "-p"]]) {
    expect(await run(...argv, "log", "--oneline")).toEqual({ stdout: oneline, stderr: "", exitCode: 0 });
  }
  await ws.close();
});

it("ws:git folds the pager options away before its checks", () => {
  expect(foldCliPath(["--no-pager", "-C", "repo", "-P", "init", "x"], ".")).toEqual({ argv: ["init", "x"], cwd: "./repo" });
  expect(foldCliPath(["-P", "log"], ".")).toEqual({ argv: ["log"], cwd: "." });
  expect(() => foldCliPath(["--no-pager", "log", "-C", "x"], ".")).toThrow(/path overrides/);
  expect(cliWrites([{ argv: ["--no-pager", "log"] }])).toBe(false);
  expect(cliWrites([{ argv: ["-P", "-C", "r", "-p", "status"] }])).toBe(false);
  expect(cliWrites([{ argv: ["--no-pager", "commit", "-m", "x"] }])).toBe(true);
});
