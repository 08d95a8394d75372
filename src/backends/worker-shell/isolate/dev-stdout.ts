/**
 * `/dev/stdout`, `/dev/stderr`, `/dev/fd/1`, `/dev/fd/2`, `/proc/self/fd/1` and `/proc/self/fd/2` as output files
 * (issue 20, run 33, fixer SO; wired into just-bash by scripts/gen-shell.mjs, entries marked `// SO33`, imported as
 * the namespace `__devStdout`).
 *
 * On Linux these names are links to the process's own descriptors 1 and 2: opening one for writing duplicates the
 * descriptor, so `echo x > /dev/fd/2`, `exec 3> /dev/fd/2`, `printf p | tee /dev/stderr`, `sort -o /dev/stdout f`,
 * `cp a /dev/stdout` and `dd of=/dev/stdout` all write to the command's standard output or error (bash 5.2.15, GNU
 * coreutils 9.1). just-bash matched only the exact words `/dev/stdout` and `/dev/stderr`, and only in redirections.
 *
 * - Redirections (`>`, `>>`, `>|`, `&>`, `&>>`, `N>`, `exec N>`): the target, resolved against the cwd (so
 *   `/dev/./fd/2` and `fd/2` in `/dev` count), is matched by {@link streamFd}; a match is a duplicate of the
 *   current descriptor 1 or 2, as bash.
 * - File operands of commands ({@link OutputStreams.wrap}): each command gets a view of the file system in which
 *   `writeFile`/`appendFile` to these names (truncation is meaningless on a stream: both append) and `cp SRC NAME`
 *   add the bytes to what the command printed on that stream, after its own output ({@link OutputStreams.merge});
 *   `exists` is true and `stat`/`lstat` answer a character device (not a file, not a directory, size 0, mode
 *   0o20620, identity `device:fd/N`), `realpath` the name itself, `chmod`/`utimes` do nothing.
 *   Reading them and every other path go to the file system unchanged. (just-bash has no `dd`.)
 *
 * Difference from Linux (docs/runtime.md): a command's writes to these names come after everything it printed to
 * the same stream itself, where Linux interleaves them write by write; for the commands that both print and write
 * a file (tee) the bytes are the same.
 */
import { utf8EscapeDecode } from "../../../util/utf8-escape.js";
import { encodingOf, normalize, toBytes } from "../fs-adapter.js";
import { routePaths } from "./dev-stdin.js";

const NAMES = new Map<string, 1 | 2>([
  ["/dev/stdout", 1],
  ["/dev/fd/1", 1],
  ["/proc/self/fd/1", 1],
  ["/dev/stderr", 2],
  ["/dev/fd/2", 2],
  ["/proc/self/fd/2", 2],
]);

/**
 * The descriptor (1 or 2) an absolute `path` names, after `.`/`..`/`//` normalisation (no links followed); null for
 * any other path or a value that is not an absolute path.
 */
export function streamFd(path: unknown): 1 | 2 | null {
  if (typeof path !== "string" || !path.startsWith("/")) return null;
  return NAMES.get(path) ?? NAMES.get(normalize(path)) ?? null;
}


/** The part of just-bash's command result this module reads and extends. */
interface CommandResult {
  stdout: string;
  stderr: string;
  stdoutKind?: string;
  stdoutEncoding?: string;
}

/** What one command wrote to its streams through file names; made per command run ({@link streams}). */
export interface OutputStreams {
  /** `fs` as the command sees it: the stream names append here, everything else is `fs` itself. */
  wrap<T extends object>(fs: T): T;
  /**
   * `result` with the captured bytes after its own stdout/stderr: stdout as a byte string when the result's stdout
   * is bytes (`stdoutKind` "bytes", or `stdoutEncoding` "binary"), else as text (UTF-8, bytes that are not UTF-8 as
   * U+DC80…U+DCFF, which just-bash's patched encoder writes back as the same bytes); stderr as text.
   */
  merge<R>(result: R): R;
}

/** A fresh capture for one command run. */
export function streams(): OutputStreams {
  const captured: Record<1 | 2, Uint8Array[]> = { 1: [], 2: [] };
  const put = (fd: 1 | 2, bytes: Uint8Array) => {
    if (bytes.byteLength > 0) captured[fd].push(bytes.slice());
  };
  return {
    wrap<T extends object>(fs: T): T {
      if (fs === null || typeof fs !== "object") return fs;
      const write = async (path: unknown, content: unknown, options: unknown) => {
        put(streamFd(path)!, toBytes(content as never, encodingOf(options as never)));
      };
      const own: Record<string, (path: unknown, ...rest: unknown[]) => unknown> = {
        writeFile: write,
        appendFile: write,
        exists: async () => true,
        stat: async (path) => deviceStat(streamFd(path)!),
        lstat: async (path) => deviceStat(streamFd(path)!),
        realpath: async (path) => normalize(path as string),
        // What cp -p and friends do to a destination after writing it: nothing to do on a stream.
        chmod: async () => undefined,
        utimes: async () => undefined,
      };
      // `cp SRC /dev/stdout`: the source's bytes (read through the same view, so /dev/stdin works) go out.
      const cp = (target: T, call: (...args: unknown[]) => unknown) => async (src: unknown, dest: unknown, ...rest: unknown[]) => {
        const fd = streamFd(dest);
        if (fd === null) return call(src, dest, ...rest);
        const read = (target as unknown as { readFileBuffer(p: unknown): Promise<Uint8Array> }).readFileBuffer;
        put(fd, await read.call(target, src));
      };
      return routePaths(fs, (path) => streamFd(path) !== null, own, (key, call) => (key === "cp" ? cp(fs, call) : undefined));
    },
    merge<R>(result: R): R {
      if (captured[1].length === 0 && captured[2].length === 0) return result;
      const r = result as R & CommandResult;
      const binary = r.stdoutKind === "bytes" || (r.stdoutKind === undefined && r.stdoutEncoding === "binary");
      let stdout = r.stdout ?? "";
      let stderr = r.stderr ?? "";
      for (const bytes of captured[1]) stdout += binary ? byteString(bytes) : utf8EscapeDecode(bytes);
      for (const bytes of captured[2]) stderr += utf8EscapeDecode(bytes);
      return { ...r, stdout, stderr };
    },
  };
}

/** A character device (mode 0o20620, crw--w----), one identity per descriptor so that cp's same-file check tells it from its source. */
function deviceStat(fd: 1 | 2) {
  return { isFile: false, isDirectory: false, isSymbolicLink: false, mode: 0o20620, size: 0, mtime: new Date(0), identity: `device:fd/${fd}` };
}

function byteString(bytes: Uint8Array): string {
  let s = "";
  for (let at = 0; at < bytes.length; at += 8192) s += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return s;
}
