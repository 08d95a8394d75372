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
