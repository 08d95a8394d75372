/**
 * Fixer GZ (issue 20, run 31): the bounds of gzip/gunzip in the shell agree,
 * so the shell can always restore a file it compressed. scripts/gen-shell.mjs
 * (GZ_PATCHES) patches just-bash's gzip to call these functions, imported as
 * the namespace `__gzipBound`.
 *
 * just-bash bounded every gzip output by the command output limit (16 MiB by
 * default), the limit meant for stdout: `gzip big` of a 30 MB file wrote
 * big.gz and removed big, and `gunzip big.gz` then refused `decompressed data
 * exceeds limit (16777216 bytes)` — the file could not be brought back. Now
 * what gzip writes to a FILE (compressed or decompressed) and what `gzip -t`
 * inflates is bounded by the shell's read bound for files,
 * {@link GZIP_FILE_BOUND} (64 MiB, the bound `tar -x` uses): gzip reads at most
 * that much, so what it compresses decompresses within it, and a .gz it
 * writes is at most that much, so gunzip can read it back. What goes to
 * stdout (`-c`, zcat, stdin) keeps the output limit. A file past the read
 * bound is refused before anything is written or removed (`gzip: f: File too
 * large`), where it said `No such file or directory`.
 *
 * @module
 */

/**
 * Most bytes gzip/gunzip write to a file, and gzip -t inflates: 64 MiB
 * (67108864), the shell's read bound (`DEFAULT_MAX_READ_BYTES` of
 * fs-adapter.ts, the `ARCHIVE_LIMIT_BYTES` tar -x uses).
 */
export const GZIP_FILE_BOUND = 64 * 1024 * 1024;

/**
 * The most a gzip decompression of `operand` may produce: the stdout limit
 * `stdoutLimit` when it goes to stdout (`-c`, zcat, stdin), else
 * {@link GZIP_FILE_BOUND}.
 */
export function decompressLimit(stdoutLimit: number, operand: string, toStdout: boolean): number {
  return toStdout || operand === "-" || operand === "" ? stdoutLimit : GZIP_FILE_BOUND;
}

interface GzipContext {
  limits: { maxOutputSize: number };
}

/**
 * Whether `error` is a codec or zlib refusal for size: just-bash's codec limit, node:zlib's maxOutputLength (workerd's
 * zlib answers `Memory limit exceeded` when the output would pass it).
 */
function sizeRefusal(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === "ERR_BUFFER_TOO_LARGE") return true;
  const message = error instanceof Error ? error.message : "";
  return /exceeds limit|larger than|Buffer too large|Cannot create a Buffer|Memory limit exceeded/i.test(message);
}

/**
 * just-bash's gzip compression `compress(data, level, ctx)` of a file operand:
 * to stdout (`-c`) within the output limit, as before; to a file within
 * {@link GZIP_FILE_BOUND} — a .gz past it (input that does not compress,
 * near the read bound) is refused with `compressed data exceeds limit
 * (67108864 bytes)` before anything is written or removed, since gunzip
 * could not read it back.
 */
export function compressFile<C extends GzipContext, R>(compress: (data: Uint8Array, level: number, ctx: C) => R, data: Uint8Array, level: number, ctx: C, toStdout: boolean): R {
  if (toStdout) return compress(data, level, ctx);
  const bounded = Object.create(ctx) as C;
  bounded.limits = { ...ctx.limits, maxOutputSize: GZIP_FILE_BOUND };
  try {
    return compress(data, level, bounded);
  } catch (error) {
    if (sizeRefusal(error)) throw new Error(`compressed data exceeds limit (${GZIP_FILE_BOUND} bytes)`);
    throw error;
  }
}

/** STRERROR wording of the read failures gzip meets; any other is `No such file or directory`, as before. */
const READ_REASONS: Readonly<Record<string, string>> = {
  EFBIG: "File too large",
  EISDIR: "Is a directory",
  ENOTDIR: "Not a directory",
  ELOOP: "Too many levels of symbolic links",
  EACCES: "Permission denied",
  EIO: "Input/output error",
};

/**
 * What gzip answers when reading `operand` failed: `gzip: big: File too
 * large` for a file past the shell's read bound (it said `No such file or
 * directory`), status 1; nothing was written or removed.
 */
export function readFailure(command: string, operand: string, error: unknown): { stdout: string; stderr: string; exitCode: number } {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  const fromMessage = error instanceof Error ? /^(E[A-Z0-9]+)\b/.exec(error.message)?.[1] : undefined;
  const reason = READ_REASONS[typeof code === "string" ? code : (fromMessage ?? "")] ?? "No such file or directory";
  return { stdout: "", stderr: `${command}: ${operand}: ${reason}\n`, exitCode: 1 };
}
