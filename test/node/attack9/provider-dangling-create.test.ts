/**
 * FIXED — open with a create flag and appendFile create through a dangling
 * link: an exclusive create that meets a link follows it (up to 40 links,
 * relative targets from the link's directory) and creates the last target
 * exclusively; O_EXCL still refuses the link (EEXIST).
 *
 * Issue 20 ninth attack run, category 4: `workspace.provider()` creating a
 * file through a dangling link (a link whose target does not exist yet — a
 * log path pointing into a directory made empty by rotation, a config link
 * set up before the file).
 *
 * node:fs (open(2) with O_CREAT without O_EXCL) follows the link and creates
 * its target. The provider's `writeFile` does (withstood); `open` with a
 * create flag and `appendFile` do not:
 *
 * DEFECT (low) — reproduction (Node):
 *   await ws.fs.mkdir("/d"); await ws.fs.symlink("/d/log", "/l");
 *   await p.open("/l", "w")        // → ENOENT "no such file or directory, open '/l'" (node:fs: creates /d/log)
 *   await p.open("/l", "a")        // → ENOENT
 *   await p.appendFile("/l", "C")  // → EEXIST "file already exists, open '/l'" — for a file that
 *                                  //   does not exist, after 10 retries (node:fs: /d/log = "C")
 *   await p.writeFile("/l", "B")   // → /d/log = "B" (the link kept): withstood
 * Both create the file with `exclusive: true` at the LINK's path (refused:
 * the link is there), then look again through the link (nothing): open
 * ends ENOENT, appendFile retries its EEXIST and gives up. Code that opens
 * a log through such a link (fs.createWriteStream, appendFile loggers)
 * cannot start, with an error naming the wrong cause.
 * Expected: as node:fs and as `writeFile` here — the target is created.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code);

async function withLink<T>(fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  try {
    await ws.fs.mkdir("/d");
    await ws.fs.symlink("/d/log", "/l");
    return await fn(ws);
  } finally {
    await ws.close();
  }
}

describe("attack9: provider creates through a dangling link", () => {
  it("withstood: writeFile through a dangling link creates the target and keeps the link", async () => {
    await withLink(async (ws) => {
      expect(await codeOf(ws.provider().writeFile("/l", "B"))).toBe("ok");
      expect(await ws.fs.readFile("/d/log", "utf8")).toBe("B");
      expect((await ws.fs.lstat("/l")).isSymbolicLink).toBe(true);
    });
  });

  it("open('w') and open('a') through a dangling link create the target", async () => {
    await withLink(async (ws) => {
      const p = ws.provider();
      const opened = await codeOf(p.open("/l", "w").then(async (h) => { await h.write("A"); await h.close(); }));
      const appended = await codeOf(p.open("/l", "a").then(async (h) => { await h.write("B"); await h.close(); }));
      expect({ opened, appended, content: await ws.fs.readFile("/d/log", "utf8").catch((e: { code?: string }) => e.code) }).toEqual({ opened: "ok", appended: "ok", content: "AB" });
    });
  });

  it("appendFile through a dangling link creates the target (not EEXIST)", async () => {
    await withLink(async (ws) => {
      const appended = await codeOf(ws.provider().appendFile("/l", "C"));
      expect({ appended, content: await ws.fs.readFile("/d/log", "utf8").catch((e: { code?: string }) => e.code) }).toEqual({ appended: "ok", content: "C" });
    });
  });
});
