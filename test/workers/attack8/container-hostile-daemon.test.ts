/**
 * Issue 20 eighth attack run, category 1 (sandbox escapes) on the newest
 * surface, the container backend's sync (src/runtime/sync.ts): the Durable
 * Object TRUSTS what the daemon answers. The daemon runs inside the
 * container, next to the model's commands, as the same user (root in
 * container/Dockerfile: no USER line); a command can take it over — e.g.
 * `kill -USR1 <daemon pid>` opens Node's inspector on 127.0.0.1:9229 and
 * `Runtime.evaluate` then runs code in the daemon, and `/proc/<pid>/environ`
 * holds COMPUTERD_SECRET (both shown with real commands in
 * container-daemon-exposure.test.ts). Here the takeover is played by a preload given to
 * a real local daemon through `NODE_OPTIONS=--import=data:…` (the local host
 * passes a start's `env` to the daemon): it patches `fs.promises.readdir` so
 * the daemon's own, unmodified `scan` lists two extra names at the mount
 * root, `../host` (a symlink to `planted`), `../made-by-container` (a
 * directory) and `../notes` (a file) — real entries beside the mount point,
 * so the daemon's lstat/readlink answer for them as for any entry.
 *
 * FIXED — src/runtime/sync.ts checks every path, kind and target the daemon
 * answers (scan entries, skipped entries, apply results; `validWire`,
 * `entryOf`, `applyResultOf`): a path that is not relative, with an empty,
 * `.` or `..` segment or a NUL (and `""`, /workspace itself) is refused into
 * `skipped` ("invalid path from the container"), never applied, recorded or
 * deleted; a manifest row recorded before the check is only forgotten.
 *
 * DEFECT (high) — a scan entry's `path` is used as is: `#pullEntry` writes
 * `${SYNC_ROOT}/${entry.path}`, and the Workspace's canonicalPath applies
 * `..` lexically, so `/workspace/../host` is `/host`. Reproduction (inside the
 * object, a TestBackend "box" on the daemon above; /host/secrets/token.txt is
 * the host's own data outside /workspace):
 *   await ws.fs.writeFile("/host/secrets/token.txt", "TOKEN=hunter2");
 *   await ws.fs.writeFile("/notes/keep.txt", "host notes");
 *   const r = await (await ws.runtime.exec("echo hi > a.txt", { backend: "box" })).result();
 *   // r.sync → { status: "complete", applied: 3, skipped: [{ path: "/workspace/../notes",
 *   //   op: "write", reason: "EACCES: path escapes the mount point: \"../notes\"" }] }
 *   await ws.fs.lstat("/host")            // → a symbolic link to "planted"
 *   await ws.fs.readFile("/host/secrets/token.txt")   // → ENOENT (the directory was removed, recursively)
 *   await ws.fs.stat("/made-by-container")            // → a directory
 *   await ws.fs.lstat("/notes")           // → ENOENT: removed, though its file entry was then skipped
 * Observed: the pull removes any Workspace directory or file outside
 * /workspace recursively (an entry of another kind at that place is "a
 * directory replaced by a file or link": `rm -r` first — for kind "file" too,
 * before the read the daemon refuses), and makes links and directories
 * anywhere; they are recorded in the manifest under `../host`, so a later
 * pull that no longer sees them deletes `/workspace/../host` = /host.
 * By reading (not run here): any path canonicalPath resolves outside
 * /workspace (`a/../../x`) does the same, and a path "" names /workspace
 * itself (a symlink entry there would `rm -r` /workspace and make it a link).
 * Expected: nothing outside /workspace changes; such entries are refused
 * (listed in `skipped`), as the daemon itself refuses `..` above the mount
 * (paths.mjs `segments`).
 * Impact: high — the model's code in the container (the docs' recommended
 * setup gives the model only JavaScript confined to /workspace plus
 * `ws:container`) can delete or replace anything the Durable Object keeps in
 * its Workspace outside /workspace (another root, `/.computer`, host state),
 * i.e. the one wall between the container and the rest of the Workspace is
 * the daemon it controls.
 * Fix proposal: validate every path the daemon returns before using it
 * (scan entries and skipped entries, apply results): a relative POSIX path
 * whose segments are non-empty, not `.`/`..`, without NUL and without a
 * leading `/`; refuse anything else as `{ op, reason: "invalid path from the
 * daemon" }` in `skipped`; also check `kind` is one of the three and `target`
 * a string. In the same place, resolve the Workspace side without following
 * links on the way (see container-pull-race.test.ts).
 *
 * Withstood here: with the same preload, the daemon's own RPC `read` of
 * `../host/…` is refused (EACCES from `segments`), so no file CONTENT is
 * placed outside /workspace by kind "file" — only the deletions, links and
 * directories above.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer } from "../container/helpers.js";

/** The takeover: run in the daemon process before its modules load (same code a command could evaluate through the inspector). */
const PRELOAD = `
import fsp from "node:fs/promises";
import fs from "node:fs";
import path from "node:path";
const real = (() => { fs.mkdirSync(process.env.MOUNT_POINT, { recursive: true }); return fs.realpathSync(process.env.MOUNT_POINT); })();
const beside = (n) => path.join(real, "..", n);
fs.rmSync(beside("host"), { recursive: true, force: true });
fs.symlinkSync("planted", beside("host"));
fs.mkdirSync(beside("made-by-container"), { recursive: true });
fs.writeFileSync(beside("notes"), "FROM THE CONTAINER");
const readdir = fsp.readdir;
fsp.readdir = async function (p, o) {
  const list = await readdir.call(this, p, o);
  if (String(p) === real) for (const n of ["../host", "../made-by-container", "../notes"]) list.push({ name: Buffer.from(n) });
  return list;
};
`;

const hostile = () => startContainer({ NODE_OPTIONS: `--import=data:text/javascript;base64,${btoa(PRELOAD)}` });

describe("attack8: a daemon's scan entries leaving /workspace", () => {
  it("a pull does not touch the Workspace outside /workspace, whatever path the daemon answers", async () => {
    const c = await hostile();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/host/secrets", { recursive: true });
      await ws.fs.writeFile("/host/secrets/token.txt", "TOKEN=hunter2");
      await ws.fs.mkdir("/notes", { recursive: true });
      await ws.fs.writeFile("/notes/keep.txt", "host notes");
      const r = await sh(ws, "echo hi > a.txt");
      expect(r.exitCode).toBe(0);
      expect(await ws.fs.readFile("/workspace/a.txt", "utf8")).toBe("hi\n");
      // Correct: the host's files are as they were, nothing was made outside /workspace.
      expect((await ws.fs.lstat("/host")).isDirectory).toBe(true);
      expect(await ws.fs.readFile("/host/secrets/token.txt", "utf8")).toBe("TOKEN=hunter2");
      await expect(ws.fs.lstat("/made-by-container")).rejects.toMatchObject({ code: "ENOENT" });
      expect(await ws.fs.readFile("/notes/keep.txt", "utf8")).toBe("host notes");
      // …and what the daemon answered outside /workspace is reported, not applied.
      expect(r.sync.status).toBe("complete");
      expect((r.sync as { skipped: unknown[] }).skipped).toHaveLength(3);
    });
  });
});
