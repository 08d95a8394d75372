/**
 * Issue 20, thirty-eighth attack run: a read-only mount is not pushed to the container (docs/container.md §1), so a
 * command there does not see `docs/`; an agent that moves a Workspace file into it (`mkdir -p docs && mv notes.md
 * docs/`, or `mv notes.md docs` which renames it to a file named `docs`) gets exit 0, and the pull then applies the
 * deletion of `notes.md` but skips the write at `docs/…` as read-only. The file's bytes are gone from the Workspace —
 * the durable store — and live only in the container's scratch copy, at a path the Workspace will never take. On
 * Linux with the mount visible (read-only bind mount) the same `mv` fails `mv: cannot move 'notes.md' to
 * 'docs/notes.md': Read-only file system`, exit 1, and `notes.md` stays; on the shell and JavaScript backends here
 * `mv` is refused EROFS and nothing moves.
 * Tried: a WorkerBundle mount at /workspace/docs, a Workspace file /workspace/notes.md, container commands
 * `mkdir -p docs && mv notes.md docs/`, `mv notes.md docs` and `mv src docs` (a directory tree), then the Workspace's files; differential: the shell
 * backend's `mv notes.md docs/` (EROFS, exit 1, notes.md kept) and GNU mv onto a read-only bind mount (same).
 * Also `mv a b` of a directory holding the mount, `rm -rf` of it, a link to the mount's file written through,
 * `rm -rf a && ln -s /tmp a`.
 * Held: the mount's own bytes never change (every write into it is skipped `read-only`); a directory holding the
 * mount moved or removed keeps the mount and the other files move; a link out of /workspace is skipped.
 * Found (medium — data lost: the agent's file — or a whole directory, `mv src docs` — disappears from the Workspace after a command that exited 0, and a
 * container restart or a fresh container loses the only copy; 1 of 1 runs, deterministic): see the `Was:` lines.
 * Suggested fix: src/runtime/sync.ts (the pull): when an entry is deleted in the container and the same run's writes
 * are skipped as read-only, keep the deletion back (list it in `skipped` as `op: "delete"`, `reason: "read-only"`:
 * its content moved to a path the Workspace cannot take) — or push each read-only mount root as a read-only
 * (0o555) empty directory so the container's `mv` fails EROFS/EACCES the way it does on the other backends.
 * Fixed: the pull (src/runtime/sync.ts, `RemoteSync.#removeGone` with the new `Stranded`) keeps a deleted file or link
 * whose content it found among the container entries it did not apply (same kind, mode, size, mtime, link target as
 * last synced — what `mv` keeps); the deletion is listed as `op: "delete"` naming where the container put it, and a
 * directory kept for such an entry, or for a read-only mount in it, says so (no longer "changed in the Workspace
 * since the last sync"). The callback's `op` is typed optional as `SkippedEntry` has it (typecheck); assertions
 * unchanged (issue 20, run 38, fixer RC). Siblings: test/workers/fix38/container-readonly-mount-moves.test.ts.
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { inWorkspace, sh, startContainer } from "../container/helpers.js";

for (const command of ["mkdir -p docs && mv notes.md docs/", "mv notes.md docs"]) {
  it(`container \`${command}\` onto a read-only mount keeps notes.md in the Workspace`, async () => {
    const box = await startContainer();
    const out = await inWorkspace(
      box,
      async (ws) => {
        await ws.ready();
        await ws.fs.writeFile("/workspace/notes.md", "my notes\n");
        const r = await sh(ws, command);
        return {
          skipped: r.skipped.map((s: { path: string; op?: string; reason: string }) => `${s.op} ${s.path} ${s.reason}`),
          notes: await ws.fs.readFile("/workspace/notes.md", "utf8").catch((e: { code?: string }) => e.code),
          mount: (await ws.fs.find("/workspace/docs")).map((e) => e.path),
          guide: await ws.fs.readFile("/workspace/docs/guide.md", "utf8"),
        };
      },
      { mounts: { "/workspace/docs": WorkerBundle({ "guide.md": "# guide\n" }) } },
    );
    // Was: "ENOENT" — the deletion applied, the write skipped (skipped: ["write /workspace/docs/notes.md read-only"],
    // resp. ["write /workspace/docs read-only"]); "my notes\n" is left only in the container.
    expect(out.notes).toBe("my notes\n");
    expect(out.mount).toEqual(["/workspace/docs/guide.md"]);
    expect(out.guide).toBe("# guide\n");
  }, 120000);
}

it("container `mv src docs` (a directory) onto a read-only mount keeps src/ in the Workspace", async () => {
  const box = await startContainer();
  const out = await inWorkspace(
    box,
    async (ws) => {
      await ws.ready();
      await ws.fs.mkdir("/workspace/src/lib", { recursive: true });
      await ws.fs.writeFile("/workspace/src/a.ts", "A\n");
      await ws.fs.writeFile("/workspace/src/lib/b.ts", "B\n");
      await sh(ws, "mv src docs");
      return (await ws.fs.find("/workspace")).map((e) => e.path);
    },
    { mounts: { "/workspace/docs": WorkerBundle({ "guide.md": "# guide\n" }) } },
  );
  // Was: ["/workspace/docs", "/workspace/docs/guide.md"] — the whole of src/ deleted, exit 0; skipped lists
  // write /workspace/docs/a.ts, /workspace/docs/lib and /workspace/docs/lib/b.ts as read-only (on every later pull too).
  expect(out).toEqual(["/workspace/docs", "/workspace/docs/guide.md", "/workspace/src", "/workspace/src/a.ts", "/workspace/src/lib", "/workspace/src/lib/b.ts"]);
}, 120000);
