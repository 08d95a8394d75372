/**
 * Shared pieces of the artifacts tests: a fixed-clock stand-in binding, a CLI
 * runner, and a `remoteAdd` seam implemented with the real `git` in a
 * scratch repository (what the shell's built-in does with its own git).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ArtifactClient, ArtifactsCLIResult, RemoteAddFn } from "../../../src/artifacts/index.js";
import { ArtifactsStandIn, type ArtifactsStandInOptions } from "../../shared/artifacts-standin.js";

/** 2026-01-01T00:00:00Z: every stand-in timestamp and token expiry derives from it. */
export const NOW = Date.parse("2026-01-01T00:00:00.000Z");

/** A stand-in binding on the fixed clock. */
export function standIn(options: ArtifactsStandInOptions = {}): ArtifactsStandIn {
  return new ArtifactsStandIn({ now: () => NOW, ...options });
}

/** `client.cli({ argv })`. */
export function run(client: ArtifactClient, ...argv: string[]): Promise<ArtifactsCLIResult> {
  return client.cli({ argv });
}

const scratch: string[] = [];

/** A fresh directory, removed by {@link cleanup}. */
export function tempDir(prefix = "artifacts-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** Removes every {@link tempDir}. */
export function cleanup(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

const GIT_ENV = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_TERMINAL_PROMPT: "0",
  GIT_AUTHOR_NAME: "Test Author",
  GIT_AUTHOR_EMAIL: "author@example.com",
  GIT_COMMITTER_NAME: "Test Committer",
  GIT_COMMITTER_EMAIL: "committer@example.com",
  GIT_AUTHOR_DATE: "@1767225600 +0000",
  GIT_COMMITTER_DATE: "@1767225600 +0000",
  LANG: "C",
  LC_ALL: "C",
};

/** The real `git <args>` in `cwd`. */
export function git(cwd: string, ...args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" });
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** A scratch repository made by the real `git init -b main`. */
export function gitRepo(): string {
  const dir = tempDir("artifacts-git-");
  const r = git(dir, "init", "-q", "-b", "main");
  if (r.status !== 0) throw new Error(`git init failed: ${r.stderr}`);
  return dir;
}

/**
 * The `remoteAdd` seam of spec 04 §3.5, with the real git at `dir`: unless
 * `force`, a listed remote → `{ ok: false, exists: true }`; then (after
 * removing the old remote when forced, as real git has no `remote add
 * --force`) `git remote add <name> <url>`; non-zero → `{ ok: false, message }`.
 */
export function gitRemoteAdd(dir: string): RemoteAddFn {
  return async ({ name, url, force }) => {
    if (!force) {
      const listed = git(dir, "remote");
      if (listed.stdout.split("\n").includes(name)) return { ok: false, exists: true };
    } else {
      git(dir, "remote", "remove", name);
    }
    const added = git(dir, "remote", "add", name, url);
    if (added.status !== 0) return { ok: false, message: added.stderr.trim() || added.stdout.trim() };
    return { ok: true };
  };
}
