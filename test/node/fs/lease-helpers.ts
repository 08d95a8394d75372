/**
 * Shared by the lease tests (read-leases, staged-leases): a child Node
 * process that opens a Workspace on the same database file as the test.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";

const root = resolve(import.meta.dirname, "../../..");

/**
 * Bundles the library into `dir` and writes `dir/name`: a script that opens
 * `workspace` over `storage` (the database file it is given) and runs `body`.
 * Returns `run(file)`, which runs the script on `file` and resolves with its stdout.
 */
export async function childWorkspaceScript(dir: string, name: string, body: string): Promise<(file: string) => Promise<string>> {
  const bundle = join(dir, "agent-computer.mjs");
  await build({
    entryPoints: [join(root, "src/index.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    external: ["cloudflare:*"],
    outfile: bundle,
    logLevel: "silent",
  });
  const child = join(dir, name);
  writeFileSync(
    child,
    `const { Workspace, nodeSqliteStorage } = await import(process.argv[2]);
       const storage = nodeSqliteStorage(process.argv[3]);
       const workspace = new Workspace({ storage });
       ${body}`,
  );
  return async (file) => (await promisify(execFile)(process.execPath, [child, bundle, file], { cwd: root })).stdout;
}
