/**
 * vitest global setup (workers project): runs every case of test/shared/jq-cases.ts with the real jq (Debian's jq
 * 1.6, through bash 5.2) in a temp directory holding `JQ_FILES`, in vitest's main process, and hands the results to
 * the workerd tests as `inject("jqReference")`: `{ [command]: { stdout, exitCode } }`, or null where jq is not
 * installed outside CI (the comparison is then skipped; under CI a missing jq fails the run: .ci/run installs it).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { JQ_CASES, JQ_FILES } from "./jq-cases.js";

/** One command's result: its stdout (UTF-8) and exit status. */
export interface JqReferenceResult {
  stdout: string;
  exitCode: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The real jq's result for each case of test/shared/jq-cases.ts, or null when jq is missing (not under CI). */
    jqReference: Record<string, JqReferenceResult> | null;
  }
}

function hasJq(): boolean {
  try {
    execFileSync("jq", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export default function setup(project: TestProject): void {
  if (!hasJq()) {
    if (process.env.CI) throw new Error("jq-global-setup: jq is not installed; .ci/run installs Debian's jq (apt-get install jq)");
    project.provide("jqReference", null);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "jq-reference-"));
  try {
    for (const [name, text] of Object.entries(JQ_FILES)) writeFileSync(join(dir, name), text);
    const results: Record<string, JqReferenceResult> = {};
    for (const command of JQ_CASES) {
      try {
        const stdout = execFileSync("bash", ["-c", command], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 });
        results[command] = { stdout, exitCode: 0 };
      } catch (e) {
        const failed = e as { stdout?: string; status?: number | null };
        results[command] = { stdout: failed.stdout ?? "", exitCode: failed.status ?? -1 };
      }
    }
    project.provide("jqReference", results);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
