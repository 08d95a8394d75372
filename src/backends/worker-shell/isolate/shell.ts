/**
 * The main module of the shell's Dynamic Worker (`shell.js`, spec 02 §6):
 * the `ShellWorker` entrypoint the host calls once per command. esbuild
 * bundles it with just-bash into the command groups (scripts/gen-shell.mjs);
 * it is never imported by the host.
 *
 * @module
 */
import { WorkerEntrypoint } from "cloudflare:workers";
import * as justBash from "just-bash";
import type { ExecInput, ShellHost } from "../types.js";
import { killShell, runShell } from "../worker.js";

const load = () => Promise.resolve(justBash);

/** Runs shell commands over the host Workspace it is handed with each call. */
export class ShellWorker extends WorkerEntrypoint {
  /** Runs one command; output goes to `host.output`. */
  async exec(input: ExecInput, host: ShellHost): Promise<{ exitCode: number; timedOut?: boolean }> {
    return runShell(load, input, host);
  }

  /** Asks the command `id` to stop. */
  kill(id: string): void {
    killShell(id);
  }
}

export default ShellWorker;
