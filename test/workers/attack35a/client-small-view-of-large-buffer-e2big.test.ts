/**
 * Issue 20, thirty-fifth attack run: through a remote client (getWorkspace(stub) in a Worker), a call whose
 * argument is a small `Uint8Array` view into a large `ArrayBuffer` — `bytes.subarray(a, b)` of a downloaded or read
 * buffer, the usual way to cut a binary into pieces — is refused `E2BIG` ("the call is over 32 MiB"), nothing
 * written, even for 10 bytes. The client sizes the argument by the view's `byteLength` (remote-fs.ts `sentArguments`,
 * rpc-size.ts `estimateRpcSize`), but workerd (V8's structured clone) serializes a view with its whole backing
 * `ArrayBuffer`: a 10-byte view of a 40 MiB buffer is a 41,943,076-byte value. The same holds for `runtime.exec`'s
 * `stdin`. Between 16 and 32 MiB of backing buffer the call goes through but carries the whole buffer each time.
 * Tried: fs.writeFile with a 10-byte view at offset 1000 of a 40 MiB ArrayBuffer; with a 3-byte view of a 20 MiB
 * buffer; a DataView and a Uint16Array; runtime.exec with a 3-byte stdin view of a 40 MiB buffer. Differential:
 * Node 22's fs.promises.writeFile(path, view) writes exactly the view's bytes, whatever the buffer's size; the
 * Workspace's own fs.writeFile (in the object) does too.
 * Held: a view whose own length is past 16 MiB is streamed (only its bytes); the 20 MiB-buffer case writes "BBB";
 * DataView and Uint16Array views write their bytes; a refused call leaves no file behind.
 * Found (medium — a Worker that splits a fetched archive or a large read into files gets E2BIG for every piece, with
 * a message saying its 10-byte call is over 32 MiB, and nothing is written; 3 of 3 runs): writeFile of 10 bytes
 * rejects `E2BIG` "writeFile: the call is over 32 MiB, more than crosses RPC (Serialized RPC arguments or return
 * values are limited to 32MiB, but the size of this value was: 41943076 bytes.)"; readFile then ENOENT.
 * Suggested fix: src/do/remote-fs.ts `sentArguments` (and the runtime client's exec options, runtime-client.ts):
 * when an ArrayBufferView's `buffer.byteLength` is larger than its `byteLength`, send a compact copy
 * (`new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice()`), or stream it past 16 MiB as now; and have
 * rpc-size.ts `estimateRpcSize` count a view as its backing buffer's `byteLength`, which is what V8 serializes.
 *
 * Fixed: the remote client's writeFile and runtime.exec send a view of a larger ArrayBuffer as a compact copy of its
 * own bytes (src/util/rpc-bytes.ts `compactView`, used in src/do/remote-fs.ts `sentArguments` and
 * src/do/runtime-client.ts `sentExecOptions`), and src/do/rpc-size.ts `estimateRpcSize` counts a view's whole backing
 * buffer, as structured clone sends it (issue 20, run 35, fixer UV). Siblings: test/workers/fix35/rpc-compact-views.test.ts.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { freshAgent } from "../client/helpers.js";

const MIB = 1024 * 1024;

describe("attack35a: a small view of a large ArrayBuffer through the remote client", () => {
  it("fs.writeFile writes the view's 10 bytes, as Node's fs.writeFile does", async () => {
    using ws = await getWorkspace(freshAgent());
    await ws.fs.mkdir("/workspace", { recursive: true });
    const view = new Uint8Array(new ArrayBuffer(40 * MIB), 1000, 10);
    view.fill(0x41);
    // Was: rejects WorkspaceFsError E2BIG "writeFile: the call is over 32 MiB … 41943076 bytes …"; the file is absent.
    await ws.fs.writeFile("/workspace/piece.bin", view);
    expect(await ws.fs.readFile("/workspace/piece.bin", "utf8")).toBe("AAAAAAAAAA");
  });

  it("runtime.exec takes a 3-byte stdin view of a 40 MiB buffer", async () => {
    using ws = await getWorkspace(env.CLIENT_EXEC_AGENT.get(env.CLIENT_EXEC_AGENT.newUniqueId()));
    const stdin = new Uint8Array(new ArrayBuffer(40 * MIB), 7, 3);
    stdin.fill(0x61);
    // Was: rejects WorkspaceRuntimeError E2BIG "runtime.exec: the call is over 32 MiB …"; nothing run.
    using handle = await ws.runtime.exec(`export default 1`, { stdin, encoding: "utf8" });
    expect((await handle.result()).status).toBe("completed");
  });
});
