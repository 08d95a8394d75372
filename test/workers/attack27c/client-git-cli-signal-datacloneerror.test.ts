/**
 * Issue 20, twenty-seventh attack run: a remote client's `git.cli` passes its input to workerd as it is, so the
 * documented `signal` member of `GitCliInput` (docs/git.md "Cancelling": "`cli` takes it too") makes every call
 * reject with workerd's `DOMException` `DataCloneError: AbortSignal serialization is not enabled.` — `code` 25 (a
 * number), no `E…` code, and the command never runs — even when the signal never aborts. In the object the same
 * input runs the command (and an aborted signal gives exit 1 `git status: cancelled: …`).
 *
 * Tried: `getWorkspace(env.GIT_AGENT.get(id))` (real Workers RPC) and `getWorkspace(instance)` in the object:
 * `git.cli({ argv: ["status"], cwd: "/r", signal })` with a live `AbortController`'s signal and with one aborted
 * before the call; the other `git.cli` input shapes (argv not an array, a number `cwd`, `stdin` as bytes or a
 * number, `signal: {}`) and the fs/runtime errors of a dozen calls, remote against local.
 * Held: every other input shape answers the same remotely as locally (129 usage lines, the hash of byte stdin);
 * fs errors keep their class, code and message; runtime errors keep `name` and `code` (documented as plain `Error`).
 *
 * Found (low — a documented option that only breaks over RPC, with an uncoded error; 2 of 2 runs).
 *
 * Suggested fix: src/do/client.ts (the remote `git.cli`): take `signal` out of the input before the stub call; an
 * already-aborted signal answers as the object would (exit 1, `git <sub>: cancelled: <reason>; it did not start, so
 * nothing changed`) without calling; a live one can be dropped (say so in docs/durable-objects.md) or, when
 * workerd's AbortSignal RPC is enabled, passed. At the least, reject with a coded `EINVAL` naming `signal`.
 *
 * Fixed: src/do/client.ts `remoteCliInput` takes `signal` out before the stub call — an already-aborted one is sent
 * as its reason's message under `GIT_CLI_ABORTED` (src/do/symbol.ts) and src/do/git-stub.ts runs the command with a
 * signal aborted for that reason (so usage errors and `version` answer as in the object); a live one is dropped (a
 * later abort is not forwarded; docs/git.md "Cancelling"). Siblings: test/workers/fix27/git-cli-signal-gd.test.ts.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";

async function settle(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    const e = error as Error & { code?: unknown };
    return { rejected: e?.name, code: e?.code, message: e?.message };
  }
}

describe("attack27c: remote git.cli with a signal", () => {
  it("runs the command as in the object (a live signal changes nothing, an aborted one cancels)", { timeout: 120_000 }, async () => {
    using ws = await getWorkspace(env.GIT_AGENT.get(env.GIT_AGENT.newUniqueId()));
    expect((await ws.git.cli({ argv: ["init", "-q", "/r"] })).exitCode).toBe(0);
    const live = new AbortController();
    const aborted = new AbortController();
    aborted.abort(new Error("stop"));
    const got = {
      live: await settle(() => ws.git.cli({ argv: ["status", "--porcelain=v1"], cwd: "/r", signal: live.signal })),
      aborted: await settle(() => ws.git.cli({ argv: ["status", "--porcelain=v1"], cwd: "/r", signal: aborted.signal })),
    };
    // Was (both): { rejected: "DataCloneError", code: 25, message: "AbortSignal serialization is not enabled." }.
    expect(got).toEqual({
      live: { stdout: "", stderr: "", exitCode: 0 },
      aborted: { stdout: "", stderr: "git status: cancelled: stop; it did not start, so nothing changed\n", exitCode: 1 },
    });
  });
});
