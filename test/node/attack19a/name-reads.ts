/** Counting what a test's code under attack reads of directory entries' names, through a Workspace's own `fs`. */

/** The `fs.readdir` a Workspace (or client) has. */
type Readdir = (path: string, options?: unknown) => Promise<{ name: string }[]>;

/**
 * Wraps `fs.readdir` (delegating, nothing else changed) to count the characters of the names it returns;
 * `chars()` is the count so far, `restore()` puts the method back.
 */
export function countNameReads(fs: object): { chars(): number; restore(): void } {
  const target = fs as { readdir: Readdir };
  const readdir = target.readdir.bind(target);
  let chars = 0;
  target.readdir = async (path, options) => {
    const entries = await readdir(path, options);
    for (const entry of entries) chars += entry.name.length;
    return entries;
  };
  return { chars: () => chars, restore: () => void (target.readdir = readdir) };
}
