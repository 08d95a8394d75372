/**
 * Issue 20, twenty-first attack run: a pull removes from the Workspace "only what is still as last synced … what the
 * Workspace changed or added there is kept" (docs/container.md, Sync 4), and "container changes win". The push, its
 * mirror, has no such care: a Workspace deletion of a directory is sent as one `rm` of the directory, which the daemon
 * runs as `fs.rm(host, { recursive: true })` (container/lib/sync.mjs `apply` `rm`) — whatever the container put there
 * since the last pull goes with it, never seen by the Workspace. A deleted file likewise takes the container's newer
 * version of it. Between commands nothing writes in the container, but beside a live run (a dev server, a watcher, a
 * build — "other commands live on it", Sync 5) the next command's push does not pull first (#live > 0), so the live
 * run's new files under a directory the model deleted are destroyed on both sides.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts). /workspace/d/a synced by a first command;
 * a live run writes d/new (and rewrites d/f) then waits; once d/new is on the container's disk the Workspace removes
 * /workspace/d (and /workspace/f); a second command (`touch go`) pushes and ends the live run; both pulls run.
 * Held: type changes both ways (dir→file, file→dir, link→dir, dir→link in the container, and in the Workspace) sync
 * exactly; a pull beside Workspace writes keeps them (Sync 4).
 *
 * Found (medium; 3 of 3 runs): the push's `rm d` removes d/new in the container; the second command's pull and the
 * live run's pull find nothing; /workspace holds only `go`. The build output the live run wrote is gone everywhere,
 * with no `skipped` entry. Same for the file: the live run's "v2" of f is removed, not pulled.
 *
 * The same push overwrites a file the live run rewrote: the Workspace's "workspace-v2" replaces the live run's
 * "container-v2" in the container, and the live run's own pull then finds nothing to bring back — the opposite of
 * "a file the command changed replaces a version the Workspace wrote while the command ran" (second case; 2 of 2).
 *
 * Suggested fix: push a deletion the way the pull applies one — remove only what is still as the manifest recorded
 * it (an `rm` op carrying the recorded kind/size/mtime/ctime, the daemon refusing a changed entry and a non-empty
 * directory: ENOTEMPTY/ESTALE), entries bottom-up; what the container changed or added is kept, reported in
 * `skipped`, and comes back with the next pull (container wins). Or pull before pushing deletions while a run is live.
 *
 * Fixed: while commands of the connection are live, a push that has anything to send (`#toSend`: a deletion of a
 * synced entry, a changed or new entry) pulls first (src/runtime/sync.ts `#push`), and marks the live runs' pulls owed
 * again: what a live run wrote since the last pull comes into the Workspace by the pull's rules (container wins), and
 * the deletion then removes only what was synced before it (`#removals`: d/a goes, d/new and f — pulled after the
 * deletion — stay). A push with nothing to send walks nothing. Sibling (a new Workspace file where the live run made
 * one) in test/node/fix21/container-sync-disk-id-and-live-runs.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

describe("attack21c: a push deleting a directory beside a live run", () => {
  it("keeps what the live run wrote there since the last pull (container wins)", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    const { ws, dir } = real;
    try {
      await ws.fs.mkdir("/workspace/d", { recursive: true });
      await ws.fs.writeFile("/workspace/d/a", "a");
      await ws.fs.writeFile("/workspace/f", "v1");
      const first = await (await ws.runtime.exec("true", { backend: "box" })).result();
      expect(first.exitCode).toBe(0);
      const live = (await ws.runtime.exec("echo build-output > d/new; echo v2 > f; while [ ! -f go ]; do sleep 0.1; done", { backend: "box", id: "live" })).result();
      for (let i = 0; i < 200 && !(fs.existsSync(path.join(dir, "d/new")) && fs.readFileSync(path.join(dir, "f"), "utf8") === "v2\n"); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(fs.readFileSync(path.join(dir, "d/new"), "utf8")).toBe("build-output\n");
      await ws.fs.rm("/workspace/d", { recursive: true });
      await ws.fs.rm("/workspace/f");
      const second = await (await ws.runtime.exec("touch go", { backend: "box", id: "second" })).result();
      expect(second.exitCode).toBe(0);
      expect((await live).exitCode).toBe(0);
      // Found: both false on the container's disk, and /workspace holds only "go".
      expect({ dNew: fs.existsSync(path.join(dir, "d/new")), f: fs.existsSync(path.join(dir, "f")) }).toEqual({ dNew: true, f: true });
      expect(await ws.fs.readFile("/workspace/d/new", "utf8")).toBe("build-output\n");
      expect(await ws.fs.readFile("/workspace/f", "utf8")).toBe("v2\n");
      // The Workspace's deletion still removed what was synced before it, on both sides.
      expect({ container: fs.readdirSync(path.join(dir, "d")).sort(), f: fs.readFileSync(path.join(dir, "f"), "utf8") }).toEqual({ container: ["new"], f: "v2\n" });
      expect((await ws.fs.readdir("/workspace/d")).map((e) => (typeof e === "string" ? e : e.name)).sort()).toEqual(["new"]);
    } finally {
      await real.close();
    }
  });

  it("a file the live run rewrote replaces the version the Workspace wrote meanwhile (container wins)", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    const { ws, dir } = real;
    try {
      await ws.fs.writeFile("/workspace/f", "v1");
      expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).exitCode).toBe(0);
      const live = (await ws.runtime.exec("echo container-v2 > f; while [ ! -f go ]; do sleep 0.1; done", { backend: "box", id: "live" })).result();
      for (let i = 0; i < 200 && fs.readFileSync(path.join(dir, "f"), "utf8") !== "container-v2\n"; i++) await new Promise((r) => setTimeout(r, 50));
      expect(fs.readFileSync(path.join(dir, "f"), "utf8")).toBe("container-v2\n");
      await ws.fs.writeFile("/workspace/f", "workspace-v2");
      expect((await (await ws.runtime.exec("touch go", { backend: "box", id: "second" })).result()).exitCode).toBe(0);
      expect((await live).exitCode).toBe(0);
      // Found: "workspace-v2" on both sides.
      expect({ container: fs.readFileSync(path.join(dir, "f"), "utf8"), workspace: await ws.fs.readFile("/workspace/f", "utf8") }).toEqual({
        container: "container-v2\n",
        workspace: "container-v2\n",
      });
    } finally {
      await real.close();
    }
  });
});
