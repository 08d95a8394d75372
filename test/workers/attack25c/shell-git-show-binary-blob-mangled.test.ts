/**
 * Issue 20, twenty-fifth attack run: in the shell, `git show <rev>:<file>` and `git cat-file -p` of a blob that is not
 * UTF-8 write U+FFFD (`ef bf bd`) for every byte that is not UTF-8 — silently, exit 0. The git CLI decodes the blob
 * with `decodeUtf8` (src/git/cli/commands.ts, `ctx.out(decodeUtf8(object.bytes))`) and the shell's `git` built-in
 * gets that string over RPC (`ShellHostTarget.git`), so the bytes are gone before the shell sees them. Since run 24
 * the shell itself keeps bytes that are not UTF-8 through pipes, redirects and its own stdout (surrogate escapes,
 * src/util/utf8-escape.ts) — the git built-in is the path left lossy. "Restore the logo from the last commit"
 * (`git show HEAD~1:logo.png > logo.png`) writes a broken file and reports success.
 *
 * Tried: a Workspace with the shell backend and `createGitClient()`, real workerd; /workspace/r/bin.dat =
 * 89 50 4e 47 ff 00 c3 28 0a committed; `git show HEAD:bin.dat > out.dat; od -An -tx1 out.dat`;
 * `git cat-file -p HEAD:bin.dat | od -An -tx1`; a 13 MiB text blob through `git show`.
 * Held: text blobs come back byte for byte; the 13 MiB blob is clipped at the documented MAX_GIT_RPC_OUTPUT_CHARS (12 Mi) with the
 * `git: output clipped: …` note and exit 1.
 *
 * Found (medium — silent data corruption; 3 of 3 runs): both print ` ef bf bd 50 4e 47 ef bf bd 00 ef bf bd 28 0a`
 * (15 bytes for 9), `git show` exits 0. git 2.39: ` 89 50 4e 47 ff 00 c3 28 0a`.
 *
 * Suggested fix: let the git CLI hand the shell a blob's bytes unchanged — decode with the surrogate escape
 * (`utf8EscapeDecode`, which the shell's output encodes back byte for byte) for the shell built-in, or have
 * `git.cli` return stdout as bytes when asked (`{ stdoutBytes: true }`) and the built-in write them as its stdout.
 *
 * Fixed: the git CLI decodes a blob it prints (`show <rev>:<path>`, `cat-file -p`) with `utf8EscapeDecode`
 * (src/git/cli/commands.ts), and the patch of a text that is not UTF-8 throughout (`diff`, `log -p`, `show <commit>`;
 * src/git/ops/diff.ts) too: a byte that is not UTF-8 is U+DC00 + byte in `stdout`, which crosses RPC as it is and
 * the shell writes back as that byte. The 12 Mi-character clip stays a character bound (such a byte is one
 * character, two bytes on the wire: at most 24 MiB plus the note, under workerd's 32 MiB). Siblings in
 * test/workers/fix25/git-binary-bytes.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };

describe("attack25c: git show of a blob that is not UTF-8, in the shell", () => {
  it("writes the blob's bytes (git show > file, cat-file -p | od)", async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      await ws.fs.writeFile("/workspace/r/bin.dat", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0xc3, 0x28, 0x0a]));
      const s = await sh(
        ws,
        [
          "git init -q; git add .; git commit -q -m one",
          "git show HEAD:bin.dat > out.dat; echo rc=$?; od -An -tx1 out.dat",
          "git cat-file -p HEAD:bin.dat | od -An -tx1",
        ].join("\n"),
        { cwd: "/workspace/r" },
      );
      return { s, bytes: [...(await ws.fs.readFile("/workspace/r/out.dat", { byteOffset: 0 }).then(async (st) => new Uint8Array(await new Response(st).arrayBuffer())))] };
    }, withGit);
    // Found: "rc=0\n ef bf bd 50 4e 47 ef bf bd 00 ef bf bd 28 0a\n" twice over; out.dat holds 15 bytes.
    expect([r.s.stdout, r.s.stderr, r.bytes]).toEqual([
      "rc=0\n 89 50 4e 47 ff 00 c3 28 0a\n 89 50 4e 47 ff 00 c3 28 0a\n",
      "",
      [0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0xc3, 0x28, 0x0a],
    ]);
  });
});
