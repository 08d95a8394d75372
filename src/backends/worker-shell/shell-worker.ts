/**
 * `ShellWorker` for the host entry: the same entrypoint the shell's Dynamic
 * Worker runs (isolate/shell.ts), for running the shell yourself — export it
 * from a Worker and hand it to `source: { type: "external-runtime" }`. It
 * loads just-bash (an optional peer dependency) with `import()` on its first
 * command, so importing this module never needs just-bash.
 *
 * @module
 */
import type { ExecInput, ShellHost, ShellWorkerOptions } from "./types.js";
import { killShell, runShell, type JustBash } from "./worker.js";
import { workersExport } from "../../util/workers-runtime.js";

type EntrypointConstructor = abstract new (ctx: unknown, env: unknown) => object;

async function loadBase(): Promise<EntrypointConstructor> {
  const base = await workersExport("WorkerEntrypoint");
  if (base) return base as EntrypointConstructor;
  return class {
    constructor(_ctx?: unknown, _env?: unknown) {}
  };
}

/** `WorkerEntrypoint` under workerd, else an empty class (chosen once, when this module loads). */
const ShellWorkerBase: EntrypointConstructor = await loadBase();

let justBash: Promise<JustBash> | undefined;
/** just-bash, imported once; rejects with what to install when it is missing. */
function load(): Promise<JustBash> {
  justBash ??= import("just-bash").catch((err: unknown) => {
    justBash = undefined;
    throw new Error(`ShellWorker needs the optional peer dependency just-bash (npm install just-bash): ${err instanceof Error ? err.message : String(err)}`);
  }) as Promise<JustBash>;
  return justBash;
}

/**
 * Runs shell commands (just-bash) over the Workspace it is handed with each
 * call (spec 02 §6). Under workerd it is a `WorkerEntrypoint`; elsewhere a
 * plain class with the same methods.
 */
export class ShellWorker extends ShellWorkerBase {
  /** Runs one command; output goes to `host.output`; resolves with its exit code. */
  async exec(input: ExecInput, host: ShellHost): Promise<{ exitCode: number; timedOut?: boolean }> {
    return runShell(load, input, host, this.options());
  }

  /** Options for every command: override in a subclass (for example to add `customCommands`). Default: `{}`. */
  protected options(): ShellWorkerOptions {
    return {};
  }

  /** Asks the command `id` to stop at its next step. */
  kill(id: string): void {
    killShell(id);
  }
}
