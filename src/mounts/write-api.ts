/**
 * The write API a mount's `materialize()` gets (spec 01 §6.2): paths are
 * canonicalised and kept under the root, parents are created once per run,
 * and the mount's `maxEntries` / `maxBytes` are counted as it writes.
 *
 * @module
 */
import { within } from "../fs/mount-guard.js";
import { canonicalPath } from "../fs/path.js";
import type { WorkspaceFilesystem } from "../fs/types.js";
import { dirname } from "../util/path.js";
import { bytesOf } from "./bytes-stream.js";
import type { Mount, MountWriteAPI } from "./types.js";

/**
 * The write API of one run of `mount` at `root` (which the run has created).
 * Files from `streamOfBytes` are written from their bytes, others streamed.
 *
 * @returns an API whose calls throw Error `mount <root>: "<path>" is not an absolute path`,
 *   `… is outside the mount root`, `maxEntries=<n> exceeded` or `maxBytes=<n> exceeded`.
 */
export function mountWriteAPI(fs: WorkspaceFilesystem, root: string, mount: Mount): MountWriteAPI {
  let entries = 0;
  let bytes = 0;
  /** Directories this run has created (parents are made once per run, not once per file). */
  const made = new Set<string>([root]);
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
      const parent = dirname(path);
      if (parent !== "/" && !made.has(parent)) {
        await fs.mkdir(parent, { recursive: true });
        made.add(parent);
      }
      const inMemory = bytesOf(source);
      if (inMemory && mount.maxBytes !== undefined && (bytes += inMemory.byteLength) > mount.maxBytes) {
        throw new Error(`mount ${root}: maxBytes=${mount.maxBytes} exceeded`);
      }
      await fs.writeFile(path, inMemory ?? limited(source), { mode: mode ?? 0o644 });
    },
    async mkdir(absPath, mode) {
      const path = inside(absPath, true);
      count();
      if (made.has(path)) return; // the root (created by the run) or a directory this run made
      await fs.mkdir(path, mode === undefined ? { recursive: true } : { recursive: true, mode });
      made.add(path);
    },
  };
}
