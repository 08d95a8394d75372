/**
 * Everything is bounded: a pull copies no file larger than
 * MAX_PULL_FILE_BYTES (1 GiB) into the Workspace. A 2 GiB sparse file made
 * in the container (`truncate -s 2G`) is listed in `skipped` with the
 * reason, nothing of it is stored, and the rest of the pull goes on.
 * A real local daemon, a Durable Object in workerd.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer } from "./helpers.js";
import { MAX_PULL_FILE_BYTES } from "../../../src/runtime/sync.js";

describe("container sync: the pull's file size limit", () => {
  it("a file over 1 GiB is skipped with the reason; the small file next to it is pulled", async () => {
    expect(MAX_PULL_FILE_BYTES).toBe(1024 ** 3);
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const r = await sh(ws, "truncate -s 2G huge.img && echo ok > small.txt");
      expect(r.exitCode).toBe(0);
      expect(r.sync).toEqual({
        status: "complete",
        applied: 1,
        skipped: [{ path: "/workspace/huge.img", op: "write", reason: "file larger than the pull limit (1073741824 bytes)" }],
      });
      expect(await ws.fs.readFile("/workspace/small.txt", "utf8")).toBe("ok\n");
      await expect(ws.fs.lstat("/workspace/huge.img")).rejects.toMatchObject({ code: "ENOENT" });
      // The next command's pull skips it again (the container keeps it), and pulls nothing else.
      const again = await sh(ws, "true");
      expect(again.sync).toMatchObject({ status: "complete", applied: 0 });
    });
  });
});
