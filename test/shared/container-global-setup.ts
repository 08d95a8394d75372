/**
 * vitest global setup (both projects): starts the local container host of
 * `container/local-host.mjs` (issue 17: the container platform played by local
 * processes, no Docker engine) in vitest's main process, with its containers
 * under a fresh temp directory, and hands its base URL
 * (`http://127.0.0.1:<port>`) to the tests as `inject("containerHost")` (works
 * on Node and inside workerd). Teardown stops every daemon and removes the
 * directory. The API and the relay: container/README.md, "Local development
 * without Docker".
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startLocalHost } from "../../container/local-host.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the local container host (`http://127.0.0.1:<port>`), issue 17 tests. */
    containerHost: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "container-host-"));
  const host = await startLocalHost({ root });
  project.provide("containerHost", host.url);
  return async () => {
    await host.close();
    fs.rmSync(root, { recursive: true, force: true });
  };
}
