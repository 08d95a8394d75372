/**
 * Issue 20, twenty-fourth attack run: the shell backend writes a whole file as ONE Workers RPC argument
 * (`ShellHostTarget.writeFile`, src/backends/worker-shell/backend.ts, called by the isolate's `WorkspaceFsAdapter`),
 * and workerd refuses any RPC value past 32 MiB. A command that writes a file past 32 MiB through the filesystem (not
 * stdout, which just-bash bounds at 16 MiB) — `sed -i` growing a file — fails with the uncoded workerd error, which
 * just-bash reports as `No such file or directory` for the file it has just read.
 *
 * Sibling of shell-read-between-32-and-64-mib-says-enoent (the read side) and of run 23's artifacts-stub finding.
 *
 * Tried: a Workspace with the shell backend in real workerd; /workspace/f.txt of 20 MiB of "a";
 * `sed -i 's/a/aa/g' f.txt` (40 MiB result); `cp f.txt g.txt; gzip -k g.txt`; `cat g.txt g.txt > h.txt`.
 * Held: the failed sed keeps f.txt whole (20,971,520 bytes, nothing torn); cp and gzip -k work; `cat … > h.txt`
 * stops at the documented 16 MiB output limit with its own message.
 *
 * Found (medium; 3 of 3 runs): `sed -i 's/a/aa/g' f.txt` → exit 1, `sed: f.txt: No such file or directory` — GNU sed
 * writes the 41,943,040-byte result; the Workspace holds files of any size; nothing says the size is the reason.
 *
 * Suggested fix: send a write past ~30 MiB from the isolate as a stream (or in ranges the host joins), as the host's
 * `writeFile` accepts a ReadableStream; at the least map an uncoded RPC error to EFBIG/EIO with its message, never ENOENT.
 *
 * Fixed: the adapter's `writeFile` sends content past 16 MiB (`RPC_BYTES_AT_ONCE`, src/util/rpc-bytes.ts) as a
 * stream of 1 MiB copies (`byteStream`), which the host's `writeFile` stores atomically as before; `appendFile` does
 * the same through the host's `appendBytes`, which now takes a stream too. `sed -i` writes the whole 41,943,040-byte
 * result (exit 0), the expectation tightened to that. Siblings (`>>` of 40 MiB, a `>` redirect) in
 * test/workers/fix24/shell-rpc-data.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const SIZE = 20 * 1024 * 1024;

describe("attack24c: sed -i growing a 20 MiB file to 40 MiB in the shell", () => {
  it("writes the 40 MiB result (or names the size), never 'No such file or directory'", { timeout: 300_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/f.txt", new Uint8Array(SIZE).fill(97));
      const s = await sh(ws, "sed -i 's/a/aa/g' f.txt", { cwd: "/workspace", timeoutMs: 200_000 });
      return { exitCode: s.exitCode, stderr: s.stderr, size: (await ws.fs.stat("/workspace/f.txt")).size };
    });
    expect(r).toEqual({ exitCode: 0, stderr: "", size: 2 * SIZE });
  });
});
