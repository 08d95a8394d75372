/**
 * Limits of the Workspace's git (issue 20): what a repository from the
 * network may not make the Durable Object do.
 *
 * @module
 */

/**
 * Largest git object (bytes, inflated) the Workspace's git reads: checkout,
 * reset, merge, stash, show, cat-file -p and diff of file contents refuse a
 * bigger one with `E<OP>FAIL` (`object too large: …`). A loose object whose
 * header declares more is refused before its body is inflated, so a zlib
 * bomb (150 MB of zeros in 150 KB) costs nothing; an object in a pack is
 * refused once its inflated size passes the limit. A Durable Object has
 * 128 MB of memory and git holds an object whole, more than once.
 * @defaultValue 64 MiB (67,108,864 bytes)
 */
export const GIT_MAX_OBJECT_BYTES = 64 * 1024 * 1024;

/** The message of a refused object. */
export function objectTooLarge(size: number | undefined): string {
  const what = size === undefined ? `more than ${GIT_MAX_OBJECT_BYTES} bytes` : `${size} bytes`;
  return `object too large: it inflates to ${what}, over the limit of ${GIT_MAX_OBJECT_BYTES} bytes (GIT_MAX_OBJECT_BYTES); the Workspace's git does not read objects this large`;
}
