import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { quietTestLogs } from "./test/quiet-logs.js";

quietTestLogs();

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
        },
      },
    ],
  },
});
