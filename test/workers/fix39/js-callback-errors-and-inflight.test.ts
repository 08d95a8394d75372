/**
 * Issue 20, run 39, fixer JD: the neighbourhood of attack39b's three findings on the JavaScript backend's run
 * lifetime (test/workers/attack39b/js-node-timers-throw-swallowed.test.ts,
 * js-abort-timeout-listener-throw-swallowed.test.ts, js-replay-unawaited-call-after-output-dropped.test.ts).
 *
 * Every case of ./js-callback-cases.ts — a throw in each kind of callback the platform calls (global and
 * `node:timers` / `timers` timers, intervals, immediates, `AbortSignal.timeout` listeners and `onabort`, the code's
 * own `abort()` and `dispatchEvent`, a `handleEvent` object, `queueMicrotask`, `process.nextTick`), the neighbours
 * that must not crash (removed listeners, `once`, the `onabort` getter, `util.promisify` of the timers), exit codes
 * out of 0..255, and host calls left running after output when the export returns — is run here in live
 * (`onInterrupt: "fail"`) and replay runs (and "restart" for the host calls), and must give the outcome Node 22
 * gives: test/node/fix39/js-callback-errors-node-reference.test.ts runs the same bodies with `node` and checks the
 * same `expected` table. One difference on purpose: a run's value is JSON, so Node's VALUE line is the result's
 * `value` here.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";
import type { Workspace } from "../../../src/index.js";
import { EXIT_CASES, INFLIGHT_CASES, QUIET_CASES, THROW_CASES, type CallbackCase } from "./js-callback-cases.js";

type Mode = "fail" | "restart" | "replay";

async function files(ws: Workspace, dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await ws.fs.readdir(dir)) {
    out.push(prefix + e.name);
    if (e.isDirectory) out.push(...(await files(ws, dir + "/" + e.name, prefix + e.name + "/")));
  }
  return out.sort();
}

async function runCases(cases: CallbackCase[], modes: Mode[]) {
  return inWorkspace(async (ws) => {
    const got: Record<string, unknown> = {};
    const want: Record<string, unknown> = {};
    for (const c of cases) for (const mode of modes) {
      const key = `${c.name}-${mode}`;
      const dir = `/workspace/${key}`;
      await ws.fs.mkdir(dir, { recursive: true });
      const source = c.body.replaceAll("DIR", JSON.stringify(dir));
      const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 10_000, onInterrupt: mode })).result();
      got[key] = { exitCode: r.exitCode, stdout: r.stdout, boom: r.stderr.includes("Error: boom"), value: r.value, files: await files(ws, dir) };
      want[key] = c.expected;
    }
    return { got, want };
  });
}

it("a throw in any callback the platform calls ends the run with exit 1 and its stack, as Node 22 (live and replay runs)", async () => {
  const { got, want } = await runCases(THROW_CASES, ["fail", "replay"]);
  expect(got).toEqual(want);
});

it("removed listeners, once, the onabort getter and util.promisify of the timers behave as Node 22", async () => {
  const { got, want } = await runCases(QUIET_CASES, ["fail", "replay"]);
  expect(got).toEqual(want);
});

it("exit codes out of 0..255 keep their low 8 bits, as Node 22", async () => {
  const { got, want } = await runCases(EXIT_CASES, ["fail", "replay"]);
  expect(got).toEqual(want);
});

it("host calls left running after output when the export returns all land, in every onInterrupt mode", async () => {
  const { got, want } = await runCases(INFLIGHT_CASES, ["fail", "restart", "replay"]);
  expect(got).toEqual(want);
});
