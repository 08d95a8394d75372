/**
 * Fix of attack21c/container-pull-mixes-replaced-file (issue 20, run 21), siblings: a file written in place (same
 * inode) between two reads of one copy, and a file that changes between the reads of every copy. The real daemon in
 * process, wrapped so that the change lands right after a read is answered (deterministic).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace, workspaceOver, wrapDaemon } from "../attack18c/real-daemon.js";

const MiB = 1024 * 1024;
type Read = (i: unknown) => Promise<{ data: Uint8Array; size: number; dev: number; ino: number; ctimeMs: number; mtimeMs: number; eof: boolean }>;

/** A Workspace over the real daemon whose `read`s of `name` run `after(n)` once the n-th (from 1) is answered. */
async function over(after: (n: number, file: string) => void) {
  const real = await realDaemonWorkspace();
  await real.ws.close();
  const read = (real.daemon as unknown as { read: Read }).read.bind(real.daemon);
  let n = 0;
  const daemon = wrapDaemon(real.daemon, {
    read: async (input: never) => {
      const answer = await read(input);
      if ((input as { path: string }).path === "big.bin") after(++n, path.join(real.dir, "big.bin"));
      return answer;
    },
  });
  return { real, ws: await workspaceOver(daemon), reads: () => n };
}

describe("fix21: a container file that changes while a pull copies it", () => {
  it("the daemon's read names the file it read: dev, ino, ctimeMs, size, mtimeMs of the opened file", async () => {
    const real = await realDaemonWorkspace();
    try {
      fs.writeFileSync(path.join(real.dir, "f"), "abc");
      const st = fs.statSync(path.join(real.dir, "f"));
      const answer = await (real.daemon as unknown as { read: Read }).read({ path: "f" });
      expect({ ...answer, data: Buffer.from(answer.data).toString() }).toEqual({ data: "abc", size: 3, dev: st.dev, ino: st.ino, ctimeMs: st.ctimeMs, mtimeMs: st.mtimeMs, eof: true });
    } finally {
      await real.close();
    }
  });

  it("written in place (appended) between two reads: copied again whole", { timeout: 60_000 }, async () => {
    const { real, ws, reads } = await over((n, file) => {
      if (n === 1) fs.appendFileSync(file, Buffer.alloc(MiB, "C"));
    });
    try {
      fs.writeFileSync(path.join(real.dir, "big.bin"), Buffer.alloc(2 * MiB, "A"));
      const result = await (await ws.runtime.exec("true", { backend: "box" })).result();
      expect(result.sync).toEqual({ status: "complete", applied: 1, skipped: [] });
      const text = await ws.fs.readFile("/workspace/big.bin", "utf8");
      expect(text === "A".repeat(2 * MiB) + "C".repeat(MiB)).toBe(true);
      expect(reads()).toBe(2 + 3); // 2 pieces (the second refused), then 3 of the grown file
    } finally {
      await ws.close();
      fs.rmSync(real.dir, { recursive: true, force: true });
    }
  });

  it("replaced between the reads of every copy: skipped EAGAIN after 3 copies, the Workspace keeps its version", { timeout: 60_000 }, async () => {
    let version = 0;
    const { real, ws, reads } = await over((n, file) => {
      if (n % 2 === 1) {
        fs.writeFileSync(`${file}.tmp`, Buffer.alloc(2 * MiB, String(++version)));
        fs.renameSync(`${file}.tmp`, file);
      }
    });
    try {
      await ws.fs.writeFile("/workspace/big.bin", "workspace version");
      expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).sync).toMatchObject({ status: "complete", skipped: [] });
      expect(reads()).toBe(0); // pushed, not pulled
      fs.writeFileSync(path.join(real.dir, "big.bin.tmp"), Buffer.alloc(2 * MiB, "A"));
      fs.renameSync(path.join(real.dir, "big.bin.tmp"), path.join(real.dir, "big.bin"));
      const result = await (await ws.runtime.exec("true", { backend: "box" })).result();
      expect(result.sync).toEqual({
        status: "complete",
        applied: 0,
        skipped: [{ path: "/workspace/big.bin", op: "write", reason: "EAGAIN: the file changed in the container while it was copied (replaced or written between two 1 MiB reads): not copied; the next pull copies it again" }],
      });
      expect(reads()).toBe(6); // 3 copies of 2 reads, the second of each refused
      expect(await ws.fs.readFile("/workspace/big.bin", "utf8")).toBe("workspace version");
    } finally {
      await ws.close();
      fs.rmSync(real.dir, { recursive: true, force: true });
    }
  });
});
