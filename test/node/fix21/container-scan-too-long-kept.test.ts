/**
 * Fix of attack21c/container-scan-deep-path-silently-unsynced (issue 20, run 21), siblings: the host keeps what it
 * recorded under an entry the daemon reports `toolong` (nothing under it taken as deleted); the daemon's scan pages
 * past such entries with a small `limit` (a cursor never names a path over 4096 bytes). The real daemon in process.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace, workspaceOver, wrapDaemon } from "../attack18c/real-daemon.js";

type Page = { entries: { path: string }[]; skipped: { path: string; reason: string }[]; cursor: string | null; done: boolean };
type Scan = (i: unknown) => Promise<Page>;

describe("fix21: scan entries past PATH_MAX", () => {
  it("the pull keeps what the Workspace holds under an entry the daemon could not look into, and reports it", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    await real.ws.close();
    let hide = false;
    const scan = (real.daemon as unknown as { scan: Scan }).scan.bind(real.daemon);
    const daemon = wrapDaemon(real.daemon, {
      scan: async (input: never) => {
        const page = await scan(input);
        if (!hide) return page;
        // As the daemon answers when dir's host path has grown past PATH_MAX.
        return { ...page, entries: page.entries.filter((e) => e.path !== "dir" && !e.path.startsWith("dir/")), skipped: [...page.skipped, { path: "dir", reason: "toolong" }] };
      },
    });
    const ws = await workspaceOver(daemon);
    try {
      await ws.fs.mkdir("/workspace/dir/sub", { recursive: true });
      await ws.fs.writeFile("/workspace/dir/sub/a.txt", "A");
      await ws.fs.writeFile("/workspace/top.txt", "T");
      expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).exitCode).toBe(0);
      hide = true;
      const result = await (await ws.runtime.exec("rm top.txt", { backend: "box" })).result();
      // Since issue 20 run 39 (fixer CR), while the pull meets a place it cannot look into, every deletion of that pull
      // is held back and reported (the file may have moved there); before, top.txt's deletion applied (applied: 1).
      const tooDeep = "path longer than the container's PATH_MAX (4096 bytes): not synced; what the Workspace holds there is kept";
      expect(result.sync).toEqual({
        status: "complete",
        applied: 0,
        skipped: [
          { path: "/workspace/dir", op: "write", reason: tooDeep },
          { path: "/workspace/top.txt", op: "delete", reason: `the container may have moved it into /workspace/dir, which this pull cannot look into (${tooDeep}): kept, it is not lost` },
        ],
      });
      expect(await ws.fs.readFile("/workspace/dir/sub/a.txt", "utf8")).toBe("A");
      expect(await ws.fs.readFile("/workspace/top.txt", "utf8")).toBe("T");
    } finally {
      await ws.close();
      fs.rmSync(real.dir, { recursive: true, force: true });
    }
  });

  it("the daemon's scan pages past them one entry a page, every cursor at most 4096 bytes", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    try {
      const n = "d".repeat(250);
      let deep = 1;
      while (Buffer.byteLength(real.dir) + deep * (n.length + 1) <= 4095) deep++;
      // deep-1 directories, then in the last of them three names past PATH_MAX and one file within it.
      const script = `import os\nfor i in range(${deep - 1}):\n    os.mkdir('${n}')\n    os.chdir('${n}')\nfor x in 'abc':\n    os.mkdir(x * 250)\nopen('z', 'w').close()\n`;
      expect(spawnSync("python3", ["-c", script], { cwd: real.dir }).status).toBe(0);
      const scan = (real.daemon as unknown as { scan: Scan }).scan.bind(real.daemon);
      const seen: string[] = [];
      const skipped: string[] = [];
      for (let cursor: string | null = null, pages = 0; ; pages++) {
        expect(pages).toBeLessThan(100);
        const page: Page = await scan({ cursor, limit: 1 });
        seen.push(...page.entries.map((e) => e.path));
        skipped.push(...page.skipped.map((s) => `${s.reason}:${path.basename(s.path)}`));
        if (page.done) break;
        expect(Buffer.byteLength(page.cursor!)).toBeLessThanOrEqual(4096);
        cursor = page.cursor;
      }
      const parent = Array.from({ length: deep - 1 }, () => n).join("/");
      expect(seen).toEqual([...Array.from({ length: deep - 1 }, (_, i) => Array.from({ length: i + 1 }, () => n).join("/")), `${parent}/z`]);
      expect(skipped).toEqual(["toolong:" + "a".repeat(250), "toolong:" + "b".repeat(250), "toolong:" + "c".repeat(250)]);
    } finally {
      spawnSync("rm", ["-rf", real.dir]);
      await real.ws.close();
    }
  });
});
