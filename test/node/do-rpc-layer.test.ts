/**
 * The RPC layer on Node: the stub and the remote client are built from the
 * one fs method list, errors cross as data (RemoteErrorData) and are rebuilt
 * from it alone, and workspace.stub() works without the core importing do/.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace, WorkspaceFilesystemStub, WorkspaceFsError, WorkspaceStub } from "../../src/index.js";
import { WorkspaceFs } from "../../src/fs/index.js";
import { FS_METHOD_NAMES, INTERNAL_FS_METHOD_NAMES } from "../../src/fs/methods.js";
import { STUB_HELPER_NAMES } from "../../src/do/fs-stub.js";
import { createRemoteFilesystem, type RemoteFilesystemStub } from "../../src/do/remote-fs.js";
import { fromRemoteError, REMOTE_ERROR_KEY, toRemoteError } from "../../src/do/remote-error.js";
import { WorkspaceRuntimeError } from "../../src/runtime/index.js";

/** What enhanced RPC serialization delivers for `error`: a plain Error (built-ins keep their class) with its own properties. */
function overRpc(error: Error): Error {
  const Class = error instanceof TypeError ? TypeError : Error;
  const received = new Class(error.message);
  for (const key of Object.getOwnPropertyNames(error)) {
    if (key === "message" || key === "stack") continue;
    Object.defineProperty(received, key, { ...Object.getOwnPropertyDescriptor(error, key), value: structuredClone(Reflect.get(error, key)) });
  }
  return received;
}

describe("one fs method list", () => {
  it("lists exactly the methods WorkspaceFs implements", () => {
    // The change tracking for the container sync is internal: not a workspace.fs method, not forwarded.
    const implemented = Object.getOwnPropertyNames(WorkspaceFs.prototype).filter((name) => name !== "constructor" && !INTERNAL_FS_METHOD_NAMES.includes(name));
    expect([...FS_METHOD_NAMES].sort()).toEqual(implemented.sort());
  });

  it("the stub has a prototype method for each listed method and helper", () => {
    for (const name of [...FS_METHOD_NAMES, ...STUB_HELPER_NAMES]) {
      expect(typeof Object.getOwnPropertyDescriptor(WorkspaceFilesystemStub.prototype, name)?.value, name).toBe("function");
    }
  });

  it("the remote client forwards each one with its arguments", async () => {
    const calls: unknown[][] = [];
    const stub = new Proxy({}, { get: (_t, name) => async (...args: unknown[]) => void calls.push([name, ...args]) }) as RemoteFilesystemStub;
    const fs = createRemoteFilesystem(() => stub);
    expect(Object.keys(fs).sort()).toEqual([...FS_METHOD_NAMES, ...STUB_HELPER_NAMES].sort());
    await fs.rename("/a", "/b");
    await fs.grep("x", "/", { limit: 1 });
    expect(calls).toEqual([
      ["rename", "/a", "/b"],
      ["grep", "x", "/", { limit: 1 }],
    ]);
  });
});

describe("errors cross RPC as data", () => {
  it("a coded error gets its record, non-enumerable, with message, class and stack untouched", () => {
    const error = new WorkspaceFsError("ENOENT", "stat", "/a");
    const stack = error.stack;
    expect(toRemoteError(error)).toBe(error);
    const descriptor = Object.getOwnPropertyDescriptor(error, REMOTE_ERROR_KEY);
    expect(descriptor?.enumerable).toBe(false);
    expect(descriptor?.value).toEqual({ name: "WorkspaceFsError", code: "ENOENT", syscall: "stat", path: "/a", message: "ENOENT: no such file or directory, stat: /a" });
    expect(error.message).toBe("ENOENT: no such file or directory, stat: /a");
    expect(error.stack).toBe(stack);
  });

  it("the client rebuilds a WorkspaceFsError from the record alone", () => {
    const sent = toRemoteError(new WorkspaceFsError("EROFS", "writeFile", "/m/x", "read-only file system (mount at /m)")) as Error;
    const received = overRpc(sent);
    received.message = "ignored: the record is what counts";
    const rebuilt = fromRemoteError(received) as WorkspaceFsError;
    expect(rebuilt).toBeInstanceOf(WorkspaceFsError);
    expect(rebuilt).toMatchObject({ name: "WorkspaceFsError", code: "EROFS", syscall: "writeFile", path: "/m/x" });
    expect(rebuilt.message).toBe("EROFS: read-only file system (mount at /m), writeFile: /m/x");
    expect(Object.hasOwn(rebuilt, REMOTE_ERROR_KEY)).toBe(false);
  });

  it("other coded errors stay plain Errors with name and code, and their own message", () => {
    const received = overRpc(toRemoteError(new WorkspaceRuntimeError("EEXEC_BUSY", "execution x is still running")) as Error);
    const rebuilt = fromRemoteError(received) as Error & { code?: string };
    expect(rebuilt).toBe(received);
    expect(rebuilt).toMatchObject({ name: "WorkspaceRuntimeError", code: "EEXEC_BUSY", message: "execution x is still running" });
    expect(Object.hasOwn(rebuilt, REMOTE_ERROR_KEY)).toBe(false);
  });

  it("uncoded errors, TypeErrors and errors without a record pass unchanged", () => {
    const type = new TypeError("readdir: limit must be a non-negative safe integer");
    expect(toRemoteError(type)).toBe(type);
    expect(Object.hasOwn(type, REMOTE_ERROR_KEY)).toBe(false);
    expect(fromRemoteError(overRpc(type))).toBeInstanceOf(TypeError);
    // An older compatibility date: only the message crosses, with the name folded in. It is not parsed.
    const legacy = new Error("WorkspaceFsError: ENOENT: no such file or directory, stat: /a");
    expect(fromRemoteError(legacy)).toBe(legacy);
    expect((legacy as { code?: unknown }).code).toBeUndefined();
  });

  it("a frozen error is copied into an Error that carries the record", () => {
    const frozen = Object.freeze(Object.assign(new Error("EIO: input/output error"), { code: "EIO" }));
    const sent = toRemoteError(frozen) as Error;
    expect(sent).not.toBe(frozen);
    expect(sent.message).toBe(frozen.message);
    expect(Reflect.get(sent, REMOTE_ERROR_KEY)).toEqual({ name: "Error", code: "EIO", message: "EIO: input/output error" });
  });
});

describe("workspace.stub()", () => {
  it("returns a new WorkspaceStub over the Workspace on every call", async () => {
    const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:"), now: () => 7 });
    const stub = workspace.stub();
    expect(stub).toBeInstanceOf(WorkspaceStub);
    expect(workspace.stub()).not.toBe(stub);
    await stub.fs.writeFile("/a.txt", "hi");
    expect(await workspace.fs.readFile("/a.txt", "utf8")).toBe("hi");
    expect(await stub.fs.lstatOrNull("/a.txt")).toMatchObject({ size: 2, mtime: 7 });
  });
});
