// @ts-check
/**
 * The disk id: a random id that names the disk the mount point lives on, kept in a file beside
 * the mount point — `<parent>/.<name>.computerd-disk` (`/.workspace.computerd-disk` in the image).
 * The first daemon on a disk writes it; a daemon restarted on the same disk reads it back; a
 * container relaunched on a fresh disk (from the image) has none and writes a new one. The
 * Workspace compares it with the one it recorded to tell "the same disk" (keep what it knows the
 * container holds, complete a pending pull) from "another disk" (push the whole tree again).
 * It lies outside the mount point: never synced, never listed by `scan`. An image must not hold it.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/** What a disk id file holds: a UUID (and a newline). */
const DISK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The file holding the disk id of `mountPoint`: `<parent>/.<name>.computerd-disk`.
 * @param {string} mountPoint absolute
 * @returns {string | undefined} undefined for `/` (no parent to hold it)
 */
export function diskIdFile(mountPoint) {
  const name = path.basename(mountPoint);
  if (name === "") return undefined;
  return path.join(path.dirname(mountPoint), `.${name}.computerd-disk`);
}

/**
 * The disk id of `mountPoint`: read from {@link diskIdFile}, or written there (a new random UUID,
 * created exclusively: two daemons starting at once agree) when the file is missing.
 * @param {string} mountPoint absolute
 * @returns {Promise<string | undefined>} undefined when there is none to be had (the parent is not
 *   writable, the file holds something else): the Workspace then falls back to comparing file stats
 */
export async function diskId(mountPoint) {
  const file = diskIdFile(mountPoint);
  if (file === undefined) return undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const text = (await fs.readFile(file, "utf8")).trim();
      return DISK_ID.test(text) ? text : undefined;
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== "ENOENT") return undefined;
    }
    const id = randomUUID();
    const temp = `${file}.${id}.tmp`;
    try {
      // Whole or not at all: written under a temporary name, then linked into place (fails if it exists).
      await fs.writeFile(temp, `${id}\n`, { flag: "wx", mode: 0o644 });
      await fs.link(temp, file);
      return id;
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== "EEXIST") return undefined;
    } finally {
      await fs.rm(temp, { force: true }).catch(() => {});
    }
  }
  return undefined;
}
