/**
 * Issue 20, thirty-fifth attack run: `split -b 1M big p` of a 40 MiB file fails `split: paa: File too large`,
 * status 1, and writes no part at all; bash 5.2 with GNU coreutils writes 40 parts of 1,048,576 bytes. The shell
 * reads the file whole (within its 64 MiB read bound) and writes each part as a `subarray` of that one buffer; a view
 * crosses Workers RPC to the Durable Object with its whole backing `ArrayBuffer` (V8's structured clone), so each
 * 1 MiB write is a 40 MiB value that workerd refuses past 32 MiB, which fs-adapter.ts turns into `EFBIG`. The
 * size checks on the way count the view's `byteLength` (1 MiB), so the bytes are not sent as a stream either.
 * docs/runtime.md ("Large files and listings cross in pieces") says writes of any size work. The same root cause
 * as client-small-view-of-large-buffer-e2big.test.ts (the remote client's writeFile and exec stdin).
 * Tried: `split -b 1M` of a 40 MiB file; `split -b 10M` of a 20 MiB file; `split -l 1` of the 40 MiB one-line file;
 * `head -c 10`, `tail -c 10`, `cut -c1-10` of the 40 MiB file into files. Differential: bash 5.2.15 + GNU split on
 * this machine: `rc=0`, 40 parts, each 1048576 bytes.
 * Held: `split -b 10M` of a 20 MiB file (backing buffer under 32 MiB: 2 parts); `split -l 1` (one part, 40 MiB,
 * streamed); `head -c 10`, `tail -c 10`, `cut` write their 10 bytes.
 * Found (medium — a wrong result an agent acts on: splitting a large log or dump into pieces, the usual way to get
 * a file under a size limit, fails with "File too large" on a 1 MiB piece and leaves nothing; 2 of 2 runs):
 * stdout `rc=1\n0\n`, stderr `split: paa: File too large\nls: p*: No such file or directory\n`.
 * Suggested fix: where the shell's host adapter sends bytes to the object (src/backends/worker-shell/fs-adapter.ts
 * and the Dynamic Worker's side of the host target, util/rpc-bytes.ts), send a view whose `buffer.byteLength`
 * exceeds its `byteLength` as a compact copy (`bytes.slice()`), or as a stream past 16 MiB; and count a view's
 * backing buffer in the RPC size estimates (src/do/rpc-size.ts `estimateRpcSize`, the isolate's `rpcEstimate`).
 *
 * Fixed: the shell's host adapter sends bytes through src/util/rpc-bytes.ts `sendableBytes` (a compact copy of a view of
 * a larger buffer, a stream past 16 MiB) in writeFile, appendFile and the create-for-append path
 * (src/backends/worker-shell/fs-adapter.ts), its output chunks compact (worker.ts), and the RPC size estimate counts a
 * view's whole buffer (issue 20, run 35, fixer UV). Siblings: test/workers/fix35/rpc-compact-views.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

describe("attack35a: split of a 40 MiB file into 1 MiB parts", () => {
  it("writes 40 parts of 1 MiB, as GNU split does", async () => {
    await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/big", new Uint8Array(40 << 20).fill(0x61));
      const r = await sh(ws, "split -b 1M big p; echo rc=$?; ls p* | wc -l; wc -c < paa; wc -c < pbn", { cwd: "/workspace", timeoutMs: 120_000 });
      // Was: stdout "rc=1\n0\n", stderr "split: paa: File too large\nls: p*: No such file or directory\n…"; no part written.
      expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({ stdout: "rc=0\n40\n1048576\n1048576\n", stderr: "" });
    });
  }, 300_000);
});
