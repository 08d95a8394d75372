/**
 * Issue 20, run 39, fixer JD: the reference side of test/workers/fix39/js-callback-errors-and-inflight.test.ts — each
 * case of test/workers/fix39/js-callback-cases.ts run by Node 22 (the `node` on PATH, as the workers test cannot
 * start a process) must give the `expected` outcome the workers test holds the JavaScript backend to.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { EXIT_CASES, INFLIGHT_CASES, QUIET_CASES, THROW_CASES, type CallbackCase } from "../../workers/fix39/js-callback-cases.js";

const scratch = mkdtempSync(join(tmpdir(), "fix39-jd-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function runNode(c: CallbackCase) {
  const dir = join(scratch, c.name);
  rmSync(dir, { recursive: true, force: true });
  execFileSync("mkdir", ["-p", dir]);
  const file = join(scratch, c.name + ".mjs");
  writeFileSync(file, c.body.replaceAll("DIR", JSON.stringify(dir)));
  const r = spawnSync("node", ["-e", `import(${JSON.stringify(file)}).then(async m => { const v = await m.default(); console.log('VALUE=' + JSON.stringify(v)); })`], { encoding: "utf8", timeout: 30_000 });
  const lines = r.stdout.split("\n");
  const at = lines.findIndex((l) => l.startsWith("VALUE="));
  const text = at >= 0 ? lines[at].slice(6) : "undefined";
  const value = text === "undefined" ? undefined : JSON.parse(text);
  // Node prints the VALUE line when the export settles: output of calls it left running may follow it.
  const stdout = at >= 0 ? [...lines.slice(0, at), ...lines.slice(at + 1)].join("\n") : r.stdout;
  const files = (readdirSync(dir, { recursive: true }) as string[]).map(String).sort();
  return { exitCode: r.status, stdout, boom: r.stderr.includes("Error: boom"), value, files };
}

it("Node 22 gives each case's expected outcome", () => {
  expect(execFileSync("node", ["--version"], { encoding: "utf8" })).toMatch(/^v22\./);
  const cases = [...THROW_CASES, ...QUIET_CASES, ...EXIT_CASES, ...INFLIGHT_CASES];
  const got = Object.fromEntries(cases.map((c) => [c.name, runNode(c)]));
  expect(got).toEqual(Object.fromEntries(cases.map((c) => [c.name, c.expected])));
}, 120_000);
