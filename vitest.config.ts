import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { execFileSync } from "node:child_process";
import { quietTestLogs } from "./test/quiet-logs.js";

quietTestLogs();
// The shell's command groups (src/shell/generated/, git-ignored) are built from just-bash; the
// script returns at once when they are up to date. `npm test` runs it too (pretest).
execFileSync(process.execPath, ["scripts/gen-shell.mjs"], { cwd: import.meta.dirname, stdio: "inherit" });

// Two suites: fast logic on Node (node:sqlite storage) and the platform suite
// inside real workerd (Durable Object SQLite, Worker Loader, RPC).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          // Hooks remove scratch trees (10,000 files, 50 MiB files): 10 s was too short on a loaded machine.
          hookTimeout: 60_000,
          // The loopback smart-HTTP git server (issue 15): inject("gitServer"), see test/shared/git-remote.ts.
          // The local container host (issue 17): inject("containerHost"), see container/README.md.
          globalSetup: ["./test/shared/git-global-setup.ts", "./test/shared/container-global-setup.ts"],
        },
      },
      {
        plugins: [
          cloudflareTest({
            main: "./test/workers/worker.ts",
            wrangler: { configPath: "./test/workers/wrangler.toml" },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/workers/**/*.test.ts"],
          testTimeout: 120_000,
          globalSetup: ["./test/shared/git-global-setup.ts", "./test/shared/http-global-setup.ts", "./test/shared/container-global-setup.ts", "./test/shared/jq-global-setup.ts"],
        },
      },
    ],
  },
});
