/**
 * Issue 20, found by the lead after the fifteenth attack run: chmod (and utimes) through a symbolic link whose target
 * is inside a read-only mount.
 * Tried: a Workspace with a read-only WorkerBundle mount at /ro (a.txt, mode 0o644); host links /l -> /ro/a.txt,
 * /d -> /ro and /rel -> ro/a.txt; then `ws.fs.chmod` of /l, /d/a.txt (a link mid-path), /d (the mount root through a
 * link) and /rel; the provider's `chmod`/`utimes`/`lutimes`; the shell's `chmod` (real just-bash over
 * WorkspaceFsAdapter). Each mode read back from the mount afterwards.
 * Found (medium, 4 of 4 paths): `chmod` resolved the link and set the mode on the mount's file (0o644 → 0o777, and
 * /ro itself 0o755 → 0o700): the read-only check looked only at the path as written (`assertWritable` of "/l"), not
 * where the link led, unlike writeFile/mkdir/rm (`assertWritableVia`); the shell's `chmod 777 /l` exited 0. utimes
 * changes nothing anywhere (the Workspace keeps mtime itself; it only checks that the entry exists), directly in
 * /ro too, so it answers as it does for /ro/a.txt itself: resolved, nothing changed (held, left as is).
 * Fixed: chmod resolves with the mount guard's trace and refuses with `assertWritableVia` (EROFS naming the path as
 * given and the mount), as the other mutations do; nothing is changed.
 */
import { describe, expect, it } from "vitest";
import { Bash } from "just-bash";
import { Workspace, WorkerBundle, nodeSqliteStorage } from "../../../src/index.js";
import { WorkspaceFsAdapter } from "../../../src/backends/worker-shell/fs-adapter.js";

async function setup() {
  const ws = new Workspace({ storage: nodeSqliteStorage(), mounts: { "/ro": WorkerBundle({ "a.txt": "read only\n" }) } });
  await ws.ready();
  await ws.fs.symlink("/ro/a.txt", "/l");
  await ws.fs.symlink("/ro", "/d");
  await ws.fs.symlink("ro/a.txt", "/rel");
  await ws.fs.writeFile("/mine", "x", { mode: 0o600 });
  await ws.fs.symlink("/mine", "/lmine");
  const modes = async () => ({
    file: (await ws.fs.stat("/ro/a.txt")).mode & 0o7777,
    root: (await ws.fs.stat("/ro")).mode & 0o7777,
    mine: (await ws.fs.stat("/mine")).mode & 0o7777,
  });
  return { ws, modes };
}

const settle = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; message?: string }) => `${String(e.code)} ${String(e.message)}`);

describe("fix16b: chmod through a link into a read-only mount", () => {
  it("workspace.fs.chmod is refused EROFS for every way through a link; nothing changes", async () => {
    const { ws, modes } = await setup();
    const before = await modes();
    expect(before).toEqual({ file: 0o644, root: 0o755, mine: 0o600 });
    const results = {
      l: await settle(ws.fs.chmod("/l", 0o777)),
      mid: await settle(ws.fs.chmod("/d/a.txt", 0o777)),
      root: await settle(ws.fs.chmod("/d", 0o700)),
      rel: await settle(ws.fs.chmod("/rel", 0o777)),
      direct: await settle(ws.fs.chmod("/ro/a.txt", 0o777)),
    };
    // Found: l, mid, root and rel "ok", and modes { file: 0o777, root: 0o700 }.
    expect(results).toEqual({
      l: "EROFS EROFS: read-only file system (mount at /ro), chmod: /l",
      mid: "EROFS EROFS: read-only file system (mount at /ro), chmod: /d/a.txt",
      root: "EROFS EROFS: read-only file system (mount at /ro), chmod: /d",
      rel: "EROFS EROFS: read-only file system (mount at /ro), chmod: /rel",
      direct: "EROFS EROFS: read-only file system (mount at /ro), chmod: /ro/a.txt",
    });
    expect(await modes()).toEqual(before);
    // A link elsewhere still changes its target.
    await ws.fs.chmod("/lmine", 0o640);
    expect(await modes()).toEqual({ ...before, mine: 0o640 });
  });

  it("the provider: chmod EROFS; utimes/lutimes change nothing, as on /ro itself", async () => {
    const { ws, modes } = await setup();
    const provider = ws.provider();
    const before = await modes();
    const mtime = (await ws.fs.stat("/ro/a.txt")).mtime;
    expect({
      chmod: await settle(provider.chmod("/l", 0o777)),
      chmodMid: await settle(provider.chmod("/d/a.txt", "777")),
      utimes: await settle(provider.utimes("/l", 1, 1)),
      utimesDirect: await settle(provider.utimes("/ro/a.txt", 1, 1)),
      lutimes: await settle(provider.lutimes("/l", 1, 1)),
    }).toEqual({
      chmod: "EROFS EROFS: read-only file system, chmod '/l'",
      chmodMid: "EROFS EROFS: read-only file system, chmod '/d/a.txt'",
      utimes: "ok",
      utimesDirect: "ok",
      lutimes: "ok",
    });
    expect([await modes(), (await ws.fs.stat("/ro/a.txt")).mtime]).toEqual([before, mtime]);
  });

  it("the shell: chmod through the link fails, the mount's file keeps its mode", async () => {
    const { ws, modes } = await setup();
    const before = await modes();
    const bash = new Bash({ fs: new WorkspaceFsAdapter(ws.fs), cwd: "/" });
    const r = await bash.exec("chmod 777 /l; echo $?; chmod 700 /d/a.txt; echo $?; chmod 777 /ro/a.txt; echo $?");
    // Found: stdout "0\n0\n1\n", no stderr for the links, the file's mode 0o777 then 0o700.
    // (just-bash's chmod words every failure so; the direct path, refused EROFS before, reads the same.)
    expect({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }).toEqual({
      stdout: "1\n1\n1\n",
      stderr:
        "chmod: cannot access '/l': No such file or directory\n" +
        "chmod: cannot access '/d/a.txt': No such file or directory\n" +
        "chmod: cannot access '/ro/a.txt': No such file or directory\n",
      exitCode: 0,
    });
    expect(await modes()).toEqual(before);
  });
});
