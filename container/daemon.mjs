#!/usr/bin/env node
// @ts-check
/**
 * computerd — the daemon inside the container image (and a plain local process for development
 * and tests). Reads its settings from the environment (README.md), listens, and prints one JSON
 * line to stdout once listening: {"computerd":"listening","host":…,"port":…,"pid":…,"mountPoint":…}.
 * SIGTERM / SIGINT: SIGKILL every running command's process group, close, exit 0.
 * SIGUSR1 is ignored: by default it opens Node's inspector (a debugger any local process could
 * connect to and run code in the daemon), and the daemon's commands can signal it (README.md,
 * "What commands can reach"). The image also starts node with `--disable-sigusr1`.
 */
import { readConfig, takeSecret } from "./lib/config.mjs";
import { startDaemon } from "./lib/server.mjs";

process.on("SIGUSR1", () => {});

let config;
try {
  config = readConfig(takeSecret(process.env));
} catch (err) {
  console.error(`computerd: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(2);
}
const daemon = await startDaemon(config);
process.stdout.write(JSON.stringify({ computerd: "listening", host: config.host, port: daemon.port, pid: process.pid, mountPoint: config.mountPoint }) + "\n");

let stopping = false;
/** @param {NodeJS.Signals} sig */
const stop = (sig) => {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`computerd: ${sig}, stopping\n`);
  const force = setTimeout(() => process.exit(0), 2000);
  force.unref();
  daemon.close().then(() => process.exit(0));
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
