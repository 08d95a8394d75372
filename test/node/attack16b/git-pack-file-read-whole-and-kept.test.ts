/**
 * Issue 20, sixteenth attack run: a pack file in `.git/objects/pack` is read into memory whole (twice over, on
 * the way in) whatever its size, and what the read found — bytes and checksum verdict — is kept in the
 * client's shared cache for the client's life.
 * Tried: a repository made by the real git (one commit, `git gc`: its objects in one small pack), copied into
 * the Workspace; then its .pack rewritten with junk after the real bytes, as any code with write access to
 * the repository (a JavaScript run, the shell, a mount or an upload of a repository) can: 100 MiB of zeros, or
 * 3 bytes; `workspace.git.log`/`status`/`checkout` on it, memory sampled (attack6 `peak`); then the .pack
 * restored byte for byte and `log` again. Held: GIT_MAX_OBJECT_BYTES still bounds each object; the refusal
 * leaves the repository's files as they were.
 * Found (medium): (1) isomorphic-git's readObjectPacked reads the whole .pack (the fs bridge's readFile
 * collects the stream, then joins it) before it verifies or indexes anything — a 100 MiB pack grows a
 * `git log` by 200 MiB (3 of 3 runs) and the error is isomorphic-git's "An internal error caused this command
 * to fail … please report this error", naming neither the file nor a limit. (2) the pack and its failed
 * verification stay in the client's cache: later `status`/`checkout` fail at once the same way (and the
 * 100 MiB stays in memory), and after the .pack is restored to its exact original bytes `log` still fails —
 * the repository stays broken until the Workspace (the Durable Object) is recreated (3 of 3 runs). A damaged
 * pack is repaired by the next fetch in real git; here nothing clears the cache.
 * Suggested fix: refuse a .pack larger than a documented bound before reading it (E<OP>FAIL "pack file too
 * large: <path> is N bytes (GIT_MAX_PACK_BYTES …)"), or read packed objects by offset (`readFile` with
 * `byteOffset`) instead of whole; key the cached pack by the file's inode/size/mtime (or revision) so a changed
 * file is read again, and never cache a failed read or verification; say which pack failed its checksum.
 * Fixed: (1) every operation's fs checks a .pack's size before reading it: past GIT_MAX_PACK_FILE_BYTES (16 MiB; for
 * clone/fetch/pull their maxResponseBytes when larger) the read is refused having read nothing, and the operation
 * fails E<OP>FAIL "pack file too large: <path> is N bytes, over the limit of … (GIT_MAX_PACK_FILE_BYTES) …"
 * (src/git/operation.ts packFileBoundedFs, src/git/limits.ts); (2) each operation has its own pack cache
 * (operationCache: isomorphic-git's PackfileCache is the operation's, the parsed index stays the client's), so
 * neither a pack nor its failed checksum outlives the operation that read it. createGitClient({ maxPackFileBytes })
 * replaces the bound for a client (where memory allows, with maxResponseBytes).
 */
import { afterAll, describe, expect, it } from "vitest";
import { cleanupScratch, committedRepo, importDir, newWorkspace, realGit, rejection } from "../git/worktree-helpers.js";
import { peak } from "../attack6/memory.js";
import { createGitClient, GIT_MAX_PACK_FILE_BYTES } from "../../../src/git/index.js";
import { packFileTooLarge } from "../../../src/git/limits.js";

afterAll(cleanupScratch);

const MiB = 1024 * 1024;

/** `/r`: one commit whose objects are in one pack; `check`: log it once first (the client then holds the pack). */
async function packedRepo(check: boolean) {
  const { ws, git } = newWorkspace();
  await importDir(ws, committedRepo({ "a.txt": "a\n" }, "base", (d) => realGit(d, "gc", "-q")), "/r");
  const name = (await ws.fs.readdir("/r/.git/objects/pack")).map((e) => e.name).find((n) => n.endsWith(".pack"))!;
  const path = `/r/.git/objects/pack/${name}`;
  const original = new Uint8Array(await new Response(await ws.fs.readFile(path)).arrayBuffer());
  if (check) expect((await git.log({ dir: "/r" })).map((c) => c.message)).toEqual(["base\n"]);
  return { ws, git, path, original };
}

describe("attack16b: a pack file is read whole and kept", () => {
  it("a 100 MiB pack file: git log is refused naming the file, growing memory under 128 MiB", { timeout: 60_000 }, async () => {
    const { ws, git, path, original } = await packedRepo(false);
    let sent = 0;
    await ws.fs.writeFile(
      path,
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(original);
        },
        pull(controller) {
          if (sent++ < 100) controller.enqueue(new Uint8Array(MiB));
          else controller.close();
        },
      }),
    );
    const { value, grew } = await peak(() => rejection(git.log({ dir: "/r" })));
    expect(value?.code).toBe("ELOGFAIL");
    // Today: "git log failed: An internal error caused this command to fail. …", after 200 MiB.
    expect(value?.message).not.toContain("An internal error");
    expect(value?.message).toBe(`git log failed: ${packFileTooLarge(path, original.length + 100 * MiB, GIT_MAX_PACK_FILE_BYTES)}`);
    expect(value?.message).toContain(`pack file too large: ${path} is ${original.length + 100 * MiB} bytes, over the limit of 16777216 bytes (GIT_MAX_PACK_FILE_BYTES)`);
    expect(grew).toBeLessThan(128 * MiB);
    // The refusal keeps nothing: with the pack put back, log works.
    await ws.fs.writeFile(path, original);
    expect((await git.log({ dir: "/r" })).map((c) => c.message)).toEqual(["base\n"]);
  });

  it("createGitClient({ maxPackFileBytes }) sets the client's bound (lower here: the small pack is refused); a bad value is a TypeError", async () => {
    const { ws, path } = await packedRepo(false);
    const size = (await ws.fs.stat(path)).size;
    const git = createGitClient({ maxPackFileBytes: 100 })({ ws });
    const value = await rejection(git.log({ dir: "/r" }));
    expect(value?.code).toBe("ELOGFAIL");
    expect(value?.message).toBe(`git log failed: ${packFileTooLarge(path, size, 100)}`);
    expect((await createGitClient({ maxPackFileBytes: size })({ ws }).log({ dir: "/r" })).map((c) => c.message)).toEqual(["base\n"]);
    expect(() => createGitClient({ maxPackFileBytes: 0 })).toThrow(new TypeError("createGitClient(options): maxPackFileBytes must be a number > 0, got 0"));
  });

  it("a pack that failed its checksum once is read again once restored: log works", { timeout: 60_000 }, async () => {
    const { ws, git, path, original } = await packedRepo(false);
    await ws.fs.writeFile(path, new Uint8Array([...original, 1, 2, 3]));
    expect((await rejection(git.log({ dir: "/r" })))?.code).toBe("ELOGFAIL");
    await ws.fs.writeFile(path, original);
    // Today: ELOGFAIL "An internal error caused this command to fail" until the client is recreated.
    expect((await git.log({ dir: "/r" })).map((c) => c.message)).toEqual(["base\n"]);
  });
});
