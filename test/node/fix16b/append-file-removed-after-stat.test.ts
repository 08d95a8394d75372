/**
 * Issue 20, found by the lead after the fifteenth attack run: an append whose file is removed between the append's
 * `stat` and its rewrite failed `ENOENT` instead of creating the file (POSIX `O_APPEND|O_CREAT`).
 * Tried: a real Workspace on node:sqlite; a wrapper around `ws.fs` that removes the file (a real `ws.fs.rm`, as
 * another writer would) right when the append opens the old content (`readFile`) or right before its conditional
 * rewrite (`writeFile` with `ifMatch`/`ifUnmodified`). The appends: the provider's `appendFile` on a 10-byte file
 * (in-memory path, hash-guarded) and on a 2 MiB one (streamed, src/fs/append.ts `appendStreamed`); a provider
 * handle opened with `"a"`; the shell's `>>` (real just-bash over `WorkspaceFsAdapter`, which is also what the Workers
 * shell's host runs for each append, src/backends/worker-shell/backend.ts `appendBytes`).
 * Found (low-medium, 5 of 5 shapes): every append rejected `ENOENT` (the shell: `echo APP >> f` exit 1,
 * "bash: f: No such file or directory") and no file was left, though the append was allowed to create it; the
 * handle's write rejected `ENOENT` too instead of its "stale file handle" `ESTALE`.
 * Fixed: an `ENOENT` after the append had found the file means it went away in between: `shouldRetryAppend(code,
 * attempt, found)` has the append look again (as for `ESTALE`/`EEXIST`), and the next look creates the file
 * exclusively (the handle: `ESTALE`, its file is gone), within the same 10 tries.
 * Run 36 (lead, after fixer AP): appends no longer read and rewrite the file — they call the Workspace's own
 * `appendFile` (O(appended bytes)) bound to the inode found — so the other writer now removes the file right before
 * that call; the outcomes asserted are unchanged.
 */
import { describe, expect, it } from "vitest";
import { Bash } from "just-bash";
import { SQLiteWorkspaceProvider, Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { WorkspaceFsAdapter } from "../../../src/backends/worker-shell/fs-adapter.js";

type When = "readFile" | "writeFile" | "appendFile";

/** `ws.fs`, with `path` removed (really) once: when its content is opened, or right before a conditional rewrite. */
function removing(ws: Workspace, path: string, when: When): { fs: Workspace["fs"]; removed: () => number } {
  let removed = 0;
  const fs = new Proxy(ws.fs, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (key !== when) return bound;
      return async (...args: unknown[]) => {
        const options = args[2] as { ifMatch?: unknown; ifUnmodified?: unknown } | undefined;
        const rewrite = when !== "writeFile" || options?.ifMatch !== undefined || options?.ifUnmodified !== undefined;
        if (args[0] === path && rewrite && removed === 0) {
          await ws.fs.rm(path);
          removed++;
        }
        return bound(...args);
      };
    },
  });
  return { fs, removed: () => removed };
}

async function fresh(size: number): Promise<Workspace> {
  const ws = new Workspace({ storage: nodeSqliteStorage() });
  await ws.fs.mkdir("/workspace");
  await ws.fs.writeFile("/workspace/f", "o".repeat(size), { mode: 0o600 });
  return ws;
}

const outcome = async (ws: Workspace, done: Promise<unknown>) => {
  const error = await done.then(
    () => "ok",
    (e: { code?: string; message?: string }) => `${String(e.code)} ${String(e.message)}`,
  );
  const file = await ws.fs.stat("/workspace/f").then(
    async (s) => ({ text: await ws.fs.readFile("/workspace/f", "utf8"), mode: s.mode & 0o777 }),
    (e: { code?: string }) => String(e.code),
  );
  return { error, file };
};

describe("fix16b: an append whose file is removed after its stat creates it", () => {
  // Since run 36 (fixer AP) an append is the Workspace's own `appendFile` (one transaction bound to the file found),
  // no longer a read and a conditional rewrite: the other writer removes the file right before that call.
  for (const [size, when] of [
    [10, "appendFile"],
    [2 * 1024 * 1024, "appendFile"],
  ] as const) {
    it(`provider appendFile, ${size} bytes, removed at ${when}: the file is created with the appended bytes`, async () => {
      const ws = await fresh(size);
      const { fs, removed } = removing(ws, "/workspace/f", when);
      const provider = new SQLiteWorkspaceProvider({ fs });
      // Found: "ENOENT ENOENT: no such file or directory, open '/workspace/f'", file "ENOENT".
      expect(await outcome(ws, provider.appendFile("/workspace/f", "APP\n"))).toEqual({ error: "ok", file: { text: "APP\n", mode: 0o644 } });
      expect(removed()).toBe(1);
    });
  }

  it("a provider handle opened with 'a': its file removed in the append's turn is ESTALE (stale handle), nothing created", async () => {
    const ws = await fresh(10);
    const { fs, removed } = removing(ws, "/workspace/f", "appendFile");
    const handle = await new SQLiteWorkspaceProvider({ fs }).open("/workspace/f", "a");
    // Found: "ENOENT ENOENT: no such file or directory, write '/workspace/f'".
    // Written at close (the handle keeps appended bytes until then).
    expect(await outcome(ws, handle.write(new TextEncoder().encode("APP\n")).then(() => handle.close()))).toEqual({
      error: "ESTALE ESTALE: stale file handle: the file was removed or moved since it was opened, write '/workspace/f'",
      file: "ENOENT",
    });
    expect(removed()).toBe(1);
  });

  for (const when of ["appendFile"] as const) {
    it(`shell >> (just-bash over WorkspaceFsAdapter), removed at ${when}: the file is created`, async () => {
      const ws = await fresh(10);
      const { fs, removed } = removing(ws, "/workspace/f", when);
      const bash = new Bash({ fs: new WorkspaceFsAdapter(fs), cwd: "/workspace" });
      const r = await bash.exec("echo APP >> f");
      // Found: exit 1, "bash: f: No such file or directory", file "ENOENT".
      expect({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }).toEqual({ stdout: "", stderr: "", exitCode: 0 });
      expect(await outcome(ws, Promise.resolve())).toEqual({ error: "ok", file: { text: "APP\n", mode: 0o644 } });
      expect(removed()).toBe(1);
    });
  }
});
