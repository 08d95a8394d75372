/** Heap measurement shared by the attack6 memory tests. */

/** Runs `fn`; the largest growth of heap + array buffers seen meanwhile (sampled every 5 ms), in bytes. */
export async function peak<T>(fn: () => Promise<T>): Promise<{ value: T; grew: number }> {
  const base = process.memoryUsage();
  let grew = 0;
  const sample = () => {
    const m = process.memoryUsage();
    grew = Math.max(grew, m.heapUsed + m.arrayBuffers - base.heapUsed - base.arrayBuffers);
  };
  const t = setInterval(sample, 5);
  try {
    const value = await fn();
    sample();
    return { value, grew };
  } finally {
    clearInterval(t);
  }
}

/**
 * Counts the `readFile` calls of `ws.fs` on paths matching `pattern` that are open at once — from the call until its
 * stream ends (or its text arrives) — by wrapping the method; `most` is the highest count seen, `restore()` unwraps it.
 */
export function countOpenReads(ws: { fs: unknown }, pattern: RegExp): { readonly most: number; restore(): void } {
  let open = 0;
  let most = 0;
  const fs = ws.fs as { readFile: (path: string, ...rest: unknown[]) => Promise<unknown> };
  const readFile = fs.readFile;
  const bound = readFile.bind(fs);
  fs.readFile = async (path, ...rest) => {
    const counted = pattern.test(path);
    if (counted) most = Math.max(most, ++open);
    const result = await bound(path, ...rest).catch((error: unknown) => {
      if (counted) open--;
      throw error;
    });
    if (!counted) return result;
    if (!(result instanceof ReadableStream)) return open--, result;
    let ended = false;
    const end = () => void (ended || ((ended = true), open--));
    return result.pipeThrough(new TransformStream({ flush: end, cancel: end } as Transformer));
  };
  return {
    get most() {
      return most;
    },
    restore() {
      fs.readFile = readFile;
    },
  };
}
