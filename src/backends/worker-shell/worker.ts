/**
 * What the shell runtime does for one command (spec 02 §6): build a just-bash
 * `Bash` over the Workspace (through `WorkspaceFsAdapter` on the host's RPC
 * target), run the text, and send its output back to the host.
 *
 * It runs inside the shell's Dynamic Worker (isolate/shell.ts imports it with
 * just-bash bundled next to it) and in a `ShellWorker` you export yourself
 * (the host entry loads just-bash with `import()` on first use, so just-bash
 * stays an optional peer).
 *
 * @module
 */
import type { Bash as BashClass } from "just-bash";
import { defineArtifactsCommand, defineAssetsCommand, defineGitCommand } from "./commands.js";
import { WorkspaceFsAdapter } from "./fs-adapter.js";
import { utf8EscapeEncode } from "../../util/utf8-escape.js";
import { readStreamBytes } from "../../util/bytes.js";
import { compactView, isByteStream } from "../../util/rpc-bytes.js"; // compact views: run 35, fixer UV
import { HostRoom } from "../../util/host-room.js"; // run 34, fixer JL
import { walkingCommands } from "./walks.js";
import { mktempCommand } from "./isolate/script-builtins.js";
import { cmpCommand, realpathCommand } from "./isolate/realpath-cmp.js";
import { defineTruncateCommand } from "./isolate/truncate.js"; // GZ
import { MAX_WALK_DEPTH } from "./isolate/deep-walks.js";
import { GROUP_END, GROUP_START } from "./isolate/heredoc-eof.js"; // run 40, fixer f40sh
import type { ExecInput, ShellHost, ShellWorkerOptions } from "./types.js";

/** What an archive the shell reads may decompress to, in all and per member (bytes): 64 MiB, the shell's read bound. */
/** Most words one brace expansion makes (bash has no limit; the words' bytes are bounded by the string limit, 10 MiB). (issue 20, run 33, fixer SD) */
export const BRACE_EXPANSION_WORDS = 100_000; // fixer SD, run 33
const ARCHIVE_LIMIT_BYTES = 64 * 1024 * 1024;

/** The part of just-bash the runtime uses. */
export interface JustBash {
  Bash: typeof BashClass;
}

/** Output is sent to the host in pieces of at most this many bytes (64 KiB). */
export const OUTPUT_CHUNK_BYTES = 64 * 1024;

const encoder = new TextEncoder();

/** Commands just-bash enables with an option of their own rather than its `commands` list. */
const SEPARATE = new Set(["curl", "python3", "python", "js-exec", "node"]);

/** What just-bash prints when a command is aborted through its signal. */
const ABORTED_LINE = "bash: execution aborted\n";
/** What just-bash prints when its own deadline (`maxExecutionTimeMs`) passes. */
const DEADLINE_LINE = /bash: execution exceeded execution deadline \(\d+ms\)\n$/;

/** Controllers of the commands running in this isolate, by execution id (for `kill`). */
const running = new Map<string, AbortController>();

/** Asks the command `id` to stop at its next step (no-op when none runs). */
export function killShell(id: string): void {
  running.get(id)?.abort(new Error("Execution was killed"));
}

/**
 * `text` as bytes: latin1 (one char = one byte) when just-bash marked it bytes, else UTF-8 with each byte escape
 * U+DC80…U+DCFF as its byte (utf8EscapeEncode, as just-bash's patched encoder writes a pipe or a file), so
 * `printf '\xff'` and `sed p latin1.txt` end the run with the bytes, not U+FFFD.
 */
function toBytes(text: string, kind: string | undefined): Uint8Array {
  if (kind !== "bytes") return utf8EscapeEncode(text);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

async function send(host: ShellHost, stream: "stdout" | "stderr", bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.byteLength; at += OUTPUT_CHUNK_BYTES) {
    // A compact copy of each chunk: a subarray would cross RPC with the whole output's buffer (run 35, fixer UV).
    await host.output(stream, compactView(bytes.subarray(at, Math.min(bytes.byteLength, at + OUTPUT_CHUNK_BYTES))));
  }
}

/**
 * A `fetch` for just-bash's `curl`: the isolate's own (egress applies through
 * the Worker's `globalOutbound`), with a clear error under egress `none`.
 */
function shellFetch(egress: ExecInput["egress"]) {
  return async (url: string, options: { method?: string; headers?: Headers | Record<string, string>; body?: string; signal?: AbortSignal } = {}) => {
    if (egress === "none") {
      throw new Error(`network access is disabled for this shell (egress mode "none"); cannot fetch ${url}`);
    }
    const init: RequestInit = { method: options.method ?? "GET", redirect: "manual" };
    if (options.headers !== undefined) init.headers = options.headers;
    if (options.body !== undefined) init.body = options.body;
    if (options.signal !== undefined) init.signal = options.signal;
    const response = await fetch(url, init);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    return { status: response.status, statusText: response.statusText, headers, body: new Uint8Array(await response.arrayBuffer()), url: response.url || url };
  };
}

/** What the host answers once it has stopped a command (backend.ts `stoppedError`). */
const STOPPED = "the command was stopped";

// The pacing of back-to-back host calls, shared with the JavaScript backend's host (run 34, fixer JL).
export { HOST_BUSY_SLICE_MS, HOST_IDLE_GAP_MS } from "../../util/host-room.js";

/**
 * `host`, whose calls also abort `controller` when the host refuses them
 * because it stopped the command (timeout, kill): just-bash goes on after a
 * failed redirect, so a loop of refused writes would otherwise run on until
 * the host's kill reaches this isolate, which under load can be after the
 * loop ended.
 *
 * Calls are also paced: workerd hands a Durable Object a new request (a
 * fresh stub's call, `fetch`, an alarm, a timer, `ctx.abort()` from another
 * request) only when the object is idle, and a command calling the host
 * back to back (a loop of reads or writes) never lets it be. So every
 * {@link HOST_BUSY_SLICE_MS} of calls the shell waits {@link HOST_IDLE_GAP_MS}
 * before the next one (issue 20: a reset object waited for a loop without
 * `timeoutMs` forever, and a new client waited for any loop to end).
 */
function stopOnRefusal(host: ShellHost, controller: AbortController): ShellHost {
  const room = new HostRoom(); // run 34, fixer JL: shared with the JavaScript backend (src/util/host-room.ts)
  return new Proxy(host, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function" || typeof key !== "string" || key === "then") return value;
      return async (...args: unknown[]) => {
        const gap = room.pace(); // run 34, fixer JL
        if (gap) await gap; // run 34, fixer JL
        try {
          // Called as a method of `target` (an RPC stub has no `.apply`: that would be a remote method).
          return await (target as unknown as Record<string, (...a: unknown[]) => unknown>)[key]!(...args);
        } catch (err) {
          if (String((err as Error | undefined)?.message ?? err).includes(STOPPED)) controller.abort(new Error("Execution was stopped"));
          throw err;
        }
      };
    },
  });
}

/**
 * `command` (a just-bash custom command: `{ name, execute }`, or lazy
 * `{ name, load }`) with the adapter's listed contents dropped
 * ({@link WorkspaceFsAdapter.forgetPrefetched}) before it runs and after it
 * ends, so a read after it sees what it wrote on the host (`git checkout`,
 * `artifacts`, …) rather than a copy taken by an earlier listing. Anything
 * else is returned as it is (just-bash reports it).
 */
function forgettingPrefetched(fs: WorkspaceFsAdapter, command: unknown): unknown {
  if (command === null || typeof command !== "object") return command;
  const c = command as { execute?: unknown; load?: unknown };
  if (typeof c.execute === "function") {
    const execute = c.execute as (...args: unknown[]) => unknown;
    return {
      ...c,
      name: (c as { name?: unknown }).name,
      async execute(...args: unknown[]) {
        fs.forgetPrefetched();
        try {
          return await execute.apply(command, args);
        } finally {
          fs.forgetPrefetched();
        }
      },
    };
  }
  if (typeof c.load === "function") {
    const load = c.load as () => unknown;
    return { ...c, name: (c as { name?: unknown }).name, load: async () => forgettingPrefetched(fs, await load.call(command)) };
  }
  return command;
}

/**
 * Runs `input.source` in a fresh just-bash shell over the host's Workspace,
 * sends stdout then stderr through `host.output`, and resolves with the exit
 * code. A timeout stops the command cooperatively (the host has already
 * answered 124); `killShell(id)` likewise (130).
 */
export async function runShell(load: () => Promise<JustBash>, input: ExecInput, host: ShellHost, workerOptions: ShellWorkerOptions = {}): Promise<{ exitCode: number; timedOut?: boolean }> {
  const { Bash } = await load();
  const controller = new AbortController();
  running.set(input.id, controller);
  const timer = input.timeoutMs > 0 ? setTimeout(() => controller.abort(new Error("Execution timed out")), input.timeoutMs) : undefined;
  try {
    const guarded = stopOnRefusal(host, controller);
    const fs = new WorkspaceFsAdapter(guarded, {
      readBytes: (path, maxBytes) => guarded.readBytes(path, maxBytes),
      listWithContents: (path, options) => (options === undefined ? guarded.listWithContents(path) : guarded.listWithContents(path, options)),
      appendBytes: (path, bytes) => guarded.appendBytes(path, bytes),
      // just-bash finds a command through /usr/bin: list every name it may run, the custom ones included.
      // The commands it cannot run (input.unavailable) are not listed: `command -v jq`, `type`, `which` and
      // `[ -x /usr/bin/jq ]` do not find them, as bash without them.
      commands: [
        ...input.commands,
        "assets",
        "git",
        "artifacts",
        "mktemp",
        "realpath",
        "cmp",
        "truncate", // GZ
        ...(workerOptions.customCommands ?? []).flatMap((c) => {
          const name = (c as { name?: unknown } | null)?.name;
          return typeof name === "string" ? [name] : [];
        }),
      ],
    });
    // unavailableCommands: read by the patched just-bash constructor (scripts/gen-shell.mjs, CZ_PATCHES).
    const options: ConstructorParameters<typeof BashClass>[0] & { unavailableCommands?: Record<string, string> } = {
      fs,
      cwd: input.cwd,
      env: { HOME: "/workspace", PWD: input.cwd, ...input.env },
      // curl, python and js-exec are switched on by their own options, not by `commands`.
      commands: input.commands.filter((name) => !SEPARATE.has(name)) as never,
      python: input.commands.includes("python3"),
      javascript: input.commands.includes("js-exec"),
      // Not registered as commands either; running one answers its message, status 127, when the PATH lookup
      // found nothing (scripts/gen-shell.mjs, CZ_PATCHES; isolate/lookup-date-gzip.ts).
      unavailableCommands: input.unavailable,
      customCommands: [
        // These change the Workspace on the host, not through `fs`: what listings brought along is dropped around them.
        forgettingPrefetched(fs, defineAssetsCommand({ publish: (path, ms) => host.publish(path, ms) })),
        forgettingPrefetched(fs, defineGitCommand({ git: (args, cwd, options) => host.git(args, cwd, options) })),
        forgettingPrefetched(fs, defineArtifactsCommand({ artifacts: (args, cwd, options) => host.artifacts(args, cwd, options) })),
        // grep -r/-R and tar -c over links as GNU walks them (a link to . or .. no longer loops).
        ...walkingCommands(fs, input.commands),
        // mktemp as GNU coreutils 9.1 (just-bash has none).
        mktempCommand,
        // realpath (GNU coreutils 9.1) and cmp (GNU diffutils 3.8): just-bash has neither.
        realpathCommand,
        cmpCommand,
        // truncate as GNU coreutils 9.1 (just-bash has none); a file past the read bound is cut through a range read. // GZ
        defineTruncateCommand(async (path, length) => { // GZ
          const real = await fs.physicalPath(path, "open"); // a `..` after a link, as the adapter walks it (fixer DD, run 35)
          const head = await (guarded.readFile as (p: string, o: unknown) => Promise<Uint8Array | ReadableStream<Uint8Array>>)(real, { byteOffset: 0, byteLength: length }); // GZ, fixer DD
          return isByteStream(head) ? readStreamBytes(head) : new Uint8Array(head as Uint8Array); // GZ
        }), // GZ
        ...(workerOptions.customCommands ?? []).map((command) => forgettingPrefetched(fs, command)),
      ] as never,
      // The Dynamic Worker is the sandbox; just-bash's in-process hardening needs Node module hooks workerd lacks.
      defenseInDepth: false,
      // A deadline inside just-bash too: it checks it between commands, so a CPU-bound loop that
      // never calls the host (and so never meets the host's own check) still stops on time.
      // Archives (tar -x/-t, with -z/-j/-J/--zstd) decompress to at most ARCHIVE_LIMIT_BYTES in all and per member,
      // the shell's read bound: a 200 KB tar.gz holding 200 MiB of zeros is refused (`Archive too large`, status 2)
      // instead of being inflated in the isolate's memory and written out.
      executionLimits: {
        maxOutputSize: input.maxOutputBytes,
        maxArchiveBytes: ARCHIVE_LIMIT_BYTES,
        maxArchiveEntryBytes: ARCHIVE_LIMIT_BYTES,
        maxArchiveCompressedBytes: ARCHIVE_LIMIT_BYTES,
        // Tree walks (find, grep -r, rg, du, ls -R, cp -r, chmod -R) go as deep as a Workspace path can (isolate/deep-walks.ts).
        maxTraversalDepth: MAX_WALK_DEPTH,
        // Brace expansion makes at most 100,000 words (`{1..100000}`; just-bash's default is 10,000); one more stops the
        // line with `bash: brace expansion result limit exceeded (100000)`, status 126, never a cut list (fixer SD, run 33).
        maxBraceExpansionResults: BRACE_EXPANSION_WORDS, // fixer SD, run 33
        ...(input.timeoutMs > 0 ? { maxExecutionTimeMs: Math.ceil(input.timeoutMs) } : {}),
      },
    };
    if (input.network) {
      options.network = { dangerouslyAllowFullInternetAccess: true };
      options.fetch = shellFetch(input.egress) as never;
    }
    const bash = new Bash(options);
    const execOptions: Parameters<BashClass["exec"]>[1] = { signal: controller.signal };
    // A request past 16 MiB brings stdin as a stream of its bytes (one RPC value may not pass 32 MiB): read it whole.
    const stdin = isByteStream(input.stdin) ? await readStreamBytes(input.stdin) : input.stdin;
    if (stdin.byteLength > 0) {
      let latin1 = "";
      for (let i = 0; i < stdin.byteLength; i += 8192) latin1 += String.fromCharCode(...stdin.subarray(i, i + 8192));
      execOptions.stdin = latin1;
      execOptions.stdinKind = "bytes";
    }
    // In a { … } group, just-bash hands back the output made before an abort (timeout, kill);
    // at the top level it drops it. The source starts on the group's first line, so line numbers
    // ($LINENO, "bash: line N: …") are the caller's; GROUP_END's two newlines close a trailing comment
    // or line continuation (`echo a \` with one newline was a syntax error), and a here-document left
    // open stops before it (isolate/heredoc-eof.ts; run 40, fixer f40sh). GROUP_START sets BASH_VERSINFO on that
    // first line too, readonly, to match the BASH_VERSION just-bash reports (5.1.0(1)-release).
    let result: Awaited<ReturnType<BashClass["exec"]>>;
    try {
      result = await bash.exec(`${GROUP_START}${input.source}${GROUP_END}`, execOptions);
    } catch (err) {
      // just-bash rejects (rather than printing) when, for example, a redirect target cannot be opened.
      await send(host, "stderr", encoder.encode(`bash: ${err instanceof Error ? err.message : String(err)}\n`));
      return { exitCode: 1 };
    }
    const kinds = result as { stdoutKind?: string; stderrKind?: string };
    let stderr = result.stderr;
    // The host says why a stopped command ended (timeout, kill); drop just-bash's generic line.
    if (controller.signal.aborted && stderr.endsWith(ABORTED_LINE)) stderr = stderr.slice(0, -ABORTED_LINE.length);
    // just-bash's own deadline (executionLimits.maxExecutionTimeMs): the host reports it as a timeout.
    const deadline = DEADLINE_LINE.exec(stderr);
    if (deadline) stderr = stderr.slice(0, deadline.index);
    await send(host, "stdout", toBytes(result.stdout, kinds.stdoutKind));
    await send(host, "stderr", toBytes(stderr, kinds.stderrKind));
    if (deadline) return { exitCode: 124, timedOut: true };
    return { exitCode: Number.isInteger(result.exitCode) ? result.exitCode : 1 };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (running.get(input.id) === controller) running.delete(input.id);
  }
}
