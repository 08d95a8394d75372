/**
 * Keeps `npm test` output about the tests. Loaded by vitest.config.ts in the
 * main vitest process, before any pool starts.
 *
 * - Node prints `ExperimentalWarning: SQLite is an experimental feature` once
 *   per worker process that opens `node:sqlite` (dozens per run). The worker
 *   processes inherit `--disable-warning=ExperimentalWarning` through
 *   NODE_OPTIONS.
 * - Local workerd logs every error thrown by a Durable Object's RPC method as
 *   `uncaught exception; source = Uncaught (in promise); stack = …`, even
 *   when the caller catches it — and many tests make such calls fail on
 *   purpose (ENOENT, EROFS, a broken source stream…). Those lines are counted
 *   and left out; one summary line says how many there were. A test that
 *   fails still fails and prints its own error.
 *
 * `SHOW_WORKERD_LOGS=1 npm test` shows everything.
 */
const CALLEE_ERROR = "uncaught exception; source = Uncaught (in promise); stack = ";
/** vite's note about a dependency's source map, which names files the package does not ship. */
const DEPENDENCY_SOURCEMAP = /^Sourcemap for "[^"]*\/node_modules\/[^"]*" points to missing source files\s*$/;

/** Wraps `stream.write` so workerd's callee-side RPC error logs are counted (`onDrop`) instead of written. */
export function dropCalleeErrors(stream: Pick<NodeJS.WriteStream, "write">, onDrop: () => void): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : "";
    const calleeError = text.startsWith(CALLEE_ERROR);
    if (calleeError || DEPENDENCY_SOURCEMAP.test(text)) {
      if (calleeError) onDrop();
      const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }
    return write(chunk, ...rest);
  }) as typeof stream.write;
}

/** Applies both filters to this process (and, through NODE_OPTIONS, to the processes it starts). */
export function quietTestLogs(): void {
  const flags = globalThis as { __agentComputerQuietLogs?: boolean };
  if (process.env.SHOW_WORKERD_LOGS === "1" || flags.__agentComputerQuietLogs) return;
  flags.__agentComputerQuietLogs = true;
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, "--disable-warning=ExperimentalWarning"].filter(Boolean).join(" ");

  let dropped = 0;
  dropCalleeErrors(process.stdout, () => dropped++);
  dropCalleeErrors(process.stderr, () => dropped++);
  process.once("exit", () => {
    if (dropped > 0) {
      process.stdout.write(
        `(workerd logged ${dropped} errors thrown by Durable Object RPC methods and caught by their callers; SHOW_WORKERD_LOGS=1 shows them)\n`,
      );
    }
  });
}
