/**
 * fix22 (FCH), issue 20 run 22 finding c4: an entry the container refused for a reason that passes stays owed
 * (`__ws_sync_owed`) and every later push sends it again — reported in `skipped` each time it is refused — until it
 * lands; a refusal that cannot pass (a name over 255 bytes) is reported once; at most MAX_SYNC_OWED entries are owed.
 * Real daemon in process (`Computerd`, attack18c/real-daemon.ts); the refusals come from a 64 KiB tmpfs mounted in the
 * container's tree (needs root to mount: skipped elsewhere).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";
import { MAX_SYNC_OWED } from "../../../src/runtime/sync.js";
import { canMount } from "../container/tiny-disk.js";

const rooted = canMount() ? it : it.skip;

async function withMount<T>(fn: (ctx: Awaited<ReturnType<typeof realDaemonWorkspace>> & { run: (c: string) => Promise<{ stdout: string; pushed?: number; skipped: { path: string; reason: string }[] }>; mount: () => void; umount: () => void }) => Promise<T>): Promise<T> {
  const real = await realDaemonWorkspace();
  const mnt = path.join(real.dir, "d/mnt");
  let mounted = false;
  const run = async (command: string) => (await real.ws.runtime.exec(command, { backend: "box", encoding: "utf8" })).result();
  try {
    return await fn({
      ...real,
      run,
      mount: () => {
        execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt], { stdio: "ignore" });
        mounted = true;
      },
      umount: () => {
        execFileSync("umount", [mnt], { stdio: "ignore" });
        mounted = false;
      },
    });
  } finally {
    if (mounted) execFileSync("umount", [mnt], { stdio: "ignore" });
    await real.close();
  }
}

describe("fix22: entries the container refused for a passing reason stay owed", () => {
  rooted("ENOSPC: the file is sent again on every push, reported each time, until it lands", { timeout: 60_000 }, async () => {
    await withMount(async ({ ws, dir, run, mount, umount }) => {
      await ws.fs.mkdir("/workspace/d/mnt", { recursive: true });
      expect((await run("true")).skipped).toEqual([]);
      mount();
      await ws.fs.writeFile("/workspace/d/mnt/big.bin", new Uint8Array(200_000).fill(7));
      const refused = [{ path: "/workspace/d/mnt/big.bin", reason: "ENOSPC: no space left on device (d/mnt/big.bin)" }];
      const first = await run("ls d/mnt");
      expect([first.stdout, first.skipped]).toEqual(["", refused]);
      const second = await run("ls d/mnt"); // nothing changed in the Workspace: sent again, refused again
      expect([second.stdout, second.pushed, second.skipped]).toEqual(["", 1, refused]);
      umount(); // the disk has room again
      const third = await run("wc -c < d/mnt/big.bin");
      expect([third.stdout, third.pushed, third.skipped]).toEqual(["200000\n", 1, []]);
      expect(fs.statSync(path.join(dir, "d/mnt/big.bin")).size).toBe(200_000);
      const fourth = await run("true"); // landed: no longer owed
      expect([fourth.pushed, fourth.skipped]).toEqual([0, []]);
      expect(ws.db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_owed`)?.n).toBe(0);
      // The Workspace kept its file throughout (the pulls did not take the container's state for new work).
      expect((await ws.fs.stat("/workspace/d/mnt/big.bin")).size).toBe(200_000);
    });
  });

  rooted("EBUSY: a Workspace deletion the container refuses is sent again once the mount is gone", { timeout: 60_000 }, async () => {
    await withMount(async ({ ws, dir, run, mount, umount }) => {
      await ws.fs.mkdir("/workspace/d/mnt", { recursive: true });
      await ws.fs.writeFile("/workspace/d/a.txt", "a\n");
      expect((await run("true")).skipped).toEqual([]);
      mount();
      expect((await run("true")).skipped).toEqual([]); // (the mount's root mode is pulled)
      await ws.fs.rm("/workspace/d", { recursive: true });
      const refused = [{ path: "/workspace/d", reason: "EBUSY: resource busy or locked (d)" }];
      expect((await run("true")).skipped).toEqual(refused);
      expect((await run("true")).skipped).toEqual(refused);
      umount();
      const last = await run("test -e d && echo there || echo gone");
      expect([last.stdout, last.skipped]).toEqual(["gone\n", []]);
      expect(fs.existsSync(path.join(dir, "d"))).toBe(false);
      expect(await ws.fs.lstat("/workspace/d").then(() => "there", (e: { code?: string }) => e.code)).toBe("ENOENT");
    });
  });

  rooted("at most MAX_SYNC_OWED entries are owed; past it a refusal is reported once", { timeout: 120_000 }, async () => {
    await withMount(async ({ ws, run, mount }) => {
      await ws.fs.mkdir("/workspace/d/mnt", { recursive: true });
      expect((await run("true")).skipped).toEqual([]);
      mount();
      const files = MAX_SYNC_OWED + 50;
      for (let i = 0; i < files; i++) await ws.fs.writeFile(`/workspace/d/mnt/f${String(i).padStart(5, "0")}`, new Uint8Array(8192).fill(1));
      const first = await run("true");
      const refusedFirst = first.skipped.length === 1000 ? Number(/^(\d+) more/.exec(first.skipped.at(-1)!.reason)?.[1] ?? 0) + 999 : first.skipped.length;
      const owed = ws.db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_owed`)?.n;
      expect(owed).toBe(MAX_SYNC_OWED);
      expect(refusedFirst).toBeGreaterThan(MAX_SYNC_OWED);
      const second = await run("true"); // only the owed ones are sent again
      expect(second.pushed).toBe(MAX_SYNC_OWED);
      expect(ws.db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_owed`)?.n).toBe(MAX_SYNC_OWED);
    });
  });
});

describe("fix22: a refusal that cannot pass is reported once", () => {
  it("a name over 255 bytes (ENAMETOOLONG) is not sent again", { timeout: 60_000 }, async () => {
    const { ws, close } = await realDaemonWorkspace();
    const run = async (command: string) => (await ws.runtime.exec(command, { backend: "box", encoding: "utf8" })).result();
    try {
      const name = "n".repeat(300);
      await ws.fs.writeFile(`/workspace/${name}`, "x\n");
      const first = await run("true");
      expect([first.pushed, first.skipped.map((s) => [s.path, s.reason.split(":")[0]])]).toEqual([1, [[`/workspace/${name}`, "ENAMETOOLONG"]]]);
      const second = await run("true");
      expect([second.pushed, second.skipped]).toEqual([0, []]);
      expect(ws.db.one<{ n: number }>(`SELECT count(*) AS n FROM __ws_sync_owed`)?.n).toBe(0);
    } finally {
      await close();
    }
  });
});
