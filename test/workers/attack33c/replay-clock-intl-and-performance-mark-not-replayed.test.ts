/**
 * Issue 20, thirty-third attack run: a replay run's clock is virtual for `Date`, `Date()`, `performance.now()` and
 * `performance.timeOrigin` (docs/runtime.md "What a replay run gets back": they "replay identically"), but two other
 * readers of the current time still see the real one — `Intl.DateTimeFormat#format()` / `formatToParts()` with no
 * date (the usual "print the time" form next to `toLocaleString()`), and `performance.mark(name).startTime` (which
 * workerd gives in epoch ms). A replay run that prints either before the Durable Object restarts cannot resume:
 * the resumed attempt prints a different time and the run fails `The execution took a different path when it
 * resumed after an interruption: it printed different output on stdout (byte N differs).` — the durable run (and,
 * after a wait, its approval) is lost, although docs/runtime.md lists only `crypto.subtle.generateKey` and
 * `cloudflare:sockets` as not replayed.
 * Tried: replay runs (`onInterrupt: "replay"`) printing, before a host call in flight (`ws:side hold`), each of:
 * `new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle, timeStyle }).format()`, `.formatToParts()`,
 * `performance.mark("m").startTime`, `new Event("x").timeStamp`, `new Date().toLocaleTimeString(...)`,
 * `Intl.DateTimeFormat().resolvedOptions().timeZone`, a timer id, and module-scope `Math.random()` / `Date.now()`;
 * each object restarted with `ctx.abort()` 2.5 s later. In Node 22 `Intl.DateTimeFormat().format()` formats
 * `Date.now()` (the same instant `new Date()` reads), so under the virtual clock it must print what the first
 * attempt printed.
 * Held: module-scope `Math.random()` / `Date.now()` (the seed and clock are installed before the module is
 * evaluated), `toLocaleTimeString()` of `new Date()`, `Event#timeStamp` (0), the timer id and `resolvedOptions()`
 * replay identically and those runs complete.
 * Found (medium — a replay run that prints the time with Intl or marks a span with performance.mark() is failed by
 * any restart instead of resuming, so its work and any pending approval are lost; 3 of 3 runs): the first attempt
 * printed `now Dec 6, 2026, 3:27:18 AM / 2026-12-06T03:27:18.345Z`, the resumed one a later time: failed, exit 1,
 * `… (byte 23 differs)`; `performance.mark("m").startTime` 1796527680253 then a later value: failed (byte 15 here; 25 in a JSON line).
 * Suggested fix: src/backends/worker-javascript/isolate/workspace-durable.js, where the clock is installed: wrap
 * `Intl.DateTimeFormat.prototype.format` and `formatToParts` (a getter-bound `format`) so an `undefined` date reads
 * `clock`; wrap `performance.mark` / `performance.measure` so a mark without `startTime` gets `performance.now()`
 * (the virtual one) — or list both in the docs' "Not replayed" sentence.
 *
 * Fixed: src/backends/worker-javascript/isolate/workspace-durable.js installs, in replay runs, an
 * `Intl.DateTimeFormat.prototype.format` getter and `formatToParts` that read the replayed clock for an `undefined`
 * date, and `performance.mark` / `performance.measure` that use the replayed `performance.now()` where workerd reads
 * its clock (issue 20, run 33, fixer RC). Siblings: test/workers/fix33/replay-clock-timers.test.ts.
 */
import { describe, expect, it } from "vitest";
import { durable, restart, resultOf, sleep, start } from "../durable/helpers.js";

const INTL = `import { hold } from "ws:side";
export default async () => {
  const f = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "medium", timeStyle: "medium" }).format();
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", hour: "numeric", minute: "numeric", second: "numeric" })
    .formatToParts().map((p) => p.value).join("");
  console.log("now " + f + " | " + parts);
  await hold("intl", 60000, 0);
  return f + " | " + parts;
};`;

const MARK = `import { hold } from "ws:side";
export default async () => {
  const start = performance.mark("start").startTime;
  console.log("mark " + start);
  await hold("mark", 60000, 0);
  return "mark " + start;
};`;

async function interrupted(source: string, id: string) {
  const { stub, fresh } = durable();
  await start(stub, source, { id, onInterrupt: "replay" });
  // the line is printed and journaled, and `hold` is in flight (60 s on its first invocation)
  await sleep(2500);
  await restart(stub);
  return resultOf(fresh(), id);
}

describe("a replay run resumed after a restart reads the replayed clock everywhere", () => {
  it("Intl.DateTimeFormat#format() / formatToParts() with no date: the run resumes and completes", { timeout: 120_000 }, async () => {
    const r = (await interrupted(INTL, "intl")) as { status: string; exitCode: number; stdout: string; stderr: string; value?: string };
    // Was: failed, exit 1, stderr `The execution took a different path when it resumed after an interruption: it
    // printed different output on stdout (byte 23 differs).`
    expect({ status: r.status, exitCode: r.exitCode, stderr: r.stderr }).toEqual({ status: "completed", exitCode: 0, stderr: "" });
    expect(r.stdout).toMatch(/^now [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2}\s[AP]M \| \d{1,2}:\d{2}:\d{2}\s[AP]M\n$/);
    expect(r.stdout).toBe(`now ${r.value}\n`);
  });

  it("performance.mark(name).startTime: the run resumes and completes", { timeout: 120_000 }, async () => {
    const r = (await interrupted(MARK, "mark")) as { status: string; exitCode: number; stdout: string; stderr: string; value?: string };
    // Was: failed, exit 1, `… it printed different output on stdout (byte 15 differs).` (startTime is epoch ms, real clock)
    expect({ status: r.status, exitCode: r.exitCode, stderr: r.stderr }).toEqual({ status: "completed", exitCode: 0, stderr: "" });
    expect(r.stdout).toBe(`${r.value}\n`);
  });
});
