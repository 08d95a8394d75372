/**
 * Issue 20, twenty-fifth attack run: a remote client's `assets.share` is the one client call that does not go
 * through `callRemote` (src/do/client.ts: `share: (path, options) => live().assets.publish(path, options)`), while
 * `fs`, `runtime`, `git` and `artifacts` all do. So (1) its errors are not rebuilt from their data: a missing file
 * rejects a plain `Error` (not `instanceof WorkspaceFsError`) still carrying the internal `workspaceError` record —
 * where `client.fs.stat` of the same path rejects a real `WorkspaceFsError`; and (2) after the client is disposed the
 * call THROWS synchronously (`live()` runs before any promise exists), where every other client method returns a
 * promise that rejects with the disposal message — `client.assets.share(…).catch(…)` never reaches its `catch`.
 * The docs (`WorkspaceAssetsClient.share`: "@throws (rejects) … a `WorkspaceFsError` such as `ENOENT`") promise both.
 *
 * Tried: `getWorkspace(env.CLIENT_ASSETS_AGENT.get(id))` (real Workers RPC, a Workspace with createAssets over the
 * local R2 bucket); `share("/workspace/nope.csv", { expiresAfter: 1000 })`; `fs.stat` of the same path; `git.cli`
 * without git; then `[Symbol.dispose]()` and `share`, `fs.stat`, `git.cli`, `artifacts.list` again.
 * Held: `fs.stat` rejects `WorkspaceFsError` ENOENT (syscall, path, no `workspaceError` left); git's ENOCONFIG keeps
 * its code; after disposal fs/git/artifacts return a promise that rejects `workspace client is disposed: …`; the
 * publish tool's result text for a missing file is right (it reads only the message).
 *
 * Found (low; 3 of 3 runs): `share` of a missing file rejects `Error` (constructor `Error`, `instanceof
 * WorkspaceFsError` false) with own `workspaceError: { name, code, message, syscall, path }`; after dispose
 * `client.assets.share(…)` throws before returning (no promise).
 *
 * Suggested fix: `share: (path, options) => callRemote(() => live().assets.publish(path, options))`, as `git.cli`.
 *
 * Fixed: `share` goes through `callRemote` as every other client call (src/do/client.ts), so its errors are rebuilt
 * and a disposed client returns a rejected promise.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace, WorkspaceFsError } from "../../../src/index.js";

describe("attack25c: a remote client's assets.share", () => {
  it("rejects a rebuilt WorkspaceFsError, and a promise (not a throw) once disposed", async () => {
    const client = await getWorkspace(env.CLIENT_ASSETS_AGENT.get(env.CLIENT_ASSETS_AGENT.newUniqueId()));
    const error = await client.assets.share("/workspace/nope.csv", { expiresAfter: 1000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const seen = {
      instance: error instanceof WorkspaceFsError,
      code: (error as { code?: unknown }).code,
      syscall: (error as { syscall?: unknown }).syscall,
      path: (error as { path?: unknown }).path,
      record: Object.hasOwn(error as object, "workspaceError"),
    };
    client[Symbol.dispose]();
    let returned: unknown;
    let thrown: unknown;
    try {
      returned = client.assets.share("/workspace/x", { expiresAfter: 1000 });
    } catch (e) {
      thrown = e;
    }
    const late = returned instanceof Promise ? await returned.then(() => "resolved", (e: Error) => e.message.slice(0, 28)) : "no promise";
    // Found: { instance: false, …, record: true }, and `thrown` set (no promise).
    expect({ seen, late, threw: thrown !== undefined }).toEqual({
      seen: { instance: true, code: "ENOENT", syscall: "stat", path: "/workspace/nope.csv", record: false },
      late: "workspace client is disposed",
      threw: false,
    });
  });
});
