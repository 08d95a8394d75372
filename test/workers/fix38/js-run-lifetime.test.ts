/**
 * Issue 20, run 38, fixer JR: the neighbourhood of attack38j's four findings on the JavaScript backend's run
 * lifetime (isolate/workspace-runtime-runner.js, isolate/workspace-capabilities.js): `process.exit` and uncaught
 * exceptions outside the export's awaited chain, host calls left running when the export returns, and the
 * callbacks of `process.stdout.write`.
 *
 * Expected values are Node 22.23.3's, recorded on this machine with each body below saved as `t.mjs` and run as
 *   node -e "import('/tmp/jr/t.mjs').then(async m => { const v = await m.default(); console.log('VALUE=' + JSON.stringify(v)); })"
 * in a scratch directory (paths relative there instead of /workspace):
 *   try { process.exit(4) } catch {}; console.log("after")      → exit 4, stdout "", no after.txt
 *   setInterval exiting at its 2nd tick (5)                     → exit 5, stdout "tick1\ntick2\n"
 *   setTimeout(() => process.exit(0))                           → exit 0, stdout "a\n" (here: completed, value null)
 *   process.nextTick(() => process.exit(6))                     → exit 6, stdout ""
 *   setTimeout(() => { throw "plain" })                         → exit 1, stderr holds "plain", stdout ""
 *   process.nextTick(() => { throw new TypeError("tick boom") }) → exit 1, stderr holds "TypeError: tick boom"
 *   Promise.reject(new Error("r1")) not handled, then a sleep   → exit 1, stdout "a\n" (Node prints the stack; here
 *                                                                   "Unhandled rejection: r1", docs/runtime.md)
 *   stdout.write("68690a", "hex"), ("aGkK", "base64"), cb args  → stdout "hi\nhi\nz\n[null]\n", value "v"
 *   stdout.write("x\n", () => { throw new Error("cb boom") })   → exit 1, stdout "x\n", stderr holds "Error: cb boom"
 *   unawaited mkdir(d).then(write x).then(write y) + unawaited loop of 20 awaited writes → all land, exit 0
 *   unawaited readFile("missing.txt")                           → exit 1, ENOENT on stderr (Node prints the value
 *                                                                   first: it crashes after the export returned)
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";
import type { Workspace } from "../../../src/index.js";

const run = async (ws: Workspace, source: string) => {
  const r = await (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 10_000 })).result();
  return { status: r.status, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, value: r.value };
};
const exists = (ws: Workspace, p: string) => ws.fs.stat(p).then(() => true, () => false);

it("process.exit anywhere ends the run at the call, with its code, as in Node 22", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const caught = await run(ws,
      `import { writeFile } from "node:fs/promises";
       export default async () => { try { process.exit(4) } catch {} console.log("after"); await writeFile("/workspace/after.txt", "x"); return "v"; }`);
    const caughtWrote = await exists(ws, "/workspace/after.txt");
    const interval = await run(ws,
      `export default async () => { let n = 0; setInterval(() => { n++; console.log("tick" + n); if (n === 2) process.exit(5); }, 5);
         await new Promise((r) => setTimeout(r, 300)); console.log("after"); return "v"; }`);
    const zero = await run(ws,
      `export default async () => { console.log("a"); setTimeout(() => process.exit(0), 5); await new Promise((r) => setTimeout(r, 200)); console.log("after"); return "v"; }`);
    const tick = await run(ws,
      `export default async () => { process.nextTick(() => process.exit(6)); await new Promise((r) => setTimeout(r, 50)); console.log("after"); return "v"; }`);
    return { caught, caughtWrote, interval, zero, tick };
  });
  expect(out).toEqual({
    caught: { status: "failed", exitCode: 4, stdout: "", stderr: "", value: undefined },
    caughtWrote: false,
    interval: { status: "failed", exitCode: 5, stdout: "tick1\ntick2\n", stderr: "", value: undefined },
    zero: { status: "completed", exitCode: 0, stdout: "a\n", stderr: "", value: null },
    tick: { status: "failed", exitCode: 6, stdout: "", stderr: "", value: undefined },
  });
});

it("an exception uncaught in a timer, a nextTick or a write callback, or an unhandled rejection, ends the run with exit 1", async () => {
  const out = await inWorkspace(async (ws) => {
    const plain = await run(ws,
      `export default async () => { setTimeout(() => { throw "plain"; }, 5); await new Promise((r) => setTimeout(r, 100)); console.log("after"); return "v"; }`);
    const tick = await run(ws,
      `export default async () => { process.nextTick(() => { throw new TypeError("tick boom"); }); await new Promise((r) => setTimeout(r, 50)); console.log("after"); return "v"; }`);
    const rejection = await run(ws,
      `export default async () => { console.log("a"); Promise.reject(new Error("r1")); await new Promise((r) => setTimeout(r, 50)); console.log("after"); return "v"; }`);
    const callback = await run(ws,
      `export default async () => { process.stdout.write("x\\n", () => { throw new Error("cb boom"); }); await new Promise((r) => setTimeout(r, 50)); console.log("after"); return "v"; }`);
    const pick = (r: Awaited<ReturnType<typeof run>>, text: string) => ({ status: r.status, exitCode: r.exitCode, stdout: r.stdout, has: r.stderr.includes(text), value: r.value });
    return {
      plain: pick(plain, "plain"),
      tick: pick(tick, "TypeError: tick boom"),
      rejection: { ...pick(rejection, "r1"), stderr: rejection.stderr },
      callback: pick(callback, "Error: cb boom"),
    };
  });
  expect(out).toEqual({
    plain: { status: "failed", exitCode: 1, stdout: "", has: true, value: undefined },
    tick: { status: "failed", exitCode: 1, stdout: "", has: true, value: undefined },
    rejection: { status: "failed", exitCode: 1, stdout: "a\n", has: true, stderr: "Unhandled rejection: r1\n", value: undefined },
    callback: { status: "failed", exitCode: 1, stdout: "x\n", has: true, value: undefined },
  });
});

it("host calls started but not awaited when the export returns run to the end, and their failures are seen", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const landed = await run(ws,
      `import { writeFile, mkdir } from "node:fs/promises";
       export default async () => {
         mkdir("/workspace/d").then(() => writeFile("/workspace/d/x.txt", "xx")).then(() => writeFile("/workspace/d/y.txt", "yyy"));
         (async () => { for (let i = 0; i < 20; i++) await writeFile("/workspace/n" + i, String(i)); })();
         return "v";
       }`);
    const files = await ws.fs.readdir("/workspace");
    const y = await ws.fs.readFile("/workspace/d/y.txt", "utf8");
    const n19 = await ws.fs.readFile("/workspace/n19", "utf8");
    const missing = await run(ws,
      `import { readFile } from "node:fs/promises";
       export default async () => { readFile("/workspace/missing.txt"); return "v"; }`);
    return { landed, count: files.length, y, n19, missing: { status: missing.status, exitCode: missing.exitCode, enoent: missing.stderr.startsWith("Unhandled rejection: ") && missing.stderr.includes("ENOENT") } };
  });
  expect(out).toEqual({
    landed: { status: "completed", exitCode: 0, stdout: "", stderr: "", value: "v" },
    count: 21, // d and n0..n19
    y: "yyy",
    n19: "19",
    missing: { status: "failed", exitCode: 1, enoent: true },
  });
});

it("process.stdout.write decodes its encoding and calls its callback with null", async () => {
  const out = await inWorkspace((ws) =>
    run(ws,
      `export default async () => {
         process.stdout.write("68690a", "hex");
         process.stdout.write("aGkK", "base64");
         await new Promise((r) => process.stdout.write("z\\n", (...a) => { console.log(JSON.stringify(a)); r(); }));
         return "v";
       }`));
  expect(out).toEqual({ status: "completed", exitCode: 0, stdout: "hi\nhi\nz\n[null]\n", stderr: "", value: "v" });
});

it("ws: host calls follow the same rule: unawaited ones finish, none after process.exit reaches the host", async () => {
  const seen: string[] = [];
  const modules = {
    "ws:rec": {
      rec: async (what: unknown) => {
        await new Promise((r) => setTimeout(r, 20));
        seen.push(String(what)); // a host function gets the call's arguments as one array
        return what;
      },
    },
  };
  const out = await inWorkspace(
    async (ws) => {
      const chained = await run(ws, `import { rec } from "ws:rec"; export default async () => { rec("a").then(() => rec("b")).then(() => rec("c")); return "v"; }`);
      const afterChain = [...seen];
      seen.length = 0;
      const exited = await run(ws, `import { rec } from "ws:rec"; export default async () => { await rec("before"); try { process.exit(3); } catch {} rec("after"); return "v"; }`);
      await new Promise((r) => setTimeout(r, 100));
      return { chained, afterChain, exited, afterExit: [...seen] };
    },
    { backend: { modules } },
  );
  expect(out).toEqual({
    chained: { status: "completed", exitCode: 0, stdout: "", stderr: "", value: "v" },
    afterChain: ["a", "b", "c"],
    exited: { status: "failed", exitCode: 3, stdout: "", stderr: "", value: undefined },
    afterExit: ["before"],
  });
});
