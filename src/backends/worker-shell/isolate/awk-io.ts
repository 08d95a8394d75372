/**
 * awk's output files (`print > "f"`, `>>`, `printf > "f"`) as gawk 5.2.1 and
 * mawk 1.3.4 keep them: a file is opened once — created or truncated (`>`) or
 * created for appending (`>>`) in storage by its first write, so that a file
 * that cannot be written fails where gawk fails — and the text printed to it
 * is kept in the isolate and appended in one step at `close(file)`,
 * `fflush(file)` / `fflush()`, and at the end of the program (also one
 * stopped by an awk error), each file in the order it was opened. A file's pending text
 * is written out whenever it reaches {@link FILE_PENDING_BYTES}, and every
 * file's once they reach {@link TOTAL_PENDING_BYTES} together, so the
 * isolate holds at most that much. Before, just-bash's awk re-read and
 * rewrote the whole file for every record (O(N²): 5,000 lines took 53 s).
 *
 * Like gawk's stdio buffering, `getline < "f"` of a file still open for
 * output reads what reached storage (without the pending text); after
 * `close("f")` it reads every byte. `close(file)` also ends the file's
 * `>` opening, so the next `print > file` truncates it again (gawk, mawk).
 * Paths under `/dev/` are written through unbuffered (they are devices).
 *
 * scripts/gen-shell.mjs patches just-bash's awk to use these (entries
 * marked `// AW2`), imported as the namespace `__awkIo`. Pure: bundled into
 * the shell's Dynamic Worker.
 *
 * @module
 */

/** A file's pending text is appended once it reaches this many UTF-16 units. */
export const FILE_PENDING_BYTES = 1 << 20;
/** All files' pending text is appended once it reaches this many UTF-16 units together. */
export const TOTAL_PENDING_BYTES = 8 << 20;

/** The shell file system calls awk's output uses (just-bash's IFileSystem, the Workspace adapter). */
export interface AwkFs {
  readFile(path: string): Promise<string>;
  writeFile(path: string, data: string): Promise<void>;
  appendFile(path: string, data: string): Promise<void>;
  resolvePath(base: string, path: string): string;
}

/** just-bash's defense-context runner (`n("label", fn)` in its awk command). */
export type Guard = <T>(label: string, fn: () => Promise<T>) => Promise<T>;

/** The awk runtime context fields these read (just-bash's). */
interface AwkContext {
  fs?: unknown;
  cwd?: string;
  openedFiles?: Set<string>;
}

/** A built-in's helper (just-bash's, with SA's `str`). */
interface BuiltinHelper {
  evalExpr(node: unknown): Promise<unknown>;
  str?(value: unknown): string;
}

type Builtin = (args: unknown[], ctx: AwkContext, helper: BuiltinHelper) => unknown;

/** The fs just-bash's awk writes its output files through: buffered per open file. */
export class OutputFiles implements AwkFs {
  readonly #fs: AwkFs;
  readonly #guard: Guard;
  /** Resolved path → text printed since the file's last write to storage (insertion order: opening order). */
  readonly #pending = new Map<string, string[]>();
  readonly #sizes = new Map<string, number>();
  #total = 0;

  constructor(fs: AwkFs, guard: Guard) {
    this.#fs = fs;
    this.#guard = guard;
  }

  readFile(path: string): Promise<string> {
    return this.#fs.readFile(path);
  }

  resolvePath(base: string, path: string): string {
    return this.#fs.resolvePath(base, path);
  }

  /** The first write of `print > path` (the runtime's truncating open): the file is made empty at once, the text kept. */
  async writeFile(path: string, data: string): Promise<void> {
    await this.#writeOut(path);
    this.#pending.delete(path);
    if (this.#open(path)) {
      await this.#guard("awk output file open", () => this.#fs.writeFile(path, ""));
      await this.appendFile(path, data);
    } else await this.#guard("awk output file write", () => this.#fs.writeFile(path, data));
  }

  /** A later write of `>`, or any write of `>>`: kept while the file is open (the first one opens it, creating it). */
  async appendFile(path: string, data: string): Promise<void> {
    const pending = this.#pending.get(path);
    if (pending === undefined) {
      if (this.#open(path)) {
        await this.#guard("awk output file open", () => this.#fs.appendFile(path, ""));
        await this.appendFile(path, data);
      } else await this.#guard("awk output file write", () => this.#fs.appendFile(path, data));
      return;
    }
    if (data === "") return;
    pending.push(data);
    const size = (this.#sizes.get(path) ?? 0) + data.length;
    this.#sizes.set(path, size);
    this.#total += data.length;
    if (size >= FILE_PENDING_BYTES) await this.#writeOut(path);
    else if (this.#total >= TOTAL_PENDING_BYTES) await this.flushAll();
  }

  /** Whether `path` (resolved) is open for output. */
  isOpen(path: string): boolean {
    return this.#pending.has(path);
  }

  /** Writes `path`'s pending text to storage (`fflush(file)`); false when it is not open for output. */
  async flush(path: string): Promise<boolean> {
    if (!this.#pending.has(path)) return false;
    await this.#writeOut(path);
    return true;
  }

  /** Writes every open file's pending text, in the order they were opened (`fflush()`, the program's end). */
  async flushAll(): Promise<void> {
    for (const path of [...this.#pending.keys()]) await this.#writeOut(path);
  }

  /** `close(file)`: writes its pending text and forgets it, so the next `print >` truncates; false when not open. */
  async close(path: string, ctx: AwkContext): Promise<boolean> {
    const open = this.#pending.has(path);
    try {
      if (open) await this.#writeOut(path);
    } finally {
      this.#pending.delete(path);
      this.#sizes.delete(path);
      ctx.openedFiles?.delete(path);
    }
    return open;
  }

  /**
   * The program's end: every pending text written, then `result` as is; a write that fails turns it into
   * awk's error (`awk: message`, status 2) unless `isFatal` (the shell's own stops are rethrown).
   */
  async finish<R extends { stdout: string; stderr: string; exitCode: number }>(result: R, isFatal: (error: unknown) => boolean): Promise<R> {
    try {
      await this.flushAll();
      return result;
    } catch (error) {
      if (isFatal(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      return { ...result, stderr: `${result.stderr}awk: ${message}\n`, exitCode: 2 };
    }
  }

  /** Starts keeping `path`'s text; false for a device (/dev/null, /dev/stdout…): written through, in order. */
  #open(path: string): boolean {
    if (path.startsWith("/dev/")) return false;
    this.#pending.set(path, []);
    this.#sizes.set(path, 0);
    return true;
  }

  async #writeOut(path: string): Promise<void> {
    const pending = this.#pending.get(path);
    if (pending === undefined || pending.length === 0) return;
    const text = pending.join("");
    this.#pending.set(path, []);
    this.#total -= this.#sizes.get(path) ?? 0;
    this.#sizes.set(path, 0);
    await this.#guard("awk output file write", () => this.#fs.appendFile(path, text));
  }
}

/** The string value of a built-in's argument `node` (CONVFMT as SA's `str`). */
async function argumentText(node: unknown, helper: BuiltinHelper): Promise<string> {
  const value = await helper.evalExpr(node);
  return helper.str ? helper.str(value) : String(value);
}

/**
 * Makes just-bash's `close` and `fflush` built-ins (in `builtins`, whatever they already do with input files
 * and commands) also close and flush {@link OutputFiles}. The name is evaluated once; the original built-in gets
 * it as a string constant.
 */
export function wrapBuiltins(builtins: Map<string, Builtin>): void {
  const close = builtins.get("close");
  const fflush = builtins.get("fflush");
  if (close) {
    builtins.set("close", async (args, ctx, helper) => {
      const out = ctx.fs instanceof OutputFiles ? ctx.fs : undefined;
      if (out === undefined || args.length === 0) return close(args, ctx, helper);
      const name = await argumentText(args[0], helper);
      const closed = ctx.cwd !== undefined && (await out.close(out.resolvePath(ctx.cwd, name), ctx));
      const result = await close([{ type: "string", value: name }, ...args.slice(1)], ctx, helper);
      return closed && result === -1 ? 0 : result;
    });
  }
  if (fflush) {
    builtins.set("fflush", async (args, ctx, helper) => {
      const out = ctx.fs instanceof OutputFiles ? ctx.fs : undefined;
      if (out === undefined) return fflush(args, ctx, helper);
      if (args.length === 0) {
        await out.flushAll();
        return fflush(args, ctx, helper);
      }
      const name = await argumentText(args[0], helper);
      if (ctx.cwd !== undefined) await out.flush(out.resolvePath(ctx.cwd, name));
      return fflush([{ type: "string", value: name }, ...args.slice(1)], ctx, helper);
    });
  }
}

