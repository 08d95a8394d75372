/**
 * Issue 20, run 39, fixer JD: the cases of js-callback-errors-and-inflight.test.ts (the JavaScript backend, in
 * workerd) and of test/node/fix39/js-callback-errors-node-reference.test.ts (the same bodies run by Node 22, which
 * must give `expected`): one table, so the runtime is held to what Node does.
 *
 * Each `body` is a module whose default export the runner calls; `DIR` in it stands for a scratch directory
 * (`/workspace/<case>` in a run, a temporary directory under Node). Node runs it as
 *   node -e "import('./t.mjs').then(async m => { const v = await m.default(); console.log('VALUE=' + JSON.stringify(v)); })"
 * and its outcome is `{ exitCode, stdout (without the VALUE line), boom: stderr holds "Error: boom", value (the
 * VALUE line's, else undefined), files (written in DIR, sorted) }`.
 */
export interface CallbackCase {
  name: string;
  body: string;
  expected: { exitCode: number; stdout: string; boom: boolean; value: unknown; files: string[] };
}

const sleep = `await new Promise((r) => setTimeout(r, 100));`;
/** After the callback should have crashed the run: more output and a file, neither of which may appear. */
const tail = `${sleep} console.log("after"); await writeFile(DIR + "/after.txt", "x"); return "v";`;
const head = `import { writeFile } from "node:fs/promises";`;
const crashed = (stdout = "a\n") => ({ exitCode: 1, stdout, boom: true, value: undefined, files: [] });

/** A throw in every kind of callback the platform calls, each ending the run with exit 1 and its stack, as Node. */
export const THROW_CASES: CallbackCase[] = [
  { name: "global-setTimeout", body: `${head} export default async () => { console.log("a"); setTimeout(() => { throw new Error("boom"); }, 0); ${tail} }`, expected: crashed() },
  { name: "global-setInterval", body: `${head} export default async () => { console.log("a"); const h = setInterval(() => { clearInterval(h); throw new Error("boom"); }, 1); ${tail} }`, expected: crashed() },
  { name: "global-setImmediate", body: `${head} export default async () => { console.log("a"); setImmediate(() => { throw new Error("boom"); }); ${tail} }`, expected: crashed() },
  { name: "timers-setTimeout", body: `${head} import { setTimeout as st } from "node:timers"; export default async () => { console.log("a"); st(() => { throw new Error("boom"); }, 0); ${tail} }`, expected: crashed() },
  { name: "timers-setInterval", body: `${head} import { setInterval as si, clearInterval as ci } from "timers"; export default async () => { console.log("a"); const h = si(() => { ci(h); throw new Error("boom"); }, 1); ${tail} }`, expected: crashed() },
  { name: "timers-setImmediate", body: `${head} import { setImmediate as sim } from "node:timers"; export default async () => { console.log("a"); sim(() => { throw new Error("boom"); }); ${tail} }`, expected: crashed() },
  { name: "timers-default", body: `${head} import timers from "node:timers"; export default async () => { console.log("a"); timers.setImmediate(() => { throw new Error("boom"); }); ${tail} }`, expected: crashed() },
  { name: "abort-timeout-listener", body: `${head} export default async () => { console.log("a"); AbortSignal.timeout(1).addEventListener("abort", () => { throw new Error("boom"); }); ${tail} }`, expected: crashed() },
  { name: "abort-timeout-onabort", body: `${head} export default async () => { console.log("a"); AbortSignal.timeout(1).onabort = () => { throw new Error("boom"); }; ${tail} }`, expected: crashed() },
  // The code's own abort(): it returns, the rest of the synchronous code runs, then the run ends.
  { name: "abort-controller", body: `${head} export default async () => { console.log("a"); const c = new AbortController(); c.signal.addEventListener("abort", () => { throw new Error("boom"); }); c.signal.addEventListener("abort", () => console.log("second")); c.abort(); console.log("sync " + c.signal.aborted); ${tail} }`, expected: crashed("a\nsecond\nsync true\n") },
  { name: "abort-controller-onabort-from-timer", body: `${head} export default async () => { console.log("a"); const c = new AbortController(); c.signal.onabort = () => { throw new Error("boom"); }; setTimeout(() => { c.abort(); console.log("aborted"); }, 1); ${tail} }`, expected: crashed("a\naborted\n") },
  { name: "event-target-dispatch", body: `${head} export default async () => { console.log("a"); const t = new EventTarget(); t.addEventListener("x", () => { throw new Error("boom"); }); t.addEventListener("x", () => console.log("second")); console.log("dispatched " + t.dispatchEvent(new Event("x"))); ${tail} }`, expected: crashed("a\nsecond\ndispatched true\n") },
  { name: "event-target-handle-event", body: `${head} export default async () => { console.log("a"); const t = new EventTarget(); t.addEventListener("x", { handleEvent() { throw new Error("boom"); } }); setTimeout(() => t.dispatchEvent(new Event("x")), 1); ${tail} }`, expected: crashed() },
  { name: "queueMicrotask", body: `${head} export default async () => { console.log("a"); queueMicrotask(() => { throw new Error("boom"); }); ${tail} }`, expected: crashed() },
  { name: "nextTick", body: `${head} export default async () => { console.log("a"); process.nextTick(() => { throw new Error("boom"); }); ${tail} }`, expected: crashed() },
];

const done = (stdout: string, value: unknown, files: string[] = ["after.txt"]) => ({ exitCode: 0, stdout, boom: false, value, files });

/** Neighbours that must not crash: removed listeners, `once`, a caught throw in the code's own call, promisify. */
export const QUIET_CASES: CallbackCase[] = [
  { name: "removed-listener", body: `${head} export default async () => { const t = new EventTarget(); const l = () => { throw new Error("boom"); }; t.addEventListener("x", l); t.removeEventListener("x", l); t.dispatchEvent(new Event("x")); const s = AbortSignal.timeout(1); const m = { handleEvent() { throw new Error("boom"); } }; s.addEventListener("abort", m); s.removeEventListener("abort", m); s.onabort = () => { throw new Error("boom"); }; s.onabort = null; ${tail} }`, expected: done("after\n", "v") },
  { name: "once-and-onabort-get", body: `${head} export default async () => { const t = new EventTarget(); let n = 0; t.addEventListener("x", () => { n++; }, { once: true }); t.dispatchEvent(new Event("x")); t.dispatchEvent(new Event("x")); const c = new AbortController(); const f = () => {}; c.signal.onabort = f; console.log(n, c.signal.onabort === f); ${tail} }`, expected: done("1 true\nafter\n", "v") },
  { name: "promisify-timers", body: `${head} import util from "node:util"; import timers from "node:timers"; export default async () => { const a = await util.promisify(setTimeout)(1, "t"); const b = await util.promisify(setImmediate)("i"); const c = await util.promisify(timers.setTimeout)(1, "nt"); const d = await util.promisify(timers.setImmediate)("ni"); const ac = new AbortController(); ac.abort(); const e = await util.promisify(setTimeout)(1, "x", { signal: ac.signal }).catch((err) => err.name + " " + err.code); console.log(a, b, c, d, e); ${tail} }`, expected: done("t i nt ni AbortError ABORT_ERR\nafter\n", "v") },
];

/** Exit codes out of 0..255, as Node's (the low 8 bits). */
export const EXIT_CASES: CallbackCase[] = [
  { name: "exit-minus-1", body: `export default async () => { console.log("a"); process.exit(-1); }`, expected: { exitCode: 255, stdout: "a\n", boom: false, value: undefined, files: [] } },
  { name: "exit-258", body: `export default async () => { console.log("a"); process.exit(258); }`, expected: { exitCode: 2, stdout: "a\n", boom: false, value: undefined, files: [] } },
  { name: "exitCode-256", body: `export default async () => { console.log("a"); process.exitCode = 256; return "v"; }`, expected: { exitCode: 0, stdout: "a\n", boom: false, value: "v", files: [] } },
  { name: "exitCode-minus-2", body: `export default async () => { console.log("a"); process.exitCode = -2; }`, expected: { exitCode: 254, stdout: "a\n", boom: false, value: undefined, files: [] } },
];

/** Host calls the code leaves running after output when the export returns: every file lands (all onInterrupt modes). */
export const INFLIGHT_CASES: CallbackCase[] = [
  { name: "chain-after-log", body: `${head} export default async () => { writeFile(DIR + "/b", "x").then(() => { console.log("one"); return writeFile(DIR + "/c", "y"); }).then(() => { console.error("two"); return writeFile(DIR + "/d", "z"); }); return "v"; }`, expected: { exitCode: 0, stdout: "one\n", boom: false, value: "v", files: ["b", "c", "d"] } },
  { name: "loop-after-log", body: `${head} export default async () => { (async () => { for (let i = 0; i < 6; i++) { console.log("n" + i); await writeFile(DIR + "/n" + i, String(i)); } })(); return "v"; }`, expected: { exitCode: 0, stdout: "n0\nn1\nn2\nn3\nn4\nn5\n", boom: false, value: "v", files: ["n0", "n1", "n2", "n3", "n4", "n5"] } },
  { name: "log-then-call-at-return", body: `${head} import { mkdir } from "node:fs/promises"; export default async () => { console.log("x".repeat(50000)); mkdir(DIR + "/m").then(() => writeFile(DIR + "/m/f", "1")); return "v"; }`, expected: { exitCode: 0, stdout: "x".repeat(50000) + "\n", boom: false, value: "v", files: ["m", "m/f"] } },
];
