/**
 * Issue 20, sixteenth attack run: an exec handle's `result()` through a remote client is not measured
 * before it crosses RPC — past 32 MiB the caller gets workerd's bare serialization error.
 *
 * Tried: `getWorkspace(stub)` over real Workers RPC (src/do/exec-handle-stub.ts `result()`), a JavaScript
 * run printing 40,000,020 bytes with `output: false` (documented: keep all output in the result; the
 * JavaScript backend keeps up to 64 MiB a stream, a container run up to MAX_REMOTE_OUTPUT_BYTES, 64 MiB).
 * (Held: with the default output limits the result keeps a 64 KiB tail and saves the rest to a file; a
 * 40 MB return value is refused in the object; the fs stub and `pending()` measure their answers,
 * src/do/rpc-size.ts.)
 *
 * Found (low; 2 of 2 runs): `result()` rejects with `Serialized RPC arguments or return values are limited
 * to 32MiB, but the size of this value was: 40000174 bytes.` — no `code`, not a WorkspaceRuntimeError,
 * nothing saying that the event stream or output limits would work; the run itself completed in the
 * object. The same run read as the handle's event stream crosses fine.
 *
 * Suggested fix: measure the result in the exec handle stub (`estimateRpcSize`, MAX_FS_RPC_RESULT_BYTES)
 * and reject with WorkspaceRuntimeError `E2BIG` saying to read the handle's events instead or to keep
 * `output` limits on (the saved output file holds the rest), as `checkPendingRpcResult` does.
 * Fixed: the exec handle stub's `result()` measures the result (src/do/rpc-size.ts `checkExecRpcResult`,
 * estimateRpcSize against MAX_FS_RPC_RESULT_BYTES, 30 MiB) and rejects WorkspaceRuntimeError E2BIG naming the
 * execution, the limit, and the way out (runtime.getExec(id) and its event stream, or the output limits).
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";

const agent = () => env.CLIENT_EXEC_AGENT.get(env.CLIENT_EXEC_AGENT.newUniqueId());

describe("attack16c: exec result() over RPC", () => {
  it("a 40 MB result() with output: false rejects E2BIG with a way out, not workerd's bare error", { timeout: 60_000 }, async () => {
    using ws = await getWorkspace(agent());
    using handle = await ws.runtime.exec('export default () => { for (let i = 0; i < 20; i++) console.log("x".repeat(2_000_000)); return 1; }', {
      encoding: "utf8",
      output: false,
    });
    let message = "";
    const outcome = await handle.result().then(
      (r: { stdout: string }) => `resolved ${r.stdout.length}`,
      (e: { code?: string; message?: string }) => {
        message = String(e.message);
        return `${e.code} ${/32 ?MiB/.test(String(e.message))} ${/events|stream/.test(String(e.message))}`;
      },
    );
    // Found: "undefined true false" — workerd's "Serialized RPC arguments or return values are limited to 32MiB, …".
    expect(outcome).toBe("E2BIG true true");
    expect(message).toBe(
      `the result of execution ${handle.id} is over 31457280 bytes with its output, more than crosses RPC (workerd's limit is 32 MiB); read its events instead (runtime.getExec("${handle.id}") and its stream, which crosses in chunks), or keep the output limits on (the result keeps a tail and the whole output is saved to a file)`,
    );
  });
});
