/**
 * Issue 20, twenty-fifth attack run, fixer FG — siblings of
 * test/workers/attack25c/shell-git-show-binary-blob-mangled.test.ts in the shell (real workerd): the patch of a text
 * that is not UTF-8 keeps its bytes and one with a NUL is `Binary files … differ` (git 2.39's bytes, taken from real
 * git on the same files); `git show <commit>` the same; a blob past the 12 Mi-character clip keeps its bytes up to it
 * (a byte that is not UTF-8 counts as one character) with the note and exit 1. (A blob of 0xff only is refused by
 * the redirect instead — `bash: redirection: total output size exceeded (>16777216 bytes)`: just-bash measures the
 * text, three bytes an escape, against the 16 MiB output bound; the same before, with U+FFFD.)
 */
import { describe, expect, it } from "vitest";
import { createGitClient } from "../../../src/git/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const withGit = { workspace: { git: createGitClient(), defaultGitIdentity: { name: "Shell User", email: "shell@example.com" } } };
const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const bytesOf = async (stream: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(stream).arrayBuffer());

/** `git diff` of the two files, as git 2.39.5 prints it (blob ids of these exact contents). */
const REAL_DIFF =
  "diff --git a/bin.dat b/bin.dat\nindex 4bb17c5..6a7ef82 100644\nBinary files a/bin.dat and b/bin.dat differ\n" +
  "diff --git a/t.txt b/t.txt\nindex 6f83395..cadb7b0 100644\n--- a/t.txt\n+++ b/t.txt\n@@ -1 +1 @@\n-caf\xe9\n+caf\xe9 au lait\n";

describe("fix25 (FG): the shell's git keeps bytes that are not UTF-8", () => {
  it("git diff and git show <commit> of a Latin-1 text and a binary file write git's bytes", async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      await ws.fs.writeFile("/workspace/r/t.txt", latin1("caf\xe9\n"));
      await ws.fs.writeFile("/workspace/r/bin.dat", latin1("\x89PNG\xff\x00\xc3(\n"));
      const s = await sh(
        ws,
        [
          "git init -q; git add .; git commit -q -m one",
          "printf 'caf\\351 au lait\\n' > t.txt; printf '\\211PNG\\377\\000\\303)\\n' > bin.dat",
          "git diff > ../d.patch; echo rc=$?",
          "git commit -q -am two; git show --format=%s HEAD > ../s.patch; echo rc=$?",
          "git show HEAD~1:t.txt | od -An -tx1",
        ].join("\n"),
        { cwd: "/workspace/r" },
      );
      return {
        s: [s.stdout, s.stderr],
        diff: [...(await bytesOf(await ws.fs.readFile("/workspace/d.patch", { byteOffset: 0 })))],
        show: [...(await bytesOf(await ws.fs.readFile("/workspace/s.patch", { byteOffset: 0 })))],
      };
    }, withGit);
    // Before: each 0xe9 was written as ef bf bd.
    expect(r.s).toEqual(["rc=0\nrc=0\n 63 61 66 e9 0a\n", ""]);
    expect(r.diff).toEqual([...latin1(REAL_DIFF)]);
    expect(r.show).toEqual([...latin1(`two\n\n${REAL_DIFF}`)]);
  });

  it("a 13 MiB blob with a byte 0xff every KiB through git show: clipped at 12 Mi characters, bytes kept, the note, exit 1", { timeout: 300_000 }, async () => {
    const size = 13 * 1024 * 1024;
    const blob = new Uint8Array(size).fill(0x61);
    for (let i = 1023; i < size; i += 1024) blob[i] = 0xff;
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/r", { recursive: true });
      await ws.fs.writeFile("/workspace/r/big.bin", blob);
      const s = await sh(ws, "git init -q; git add .; git commit -q -m one\ngit show HEAD:big.bin > ../out.bin; echo rc=$?", { cwd: "/workspace/r", timeoutMs: 200_000 });
      const out = await bytesOf(await ws.fs.readFile("/workspace/out.bin", { byteOffset: 0 }));
      return { s: [s.stdout, s.stderr], length: out.byteLength, differs: out.findIndex((b, i) => b !== blob[i]) };
    }, withGit);
    // A byte that is not UTF-8 is one character of the 12 Mi (U+FFFD, three bytes, before).
    const note = `git: output clipped: stdout was ${size} characters and stderr 0; at most ${12 * 1024 * 1024} cross RPC — narrow the command (a path, -n <count>)\n`;
    expect(r).toEqual({ s: ["rc=1\n", note], length: 12 * 1024 * 1024 - note.length - 1, differs: -1 });
  });
});
