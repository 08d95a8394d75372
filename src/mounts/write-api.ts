/**
 * The write API a mount's `materialize()` gets (spec 01 §6.2): paths are
 * canonicalised and kept under the root, parents are created as needed, no
 * symbolic link under the root is ever followed (the root's contents stay
 * writable to others while the copy runs), and the mount's `maxEntries` /
 * `maxBytes` are counted as it writes.
 *
 * @module
 */
import { within } from "../fs/mount-guard.js";
import { posixCodeOf } from "../fs/node-errors.js";
import { NO_FOLLOW, type NoFollowOption } from "../fs/options.js";
import { canonicalPath } from "../fs/path.js";
import type { MkdirOptions, WorkspaceFilesystem, WriteFileOptions } from "../fs/types.js";
import { dirname } from "../util/path.js";
import { bytesOf } from "./bytes-stream.js";
import type { Mount, MountWriteAPI } from "./types.js";

/**
 * How many times {@link mountWriteAPI}'s `writeFile` of bytes in memory (a
 * `WorkerBundle` file) tries again when another writer changed its path
 * between the check and the write (2: three tries in all); a streamed file
 * is never retried — its bytes are read once — and fails the run instead.
 */
export const MOUNT_WRITE_RETRIES = 2;

/**
 * The write API of one run of `mount` at `root` (which the run has created).
 * Files from `streamOfBytes` are written from their bytes, others streamed.
 *
 * The root's contents stay writable to others while the run copies (a tool
 * call, a script, another Workspace over the same storage), so nothing under
 * the root is trusted: before each write every directory from the root down
 * to the parent is checked with `lstat` (a missing one is created), and the
 * file is created `exclusive` — or, when a file is already there (written
 * earlier in this run, or by another writer), written only while the path
 * still leads to that file (`ifInode`). A symbolic link at the path or among
 * those directories is never followed, whoever placed it: the call fails, so
 * the run fails and clears the root (the link, not what it points to, is
 * removed) and the next `ready()` copies again (issue 20, sixteenth attack
 * run: a link planted in the root sent the mount's bytes over a file outside
 * it, and the finished read-only copy kept the link to a writable file).
 * The `lstat` checks only name the link early: each `writeFile` and `mkdir`
 * itself walks the path following no link (the Workspace's internal
 * `NO_FOLLOW` option), in the transaction that writes — for a streamed file
 * that is after its last byte arrived — so a link swapped in for a
 * directory between the check and the write is refused there too (issue 20,
 * seventeenth attack run: such a link was followed at the stream's commit).
 *
 * @returns an API whose calls throw Error `mount <root>: "<path>" is not an absolute path`,
 *   `… is outside the mount root`, `maxEntries=<n> exceeded`, `maxBytes=<n> exceeded`,
 *   `mount <root>: "<path>" is a symbolic link placed while the mount was being copied; …`,
 *   `… is a file, not a directory` / `… is a directory` (code `ENOTDIR` / `EISDIR`), or the
 *   Workspace's error (`EEXIST`, `ESTALE`, `ENOENT`: another writer changed the path meanwhile
 *   and the write could not be tried again).
 */
export function mountWriteAPI(fs: WorkspaceFilesystem, root: string, mount: Mount): MountWriteAPI {
  let entries = 0;
  let bytes = 0;
  const inside = (path: string, allowRoot: boolean): string => {
    let canonical: string;
    try {
      canonical = canonicalPath(path, "mount");
    } catch {
      throw new Error(`mount ${root}: ${JSON.stringify(path)} is not an absolute path`);
    }
    if (!within(canonical, root) || (!allowRoot && canonical === root)) {
      throw new Error(`mount ${root}: ${JSON.stringify(path)} is outside the mount root`);
    }
    return canonical;
  };
  const count = () => {
    if (mount.maxEntries !== undefined && ++entries > mount.maxEntries) throw new Error(`mount ${root}: maxEntries=${mount.maxEntries} exceeded`);
  };
  const linked = (path: string) =>
    new Error(
      `mount ${root}: ${JSON.stringify(path)} is a symbolic link placed while the mount was being copied; the copy never follows a link it did not make (the run fails and clears the root; call ready() again)`,
    );
  const notA = (path: string, code: "ENOTDIR" | "EISDIR") =>
    Object.assign(new Error(`mount ${root}: ${JSON.stringify(path)} is ${code === "ENOTDIR" ? "a file, not a directory" : "a directory"}`), { code });
  /**
   * Makes `dir` (the root or under it) a directory reached from the root
   * through real directories only: each one is checked with `lstat` (a
   * link is never followed) and a missing one created (the last with `mode`)
   * by a `mkdir` that follows no link either.
   */
  const directory = async (dir: string, mode?: number): Promise<void> => {
    if (dir === root) return;
    let at = root === "/" ? "" : root;
    const names = dir.slice(at.length + 1).split("/");
    for (const [i, name] of names.entries()) {
      at += `/${name}`;
      let stat = await fs.lstat(at).catch(() => undefined);
      if (!stat) {
        const options: MkdirOptions & NoFollowOption = i === names.length - 1 && mode !== undefined ? { mode, [NO_FOLLOW]: true } : { [NO_FOLLOW]: true };
        try {
          await fs.mkdir(at, options);
          continue;
        } catch (error) {
          if (posixCodeOf(error) === "ENOTDIR") await refused(error, at);
          if (posixCodeOf(error) !== "EEXIST") throw error;
        }
        stat = await fs.lstat(at);
      }
      if (stat.isSymbolicLink) throw linked(at);
      if (!stat.isDirectory) throw notA(at, "ENOTDIR");
    }
  };
  /**
   * After a call that followed no link failed `ENOTDIR` / `ELOOP` at `path`:
   * names the link (or file) among the directories from the root, or at
   * `path`, that another writer put there since they were checked; else
   * rethrows `error`.
   */
  const refused = async (error: unknown, path: string): Promise<never> => {
    let at = root === "/" ? "" : root;
    for (const name of path.slice(at.length + 1).split("/")) {
      at += `/${name}`;
      const stat = await fs.lstat(at).catch(() => undefined);
      if (!stat) break;
      if (stat.isSymbolicLink) throw linked(at);
      if (at !== path && !stat.isDirectory) throw notA(at, "ENOTDIR");
    }
    throw error;
  };
  const limited = (source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> => {
    if (mount.maxBytes === undefined) return source;
    const max = mount.maxBytes;
    return source.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytes += chunk.byteLength;
          if (bytes > max) controller.error(new Error(`mount ${root}: maxBytes=${max} exceeded`));
          else controller.enqueue(chunk);
        },
      }),
    );
  };
  return {
    root,
    async writeFile(absPath, source, mode) {
      const path = inside(absPath, false);
      count();
      const inMemory = bytesOf(source);
      if (inMemory && mount.maxBytes !== undefined && (bytes += inMemory.byteLength) > mount.maxBytes) {
        throw new Error(`mount ${root}: maxBytes=${mount.maxBytes} exceeded`);
      }
      const content = inMemory ?? limited(source);
      for (let attempt = 0; ; attempt++) {
        // The entry first, then the directories above it: a link swapped in among them meanwhile is met by the second.
        const entry = await fs.lstat(path).catch(() => undefined);
        await directory(dirname(path));
        if (entry?.isSymbolicLink) throw linked(path);
        if (entry?.isDirectory) throw notA(path, "EISDIR");
        // The write's own walk follows no link either, at its commit too (a streamed file's bytes arrive meanwhile).
        const options: WriteFileOptions & NoFollowOption = entry
          ? { mode: mode ?? 0o644, ifInode: entry.inode, [NO_FOLLOW]: true }
          : { mode: mode ?? 0o644, exclusive: true, [NO_FOLLOW]: true };
        try {
          await fs.writeFile(path, content, options);
          return;
        } catch (error) {
          const code = posixCodeOf(error);
          if (code === "ENOTDIR" || code === "ELOOP") await refused(error, path);
          // Another writer put, replaced or removed the entry (or a parent) between the check and the write.
          if (!inMemory || attempt >= MOUNT_WRITE_RETRIES || (code !== "EEXIST" && code !== "ESTALE" && code !== "ENOENT")) throw error;
        }
      }
    },
    async mkdir(absPath, mode) {
      const path = inside(absPath, true);
      count();
      await directory(path, mode);
    },
  };
}
