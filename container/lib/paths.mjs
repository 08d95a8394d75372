// @ts-check
import fs from "node:fs/promises";
import path from "node:path";
import { DaemonError, rethrow } from "./errors.mjs";

/**
 * Confinement of client paths to MOUNT_POINT.
 *
 * A client path is POSIX, relative to the mount point; a leading `/` means the mount root too
 * (`/src/a.ts` = `src/a.ts`). `.` segments are dropped and `..` pops one; popping above the root is
 * `EACCES`. Every existing parent directory is resolved with `realpath` and must stay inside the
 * mount point's real path, so a symlink cannot carry an operation out of it (`EACCES`). The last
 * segment is never followed here: each operation decides (e.g. `rm` removes a link, not its target).
 * A check-then-act race with a process changing the tree at the same time is not excluded.
 */

/**
 * Normalize a client path to its segments.
 * @param {unknown} p
 * @param {string} [field] the argument name for messages
 * @returns {string[]}
 */
export function segments(p, field = "path") {
  if (typeof p !== "string") throw new DaemonError("EINVAL", `${field} must be a string`);
  if (p.includes("\0")) throw new DaemonError("EINVAL", `${field} contains a NUL byte`);
  if (Buffer.byteLength(p) > 4096) throw new DaemonError("ENAMETOOLONG", `${field} is longer than 4096 bytes`);
  /** @type {string[]} */
  const out = [];
  for (const s of p.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") {
      if (out.length === 0) throw new DaemonError("EACCES", `${field} escapes the mount point: ${JSON.stringify(p)}`, { path: p });
      out.pop();
    } else out.push(s);
  }
  return out;
}

/** A mount point with its real path. */
export class Mount {
  /**
   * @param {string} abs the mount point as configured (absolute; used for ignore matching)
   * @param {string} real its realpath
   */
  constructor(abs, real) {
    this.abs = abs;
    this.real = real;
  }

  /**
   * Create the mount directory when missing and resolve its real path.
   * @param {string} abs
   */
  static async open(abs) {
    await fs.mkdir(abs, { recursive: true });
    return new Mount(abs, await fs.realpath(abs));
  }

  /**
   * Is `real` inside (or equal to) the mount's real path?
   * @param {string} real
   */
  contains(real) {
    return real === this.real || real.startsWith(this.real.endsWith("/") ? this.real : this.real + "/");
  }

  /**
   * Resolve a client path to a host path whose parents are real and confined.
   * @param {unknown} p client path
   * @param {string} [field]
   * @param {Map<string, string>} [parents] cache of resolved parent directories (mount-relative → real,
   *   already confined), valid while the caller knows no directory was replaced (one `apply` batch)
   * @returns {Promise<{ rel: string, host: string, isRoot: boolean }>} `rel` normalized mount-relative path (`""` = root)
   */
  async resolve(p, field = "path", parents) {
    const segs = segments(p, field);
    const rel = segs.join("/");
    if (segs.length === 0) return { rel, host: this.real, isRoot: true };
    const parentRel = segs.slice(0, -1).join("/");
    const cached = parents?.get(parentRel);
    if (cached !== undefined) return { rel, host: path.join(cached, segs[segs.length - 1]), isRoot: false };
    // Deepest existing ancestor, resolved; the missing rest is appended as is.
    let i = segs.length - 1;
    let base = this.real;
    for (; i >= 0; i--) {
      const candidate = path.join(this.real, ...segs.slice(0, i));
      try {
        base = await fs.realpath(candidate);
        break;
      } catch (err) {
        if (/** @type {{ code?: string }} */ (err).code === "ENOENT") continue;
        rethrow(err, rel); // ENOTDIR (a file in the way), ELOOP, EACCES, …
      }
    }
    if (!this.contains(base)) throw new DaemonError("EACCES", `${field} leads out of the mount point through a symlink: ${JSON.stringify(rel)}`, { path: rel });
    if (i === segs.length - 1) parents?.set(parentRel, base);
    return { rel, host: path.join(base, ...segs.slice(Math.max(i, 0))), isRoot: false };
  }

  /**
   * Resolve a client path that must be an existing directory, following symlinks, confined.
   * @param {unknown} p
   * @param {string} [field]
   * @returns {Promise<string>} the real host path
   */
  async directory(p, field = "cwd") {
    const segs = segments(p, field);
    const rel = segs.join("/");
    let real;
    try {
      real = await fs.realpath(path.join(this.real, ...segs));
    } catch (err) {
      const code = /** @type {{ code?: string }} */ (err).code;
      if (code === "ENOENT") throw new DaemonError("ENOENT", `${field} does not exist: ${JSON.stringify(rel)}`, { path: rel });
      if (code === "ENOTDIR") throw new DaemonError("ENOTDIR", `${field} is not a directory: ${JSON.stringify(rel)}`, { path: rel });
      rethrow(err, rel);
    }
    if (!this.contains(real)) throw new DaemonError("EACCES", `${field} leads out of the mount point through a symlink: ${JSON.stringify(rel)}`, { path: rel });
    const st = await fs.stat(real);
    if (!st.isDirectory()) throw new DaemonError("ENOTDIR", `${field} is not a directory: ${JSON.stringify(rel)}`, { path: rel });
    return real;
  }
}
