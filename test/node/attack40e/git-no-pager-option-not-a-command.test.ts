/**
 * Fixed in run 40 by fixer f40g2: `--no-pager`/`-P`/`--paginate`/`-p` before the subcommand are taken and change nothing (splitGlobal; the ws:git module drops them before its checks).
 * Issue 20, run 40, attacker e: git's global option `--no-pager` (and its short `-P`) — the form agents use most to
 * keep git from paging (`git --no-pager diff`, `git --no-pager log --oneline`) — fails with exit 1 and
 * `git: '--no-pager' is not a supported workspace git command`: it is not a command, and there is no pager here, so
 * the option has nothing to refuse. docs/git.md documents a leading `-C <path>` as the only global option and
 * lists unsupported SUBCOMMANDS (`rebase`, …) as exit 1 with that message; nothing says `--no-pager` is refused.
 * Reproduction: `git init; echo a > a; git add a; git commit -m first; git --no-pager log --oneline;
 * git -P log --oneline; git -C . --no-pager status --porcelain=v1`.
 * Today: each exits 1 with `git: '--no-pager' is not a supported workspace git command` (`'-P'` for the second).
 * git 2.39.5 (`git -C /tmp/x --no-pager log --oneline`, `git -C /tmp/x -P log --oneline`): `<oid7> first`, exit 0;
 * `git -C . --no-pager status --porcelain=v1` prints nothing, exit 0.
 * Likely cause: src/git/cli.ts / src/git/cli/parse.ts (the top-level argv parse takes `-C <path>` only and reads the
 * next argument as the subcommand).
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createGitClient } from "../../../src/git/index.js";

it("git --no-pager <cmd> and git -P <cmd> run <cmd>, as git 2.39.5", { timeout: 20_000 }, async () => {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const git = createGitClient()({ ws, defaultIdentity: { name: "A", email: "a@x" } });
  const run = (...argv: string[]) => git.cli({ argv, cwd: "/r" });
  await ws.fs.mkdir("/r");
  await run("init", "-q");
  await ws.fs.writeFile("/r/a", "a\n");
  await run("add", "a");
  await run("commit", "-qm", "first");
  const oneline = (await run("log", "--oneline")).stdout;
  expect(oneline).toMatch(/^[0-9a-f]{7} first\n$/);

  expect({
    noPager: await run("--no-pager", "log", "--oneline"), // today: exit 1, "git: '--no-pager' is not a supported workspace git command"
    short: await run("-P", "log", "--oneline"), // today: exit 1, "git: '-P' is not …"
    afterC: await run("-C", ".", "--no-pager", "status", "--porcelain=v1"),
  }).toEqual({
    noPager: { stdout: oneline, stderr: "", exitCode: 0 },
    short: { stdout: oneline, stderr: "", exitCode: 0 },
    afterC: { stdout: "", stderr: "", exitCode: 0 },
  });
  await ws.close();
});
