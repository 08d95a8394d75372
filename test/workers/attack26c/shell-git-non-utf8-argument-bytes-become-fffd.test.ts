/**
 * Issue 20, twenty-sixth attack run: run 25 made git's OUTPUT keep bytes that are not UTF-8 (U+DC00 + byte escapes the
 * shell writes back as the byte). The way IN was left: a shell word holding such a byte (`$(printf 'a\377b')`,
 * `$'\351'`) reaches the `git` built-in as that escape (src/backends/worker-shell/commands.ts passes args/env as they
 * are), and git encodes the lone surrogate as U+FFFD — in a commit message, an identity from `GIT_AUTHOR_NAME`, and a
 * tag/branch NAME, silently (exit 0, no warning).
 *
 * Tried: in the shell with git configured, `git commit -m "$(printf 'a\377b')"`, `GIT_AUTHOR_NAME="$(printf 'N\351')"
 * GIT_AUTHOR_EMAIL=… git commit`, `git tag "$(printf 't\377')"`; the same in git 2.39.5 (Debian) for the expected bytes.
 * Held: the commits are made; a file's bytes (`printf 'x\377y'` committed, then `x\376y`) come out of `git diff` as
 * git's (`-x\377y` / `+x\376y`); `git status` is right.
 *
 * Found (low-medium — silent change of the caller's data; 3 of 3 runs): `git log -1 --format=%s | od` → `61 ef bf bd 62`
 * (U+FFFD), the author `4e ef bf bd`; `git tag` makes a tag named `t\uFFFD` (`74 ef bf bd`), rc 0 — another name than
 * the one given. Real git 2.39 (verify_utf8 in commit_tree_extended) reads a byte that is not UTF-8 as Latin-1: the
 * commit object holds `61 c3 bf 62` and `4e c3 a9`, stderr says `Warning: commit message did not conform to UTF-8.`;
 * it makes the tag `t\xff` byte for byte (which a Workspace cannot name, so an error is the honest answer there).
 *
 * Suggested fix: in the git built-in (or git.cli's commit/identity input), turn a U+DC00+byte escape in a message or
 * identity into U+0000+byte (git's Latin-1 repair) and print git's warning; refuse a ref name holding one (exit 128,
 * `fatal: '…' is not a valid tag name.`, or EILSEQ as the shell's file names) instead of storing U+FFFD.
 *
 * Fixed (fixer GC): the git CLI reads such bytes in one place (src/git/cli/parse.ts `readBytes`, called by
 * src/git/cli.ts for every subcommand): in a commit's text (`commit -m`/`--author`, `merge -m`, `stash -m`, the
 * GIT_AUTHOR_/GIT_COMMITTER_ NAME/EMAIL variables) a byte that is not UTF-8 is its Latin-1 character, as git 2.39,
 * with git's three-line `Warning: commit message did not conform to UTF-8.` on stderr once the commit is written;
 * `--format`/`--pretty` keep it; in any other argument (ref/branch/tag name, pathspec, revision, remote, config,
 * `-C`) the command is refused, exit 128, `git <sub>: '<arg>': Invalid or incomplete multibyte or wide character
 * (EILSEQ: …)`, nothing made. Siblings: test/node/fix26/git-cli-non-utf8-args.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

describe("attack26c: bytes that are not UTF-8 in git's arguments and identity", () => {
  it("a commit message and author keep git's Latin-1 reading of the byte; a tag is not silently renamed", { timeout: 120_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      return sh(
        ws,
        [
          "git init -q; echo a > a; git add a",
          `git commit -q -m "$(printf 'a\\377b')" 2>/dev/null; echo rc=$?`,
          "git log -1 --format=%B | od -An -tx1",
          `GIT_AUTHOR_NAME="$(printf 'N\\351')" GIT_AUTHOR_EMAIL=n@example.com git commit -q --allow-empty -m two 2>/dev/null`,
          "git log -1 --format=%an | od -An -tx1",
          `git tag "$(printf 't\\377')" 2>/dev/null; echo rc=$?; git tag | od -An -tx1`,
          `git commit -q --allow-empty -m "$(printf 'c\\351')" 2>&1 >/dev/null`,
        ].join("\n"),
        { cwd: "/workspace/r" },
      );
    }, withGit);
    const [commitRc, message, author, tagRc, ...warning] = r.stdout.split("\n");
    // Found: [rc=0, " 61 ef bf bd 62 0a 0a", " 4e ef bf bd 0a", "rc=0", " 74 ef bf bd 0a", ""].
    expect([commitRc, message, author]).toEqual(["rc=0", " 61 c3 bf 62 0a 0a", " 4e c3 a9 0a"]);
    // git 2.39 makes the tag t\xff itself; a Workspace that cannot name it refuses (128) and makes no tag (`git tag`
    // prints nothing). git's warning goes to stderr, -q or not.
    expect(tagRc).toBe("rc=128");
    expect(warning).toEqual([
      "Warning: commit message did not conform to UTF-8.",
      "You may want to amend it after fixing the message, or set the config",
      "variable i18n.commitEncoding to the encoding your project uses.",
      "",
    ]);
  });
});
