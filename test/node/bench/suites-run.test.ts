/**
 * `npm run bench` runs every suite to the end: a suite that throws is reported as FAILED and the
 * command exits 1 (bench/README.md). Found at the start of the 21st attack session: the durable
 * suite's storage query still named a column that had moved to another table (`no such column:
 * payload`), and nothing in `npm test` ran the benchmarks. This runs them all once — figures are not
 * checked here (speed is measured by `npm run bench`, not by tests; the machine is shared): only that
 * every suite ran and printed its rows.
 */
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = `${resolve(import.meta.dirname, "../../..")}/`;

describe("npm run bench", () => {
  it("runs every suite: exit 0, no FAILED suite, a targets line", async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, ["bench/run.mjs"], { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 840_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
    const summary = stdout.slice(stdout.lastIndexOf("targets:"));
    expect(summary, stderr.slice(-4000)).toMatch(/^targets: \d+ PASS, \d+ MISS\n/);
    expect(summary).not.toContain("FAILED");
    expect(code, stdout.slice(-4000)).toBe(0);
    // Each suite printed at least one row of the table.
    const suites = readdirSync(`${root}bench/suites`).filter((name) => name.endsWith(".ts") && !name.endsWith(".d.ts")).map((name) => name.slice(0, -3));
    expect(suites.length).toBeGreaterThanOrEqual(12);
    for (const suite of suites) {
      expect(stdout, suite).toMatch(new RegExp(`^${suite} +\\S`, "m"));
    }
  }, 900_000);
});
