/**
 * Issue 20, twenty-sixth attack run, fixer GC — siblings of
 * test/workers/attack26c/shell-git-non-utf8-argument-bytes-become-fffd: a byte that is not UTF-8 in the git CLI's
 * arguments or identity variables (U+DC00 + byte, as the shell passes it) was stored as U+FFFD, silently.
 *
 * Now read in one place (src/git/cli/parse.ts `readBytes`, for every subcommand), side by side with real git 2.39:
 * 1. A commit's text (`commit -m`, `--author`, `merge -m`, `stash -m`, GIT_AUTHOR_/GIT_COMMITTER_ NAME/EMAIL): the
 *    byte is its Latin-1 character, the bytes git's verify_utf8 stores, with git's three-line warning on stderr —
 *    only once a commit is written (not for `status`, not when there is nothing to commit).
 * 2. `--format`/`--pretty`: the byte is kept and printed, as git prints it.
 * 3. Anything that names something (branch, tag, `checkout -b`, `switch -c`, pathspec, revision, remote, config,
 *    `-C`): refused, exit 128, EILSEQ wording, nothing made (git would make `t\xff`; a Workspace cannot name it).
 * 4. Escapes that together form UTF-8 (`\303` `\251` passed apart) are that character everywhere.
 */
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { utf8EscapeEncode } from "../../../src/util/utf8-escape.js";
import { cleanupScratch, committedRepo, diskCopy, identityEnv, realGit, workspaceCopy } from "../git/worktree-helpers.js";

afterAll(cleanupScratch);

const WARNING =
  "Warning: commit message did not conform to UTF-8.\n" +
  "You may want to amend it after fixing the message, or set the config\n" +
  "variable i18n.commitEncoding to the encoding your project uses.\n";

/** Runs `script` with sh in `cwd` (real git, test identity, no global config): stdout as bytes, stderr as text. */
function realSh(cwd: string, script: string, env: Record<string, string> = {}): { status: number; stdout: number[]; stderr: string } {
  try {
    const out = execFileSync("sh", ["-c", script], {
      cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", ...identityEnv(), LC_ALL: "C", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    return { status: 0, stdout: [...out], stderr: "" };
  } catch (error) {
    const e = error as { status: number; stdout: Buffer; stderr: Buffer };
    return { status: e.status, stdout: [...e.stdout], stderr: e.stderr.toString("latin1") };
  }
}

/** Real git's stderr of `script` (2>&1 >/dev/null), as text. */
function realStderr(cwd: string, script: string, env: Record<string, string> = {}): string {
  return Buffer.from(realSh(cwd, `{ ${script}; } 2>&1 >/dev/null`, env).stdout).toString("utf8");
}

const bytes = (text: string) => [...utf8EscapeEncode(text)];

describe("fix26 (GC): a commit's text with a byte that is not UTF-8 is read as Latin-1, as git 2.39", () => {
  it("commit -m, --author, GIT_AUTHOR_NAME, GIT_COMMITTER_EMAIL: git's bytes and git's warning", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one");
    const disk = diskCopy(base);
    const { git } = await workspaceCopy(base);
    const cli = (argv: string[], env: Record<string, string> = {}) => git.cli({ argv, cwd: "/repo", env: { ...identityEnv(), ...env } });

    // commit -m "a\377b" (-q: git prints the warning anyway).
    const real = realStderr(disk, `git commit -q --allow-empty -m "$(printf 'a\\377b')"`);
    expect(real).toBe(WARNING);
    expect(await cli(["commit", "-q", "--allow-empty", "-m", "a\udcffb"])).toEqual({ stdout: "", stderr: WARNING, exitCode: 0 });
    const body = ["log", "-1", "--format=%B"];
    expect(bytes((await cli(body)).stdout)).toEqual([0x61, 0xc3, 0xbf, 0x62, 0x0a, 0x0a]);
    expect(bytes((await cli(body)).stdout)).toEqual(realSh(disk, "git log -1 --format=%B").stdout);

    // --author "A\351 <a@b.c>" and two -m (one of them repaired).
    realStderr(disk, `git commit -q --allow-empty --author="$(printf 'A\\351 <a@b.c>')" -m x -m "$(printf '\\300')"`);
    const r = await cli(["commit", "--allow-empty", "--author=A\udce9 <a@b.c>", "-m", "x", "-m", "\udcc0"]);
    expect([r.stderr, r.exitCode, r.stdout.replace(/^\[[0-9a-f]+\]/, "[oid]")]).toEqual([WARNING, 0, "[oid] x\n"]);
    const who = ["log", "-1", "--format=%an <%ae>|%B"];
    expect(bytes((await cli(who)).stdout)).toEqual(realSh(disk, "git log -1 '--format=%an <%ae>|%B'").stdout);
    expect((await cli(who)).stdout).toBe("A\u00e9 <a@b.c>|x\n\n\u00c0\n\n");

    // The identity variables: author name, committer e-mail.
    const env = { GIT_AUTHOR_NAME: "N\udce9", GIT_COMMITTER_EMAIL: "c\udcff@e.x" };
    realStderr(disk, `GIT_AUTHOR_NAME="$(printf 'N\\351')" GIT_COMMITTER_EMAIL="$(printf 'c\\377@e.x')" git commit -q --allow-empty -m two`);
    expect(await cli(["commit", "-q", "--allow-empty", "-m", "two"], env)).toEqual({ stdout: "", stderr: WARNING, exitCode: 0 });
    const people = ["log", "-1", "--format=%an|%ae|%cn|%ce"];
    expect((await cli(people)).stdout).toBe("N\u00e9|ada@example.com|Ada Lovelace|c\u00ff@e.x\n");
    expect(bytes((await cli(people)).stdout)).toEqual(realSh(disk, "git log -1 --format=%an\\|%ae\\|%cn\\|%ce").stdout);
    // The whole commit objects are the same bytes as real git's (same dates, same parents).
    expect((await cli(["rev-parse", "HEAD"])).stdout).toBe(realGit(disk, "rev-parse", "HEAD"));
  }, 60_000);

  it("no warning where no commit is written: status with those variables, nothing to commit; status shown as before", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one");
    const { git } = await workspaceCopy(base);
    const env = { ...identityEnv(), GIT_AUTHOR_NAME: "N\udce9" };
    expect(await git.cli({ argv: ["status", "-s"], cwd: "/repo", env })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    const nothing = await git.cli({ argv: ["commit", "-m", "a\udcffb"], cwd: "/repo", env });
    expect([nothing.exitCode, nothing.stderr]).toEqual([1, ""]);
    // Escapes that form UTF-8 together are that character: no repair, no warning.
    expect(await git.cli({ argv: ["commit", "-q", "--allow-empty", "-m", "caf\udcc3\udca9"], cwd: "/repo", env: identityEnv() })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect((await git.cli({ argv: ["log", "-1", "--format=%s"], cwd: "/repo" })).stdout).toBe("café\n");
  }, 60_000);

  it("merge -m (a merge commit) and stash push -m: Latin-1 and the warning; a fast-forward warns not", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one", (d) => {
      realGit(d, "checkout", "-q", "-b", "side");
      realGit(d, "commit", "-q", "--allow-empty", "-m", "side");
      realGit(d, "checkout", "-q", "main");
    });
    const disk = diskCopy(base);
    const { ws, git } = await workspaceCopy(base);
    const cli = (...argv: string[]) => git.cli({ argv, cwd: "/repo", env: identityEnv() });
    realSh(disk, `git merge -q --no-ff -m "$(printf 'm\\377')" side`);
    expect(await cli("merge", "-q", "--no-ff", "-m", "m\udcff", "side")).toEqual({ stdout: "", stderr: WARNING, exitCode: 0 });
    expect(bytes((await cli("log", "-1", "--format=%B")).stdout)).toEqual(realSh(disk, "git log -1 --format=%B").stdout);
    expect(bytes((await cli("log", "-1", "--format=%B")).stdout)).toEqual([0x6d, 0xc3, 0xbf, 0x0a, 0x0a]);
    // Already merged: no commit, no warning.
    expect(await cli("merge", "-q", "-m", "m\udcff", "side")).toEqual({ stdout: "", stderr: "", exitCode: 0 });

    await ws.fs.writeFile("/repo/a.txt", "changed\n");
    const pushed = await cli("stash", "push", "-q", "-m", "s\udcff");
    expect(pushed).toEqual({ stdout: "", stderr: WARNING, exitCode: 0 });
    expect((await cli("stash", "list")).stdout).toBe("stash@{0}: On main: s\u00ff\n");
    expect(bytes((await cli("log", "-1", "--format=%s", "refs/stash")).stdout)).toEqual([...Buffer.from("On main: s\u00ff\n")]);
  }, 60_000);

  it("--format and --pretty keep the byte and print it, as real git", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one");
    const disk = diskCopy(base);
    const { git } = await workspaceCopy(base);
    for (const [argv, script] of [
      [["log", "-1", "--format=%s\udcff"], `git log -1 --format="%s$(printf '\\377')"`],
      [["show", "-s", "--format=\udce9%s"], `git show -s --format="$(printf '\\351')%s"`],
      [["log", "-1", "--pretty=tformat:%s\udcc3"], `git log -1 --pretty="tformat:%s$(printf '\\303')"`],
    ] as const) {
      const ours = await git.cli({ argv: [...argv], cwd: "/repo" });
      expect([ours.stderr, ours.exitCode]).toEqual(["", 0]);
      expect(bytes(ours.stdout)).toEqual(realSh(disk, script).stdout);
    }
  }, 60_000);
});

describe("fix26 (GC): an argument naming something with a byte that is not UTF-8 is refused (exit 128), nothing made", () => {
  it("branch, tag, checkout -b, switch -c, pathspecs, revisions, remote, config, -C: EILSEQ, 128, no change", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one");
    const { ws, git } = await workspaceCopy(base);
    const cli = (argv: string[]) => git.cli({ argv, cwd: "/repo", env: identityEnv() });
    const refusal = (sub: string, arg: string) =>
      `git ${sub}: '${arg}': Invalid or incomplete multibyte or wide character (EILSEQ: names, refs and paths in the Workspace are UTF-8 only)\n`;
    const cases: [string[], string, string][] = [
      [["branch", "b\udcff"], "branch", "b\udcff"],
      [["branch", "b", "main\udcff"], "branch", "main\udcff"],
      [["tag", "t\udcff"], "tag", "t\udcff"],
      [["tag", "-d", "t\udcff"], "tag", "t\udcff"],
      [["checkout", "-b", "c\udcff"], "checkout", "c\udcff"],
      [["checkout", "-q", "-bc\udcff"], "checkout", "c\udcff"],
      [["switch", "-c", "s\udce9"], "switch", "s\udce9"],
      [["switch", "--create=s\udce9"], "switch", "s\udce9"],
      [["add", "x\udcff"], "add", "x\udcff"],
      [["add", "--", "x\udcff"], "add", "x\udcff"],
      [["rm", "--cached", "a\udcff"], "rm", "a\udcff"],
      [["checkout", "--", "a\udcff"], "checkout", "a\udcff"],
      [["log", "main\udcff"], "log", "main\udcff"],
      [["rev-parse", "\udcff"], "rev-parse", "\udcff"],
      [["remote", "add", "o\udcff", "https://example.com/r.git"], "remote", "o\udcff"],
      [["config", "user.name", "C\udce9"], "config", "C\udce9"],
      [["config", "a.b\udce9", "v"], "config", "a.b\udce9"],
      [["init", "-b", "m\udcff", "/other"], "init", "m\udcff"],
    ];
    const got = [];
    for (const [argv, sub, arg] of cases) {
      got.push([argv.join(" "), await cli(argv)]);
      expect(got.at(-1)).toEqual([argv.join(" "), { stdout: "", stderr: refusal(sub, arg), exitCode: 128 }]);
    }
    expect(await cli(["-C", "/repo\udcff", "status"])).toEqual({ stdout: "", stderr: "git: '/repo\udcff': Invalid or incomplete multibyte or wide character (EILSEQ: names, refs and paths in the Workspace are UTF-8 only)\n", exitCode: 128 });
    // Nothing was made: the refs, the index, the config and the tree are as before.
    expect((await cli(["branch"])).stdout).toBe("* main\n");
    expect((await cli(["tag"])).stdout).toBe("");
    expect((await cli(["status", "--porcelain"])).stdout).toBe("");
    expect((await cli(["remote"])).stdout).toBe("");
    expect((await cli(["config", "user.name"])).exitCode).toBe(1);
    expect(await ws.fs.stat("/other").then(() => "exists", (e: { code?: string }) => e.code)).toBe("ENOENT");
  }, 60_000);

  it("escapes that form UTF-8 together name that character: branch é is made", async () => {
    const base = committedRepo({ "a.txt": "a\n" }, "one");
    const { git } = await workspaceCopy(base);
    expect(await git.cli({ argv: ["branch", "\udcc3\udca9"], cwd: "/repo" })).toEqual({ stdout: "", stderr: "", exitCode: 0 });
    expect((await git.cli({ argv: ["branch"], cwd: "/repo" })).stdout).toBe("* main\n  é\n");
  }, 60_000);
});
