/**
 * A pull marks as "seen" (not deleted in the container) each recorded path the daemon's walk reports — also a path it
 * skips. A name that is not UTF-8 is skipped under its lossy decoding (each bad byte U+FFFD), which is also the path
 * of a valid name: when the container deleted the valid `k\uFFFD` and holds the invalid `k\x80`, the skip of the
 * latter marked the former seen, and the Workspace kept a file the container no longer has (noticed by the helper
 * fixing the twentieth attack run's scan twins). A skip for the encoding names nothing the manifest can hold (a pull
 * never records such a name), so it marks nothing seen now; a special file (fifo, socket) still does.
 */
import fs from "node:fs";
import { expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

it("a container deletion of a valid name is pulled although an invalid twin decodes to the same path", { timeout: 30_000 }, async () => {
  const real = await realDaemonWorkspace();
  try {
    const { ws } = real;
    const made = await (await ws.runtime.exec(`printf x > "$(printf 'k\\357\\277\\275')"`, { backend: "box" })).result();
    expect(made.exitCode).toBe(0);
    expect(await ws.fs.readFile("/workspace/k\uFFFD", "utf8")).toBe("x");
    const swapped = await (await ws.runtime.exec(`rm "$(printf 'k\\357\\277\\275')" && printf y > "$(printf 'k\\200')"`, { backend: "box" })).result();
    expect(swapped.exitCode).toBe(0);
    // The container now holds only the invalid name.
    expect(fs.readdirSync(real.dir, { encoding: "buffer" }).map((n) => n.toString("hex"))).toEqual([Buffer.from([0x6b, 0x80]).toString("hex")]);
    expect(swapped.skipped).toEqual([{ path: "/workspace/k\uFFFD", op: "write", reason: "name is not valid UTF-8" }]);
    expect((await ws.fs.readdir("/workspace")).map((e) => e.name)).toEqual([]);
  } finally {
    await real.close();
  }
});
