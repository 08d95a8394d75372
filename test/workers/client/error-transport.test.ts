/**
 * Errors across real Workers RPC (spec 01 §5.3): what workerd keeps of a
 * thrown error at this suite's compatibility date (2026-11-01, enhanced
 * error serialization), and how the stubs and the client use it — errors
 * cross as data (`workspaceError`: name, code, syscall, path, message) and
 * are rebuilt from it, never from the message text.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace, WorkspaceFsError, type WorkspaceStub } from "../../../src/index.js";
import { freshAgent, rejection } from "./helpers.js";

describe("what workerd keeps of a thrown error", () => {
  it("keeps the message, own properties (non-enumerable and object-valued too) and name, but not the class", async () => {
    const error = await rejection(freshAgent().throwForTransport("subclass"));
    expect(error).toBeInstanceOf(Error);
    expect(error.constructor).toBe(Error);
    expect(error.name).toBe("ProbeError");
    expect(error.message).toBe("EPROBE: probe failed, probe: /probe");
    expect(error).toMatchObject({ code: "EPROBE", path: "/probe" });
    expect(Object.getOwnPropertyDescriptor(error, "record")?.value).toEqual({ code: "EPROBE", nested: [1, "two"] });
  });

  it("keeps built-in classes such as TypeError", async () => {
    const error = await rejection(freshAgent().throwForTransport("type"));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe("bad option");
  });
});

describe("errors cross the stubs as data", () => {
  it("a stub's filesystem error carries its record under workspaceError", async () => {
    // Through a Durable Object stub, workers-types types the result as `never` (WorkspaceStub is not a branded RpcTarget type).
    using stub = (await freshAgent().__getWorkspaceStub()) as unknown as WorkspaceStub;
    const error = await rejection(stub.fs.stat("/nope"));
    expect(Object.getOwnPropertyDescriptor(error, "workspaceError")?.value).toEqual({
      name: "WorkspaceFsError",
      code: "ENOENT",
      syscall: "stat",
      path: "/nope",
      message: "ENOENT: no such file or directory, stat: /nope",
    });
  });

  it("the client rebuilds the WorkspaceFsError with code, syscall, path and message, and drops the record", async () => {
    using ws = await getWorkspace(freshAgent());
    const error = await rejection(ws.fs.readlink("/"));
    expect(error).toBeInstanceOf(WorkspaceFsError);
    expect(error).toMatchObject({ name: "WorkspaceFsError", code: "EINVAL", syscall: "readlink", path: "/" });
    expect(error.message).toBe("EINVAL: not a symbolic link, readlink: /");
    expect(Object.hasOwn(error, "workspaceError")).toBe(false);
  });

  it("a runtime error keeps name and code, and the message it has locally", async () => {
    const agent = env.CLIENT_EXEC_AGENT.get(env.CLIENT_EXEC_AGENT.newUniqueId());
    using ws = await getWorkspace(agent);
    const remote = await rejection(ws.runtime.getExec("no-such-run"));
    const local = await runInDurableObject(agent, async (instance) => {
      using mine = await getWorkspace(instance);
      const error = await rejection(mine.runtime.getExec("no-such-run"));
      return { name: error.name, code: error.code, message: error.message };
    });
    expect(local.code).toBe("ENOENT");
    expect({ name: remote.name, code: remote.code, message: remote.message }).toEqual(local);
    expect(Object.hasOwn(remote, "workspaceError")).toBe(false);
  });
});
