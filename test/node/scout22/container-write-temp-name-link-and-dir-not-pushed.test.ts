/**
 * Issue 20, twenty-second attack run (scout of fixes): a directory or symlink named like the daemon's write
 * temporary syncs from the container but never back — the Workspace's own, and its deletion of a pulled one.
 * Tried: a3d344f (src/runtime/sync.ts: a Workspace entry named `.ws-sync-write-<16 hex>` is not pushed,
 * isDaemonWriteTemp in #ignored) beside a59c2db/b894efb (the daemon's scan hides only a REGULAR FILE so named; "a
 * directory or symlink so named are ordinary entries", container/README.md) — the real daemon (attack18c's
 * realDaemonWorkspace): a Workspace directory and a Workspace symlink so named, then a command; a directory (with a
 * file) and a symlink so named made in the container, pulled, then removed in the Workspace, then a command.
 * Held: a regular file so named stays in the Workspace only and is never taken for deleted (fix22's own test); the
 * container-made directory and symlink are pulled into the Workspace, as the README says.
 * Found (low — odd names, but the two sides now disagree for good; deterministic): the host's filter matches the
 * wire path's last name whatever the entry's kind, so the Workspace's directory and symlink never reach the
 * container (`ls -a` shows only `sub`), and the Workspace's removal of the pulled directory and symlink is never
 * pushed: the next command still sees both (and `inside`), the container's disk keeps them, the Workspace does not.
 * Suggested fix: in RemoteSync#pushEntries skip such a name only for a `file` entry (the kind the daemon hides), and
 * push a deletion whenever the manifest holds a row for it (#removals finds one only for what a scan listed or a
 * push sent — i.e. a directory or link) — or make isDaemonWriteTemp kind-aware, as WRITE_TEMP's `st.isFile()`.
 * Fixed: src/runtime/sync.ts leaves only a `file` entry so named out of a push (#toSend and #pushEntries), as the
 * daemon hides only a regular file; a directory or link so named, and its deletion, are pushed as any entry.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

let s: Awaited<ReturnType<typeof realDaemonWorkspace>>;
beforeEach(async () => {
  s = await realDaemonWorkspace();
});
afterEach(async () => {
  await s.close();
});

const WS_DIR = ".ws-sync-write-1111111111111111";
const WS_LINK = ".ws-sync-write-2222222222222222";
const BOX_DIR = ".ws-sync-write-3333333333333333";
const BOX_LINK = ".ws-sync-write-4444444444444444";

it("a directory or symlink named like a write temporary syncs both ways, deletions included", async () => {
  const { ws, dir } = s;
  const ls = async () => (await (await ws.runtime.exec("ls -a | tr '\\n' ' '", { backend: "box", encoding: "utf8" })).result()).stdout;
  await ws.fs.mkdir("/workspace/sub", { recursive: true });
  await ws.fs.mkdir(`/workspace/${WS_DIR}`, { recursive: true });
  await ws.fs.symlink("sub", `/workspace/${WS_LINK}`);
  const workspaceMade = await ls();

  fs.mkdirSync(path.join(dir, BOX_DIR));
  fs.writeFileSync(path.join(dir, BOX_DIR, "inside"), "in");
  fs.symlinkSync("sub", path.join(dir, BOX_LINK));
  await ls(); // pulled into the Workspace
  const pulled = (await ws.fs.readdir("/workspace")).map((e) => (e as unknown as { name: string }).name).sort();
  await ws.fs.rm(`/workspace/${BOX_DIR}`, { recursive: true });
  await ws.fs.rm(`/workspace/${BOX_LINK}`);
  const afterRemoval = await ls();

  expect(pulled).toEqual([WS_DIR, WS_LINK, BOX_DIR, BOX_LINK, "sub"].sort());
  // Found: ". .. sub " and ". .. .ws-sync-write-3333333333333333 .ws-sync-write-4444444444444444 sub " (disk the same).
  expect({ workspaceMade, afterRemoval, disk: fs.readdirSync(dir).sort() }).toEqual({
    workspaceMade: `. .. ${WS_DIR} ${WS_LINK} sub `,
    afterRemoval: `. .. ${WS_DIR} ${WS_LINK} sub `,
    disk: [WS_DIR, WS_LINK, "sub"],
  });
});
