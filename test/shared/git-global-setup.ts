/**
 * vitest global setup (both projects): starts the loopback smart-HTTP git
 * server of `git-server.ts` in vitest's main process and hands its
 * {@link GitServerInfo} to the tests as `inject("gitServer")` (works on Node
 * and inside workerd). Read it through `gitServer()` in `git-remote.ts`.
 */
import type { TestProject } from "vitest/node";
import { startGitServer, type GitServerInfo } from "./git-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The loopback git server (issue 15 tests); `null` when it could not start (message in `gitServerError`). */
    gitServer: GitServerInfo | null;
    /** Why the git server did not start (e.g. `git` not installed); `""` when it runs. */
    gitServerError: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  try {
    const server = await startGitServer();
    project.provide("gitServer", server.info);
    project.provide("gitServerError", "");
    return () => server.close();
  } catch (error) {
    // Only the git tests need it: they fail with this message; every other test runs.
    project.provide("gitServer", null);
    project.provide("gitServerError", `the loopback git server did not start (is Debian's git installed?): ${String(error)}`);
    return async () => {};
  }
}
