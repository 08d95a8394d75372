/**
 * Issue 20, twenty-first attack run: the daemon's scan lstat()s each entry by its absolute host path
 * (container/lib/sync.mjs `scan` → `walk`: `fs.lstat(hostPath)` … `catch { continue; // removed while walking }`). Once
 * MOUNT_POINT plus the relative path passes PATH_MAX (4,096 bytes on Linux), lstat fails ENAMETOOLONG and the entry is
 * passed over as if it had been removed while walking — not listed, not in `skipped`. A command can make such a path
 * (mkdir/chdir step by step: python's os.makedirs, tar/unzip of a deep archive, a generated tree), and whatever lies
 * there is never pulled. When a command moves a synced file down there, the pull sees it gone from the container and
 * deletes it from the Workspace — the one durable copy (a container's disk does not outlive it) — with `skipped: []`.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts); /workspace/keep.txt ("precious") synced by
 * a first command; a second command builds 20 nested directories of 250 bytes each (python3 os.mkdir + os.chdir, as
 * dash's `cd` refuses past PATH_MAX) and moves keep.txt into the deepest.
 * Held: paths under PATH_MAX of any depth sync (16 levels here: 4,016 bytes); odd names (NFC/NFD twins, newline,
 * backslash, U+2028, BOM, 255-byte names) sync both ways exactly; type changes file↔dir↔link sync both ways.
 *
 * Found (medium; 2 of 2 runs): the pull applies 17 entries (16 directories and the deletion), `sync.skipped` is [], and
 * "precious" is nowhere in the Workspace: /workspace/keep.txt deleted, the 4 deepest directories and the file never
 * listed.
 *
 * Suggested fix: walk below PATH_MAX-long paths by directory handle (open the directory, then lstat/readdir/read
 * through `/proc/self/fd/<fd>/<name>`, or a helper using openat/fstatat), or at least report an entry whose lstat or
 * readdir fails with anything but ENOENT/ENOTDIR in `skipped` (e.g. "ENAMETOOLONG: path longer than PATH_MAX") and
 * mark its manifest subtree seen, so nothing is deleted from the Workspace because the daemon could not look.
 *
 * Fixed: the daemon's scan (container/lib/sync.mjs `walk`) reports an entry whose lstat fails ENAMETOOLONG in
 * `skipped` as `reason: "toolong"` (counted in the page; it ends a page only when its path fits a cursor's 4096 bytes)
 * instead of passing it over as removed; the pull (src/runtime/sync.ts) lists it in `sync.skipped` ("path longer than
 * the container's PATH_MAX (4096 bytes): not synced; what the Workspace holds there is kept") and takes nothing
 * recorded at or under it as deleted. keep.txt, moved from /workspace/keep.txt in the container, still goes from
 * there in the Workspace, now with the report naming where the tree became unreadable. Walking deeper by directory
 * handle was left alone: `read`/`apply` and cursors resolve paths of at most 4096 bytes (paths.mjs), so such entries
 * could be listed but not copied. Siblings: test/node/fix21/container-scan-too-long-kept.test.ts.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

describe("attack21c: a container path longer than PATH_MAX", () => {
  it("is pulled or reported, never passed over as removed", { timeout: 120_000 }, async () => {
    const real = await realDaemonWorkspace();
    const { ws, dir } = real;
    try {
      await ws.fs.writeFile("/workspace/keep.txt", "precious");
      expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).exitCode).toBe(0);
      expect((await ws.fs.grep("precious", "/workspace")).map((m) => m.path)).toEqual(["/workspace/keep.txt"]);
      const n = "d".repeat(250);
      const script = `import os\nfor i in range(20):\n    os.mkdir('${n}')\n    os.chdir('${n}')\nos.rename(os.environ['TOP'] + '/keep.txt', 'keep.txt')\n`;
      const result = await (await ws.runtime.exec(`TOP="$PWD" python3 -c "${script}"`, { backend: "box" })).result();
      expect(result.exitCode).toBe(0);
      const found = await ws.fs.grep("precious", "/workspace");
      // Found: sync { status: "complete", applied: 17, skipped: [] }, keep.txt gone, "precious" found nowhere.
      expect({ reported: (result.sync?.skipped?.length ?? 0) > 0, kept: found.length > 0 }).not.toEqual({ reported: false, kept: false });
      // The first directory whose host path passes PATH_MAX (4095 bytes) is reported, with nothing under it. Since
      // issue 20 run 39 (fixer CR) the pull cannot look there, so keep.txt's deletion is held back and reported — it
      // may have moved there, as it did — and keep.txt stays in the Workspace (before: it went, "precious" nowhere).
      let deep = 1;
      while (Buffer.byteLength(dir) + deep * (n.length + 1) <= 4095) deep++;
      const top = Array.from({ length: deep }, () => n).join("/");
      const tooDeep = "path longer than the container's PATH_MAX (4096 bytes): not synced; what the Workspace holds there is kept";
      expect(result.sync?.skipped).toEqual([
        { path: `/workspace/${top}`, op: "write", reason: tooDeep },
        { path: "/workspace/keep.txt", op: "delete", reason: `the container may have moved it into /workspace/${top}, which this pull cannot look into (${tooDeep}): kept, it is not lost` },
      ]);
      expect(result.sync).toMatchObject({ status: "complete", applied: deep - 1 });
      expect((await ws.fs.find("/workspace")).filter((e) => e.type === "dir").length).toBe(deep - 1); // the directories above it, pulled
      expect(found.map((m) => m.path)).toEqual(["/workspace/keep.txt"]);
    } finally {
      await real.ws.close();
      spawnSync("rm", ["-rf", dir]); // (GNU rm walks by handle; fs.rmSync fails ENAMETOOLONG here)
    }
  });
});
