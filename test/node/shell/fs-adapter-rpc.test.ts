/**
 * The adapter options the shell's Dynamic Worker uses to save round trips
 * (each call over RPC costs ~1 ms locally): `readBytes` (a whole file in one
 * call), `listWithContents` (a listing brings its small files along, each
 * kept for one read, all dropped on any change) and `commands` (`/bin` and
 * `/usr/bin` answered by the adapter). Real just-bash over a real Workspace;
 * the calls that reach `workspace.fs` are counted.
 */
import { describe, expect, it } from "vitest";
import { Bash } from "just-bash";
import { Workspace } from "../../../src/index.js";
import { WorkspaceFsAdapter } from "../../../src/backends/worker-shell/fs-adapter.js";
import { memoryStorages } from "../tools/helpers.js";

const memoryStorage = memoryStorages();

async function setup() {
  const storage = memoryStorage();
  const ws = new Workspace({ storage });
  await ws.fs.mkdir("/workspace/d", { recursive: true });
  const calls: string[] = [];
  const fs = ws.fs as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const m of ["readFile", "stat", "lstat", "readdir", "writeFile"]) {
    const orig = fs[m]!.bind(ws.fs);
    fs[m] = (...a: unknown[]) => {
      calls.push(`${m} ${String(a[0])}`);
      return orig(...a);
    };
  }
  const readAll = async (path: string) => new Uint8Array(await new Response(await ws.fs.readFile(path)).arrayBuffer());
  const lists: string[] = [];
  const adapter = new WorkspaceFsAdapter(ws.fs, {
    readBytes: (path) => readAll(path),
    listWithContents: async (path) => {
      lists.push(path);
      const entries = await ws.fs.readdir(path);
      const contents: Record<string, Uint8Array> = {};
      for (const e of entries) if (e.isFile && e.size <= 10) contents[e.name] = await readAll(`${path}/${e.name}`);
      return { entries, contents };
    },
    commands: ["cat", "grep", "echo", "ls", "printf", "rm", "sleep"],
  });
  const bash = new Bash({ fs: adapter, cwd: "/workspace", defenseInDepth: false });
  const run = async (command: string) => {
    calls.length = 0;
    const r = await bash.exec(command);
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  };
  return { ws, calls, lists, run };
}

describe("WorkspaceFsAdapter round-trip savers", () => {
  it("a glob's listing brings small files along: cat reads them without another call; a big file is read on demand", async () => {
    const { ws, calls, lists, run } = await setup();
    await ws.fs.writeFile("/workspace/d/a.txt", "a\n");
    await ws.fs.writeFile("/workspace/d/b.txt", "b\n");
    await ws.fs.writeFile("/workspace/d/big.txt", "0123456789abcdef\n");
    expect(await run("cat d/*.txt")).toEqual({ stdout: "a\nb\n0123456789abcdef\n", stderr: "", exitCode: 0 });
    expect(lists).toEqual(["/workspace/d"]);
    // The two small files came with the listing; only big.txt is read by path afterwards.
    expect(calls.filter((c) => c.startsWith("readFile "))).toEqual(["readFile /workspace/d/a.txt", "readFile /workspace/d/b.txt", "readFile /workspace/d/big.txt"]);
    expect(calls.indexOf("readFile /workspace/d/big.txt")).toBeGreaterThan(calls.indexOf("readdir /workspace/d"));
  });

  it("a change through the shell drops what a listing brought: the next read sees the new bytes", async () => {
    const { ws, run } = await setup();
    await ws.fs.writeFile("/workspace/d/a.txt", "old\n");
    expect(await run("cat d/*.txt; echo new > d/b.txt; cat d/a.txt d/b.txt")).toEqual({ stdout: "old\nold\nnew\n", stderr: "", exitCode: 0 });
    expect(await run("ls d/* > /dev/null; printf 'x\\n' > d/a.txt; cat d/a.txt")).toEqual({ stdout: "x\n", stderr: "", exitCode: 0 });
    expect(await ws.fs.readFile("/workspace/d/a.txt", "utf8")).toBe("x\n");
  });

  it("a kept content is used once: a second read goes to the Workspace", async () => {
    const { ws, calls, run } = await setup();
    await ws.fs.writeFile("/workspace/d/a.txt", "a\n");
    expect(await run("cat d/*; cat d/a.txt")).toEqual({ stdout: "a\na\n", stderr: "", exitCode: 0 });
    expect(calls.filter((c) => c === "readFile /workspace/d/a.txt")).toHaveLength(2);
  });

  it("/bin and /usr/bin list the commands, read-only, without asking the Workspace", async () => {
    const { ws, calls, run } = await setup();
    expect(await run("ls /usr/bin")).toEqual({ stdout: "cat\necho\ngrep\nls\nprintf\nrm\nsleep\n", stderr: "", exitCode: 0 });
    // just-bash finds a command through /usr/bin: a name the adapter does not list is not found.
    expect(await run("seq 1 2")).toEqual({ stdout: "", stderr: "bash: seq: command not found\n", exitCode: 127 });
    expect(await run("cat /bin/grep")).toEqual({ stdout: "#!/bin/bash\n# grep: a built-in command of this shell\n", stderr: "", exitCode: 0 });
    // just-bash prints the redirect's error with the path masked.
    expect(await run("echo x > /usr/bin/grep")).toEqual({ stdout: "", stderr: "bash: EROFS: read-only file system, write '<path>'\n", exitCode: 1 });
    expect(await run("rm /bin/cat")).toEqual({ stdout: "", stderr: "rm: cannot remove '/bin/cat': EROFS: read-only file system, rm '/bin/cat'\n", exitCode: 1 });
    expect(await run("echo hi | grep h")).toEqual({ stdout: "hi\n", stderr: "", exitCode: 0 });
    expect(calls.filter((c) => /\/(usr\/)?bin/.test(c))).toEqual([]);
    await expect(ws.fs.stat("/usr")).rejects.toMatchObject({ code: "ENOENT" });
  });
});

describe("contents a listing brought along go stale after PREFETCH_TTL_MS (fourth attack run, D1)", () => {
  it("a file another writer changed after the listing reads as changed once the window has passed", async () => {
    const { ws, run } = await setup();
    await ws.fs.writeFile("/workspace/d/f", "old\n");
    const pending = run("for x in d/*; do :; done; sleep 0.4; cat d/f");
    await new Promise((r) => setTimeout(r, 150));
    await ws.fs.writeFile("/workspace/d/f", "new\n");
    expect(await pending).toEqual({ stdout: "new\n", stderr: "", exitCode: 0 });
  });
});
