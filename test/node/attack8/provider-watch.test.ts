/**
 * Issue 20 eighth attack run, newest surface: `workspace.provider()`
 * watchers (docs/filesystem.md: "Read the Workspace change log (every
 * 100 ms …)"), when the storage under them goes away.
 *
 * FIXED — a failed poll emits one "error" (only if someone listens) and
 * closes the watcher; `workspace.close()` closes the provider's watchers
 * (`provider.unwatchAll()`); a watch of a missing path fails the same way.
 *
 * DEFECT (low) — a watcher never stops on error. Reproduction (Node):
 *   const storage = nodeSqliteStorage(":memory:");
 *   const ws = new Workspace({ storage });
 *   const w = ws.provider().watch("/", { recursive: true });
 *   w.on("error", (e) => console.log(e.message));
 *   await ws.close(); storage.close();
 *   // → "database is not open" every 100 ms, for as long as the process runs
 *   // (without an 'error' listener each one is an unhandled rejection, which ends a
 *   //  Node process under the default --unhandled-rejections=throw)
 * Expected (node:fs `FSWatcher`): an error is emitted once and the watcher
 * closes (`close` event); `workspace.close()` could also close the
 * provider's watchers.
 * Impact: low — an app that shuts its storage down with a watcher still
 * open (an abandoned `watchAsync` loop, a mount factory's watcher) gets an
 * error storm, or a crash when nobody listens for 'error'.
 * Fix proposal: on a poll failure, emit 'error' once, clear the interval,
 * emit 'close'; have `Workspace.close()` close the provider's watchers.
 *
 * Withstood: 3,000 writes under a recursive watcher on "/" are all reported
 * (one event each); after `ws.close()` alone (storage open) a watcher still
 * sees changes made by another Workspace on the same storage, as documented.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("attack8: provider watchers", () => {
  it("a watcher whose storage closed emits one error and closes", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    const w = ws.provider().watch("/", { recursive: true }) as unknown as { on(e: string, f: (...a: unknown[]) => void): void; close(): void };
    const errors: string[] = [];
    let closed = false;
    w.on("error", (e) => errors.push((e as Error).message));
    w.on("close", () => (closed = true));
    try {
      // The storage goes away under a Workspace that was not closed.
      (storage as unknown as { close(): void }).close();
      while (errors.length === 0) await settle(20);
      await settle(350); // three more poll intervals: a watcher still polling errs again
      expect(errors).toEqual(["database is not open"]);
      expect(closed).toBe(true);
    } finally {
      w.close();
    }
  });

  it("workspace.close() closes the provider's watchers: a close event, no error, no more polls", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    const w = ws.provider().watch("/", { recursive: true }) as unknown as { on(e: string, f: (...a: unknown[]) => void): void; close(): void; closed: boolean };
    const events: string[] = [];
    w.on("error", () => events.push("error"));
    w.on("close", () => events.push("close"));
    await ws.close();
    (storage as unknown as { close(): void }).close();
    await settle(350);
    expect({ events, closed: w.closed }).toEqual({ events: ["close"], closed: true });
  });

  it("3,000 writes are each reported; a watcher of another Workspace on the same storage follows it", async () => {
    const storage = nodeSqliteStorage(":memory:");
    const ws = new Workspace({ storage });
    const p = ws.provider();
    const seen = new Set<string>();
    const w = p.watch("/", { recursive: true }) as unknown as { on(e: string, f: (...a: unknown[]) => void): void; close(): void };
    w.on("change", (_type, file) => seen.add(String(file)));
    try {
      for (let i = 0; i < 3000; i++) await ws.fs.writeFile(`/f${i}`, "x");
      while (seen.size < 3000) await settle(20);
      expect(seen.size).toBe(3000);
      const other = new Workspace({ storage });
      await other.fs.writeFile("/after", "1");
      while (!seen.has("after")) await settle(20);
      await other.close();
    } finally {
      w.close();
    }
  });
});
