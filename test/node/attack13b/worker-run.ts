/**
 * Helper for the attack13b Node tests: runs a script against the Workspace
 * source in a worker thread (bundled with esbuild), so a call that holds the
 * CPU synchronously for a long time can be shown by a bounded wait in the
 * test's own thread (a timer there still fires) and then stopped.
 */
import { build } from "esbuild";
import { Worker } from "node:worker_threads";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const SRC = resolve(import.meta.dirname, "../../../src/index.ts");
/** The source of `agent-computer/git` (createGitClient), for scripts that use git. */
export const GIT_SRC = resolve(import.meta.dirname, "../../../src/git/index.ts");

/** What {@link runInWorker} saw: the messages posted, and whether the script finished within the bound. */
export interface WorkerRun {
  messages: unknown[];
  settled: boolean;
  error?: string;
}

/**
 * Runs `body` (TypeScript: an async module body where `Workspace`,
 * `nodeSqliteStorage` and `post(value)` are in scope, after the import lines
 * `prelude`) in a worker thread; waits at most `boundMs` for it to post
 * `"done"`, then terminates it.
 */
export async function runInWorker(body: string, boundMs: number, prelude = ""): Promise<WorkerRun> {
  const dir = mkdtempSync(join(tmpdir(), "attack13b-"));
  try {
    const entry = join(dir, "entry.ts");
    writeFileSync(
      entry,
      `import { parentPort } from "node:worker_threads";
import { Workspace, nodeSqliteStorage } from ${JSON.stringify(SRC)};
${prelude}
const post = (value: unknown) => parentPort!.postMessage(value);
void Workspace; void nodeSqliteStorage;
try {
${body}
post("done");
} catch (error) { post({ error: String((error as Error)?.message ?? error) }); post("done"); }
`,
    );
    const out = join(dir, "out.mjs");
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: out,
      logLevel: "error",
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    });
    const worker = new Worker(out);
    const messages: unknown[] = [];
    let error: string | undefined;
    const settled = await new Promise<boolean>((done) => {
      const timer = setTimeout(() => done(false), boundMs);
      worker.on("message", (message) => {
        if (message === "done") {
          clearTimeout(timer);
          done(true);
        } else messages.push(message);
      });
      worker.on("error", (e) => {
        error = String(e);
        clearTimeout(timer);
        done(true);
      });
    });
    await worker.terminate();
    return { messages, settled, error };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
