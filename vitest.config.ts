import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { quietTestLogs } from "./test/quiet-logs.js";

quietTestLogs();
// The shell's command groups (src/shell/generated/, git-ignored) are built from just-bash; the
// script returns at once when they are up to date. `npm test` runs it too (pretest).
execFileSync(process.execPath, ["scripts/gen-shell.mjs"], { cwd: import.meta.dirname, stdio: "inherit" });

/**
 * Workers test files that touch state every file of the run shares: the local R2 buckets
 * (`ASSETS_BUCKET`, `MOUNT_BUCKET`) and the Durable Objects that wrap them. They list or count a
 * bucket's objects, so they run isolated (fresh storage per file); every other workers file makes
 * its own Durable Object and shares nothing.
 */
const SHARED_STATE = /\b(?:ASSETS_BUCKET|MOUNT_BUCKET|CLIENT_ASSETS_AGENT|MOUNT_AGENT)\b/;
/** The test files under `dir`, as paths from the repository root with `/` separators. */
const testFiles = (dir: string) =>
  (readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith(".test.ts")).map((name) => join(dir, name).replaceAll("\\", "/"));
const workersFiles = testFiles("test/workers");
const workersIsolated = [
  ...workersFiles.filter((file) => SHARED_STATE.test(readFileSync(file, "utf8"))),
  // Sends a 2·10^7-element holey array over RPC (~2 s of workerd's time): failed twice in a shared isolate
  // (2026-12-07, its run's value undefined), never isolated.
  "test/workers/attack16a/replay-call-args-stringified-before-admission.test.ts",
];

/**
 * Node test files whose bounds are on CPU time, memory growth or an event-loop stall: beside another
 * file they went past them (2026-12-07: hostile-run's grep calls took 2.2–2.4 s of CPU beside
 * another file, 1.0–1.5 s alone; a git diff's heap growth 176+ MiB, 100–150 MiB alone), and past
 * them in a process that earlier files had left a heap in (scout16's heap growth, attack35b's CPU
 * time, one file at a time but not isolated). So they run isolated, one at a time, after the other
 * Node files, with the workers files. Found by what they measure (process.cpuUsage/threadCpuUsage/
 * memoryUsage, attack6's `peak`), and two by name.
 */
const TIMED = /\b(?:cpuUsage|threadCpuUsage|memoryUsage)\b|attack6\/memory\.js|from "\.\/memory\.js"/;
const nodeSerial = [
  ...testFiles("test/node").filter((file) => TIMED.test(readFileSync(file, "utf8"))),
  "test/node/attack6/edit-batch-size.test.ts",
  "test/node/attack17c/container-push-removals-quadratic.test.ts",
];

const nodeProject = (name: string, test: { include: string[]; exclude?: string[]; isolate: boolean; maxWorkers: number; groupOrder: number }) => ({
  test: {
    name,
    include: test.include,
    exclude: test.exclude,
    isolate: test.isolate,
    maxWorkers: test.maxWorkers,
    sequence: { groupOrder: test.groupOrder },
    environment: "node",
    testTimeout: 60_000,
    // Hooks remove scratch trees (10,000 files, 50 MiB files): 10 s was too short on a loaded machine.
    hookTimeout: 60_000,
    // The loopback smart-HTTP git server (issue 15): inject("gitServer"), see test/shared/git-remote.ts.
    // The local container host (issue 17): inject("containerHost"), see container/README.md.
    globalSetup: ["./test/shared/git-global-setup.ts", "./test/shared/container-global-setup.ts"],
  },
});

const workersProject = (name: string, test: { include: string[]; exclude?: string[]; isolate: boolean }) => ({
  plugins: [
    cloudflareTest({
      main: "./test/workers/worker.ts",
      wrangler: { configPath: "./test/workers/wrangler.toml" },
    }),
  ],
  test: {
    name,
    ...test,
    // After the Node files (groupOrder 1), one file at a time: its tests time the Worker's own CPU work (replay,
    // relaunch slots, admission gaps), and two workerd processes at once on 2 cores stretched them past their
    // bounds (2026-12-07: three such failures in one run, none with one file at a time).
    maxWorkers: 1,
    sequence: { groupOrder: 1 },
    testTimeout: 120_000,
    globalSetup: ["./test/shared/git-global-setup.ts", "./test/shared/http-global-setup.ts", "./test/shared/container-global-setup.ts", "./test/shared/jq-global-setup.ts"],
  },
});

// Two suites: fast logic on Node (node:sqlite storage) and the platform suite inside real workerd
// (Durable Object SQLite, Worker Loader, RPC).
//
// CI time (stop 49 ran past CI's 5,400 s): files are not isolated from each other — isolated, each
// file evaluated the library and its dependencies again (~3 s a workers file, ~1 s a Node file,
// 1,220 files) — and two Node files run at once (vitest's default on a 2-core machine is one), but
// for the few whose bounds are on CPU time or memory (nodeSerial).
// Tests keep their state to themselves: a fresh Durable Object, a fresh temp dir or ":memory:"
// database, servers on port 0; the few workers files on shared buckets run isolated.
export default defineConfig({
  test: {
    projects: [
      nodeProject("node", { include: ["test/node/**/*.test.ts"], exclude: nodeSerial, isolate: false, maxWorkers: 2, groupOrder: 0 }),
      nodeProject("node-serial", { include: nodeSerial, isolate: true, maxWorkers: 1, groupOrder: 1 }),
      workersProject("workers", { include: ["test/workers/**/*.test.ts"], exclude: workersIsolated, isolate: false }),
      workersProject("workers-isolated", { include: workersIsolated, isolate: true }),
    ],
  },
});
