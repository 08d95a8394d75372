import { mkdtempSync, promises as real, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

/** node:fs's promises API, as the provider (`ws.provider()`) offers it. */
export type NodeFsPromises = typeof real;

/**
 * Runs `run` twice — on node:fs in a fresh temp dir (Linux, the oracle) and on a fresh Workspace's provider under
 * `/w` — and returns both answers, for a test to compare exactly. The temp dir is removed afterwards.
 */
export async function onLinuxAndProvider<T>(run: (fs: NodeFsPromises, base: string) => Promise<T>): Promise<{ linux: T; provider: T }> {
  const tmp = mkdtempSync(join(tmpdir(), "linux-oracle-"));
  let linux: T;
  try {
    linux = await run(real, tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const ws = new Workspace({ storage: nodeSqliteStorage() });
  await ws.ready();
  await ws.fs.mkdir("/w");
  return { linux, provider: await run(ws.provider() as unknown as NodeFsPromises, "/w") };
}
