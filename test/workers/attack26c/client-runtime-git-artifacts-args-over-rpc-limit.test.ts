/**
 * Issue 20, twenty-sixth attack run: run 24 (FC2) made the remote client's `fs` turn workerd's refusal of RPC
 * arguments past 32 MiB into `WorkspaceFsError` `E2BIG` (src/do/remote-fs.ts), and run 25 routed `assets.share`
 * through `callRemote`. The client's other members — `runtime.exec`/`respond`, `git.cli` and the ten `artifacts`
 * methods (src/do/client.ts, src/do/runtime-client.ts) — go through `callRemote` only, which rebuilds coded errors
 * and passes workerd's uncoded size error on as it is.
 *
 * Tried: `getWorkspace(env.GIT_AGENT.get(id))` (real Workers RPC; shell + JavaScript backends, git) from the test
 * Worker: `runtime.exec("wc -c", { stdin: 40 MiB })`, `git.cli({ argv: ["hash-object", "--stdin"], stdin: 40 MiB })`,
 * `artifacts.get(<40 MiB name>)`, `runtime.respond(<40 MiB id>, "1", 1)`.
 * Held: every call rejects (nothing runs), the client goes on answering afterwards.
 *
 * Found (low; 3 of 3 runs): all four reject a plain `Error` `Serialized RPC arguments or return values are limited to
 * 32MiB, but the size of this value was: 41943135 bytes.` with `code` undefined — where the same client's
 * `fs.writeFile`/`fs.stat` answer `E2BIG`, and in the object the exec and git calls succeed (a container backend
 * refuses the stdin with RangeError `E2BIG`, MAX_REMOTE_STDIN_BYTES).
 *
 * Suggested fix: one wrapper for every remote call (client.ts, runtime-client.ts) that maps `isRpcSizeError` to a
 * coded `E2BIG` error naming the method, as remote-fs.ts does; and send `exec`'s and `git.cli`'s `stdin` past
 * `RPC_BYTES_AT_ONCE` as a byte stream, as `writeFile` content is.
 *
 * Fixed: `callRemote(run, method, tooLarge)` (src/do/remote-error.ts) turns workerd's size refusal into an error with
 * `code` `E2BIG` whose message names the call, the 32 MiB limit and workerd's text; every remote client call passes
 * its name — `runtime.*` and the handle's `exec.*` (WorkspaceRuntimeError), `git.cli` and `assets.share` (Error),
 * `artifacts.*` (ArtifactError). The stdin of `exec` and `git.cli` is not streamed: the stubs take a string or bytes
 * only (a stream would need both sides of the RPC protocol to change), so past 32 MiB it is `E2BIG` naming the limit
 * and saying to put the input in a Workspace file (`fs.writeFile` streams it). Siblings (getExec, killExec,
 * disposeExec, pending, the handle's kill, assets.share, artifacts.create; exact messages; a 20 MiB stdin still
 * working) in test/workers/fix26/client-calls-over-rpc-limit.test.ts.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";

const SIZE = 40 * 1024 * 1024;

async function code(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
    return "ok";
  } catch (error) {
    return (error as { code?: unknown }).code ?? null;
  }
}

describe("attack26c: remote client calls whose arguments pass 32 MiB", () => {
  it("runtime.exec, git.cli, artifacts.get and runtime.respond reject E2BIG (or work), never the uncoded error", { timeout: 300_000 }, async () => {
    using ws = await getWorkspace(env.GIT_AGENT.get(env.GIT_AGENT.newUniqueId()));
    const got = {
      exec: await code(async () => (await ws.runtime.exec("wc -c", { stdin: new Uint8Array(SIZE).fill(97), encoding: "utf8" })).result()),
      git: await code(() => ws.git.cli({ argv: ["hash-object", "--stdin"], cwd: "/workspace", stdin: "a".repeat(SIZE) })),
      artifacts: await code(() => ws.artifacts.get("x".repeat(SIZE))),
      respond: await code(() => ws.runtime.respond("a".repeat(SIZE), "1", 1)),
    };
    // The client still answers.
    expect(await code(() => ws.fs.writeFile("/after.txt", "ok"))).toBe("ok");
    // Found: { exec: null, git: null, artifacts: null, respond: null }.
    expect(got).toEqual({ exec: "E2BIG", git: "E2BIG", artifacts: "E2BIG", respond: "E2BIG" });
  });
});
