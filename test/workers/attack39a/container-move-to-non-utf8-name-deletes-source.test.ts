/**
 * Issue 20, thirty-ninth attack run: a command that renames a synced file to a name that is not UTF-8 (`mv notes.md
 * "$(printf 'notes\351.md')"` — a Latin-1 name, as an old archive, a Python 2 script or `iconv`-less tooling makes)
 * deletes the file from the Workspace: the pull skips the new name (`{ op: "write", reason: "name is not valid
 * UTF-8" }`) and applies the deletion of `notes.md`, so the file's bytes live on only in the container's scratch copy,
 * under a name the Workspace never takes. docs/container.md step 4: "A deleted file or link whose content the same
 * pull did not apply elsewhere — the container moved or copied it into a read-only mount it does not see, or to a
 * path whose write was refused (too large, a link leading out, …) — is kept too: told by the kind, mode, size, mtime
 * and link target recorded at the last sync (what `mv` … keep[s])". A name that is not UTF-8 is such a refused write
 * (listed in `skipped`), but the scan's skipped entries never reach run 38's `Stranded` (src/runtime/sync.ts #pull
 * handles `page.skipped` apart from #pullEntry, whose `skip` alone adds to `outcome.stranded`).
 * Tried: a container `mv` of a synced file to a Latin-1 name (below); the fuzzer described in
 * container-subdir-renamed-then-parent-renamed-loses-ignored.test.ts, extended with container-side mv / rm -r /
 * mkdir / writes (`set -e; …`; 40 seeds x 12 rounds, Workspace compared with the model after each pull).
 * Held: every container-side sequence of the fuzzer pulled to the model's tree (bytes and kinds); the deletion of a
 * file moved into a read-only mount is held back (test/workers/fix38/container-readonly-mount-moves.test.ts).
 * Found (medium — the only durable copy of a user file is deleted from the Workspace by an `mv` that exits 0; the
 * container is scratch (relaunch, fresh disk) so the bytes are then gone; 3 of 3 runs): after the command the
 * Workspace holds no entry at all (`readdir /workspace` → []), `skipped` = [{ path: "/workspace/notes\uFFFD.md",
 * op: "write", reason: "name is not valid UTF-8" }] only.
 * Suggested fix: have the daemon's scan give skipped `encoding` entries their stat (kind, mode, size, mtimeMs,
 * target — container/lib/sync.mjs scan) and add each regular file or link of them to `outcome.stranded` in
 * src/runtime/sync.ts #pull (as #pullEntry's `skip` does), so #removeGone holds back the matching deletion with
 * "the container moved or copied it to …, which was not applied (name is not valid UTF-8): kept, it is not lost".
 * Fixed: the daemon's scan gives a skipped name that is not UTF-8 its stat (a directory: the files and links under it, bounded), and the pull adds each to Stranded (a place it cannot look into — cut, past PATH_MAX — holds back every deletion of the pull) — container/lib/sync.mjs scan, src/runtime/sync.ts #strandSkipped (issue 20, run 39, fixer CR). Siblings: test/workers/fix39/container-scan-skips-keep-source.test.ts.
 */
import { expect, it } from "vitest";
import { inWorkspace, sh, startContainer } from "../container/helpers.js";

it("attack39a: a file moved in the container to a name that is not UTF-8 is kept in the Workspace", async () => {
  const c = await startContainer();
  await inWorkspace(c, async (ws) => {
    await ws.fs.writeFile("/workspace/notes.md", "my notes\n");
    expect((await sh(ws, "true")).exitCode).toBe(0);
    expect(await c.text("notes.md")).toBe("my notes\n");

    const r = await sh(ws, "mv notes.md \"$(printf 'notes\\351.md')\"");
    expect(r.exitCode).toBe(0);
    expect(r.skipped).toContainEqual({ path: "/workspace/notes\uFFFD.md", op: "write", reason: "name is not valid UTF-8" });
    // Was: no such entry — the deletion applied, skipped lists only the write, and the Workspace is empty.
    expect(r.skipped).toContainEqual(expect.objectContaining({ path: "/workspace/notes.md", op: "delete" }));
    expect((await ws.fs.readdir("/workspace")).map((e) => e.name)).toEqual(["notes.md"]);
    expect(await ws.fs.readFile("/workspace/notes.md", "utf8")).toBe("my notes\n");
  });
});
