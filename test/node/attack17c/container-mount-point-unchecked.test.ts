/**
 * Issue 20, seventeenth attack run: the mount point a container's daemon announces (`info().mountPoint`)
 * is used unchecked — not a string, it fails every command with a raw TypeError; of any length, it is put
 * in front of every pushed path for the ignore globs, so its length multiplies the cost of each push.
 *
 * Tried: a Workspace runtime over `daemonHandle` (src/backends/daemon/handle.ts) with a stand-in daemon
 * ("Nothing the daemon answers is trusted (a command can take it over)", runtime/sync.ts) whose `info`
 * answers `{ mountPoint: <value>, ignore: ["**\/x"], bootId: "b" }`, then `exec("true")` with 50 (20 below; 16 Mi characters there)
 * one-byte files in /workspace to push. (Held: the boot id is checked, EPROTO; the ignore globs are checked
 * — not an array, a bad character, over MAX_GLOB_SIZE together: EPROTO — and matched by the linear matcher.)
 *
 * Found (low-medium; 2 of 2 runs):
 * (a) `ignoreMatcher(info.mountPoint, info.ignore)` calls `mountPoint.endsWith("/")`: a mount point of 42,
 *     null, undefined or an object makes `exec` reject with a raw `TypeError` (no code, nothing naming the
 *     daemon: `mountPoint.endsWith is not a function`, `Cannot read properties of null (reading
 *     'endsWith')`) — every other malformed `info` answer is `EPROTO: the container's daemon announced …`.
 * (b) nothing bounds its length: every pushed path is matched as `${mountPoint}/${wire}` (for each glob and
 *     alternative), so a push costs (paths × mount point length). With ignore `["**\/x"]` and 50 files:
 *     "/" + 64 Ki characters 234 ms, 1 Mi 1,747 ms; with 20 files: "/workspace"-sized 249 ms, 4 Mi
 *     1,870 ms (80 files: 5,785 ms, ~70 ms a path), 16 Mi 6,315 ms (~300 ms a path; a daemon message may
 *     hold ~16 Mi characters). A push of 1,000 files then holds the object ~5 minutes, past the 30 s CPU
 *     limit, on every command — the globs themselves are bounded by MAX_GLOB_SIZE (4,096) precisely so
 *     the matching stays cheap.
 *
 * Suggested fix: check `mountPoint` with the boot id: an absolute path string of at most MAX_PATH_BYTES
 * (or a few KiB) — else EPROTO `the container's daemon announced a mount point that is not …`; better,
 * match the globs' mount-point prefix once per connection and only the wire path per entry.
 *
 * Fixed: `#daemon()` (runtime/sync.ts) checks the mount point with the boot id (`checkMountPoint`): a string
 * starting with `/` of at most MAX_MOUNT_POINT_CHARS (4096) characters, else EPROTO `the container's daemon
 * announced a mount point that is not …` — (a) and (b) are refused before anything is pushed.
 */
import { describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { daemonHandle, type DaemonApi } from "../../../src/backends/daemon/handle.js";
import { emptyDaemon } from "../attack15c/daemon-stand-in.js";

function workspace(info: unknown): Workspace {
  const daemon = {
    ...emptyDaemon(),
    info: async () => info,
    events: async ({ after }: { after: number }) => ({ events: [{ seq: 1, name: "exit", code: 0 }].filter((e) => e.seq > after), done: true }),
  } as unknown as DaemonApi;
  return new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    backends: [{ id: "box", type: "test", connect: async () => daemonHandle(daemon, { closed: new Promise(() => {}), close() {} }) }],
  });
}

async function run(ws: Workspace): Promise<string> {
  return ws.runtime.exec("true", { backend: "box" }).then(
    async (h) => `pushed ${(await h.result()).pushed}`,
    (e: Error & { code?: string }) => `rejected ${e.name} ${e.code}`,
  );
}

describe("attack17c: the daemon's mount point", () => {
  it("(a) a mount point that is not a string is refused EPROTO, not a raw TypeError", async () => {
    const out: string[] = [];
    for (const mountPoint of [42, null, undefined, { a: 1 }]) {
      const ws = workspace({ mountPoint, ignore: ["**/x"], bootId: "b" });
      await ws.fs.mkdir("/workspace", { recursive: true });
      out.push(await run(ws));
    }
    // Found: 4 × "rejected TypeError undefined".
    expect(out).toEqual(Array(4).fill("rejected Error EPROTO"));
  });

  it("(b) a 16 Mi-character mount point does not make each pushed path cost its length", { timeout: 50_000 }, async () => {
    const ws = workspace({ mountPoint: `/${"m".repeat(16 * 1024 * 1024)}`, ignore: ["**/x"], bootId: "b" });
    await ws.fs.mkdir("/workspace", { recursive: true });
    for (let i = 0; i < 20; i++) await ws.fs.writeFile(`/workspace/f${i}`, "x");
    const started = Date.now();
    const outcome = await run(ws);
    const ms = Date.now() - started;
    // Refused as a malformed answer (over MAX_MOUNT_POINT_CHARS), before anything is pushed.
    expect(outcome).toBe("rejected Error EPROTO");
    // Found: ~6.3 s for 20 one-byte files (~300 ms a path), linear in the mount point's length.
    expect(ms).toBeLessThan(2_000);
  });
});
