/**
 * FIXED — the queued append checks the handle's inode in its own turn
 * (#appendBytes gets the handle's ino: ESTALE when the path leads
 * elsewhere), and every append store is bound to the inode it read with
 * the new writeFile option `ifInode`, checked again in the commit
 * transaction.
 *
 * Issue 20 ninth attack run, category 4: `workspace.provider()` append
 * handles — what remains of attack8/provider-handles DEFECT 3 ("a handle
 * stores by PATH, following links made after it was opened"; fixed with an
 * inode check before every read and store).
 *
 * DEFECT (medium) — an append handle checks the inode, THEN queues its
 * bytes behind the provider's other appends to the same path
 * (`#appendBytes`, one at a time per path), and the queued append resolves
 * the path again when its turn comes, following whatever link is there by
 * then. While another append to that path is in progress (a large file's
 * streamed append can take a long time), someone replaces a directory on
 * the way with a link; the handle's bytes land in the link's target, a
 * file it never opened. Reproduction (Node; the other writer acts right
 * after the queued appendFile's store, played by a hook on `fs.writeFile`
 * of a pass-through `fs` — the provider code is the real one):
 *   await fs.writeFile("/w/x", "1"); await fs.writeFile("/secret/x", "secret");
 *   const h = await p.open("/w/x", "a"); await h.write("PWN");
 *   const a = p.appendFile("/w/x", "B");     // queued first
 *   const c = h.close();                      // inode checked: still /w/x → queued behind a
 *   // meanwhile (after a's store): fs.rm("/w", { recursive: true }); fs.symlink("/secret", "/w")
 *   await a; await c                          // close resolves OK
 *   await fs.readFile("/secret/x", "utf8")    // → "secretPWN"
 * Expected: close() rejects ESTALE (docs/filesystem.md: "a file moved,
 * removed or replaced (a directory on the way swapped for a link
 * included) fails with ESTALE") and /secret/x keeps "secret".
 * Fix proposal: check the inode inside the queued append (right before its
 * store, in the same step as the guarded write), not before queueing; or
 * pass the expected inode to `#appendBytes`.
 *
 * Run 36 (fixer AP): the provider's append stores through the Workspace's
 * own `fs.appendFile` (bound with `ifInode`), no longer `writeFile`, so the
 * hook playing the other writer runs after either store; the assertion is
 * unchanged. Siblings: test/node/fix36/fs-append-linear.test.ts.
 */
import { describe, expect, it } from "vitest";
import { SQLiteWorkspaceProvider, Workspace, nodeSqliteStorage } from "../../../src/index.js";

describe("attack9: provider append handle and a link made while its append is queued", () => {
  it("the queued append does not follow a link made after the handle's inode check", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    try {
      const real = ws.fs as unknown as Record<string | symbol, unknown> & typeof ws.fs;
      let afterNextStore: (() => Promise<void>) | undefined;
      const fs = new Proxy(real, {
        get(target, key) {
          const value = target[key];
          if (key === "writeFile" || key === "appendFile") {
            return async (...args: unknown[]) => {
              const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
              const hook = afterNextStore;
              afterNextStore = undefined;
              if (hook) await hook();
              return result;
            };
          }
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const p = new SQLiteWorkspaceProvider({ fs: fs as never });
      await ws.fs.mkdir("/w");
      await ws.fs.writeFile("/w/x", "1");
      await ws.fs.mkdir("/secret");
      await ws.fs.writeFile("/secret/x", "secret");
      const h = await p.open("/w/x", "a");
      await h.write("PWN");
      afterNextStore = async () => {
        await new Promise((r) => setTimeout(r, 10)); // the handle's close has checked its inode and waits in the queue
        await ws.fs.rm("/w", { recursive: true });
        await ws.fs.symlink("/secret", "/w");
      };
      const appended = p.appendFile("/w/x", "B");
      const closed = h.close().then(() => "ok", (e: { code?: string }) => e.code);
      await appended;
      const code = await closed;
      expect({ code, secret: await ws.fs.readFile("/secret/x", "utf8") }).toEqual({ code: "ESTALE", secret: "secret" });
    } finally {
      await ws.close();
    }
  });
});
