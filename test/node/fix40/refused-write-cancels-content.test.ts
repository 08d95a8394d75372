/**
 * Issue 20, run 40, fixer f40fs (sibling of test/node/attack40c/refused-write-leaves-source-read-lease.test.ts): a
 * `writeFile`/`appendFile` that rejects without reading its content stream to the end cancels it with its own error —
 * whatever refused it (a bad option, `ESTALE`, `EEXIST`, `ENOTDIR`), and a stream that was written is never cancelled.
 * The provider's `copyFile` and the shell adapter's `cp` cancel the source stream they opened themselves when the
 * `fs` they write through rejects without touching it (an RPC stub, a wrapper): the source's leases end at once.
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { SQLiteWorkspaceProvider } from "../../../src/fs/provider.js";
import { WorkspaceFsAdapter } from "../../../src/backends/worker-shell/fs-adapter.js";
import { WorkspaceFsError } from "../../../src/fs/errors.js";
import type { WorkspaceFilesystem } from "../../../src/fs/types.js";

/** A stream of `text` that records the reason it was cancelled with. */
function recorded(text: string) {
  const seen: { cancelled: unknown[] } = { cancelled: [] };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      controller.close();
    },
    cancel(reason) {
      seen.cancelled.push(reason);
    },
  });
  return { stream, seen };
}

function fixture() {
  const storage = nodeSqliteStorage(":memory:");
  const workspace = new Workspace({ storage });
  const leases = () => Number(storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM __ws_chunk_leases").toArray()[0]!.n);
  return { storage, workspace, leases, close: async () => (await workspace.close(), storage.close()) };
}

async function refusedWith(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("the call resolved");
}

it("every refusal of writeFile/appendFile cancels the unread content stream with the refusal itself", async () => {
  const { workspace, close } = fixture();
  try {
    const fs = workspace.fs;
    await fs.writeFile("/f", "x");
    await fs.mkdir("/d");
    const cases: [string, (s: ReadableStream<Uint8Array>) => Promise<unknown>][] = [
      ["bad mode", (s) => fs.writeFile("/g", s, { mode: "rw" as unknown as number })],
      ["bad path", (s) => fs.writeFile(42 as unknown as string, s)],
      ["root", (s) => fs.writeFile("/", s)],
      ["EEXIST", (s) => fs.writeFile("/f", s, { exclusive: true })],
      ["ESTALE ifMatch", (s) => fs.writeFile("/f", s, { ifMatch: "0".repeat(64) })],
      ["ENOTDIR", (s) => fs.writeFile("/f/x", s)],
      ["append EISDIR", (s) => fs.appendFile("/d", s)],
      ["append ESTALE ifInode", (s) => fs.appendFile("/f", s, { ifInode: 999_999 })],
      ["append bad mode", (s) => fs.appendFile("/g", s, { mode: -1 })],
    ];
    for (const [name, call] of cases) {
      const { stream, seen } = recorded("new");
      const error = await refusedWith(() => call(stream));
      expect({ name, cancelled: seen.cancelled }).toEqual({ name, cancelled: [error] });
    }
    expect(await fs.readFile("/f", "utf8")).toBe("x");
    // Written: read to its end, never cancelled.
    const written = recorded("new");
    await fs.writeFile("/f", written.stream);
    const appended = recorded("+");
    await fs.appendFile("/f", appended.stream);
    expect({ written: written.seen.cancelled, appended: appended.seen.cancelled, text: await fs.readFile("/f", "utf8") }).toEqual({ written: [], appended: [], text: "new+" });
  } finally {
    await close();
  }
});

/** `fs` whose writeFile rejects EISDIR without touching its content (as a stub or wrapper may). */
function refusingWrites(fs: WorkspaceFilesystem): WorkspaceFilesystem {
  return new Proxy(fs, {
    get(target, key) {
      if (key === "writeFile") return async (path: string) => Promise.reject(new WorkspaceFsError("EISDIR", "writeFile", path));
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

it("provider.copyFile and the shell adapter's cp end their source stream when the write is refused untouched", async () => {
  const { workspace, leases, close } = fixture();
  try {
    await workspace.fs.writeFile("/big", new Uint8Array(1100 * 1024).fill(7));
    const fs = refusingWrites(workspace.fs);
    const provider = new SQLiteWorkspaceProvider({ fs });
    expect(((await refusedWith(() => provider.copyFile("/big", "/copy"))) as { code?: string }).code).toBe("EISDIR");
    expect(leases()).toBe(0);
    const adapter = new WorkspaceFsAdapter(fs as unknown as ConstructorParameters<typeof WorkspaceFsAdapter>[0]);
    expect(((await refusedWith(() => adapter.cp("/big", "/copy"))) as { code?: string }).code).toBe("EISDIR");
    expect(leases()).toBe(0);
  } finally {
    await close();
  }
});
