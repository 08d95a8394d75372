/**
 * `/dev/stdin` and `/dev/fd/0` as a command's file operand (issue 20, run 33, fixer SD; wired into just-bash's
 * command runner by scripts/gen-shell.mjs, entry marked `// SD33`, imported as the namespace `__devStdin`).
 *
 * On Linux `/dev/stdin` is a link to `/proc/self/fd/0`: a command that opens it reads its own standard input, so
 * `echo x | cat /dev/stdin`, `sort /dev/stdin`, `diff /dev/stdin exp`, `cp /dev/stdin out` and
 * `in=$(cat /dev/stdin)` in a function fed by a pipe all read what the pipe carries (bash 5.2.15 with GNU coreutils
 * 9.1, grep 3.8, sed 4.9, gawk 5.2.1, diffutils 3.8). just-bash has no processes, so each command gets its own view
 * of the file system ({@link withStdin}) in which these names read the command's standard input — the bytes `-`
 * reads — and every other path goes to the shell's file system unchanged.
 *
 * Names ({@link isStdinPath}): `/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`, after `.`/`..`/`//` normalisation.
 * What they answer: `readFile` (decoded as the adapter decodes a file: UTF-8 with each byte that is not UTF-8 kept
 * as U+DC80…U+DCFF; `binary`/`latin1`/… as asked), `readFileBytes` (a byte string), `readFileBuffer` (bytes),
 * `exists` (true), `stat`/`lstat` (not a directory; `isFile` true and `size` the input's byte length, so that
 * commands that copy regular files — cp — read it; `mode` 0o600), `realpath` (the name itself) and `cp` from it (the
 * destination gets the input's bytes). Reading marks the input consumed, as `-` does.
 * Writing to them, and the shell builtins (`test -e`, `[ -p ]`), go to the file system as before.
 */
import { encodingOf, normalize, fromBytes } from "../fs-adapter.js";
import { utf8EscapeEncode } from "../../../util/utf8-escape.js";

const STDIN_PATHS = new Set(["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]);

/** Whether `path` (absolute, as `resolvePath` gives it) names the standard input. */
export function isStdinPath(path: unknown): boolean {
  if (typeof path !== "string" || !path.startsWith("/")) return false;
  return STDIN_PATHS.has(path) || STDIN_PATHS.has(normalize(path));
}


/** The bytes of just-bash's stdin string: a byte string (one char per byte), or text when a char is past U+00FF. */
function stdinBytes(stdin: string): Uint8Array {
  for (let i = 0; i < stdin.length; i++) if (stdin.charCodeAt(i) > 0xff) return utf8EscapeEncode(stdin);
  const out = new Uint8Array(stdin.length);
  for (let i = 0; i < stdin.length; i++) out[i] = stdin.charCodeAt(i);
  return out;
}

function stdinByteString(stdin: string): string {
  for (let i = 0; i < stdin.length; i++) {
    if (stdin.charCodeAt(i) > 0xff) {
      const bytes = utf8EscapeEncode(stdin);
      let s = "";
      for (let at = 0; at < bytes.length; at += 8192) s += String.fromCharCode(...bytes.subarray(at, at + 8192));
      return s;
    }
  }
  return stdin;
}

/**
 * `fs` as one command sees it: `/dev/stdin`, `/dev/fd/0` and `/proc/self/fd/0` read `stdin()` (the command's
 * standard input; called on each read, which marks it consumed); anything else is `fs` itself (same methods,
 * same `this`). `fs` is returned unchanged when it is not an object.
 */
export function withStdin<T extends object>(fs: T, stdin: () => string): T {
  if (fs === null || typeof fs !== "object") return fs;
  const own: Record<string, (path: unknown, ...rest: unknown[]) => unknown> = {
    readFile: async (_path, options) => fromBytes(stdinBytes(stdin()), encodingOf(options as never)),
    readFileBytes: async () => stdinByteString(stdin()),
    readFileBuffer: async () => stdinBytes(stdin()),
    exists: async () => true,
    stat: async () => statOf(stdin()),
    lstat: async () => statOf(stdin()),
    // Its own canonical name, so that cp's same-file check tells it from the destination.
    realpath: async (path) => normalize(path as string),
    // `cp /dev/stdin DEST` (DEST already resolved by cp, a directory operand included) writes what it reads.
    cp: async (_path, dest, ...rest) => {
      void rest;
      await (fs as unknown as { writeFile(path: string, data: Uint8Array): Promise<void> }).writeFile(dest as string, stdinBytes(stdin()));
    },
  };
  return routePaths(fs, isStdinPath, own);
}

/**
 * `fs` whose methods named in `own` call `own`'s handler when their first argument is a path `special` matches, and
 * `fs`'s own method otherwise; every other method is `fs`'s, bound to it (the per-command views of
 * {@link withStdin} and dev-stdout.ts's `streams().wrap`). `override` may replace a method outright (by key).
 * @internal
 */
export function routePaths<T extends object>(
  fs: T,
  special: (path: unknown) => boolean,
  own: Record<string, (path: unknown, ...rest: unknown[]) => unknown>,
  override?: (key: string | symbol, call: (...args: unknown[]) => unknown) => ((...args: unknown[]) => unknown) | undefined,
): T {
  return new Proxy(fs, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== "function") return value;
      const call = (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args);
      const replaced = override?.(key, call);
      if (replaced) return replaced;
      const mine = typeof key === "string" ? own[key] : undefined;
      if (mine === undefined) return (value as (...args: unknown[]) => unknown).bind(target);
      return (path: unknown, ...rest: unknown[]) => (special(path) ? mine(path, ...rest) : call(path, ...rest));
    },
  });
}

function statOf(stdin: string) {
  // identity: cp's same-file check needs one to tell it from /dev/stdout (issue 20, run 33, fixer SO).
  return { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o600, size: stdinBytes(stdin).byteLength, mtime: new Date(0), identity: "device:fd/0" };
}
