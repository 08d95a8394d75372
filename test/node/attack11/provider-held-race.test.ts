/**
 * Issue 20, eleventh attack run: `SQLiteWorkspaceProvider`'s provider-wide budget `maxHeldBytes`
 * (src/fs/provider.ts; the fix of attack10/provider-handle-memory) under concurrency.
 *
 * Tried: two `r+` handles of two files, each file within maxOpenFileBytes and together over
 * maxHeldBytes; their first writes (which load the whole file) issued one after the other, and at once;
 * two concurrent first writes on ONE handle (does the second load overwrite the first's bytes?) — held.
 *
 * DEFECT (medium: the bound that keeps a Durable Object under 128 MB is skipped by concurrency).
 * docs/filesystem.md: "all open handles together at most maxHeldBytes, default 64 MiB, else ENOMEM
 * until one is closed". A handle's first write runs `#load()`: `#admit(stats.size)` checks the budget,
 * then awaits the file's bytes (`readFile`), and only afterwards `#settle()` counts them. Two first
 * writes started together both pass the check before either is counted, so both load: with the
 * defaults, three 60 MiB files written at once hold 180 MiB — what attack10 showed kills the object.
 * Expected: one of the concurrent writes fails ENOMEM, as it does when they run one after another.
 * FIXED: `#load()` now reserves the file's size (`#reserve`: admit and add to `held.bytes`) before
 * awaiting the read, re-reserves the size actually read (ENOMEM if the file grew past the budget), and
 * `#settle()`s in a `finally`, so a failed load gives its reservation back. Two loads at once: the
 * second sees the first's reservation and fails ENOMEM, exactly as when they run one after another.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { SQLiteWorkspaceProvider } from "../../../src/fs/provider.js";

const KiB = 1024;

async function setup() {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  await ws.fs.writeFile("/a", new Uint8Array(600 * KiB).fill(97));
  await ws.fs.writeFile("/b", new Uint8Array(600 * KiB).fill(98));
  const p = new SQLiteWorkspaceProvider(ws, { maxHeldBytes: 1024 * KiB });
  return { ws, p, a: await p.open("/a", "r+"), b: await p.open("/b", "r+") };
}

const outcome = (w: Promise<{ bytesWritten: number }>) =>
  w.then(({ bytesWritten }) => `wrote ${bytesWritten}`, (e: { code?: string }) => String(e.code));

describe("attack11: maxHeldBytes and concurrent first writes", () => {
  it("one after the other: the second handle's first write is ENOMEM (control)", async () => {
    const { a, b } = await setup();
    expect(await outcome(a.write("x", 0))).toBe("wrote 1");
    expect(await outcome(b.write("y", 0))).toBe("ENOMEM");
    await a.close();
    await b.close();
  });

  it("at once: one of the two first writes is ENOMEM (600 KiB + 600 KiB > maxHeldBytes 1 MiB)", async () => {
    const { a, b } = await setup();
    const both = await Promise.all([outcome(a.write("x", 0)), outcome(b.write("y", 0))]);
    await a.close().catch(() => {});
    await b.close().catch(() => {});
    // Before the fix: ["wrote 1", "wrote 1"] — 1.2 MiB held under a 1 MiB budget; both files stored.
    expect(both.sort()).toEqual(["ENOMEM", "wrote 1"]);
  });

  it("two concurrent first writes on one handle both land (the second load does not overwrite the first)", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await ws.fs.writeFile("/f", "0000000000");
    const h = await ws.provider().open("/f", "r+");
    const written = await Promise.all([h.write("A", 0), h.write("B", 5)]);
    await h.close();
    expect(written.map((w) => w.bytesWritten)).toEqual([1, 1]);
    expect(await ws.fs.readFile("/f", "utf8")).toBe("A0000B0000");
  });
});
