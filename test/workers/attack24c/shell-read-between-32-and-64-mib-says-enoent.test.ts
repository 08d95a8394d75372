/**
 * Issue 20, twenty-fourth attack run: the shell backend reads a whole file in ONE Workers RPC answer
 * (`ShellHostTarget.readBytes`, src/backends/worker-shell/backend.ts, called by the isolate's `WorkspaceFsAdapter`
 * with `maxReadBytes`, default 64 MiB) — but workerd refuses any RPC value past 32 MiB. A file of 32–64 MiB, which the
 * documented bound admits, cannot be read at all, and the uncoded workerd error reaches just-bash, which reports
 * `No such file or directory` for a file `ls -l` and `test -s` see.
 *
 * Sibling of run 23's artifacts-stub finding (an RPC target answering caller-sized data unmeasured): the filesystem
 * stub measures its answers (`checkFsRpcResult`), the git built-in clips (`clipGitResultForRpc`), the shell's
 * per-command RPC target does not.
 *
 * Tried: a Workspace with the shell backend in real workerd; /workspace/big.bin of 40 MiB (41,943,040 bytes of "a")
 * and /workspace/mid.bin of 31 MiB; `wc -c < big.bin`, `sha256sum`, `head -c`, `grep -c`, `gzip -k`, `cp`, `test -s`.
 * Held: mid.bin (31 MiB) reads whole (`wc -c mid.bin` → 32505856); `cp big.bin c.bin` copies all 41,943,040 bytes
 * (it streams through the host's readFile); `ls -l` and `test -s big.bin` see it; writes are bounded by the 16 MiB
 * output limit (`cat: output size limit exceeded`), not by RPC.
 *
 * Found (medium; 3 of 3 runs): every whole-file read of big.bin fails with ENOENT — `wc -c < big.bin` → exit 1,
 * `bash: big.bin: No such file or directory`; `sha256sum big.bin` → `sha256sum: big.bin: No such file or directory`;
 * `head -c 5 big.bin` → `head: big.bin: No such file or directory`; `gzip -k` likewise. A script that checks
 * `[ -e f ] || …` then reads it, or an agent told "No such file or directory" for a file it just listed, goes wrong.
 * Files under 64 MiB are documented as readable (EFBIG only past `maxReadBytes`).
 *
 * Suggested fix: in the isolate, read through the host's stream form (`readFile` without an encoding: it crosses in
 * chunks) whenever the stat size is over ~30 MiB, or have `readBytes` answer ranges of at most ~16 MiB that the
 * adapter joins; and never let an uncoded RPC error become ENOENT (map it to EIO/EFBIG with the real message).
 *
 * Fixed: the host's `readBytes` answers a file's bytes in one RPC answer up to 16 MiB (`RPC_BYTES_AT_ONCE`,
 * src/util/rpc-bytes.ts) and past that a stream of them (`continuedStream`: the bytes read so far, then the rest,
 * ending after the chunk that passes `maxBytes`); the adapter (`WorkspaceFsAdapter`, fs-adapter.ts) reads a stream
 * answer as it reads `fs.readFile`'s, refusing it with EFBIG past `maxReadBytes`. An uncoded workerd size error is
 * mapped to EFBIG (reads, writes) or EIO (others) with workerd's text, never passed on for just-bash to call ENOENT.
 * Siblings (a 64 MiB + 1 file still `File too large`, `sha256sum` of a 24 MiB file, the mapping) in
 * test/workers/fix24/shell-rpc-data.test.ts and test/node/fix24/shell-rpc-answers.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const SIZE = 40 * 1024 * 1024;

describe("attack24c: the shell reads a 40 MiB file (under its 64 MiB maxReadBytes)", () => {
  it("wc, sha256sum and head read it whole instead of saying 'No such file or directory'", { timeout: 300_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/big.bin", new Uint8Array(SIZE).fill(97));
      const out: [string, number, string, string][] = [];
      for (const cmd of ["test -s big.bin && echo listed", "wc -c < big.bin", "head -c 5 big.bin; echo", "grep -c a big.bin"]) {
        const s = await sh(ws, cmd, { cwd: "/workspace", timeoutMs: 200_000 });
        out.push([cmd, s.exitCode, s.stdout, s.stderr]);
      }
      return out;
    });
    expect(r).toEqual([
      ["test -s big.bin && echo listed", 0, "listed\n", ""],
      ["wc -c < big.bin", 0, `${SIZE}\n`, ""],
      ["head -c 5 big.bin; echo", 0, "aaaaa\n", ""],
      ["grep -c a big.bin", 0, "1\n", ""],
    ]);
  });
});
