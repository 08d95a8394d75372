/**
 * Issue 20, twenty-sixth run, fixer RC (siblings of attack26c/client-runtime-git-artifacts-args-over-rpc-limit): every
 * call of a remote client whose arguments workerd refuses past 32 MiB rejects with `code` `E2BIG` naming the call
 * (src/do/remote-error.ts `callRemote(run, method, tooLarge)`), in the class of its area; nothing runs and the client
 * goes on. A `stdin` that fits (20 MiB) still crosses whole.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";

const SIZE = 40 * 1024 * 1024;
const BIG = "x".repeat(SIZE);

async function failure(run: () => Promise<unknown>): Promise<{ name: string; code: unknown; message: string } | "ok"> {
  try {
    await run();
    return "ok";
  } catch (error) {
    const e = error as Error & { code?: unknown };
    return { name: e.name, code: e.code, message: e.message.replace(/\d+ bytes\.\)/, "N bytes.)") };
  }
}

/** The message for `method`, workerd's size in it replaced by N. */
function tooLarge(method: string): string {
  return `${method}: the call is over 32 MiB, more than crosses RPC (Serialized RPC arguments or return values are limited to 32MiB, but the size of this value was: N bytes.); pass less at once — put large input in a Workspace file (fs.writeFile streams it) and name the file`;
}

describe("fix26: remote client calls past 32 MiB reject E2BIG naming the call", () => {
  it("runtime, its handles, git and artifacts", { timeout: 300_000 }, async () => {
    using ws = await getWorkspace(env.GIT_AGENT.get(env.GIT_AGENT.newUniqueId()));
    using handle = await ws.runtime.exec("sleep 5", { encoding: "utf8" });
    const got = {
      exec: await failure(async () => ws.runtime.exec("wc -c", { stdin: new Uint8Array(SIZE).fill(97) })),
      getExec: await failure(() => ws.runtime.getExec(BIG)),
      killExec: await failure(() => ws.runtime.killExec(BIG)),
      disposeExec: await failure(() => ws.runtime.disposeExec(BIG)),
      pending: await failure(() => ws.runtime.pending({ backend: BIG } as never)),
      kill: await failure(() => handle.kill(BIG as never)),
      git: await failure(() => ws.git.cli({ argv: ["hash-object", "--stdin"], cwd: "/workspace", stdin: BIG })),
      artifacts: await failure(() => ws.artifacts.create(BIG)),
    };
    await handle.kill();
    const runtime = (method: string) => ({ name: "WorkspaceRuntimeError", code: "E2BIG", message: tooLarge(method) });
    expect(got).toEqual({
      exec: runtime("runtime.exec"),
      getExec: runtime("runtime.getExec"),
      killExec: runtime("runtime.killExec"),
      disposeExec: runtime("runtime.disposeExec"),
      pending: runtime("runtime.pending"),
      kill: runtime("exec.kill"),
      git: { name: "Error", code: "E2BIG", message: tooLarge("git.cli") },
      artifacts: { name: "ArtifactError", code: "E2BIG", message: tooLarge("artifacts.create") },
    });
    // A stdin within the limit crosses whole; the client goes on.
    const r = await (await ws.runtime.exec("wc -c", { stdin: "a".repeat(20 * 1024 * 1024), encoding: "utf8" })).result();
    expect([r.exitCode, r.stdout]).toEqual([0, "20971520\n"]);
    const hashed = await ws.git.cli({ argv: ["hash-object", "--stdin"], cwd: "/workspace", stdin: "hello\n" });
    expect(hashed).toEqual({ stdout: "ce013625030ba8dba906f756967f9e9ca394464a\n", stderr: "", exitCode: 0 });
  });

  it("assets.share", { timeout: 300_000 }, async () => {
    using ws = await getWorkspace(env.CLIENT_ASSETS_AGENT.get(env.CLIENT_ASSETS_AGENT.newUniqueId()));
    expect(await failure(() => ws.assets.share(`/${BIG}`, { expiresAfter: 60_000 }))).toEqual({ name: "Error", code: "E2BIG", message: tooLarge("assets.share") });
    expect(await failure(() => ws.fs.writeFile("/after.txt", "ok"))).toBe("ok");
  });
});
