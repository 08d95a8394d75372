/**
 * Issue 20, run 37, fixer RA2 — a directory a push parks at the mount root (`.ws-sync-move-<8 hex>`, fixer RA's
 * two-step rename of `mv a t; mkdir a; mv t a/t`, src/runtime/sync.ts `#pushRename`/`#park`) lives for one push only.
 * Before the fix nothing else removed a parked name: (1) a push cut short after parking `a` (a later apply fails, the
 * cursor is not advanced) left the parked directory and its manifest rows; the Workspace then removed `a/t`, the next
 * push's tombstone at `a/t` found no row (they had moved to the parked name), and `.ws-sync-move-…` stayed in the
 * container's /workspace for good — a change there would be pulled into the Workspace; (2) the same without a
 * failure when the Workspace removes the directory while the push runs (after the page of the change log was read,
 * before the entry that renames the parked directory into place).
 * Now (`RemoteSync.#unpark`, `#parkName`): the parked name is recorded in `__ws_sync_temps` before the rename is
 * sent; at the end of every push (complete or cut short), at the start of the next and in every pull each recorded
 * one still there is removed (daemon `rm`) with its manifest rows, and a pull copies nothing of it into the Workspace.
 * What only the container held in a directory parked by a push cut short (its node_modules) goes with it, as with a
 * deletion (docs/container.md).
 * Failures are injected as in test/workers/container/dispatch.test.ts: the backend's `rpc.sync.apply` is wrapped (the
 * daemon is real). Every expected container tree is `find . -mindepth 1 | LC_ALL=C sort` after the same Workspace
 * steps with `mv`, `mkdir`, `rm -r` in bash 5.2.15 on a temp dir holding a/s/x, a/y, b/q and the container-only
 * a/s/node_modules/n, b/node_modules/m (with a/s/node_modules removed where the push was cut short after parking).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { TestBackend } from "../../../src/backends/test-backend.js";
import type { BackendHandle, WorkspaceBackendHost, WorkspaceCommandBackend } from "../../../src/runtime/types.js";
import type { RemoteApplyOp, SyncRPC } from "../../../src/runtime/sync.js";
import { drain, sh, startContainer, workspaceTree, type LocalContainer } from "../container/helpers.js";

const IGNORE = { MOUNT_IGNORE: "**/node_modules" };
const W = (p: string) => `/workspace/${p}`;
const PARKED = /^\.ws-sync-move-[0-9a-f]{8}$/;

/** Sees every `apply` before the daemon does; may throw (the transport failed) or change the Workspace meanwhile. */
type Hook = (ops: readonly RemoteApplyOp[]) => Promise<void> | void;

/** A {@link TestBackend} whose `rpc.sync.apply` calls `hook` first. */
class Hooked implements WorkspaceCommandBackend {
  readonly protocol = "command" as const;
  readonly id: string;
  readonly type: string;
  hook: Hook = () => {};
  constructor(readonly real: TestBackend) {
    this.id = real.id;
    this.type = real.type;
  }
  async connect(host: WorkspaceBackendHost): Promise<BackendHandle> {
    const handle = await this.real.connect(host);
    const sync = handle.rpc.sync as SyncRPC;
    const wrapped: SyncRPC = {
      info: () => sync.info(),
      scan: (input) => sync.scan(input),
      read: (input) => sync.read(input),
      apply: async (input) => {
        await this.hook(input.ops);
        return sync.apply(input);
      },
    };
    return { rpc: { shell: handle.rpc.shell, sync: wrapped }, runtimeId: handle.runtimeId, sync: handle.sync, closed: handle.closed, close: () => handle.close() };
  }
}

async function withHooked(c: LocalContainer, fn: (ws: Workspace, backend: Hooked) => Promise<void>): Promise<void> {
  await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
    const backend = new Hooked(new TestBackend({ url: c.url, secret: c.secret, id: "box" }));
    const ws = new Workspace({ storage: state.storage, backends: [backend] });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await fn(ws, backend);
    } finally {
      await ws.close();
    }
  });
}

async function seed(ws: Workspace): Promise<void> {
  await ws.fs.mkdir(W("a/s"), { recursive: true });
  await ws.fs.mkdir(W("b"));
  await ws.fs.writeFile(W("a/s/x"), "x");
  await ws.fs.writeFile(W("a/y"), "y");
  await ws.fs.writeFile(W("b/q"), "q");
  const install = await sh(ws, "mkdir a/s/node_modules b/node_modules && echo n > a/s/node_modules/n && echo m > b/node_modules/m");
  expect(install.exitCode).toBe(0);
}

/** `mv a t; mkdir a; mv t a/t` in the Workspace: the next push parks `a` (fixer RA). */
async function nestInto(ws: Workspace): Promise<void> {
  await ws.fs.rename(W("a"), W("t"));
  await ws.fs.mkdir(W("a"));
  await ws.fs.rename(W("t"), W("a/t"));
}

const paths = async (c: LocalContainer) => [...(await c.tree()).keys()].sort();
const parkedIn = (list: string[]) => list.filter((p) => PARKED.test(p.split("/")[0]!));
const isPark = (op: RemoteApplyOp) => op.op === "rename" && PARKED.test(op.to);

/** The container holds `expected` (and no parked name); the Workspace the same without node_modules; a file's bytes are the Workspace's. */
async function settled(c: LocalContainer, ws: Workspace, expected: string): Promise<void> {
  const r = await sh(ws, "true");
  expect([r.exitCode, r.skipped]).toEqual([0, []]);
  const list = expected.split(" ");
  expect(await paths(c)).toEqual(list);
  const tree = await workspaceTree(ws);
  expect([...tree.keys()].sort()).toEqual(list.filter((p) => !p.includes("node_modules")));
  for (const [path, entry] of tree) if (entry.kind === "file") expect([path, await c.text(path)]).toEqual([path, entry.text]);
  const again = await sh(ws, "true");
  expect([again.pushed, again.pulled, again.skipped]).toEqual([0, 0, []]);
  expect(await paths(c)).toEqual(list);
}

describe("fix37 RA2: a parked directory never outlives its push", () => {
  it("(1) a push cut short after parking, then the Workspace removes a/t: nothing parked is left (end of the failed push)", async () => {
    const c = await startContainer(IGNORE);
    await withHooked(c, async (ws, backend) => {
      await seed(ws);
      await nestInto(ws);
      let parked = false;
      backend.hook = (ops) => {
        if (parked) {
          backend.hook = () => {};
          throw new Error("injected: the transport failed");
        }
        if (ops.some(isPark)) parked = true;
      };
      const [progress] = await drain(ws.push("box"));
      expect(progress).toMatchObject({ complete: false, error: expect.stringContaining("injected") });
      expect(parked).toBe(true);
      expect(parkedIn(await paths(c))).toEqual([]); // removed when the push was cut short
      await ws.fs.rm(W("a/t"), { recursive: true });
      // bash: mv a t; mkdir a; mv t a/t; rm -r a/t
      await settled(c, ws, "a b b/node_modules b/node_modules/m b/q");
      expect(ws.db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_manifest WHERE path LIKE '.ws-sync-move-%'`)?.n).toBe(0);
      expect(ws.db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_temps`)?.n).toBe(0);
    });
  });

  it("(1) the transport stays down for the rest of the push: the next push removes the parked directory first", async () => {
    const c = await startContainer(IGNORE);
    await withHooked(c, async (ws, backend) => {
      await seed(ws);
      await nestInto(ws);
      let parked = false;
      backend.hook = (ops) => {
        if (parked) throw new Error("injected: the transport is down");
        if (ops.some(isPark)) parked = true;
      };
      const [progress] = await drain(ws.push("box"));
      expect(progress).toMatchObject({ complete: false });
      const left = parkedIn(await paths(c));
      expect(left.length).toBeGreaterThan(0); // the defect's state: the parked directory is in the container
      backend.hook = () => {};
      await ws.fs.rm(W("a/t"), { recursive: true });
      await settled(c, ws, "a b b/node_modules b/node_modules/m b/q");
      expect(ws.db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_manifest WHERE path LIKE '.ws-sync-move-%'`)?.n).toBe(0);
    });
  });

  it("(1) the same, then a pull with the container changing the parked directory: nothing of it reaches the Workspace", async () => {
    const c = await startContainer(IGNORE);
    await withHooked(c, async (ws, backend) => {
      await seed(ws);
      await nestInto(ws);
      let parked = false;
      backend.hook = (ops) => {
        if (parked) throw new Error("injected: the transport is down");
        if (ops.some(isPark)) parked = true;
      };
      expect((await drain(ws.push("box")))[0]).toMatchObject({ complete: false });
      backend.hook = () => {};
      const top = parkedIn(await paths(c)).find((p) => !p.includes("/"))!;
      expect(top).toMatch(PARKED);
      await c.put(`${top}/new.txt`, "made in the container\n");
      await c.put(`${top}/y`, "changed in the container\n");
      await drain(ws.pull("box"));
      const tree = await workspaceTree(ws);
      expect([...tree.keys()].sort()).toEqual(["a", "a/t", "a/t/s", "a/t/s/x", "a/t/y", "b", "b/q"]);
      expect(tree.get("a/t/y")?.text).toBe("y");
      expect(parkedIn(await paths(c))).toEqual([]); // removed by the pull
      // The push then sends a/t again (a/s/node_modules went with the parked directory).
      await settled(c, ws, "a a/t a/t/s a/t/s/x a/t/y b b/node_modules b/node_modules/m b/q");
    });
  });

  it("(2) the Workspace removes the moved directory while the push runs: the parked directory is removed at its end", async () => {
    const c = await startContainer(IGNORE);
    await withHooked(c, async (ws, backend) => {
      await seed(ws);
      await nestInto(ws);
      let parked = false;
      backend.hook = async (ops) => {
        if (!ops.some(isPark)) return;
        parked = true;
        backend.hook = () => {};
        await ws.fs.rm(W("a/t"), { recursive: true }); // after the page was read, before the entry at a/t
      };
      const [progress] = await drain(ws.push("box"));
      expect(progress).toMatchObject({ complete: true });
      expect(parked).toBe(true);
      expect(parkedIn(await paths(c))).toEqual([]);
      await settled(c, ws, "a b b/node_modules b/node_modules/m b/q");
    });
  });

  it("a push that renames the parked directory into place leaves no record behind", async () => {
    const c = await startContainer(IGNORE);
    await withHooked(c, async (ws) => {
      await seed(ws);
      await nestInto(ws);
      // bash: mv a t; mkdir a; mv t a/t — the container-only node_modules moves with it.
      await settled(c, ws, "a a/t a/t/s a/t/s/node_modules a/t/s/node_modules/n a/t/s/x a/t/y b b/node_modules b/node_modules/m b/q");
      expect(ws.db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_temps`)?.n).toBe(0);
    });
  });

  it("a name a command makes like a parked one is the command's: pulled, pushed back, kept", async () => {
    const c = await startContainer(IGNORE);
    await withHooked(c, async (ws) => {
      const r = await sh(ws, "mkdir .ws-sync-move-0123abcd && echo k > .ws-sync-move-0123abcd/k");
      expect(r.exitCode).toBe(0);
      expect(await ws.fs.readFile(W(".ws-sync-move-0123abcd/k"), "utf8")).toBe("k\n");
      await settled(c, ws, ".ws-sync-move-0123abcd .ws-sync-move-0123abcd/k");
    });
  });
});
