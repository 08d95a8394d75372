/** Runs an example Worker in local workerd (wrangler's startWorker / Miniflare). */
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

export const REPO = resolve(import.meta.dirname, "../../..");

export interface RunningExample {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  dispose(): Promise<void>;
}

/** Options of {@link startExample}. */
export interface StartExampleOptions {
  /** Plain-text vars given to the Worker; they win over `vars`/`.dev.vars`. Default none. */
  vars?: Record<string, string>;
  /** Whether wrangler runs the config's containers (needs Docker). Default: the config's `dev.enable_containers`. */
  enableContainers?: boolean;
}

/** Starts `examples/<name>` with no model keys (so its model is scripted) and fresh local state. */
export async function startExample(name: string, options: StartExampleOptions = {}): Promise<RunningExample> {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
  const { unstable_startWorker } = await import("wrangler");
  const persist = await mkdtemp(join(tmpdir(), `example-${name}-`));
  const worker = await unstable_startWorker({
    config: join(REPO, "examples", name, "wrangler.toml"),
    dev: { server: { port: 0 }, inspector: false, logLevel: "error", persist, ...(options.enableContainers !== undefined ? { enableContainers: options.enableContainers } : {}) },
    ...(options.vars ? { bindings: Object.fromEntries(Object.entries(options.vars).map(([key, value]) => [key, { type: "plain_text" as const, value }])) } : {}),
  });
  await worker.ready;
  return {
    fetch: (path, init) => worker.fetch(`http://example${path}`, init as never) as unknown as Promise<Response>,
    async dispose() {
      await worker.dispose();
      await rm(persist, { recursive: true, force: true });
    },
  };
}

/**
 * `wrangler deploy --dry-run --outdir <tmp>` for an example, plus `args`
 * (e.g. `--containers-rollout=none`: no image build, so no Docker); returns the files it wrote.
 */
export async function dryRunBuild(name: string, args: string[] = []): Promise<{ files: string[]; output: string }> {
  const outdir = await mkdtemp(join(tmpdir(), `dry-run-${name}-`));
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(REPO, "node_modules/wrangler/bin/wrangler.js"), "deploy", "--dry-run", "--outdir", outdir, "--config", join(REPO, "examples", name, "wrangler.toml"), ...args],
      { cwd: REPO, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" }, maxBuffer: 16 << 20 },
    );
    return { files: (await readdir(outdir)).sort(), output: stdout + stderr };
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}
