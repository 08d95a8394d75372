/**
 * The guarded append step shared by the node:fs provider's streamed
 * `appendFile` (src/fs/provider.ts) and the shell's `>>`
 * (`WorkspaceFsAdapter.appendFile`, src/backends/worker-shell/fs-adapter.ts)
 * over an `fs` without `appendFile` (since issue 20, run 36, fixer AP,
 * `workspace.fs.appendFile` appends in O(appended bytes + one chunk) and both
 * use it when they have it): an append is then one rewrite of the
 * file — its old content streamed, the new bytes after it — bound to the
 * version of the file a `stat` found (`writeFile`'s `ifUnmodified`: inode,
 * size and mtime before the copy is read, the file's revision in the commit).
 * A write by anyone else that lands in between makes the rewrite fail with
 * `ESTALE` instead of being overwritten; the caller stats again and retries,
 * at most {@link APPEND_ATTEMPTS} times (also after an `ENOENT`: the file was
 * removed since the `stat`, and the next try creates it).
 *
 * No runtime imports: the shell's Dynamic Worker bundles this module with the
 * adapter, and `fs` may be an RPC stub of `workspace.fs`.
 *
 * @module
 */
import type { WorkspaceFilesystem } from "./types.js";

/**
 * How many times an append tries in all when other writers keep changing
 * (`ESTALE`) or creating (`EEXIST`) the file between its `stat` and its
 * commit: 10. Past it, the last `ESTALE`/`EEXIST` is the append's error;
 * nothing was appended and the other writes are kept.
 */
export const APPEND_ATTEMPTS = 10;

/** The file an append found, as `stat()` gave it (a `WorkspaceStatResult` fits). */
export interface AppendFound {
  /** Its inode. */
  inode: number;
  /** Its size in bytes. */
  size: number;
  /** Its mtime, ms. */
  mtime: number;
  /** Its permission bits, kept by the rewrite. */
  mode: number;
}

/**
 * Rewrites the file at `path` as its content followed by `bytes`, streamed
 * (never held in memory whole), only if it is still the file `found`
 * describes: same inode, size and mtime when the rewrite starts, unchanged
 * until its commit. The old content's read is cancelled if the rewrite fails.
 * @param fs `workspace.fs`, or an RPC stub of its `readFile` and `writeFile`.
 * @throws `ESTALE` (a `code`) when the file changed or another file was put at
 * the path since `found` — stat again and retry (see {@link shouldRetryAppend});
 * `ENOENT` when it is gone (removed since `found`: retry too, with `found` set,
 * and the next look creates it); any other `writeFile`/`readFile` failure.
 */
export async function appendStreamed(
  fs: Pick<WorkspaceFilesystem, "readFile" | "writeFile">,
  path: string,
  found: AppendFound,
  bytes: Uint8Array,
): Promise<void> {
  const old = await fs.readFile(path);
  const reader = old.getReader();
  let done = false;
  const content = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      const next = await reader.read();
      if (!next.done) {
        controller.enqueue(next.value);
        return;
      }
      done = true;
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  try {
    await fs.writeFile(path, content, { mode: found.mode, ifUnmodified: { inode: found.inode, size: found.size, mtime: found.mtime } });
  } catch (error) {
    // Refused before (or while) the copy was read: end the old content's read (its lease, or its RPC stream).
    if (!done) await reader.cancel(error).catch(() => {});
    throw error;
  }
}

/**
 * Whether attempt number `attempt` (from 1) of an append that failed with
 * `code` should look again: another writer changed (`ESTALE`) or created
 * (`EEXIST`) the file in between — or removed it (`ENOENT` when the attempt
 * had `found` the file: the next look creates it, as `O_APPEND|O_CREAT`
 * does) — and fewer than {@link APPEND_ATTEMPTS} attempts were made.
 * @param found whether this attempt's `stat` found the file (default `false`:
 *   an `ENOENT` is then a missing parent, final).
 */
export function shouldRetryAppend(code: string | undefined, attempt: number, found = false): boolean {
  return (code === "ESTALE" || code === "EEXIST" || (found && code === "ENOENT")) && attempt < APPEND_ATTEMPTS;
}
