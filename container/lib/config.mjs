// @ts-check
import fs from "node:fs";
import path from "node:path";
import picomatch from "picomatch";
import { DaemonError } from "./errors.mjs";

/**
 * The daemon's settings, read once from the environment at start (see README.md, "Environment").
 * @typedef {object} DaemonConfig
 * @property {string} host interface to listen on (`HOST`, default `0.0.0.0`)
 * @property {number} port TCP port (`PORT`, default 8080; 0 picks a free port)
 * @property {string} mountPoint absolute directory commands run in and sync works on (`MOUNT_POINT`, default `/workspace`)
 * @property {string[]} ignore ignore globs as given (`MOUNT_IGNORE`)
 * @property {string | undefined} secret bearer secret (`COMPUTERD_SECRET`, or the file `COMPUTERD_AUTH_FILE` names: {@link takeSecret});
 *   unset → the first authenticated `POST /connect` sets it
 * @property {number} defaultTimeoutMs command timeout when `exec` gives none (`COMPUTERD_TIMEOUT_MS`, default 320000)
 * @property {number} killGraceMs SIGTERM → SIGKILL grace (`COMPUTERD_KILL_GRACE_MS`, default 5000)
 * @property {number} logRetentionMs how long a finished run's log is kept (`COMPUTERD_LOG_RETENTION_MS`, default 600000)
 * @property {number} logMaxRuns how many finished runs are kept (`COMPUTERD_LOG_MAX_RUNS`, default 100)
 * @property {number} logMaxBytes output bytes kept per run, oldest dropped first (`COMPUTERD_LOG_MAX_BYTES`, default 8 MiB)
 */

/**
 * Read an integer setting.
 * @param {NodeJS.ProcessEnv} env
 * @param {string} name
 * @param {number} dflt
 * @param {number} min
 * @returns {number}
 */
function intSetting(env, name, dflt, min) {
  const raw = env[name];
  if (raw === undefined || raw === "") return dflt;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min) throw new DaemonError("EINVAL", `${name} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * Parse `MOUNT_IGNORE`: a JSON array of strings when it starts with `[`, else a list separated by
 * commas or newlines (blank items dropped).
 * @param {string | undefined} raw
 * @returns {string[]}
 */
export function parseIgnore(raw) {
  if (raw === undefined || raw.trim() === "") return [];
  const text = raw.trim();
  if (text.startsWith("[")) {
    /** @type {unknown} */
    let list;
    try {
      list = JSON.parse(text);
    } catch {
      throw new DaemonError("EINVAL", "MOUNT_IGNORE starts with [ but is not a JSON array");
    }
    if (!Array.isArray(list) || !list.every((g) => typeof g === "string")) throw new DaemonError("EINVAL", "MOUNT_IGNORE must be a JSON array of strings");
    return list.filter((g) => g.trim() !== "");
  }
  return text.split(/[,\n]/).map((g) => g.trim()).filter((g) => g !== "");
}

/**
 * Take the bearer secret out of the environment so the daemon's commands cannot read it: when
 * `COMPUTERD_AUTH_FILE` names a file, read it (its bytes as UTF-8, a trailing newline dropped),
 * delete it, and return `env` with `COMPUTERD_SECRET` set to its text; then delete
 * `COMPUTERD_AUTH_FILE` and `COMPUTERD_SECRET` from `env` itself (in place: pass `process.env`),
 * so commands, which inherit the daemon's environment, get neither. The file is the only way that
 * also keeps the secret out of `/proc/<daemon pid>/environ` (the environment the process started
 * with, readable by every process of the same user, whatever `process.env` says later).
 * @param {NodeJS.ProcessEnv} env
 * @returns {NodeJS.ProcessEnv} a copy of `env` as it was, with `COMPUTERD_SECRET` from the file
 * @throws {DaemonError} `EINVAL` when `COMPUTERD_AUTH_FILE` is set and cannot be read
 */
export function takeSecret(env) {
  const copy = { ...env };
  const file = env.COMPUTERD_AUTH_FILE;
  if (file !== undefined && file !== "") {
    let text;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (err) {
      throw new DaemonError("EINVAL", `COMPUTERD_AUTH_FILE ${JSON.stringify(file)} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
    }
    try {
      fs.unlinkSync(file);
    } catch {}
    copy.COMPUTERD_SECRET = text.replace(/\r?\n$/, "");
  }
  delete copy.COMPUTERD_AUTH_FILE;
  delete env.COMPUTERD_AUTH_FILE;
  delete env.COMPUTERD_SECRET;
  return copy;
}

/**
 * @param {NodeJS.ProcessEnv} env
 * @returns {DaemonConfig}
 */
export function readConfig(env) {
  return {
    host: env.HOST || "0.0.0.0",
    port: intSetting(env, "PORT", 8080, 0),
    mountPoint: path.resolve(env.MOUNT_POINT || "/workspace"),
    ignore: parseIgnore(env.MOUNT_IGNORE),
    secret: env.COMPUTERD_SECRET || undefined,
    defaultTimeoutMs: intSetting(env, "COMPUTERD_TIMEOUT_MS", 320_000, 0),
    killGraceMs: intSetting(env, "COMPUTERD_KILL_GRACE_MS", 5_000, 0),
    logRetentionMs: intSetting(env, "COMPUTERD_LOG_RETENTION_MS", 600_000, 0),
    logMaxRuns: intSetting(env, "COMPUTERD_LOG_MAX_RUNS", 100, 0),
    logMaxBytes: intSetting(env, "COMPUTERD_LOG_MAX_BYTES", 8 * 1024 * 1024, 64 * 1024),
  };
}

/**
 * Compile ignore globs into a predicate over absolute container paths. Globs are matched with
 * picomatch (`dot: true`, regex flag `s`) against the absolute path (`/workspace/a/node_modules`); a
 * glob starting with `!` re-includes; the last glob that matches decides. Flag `s`: picomatch builds
 * `**` on `.`, which without it stops at a line terminator (`\n`, `\r`, U+2028, U+2029), so `**`
 * would not cross a directory named `a\nb` — the host's matcher (runtime/sync.ts `ignoreMatcher`)
 * crosses it, and the two must agree.
 * @param {string[]} globs
 * @returns {(absPath: string) => boolean}
 */
export function ignoreMatcher(globs) {
  const rules = globs.map((g) => {
    const negate = g.startsWith("!");
    return { negate, test: picomatch(negate ? g.slice(1) : g, { dot: true, flags: "s" }) };
  });
  if (rules.length === 0) return () => false;
  return (absPath) => {
    let ignored = false;
    for (const r of rules) if (r.test(absPath)) ignored = !r.negate;
    return ignored;
  };
}
