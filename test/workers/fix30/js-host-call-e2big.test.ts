/**
 * Issue 20, run 30, fixer E2: siblings of attack30a/js-node-fs-write-past-32mib-uncoded — a JavaScript run's host
 * call (node:fs, a `ws:` module) whose arguments or answer pass workerd's 32 MiB RPC limit fails `E2BIG`, never
 * with workerd's uncoded `Serialized RPC arguments …` error, and nothing is written or run.
 *
 * - Default limits: the isolate measures the arguments as the host does (src/runtime/json-value.ts `measure`) and
 *   refuses with the host's exact message, for a string, bytes and a `ws:` module call; the run goes on.
 * - `maxCapabilityBytes` raised past 32 MiB but the run's `maxCapabilityRequestBytes` not: the host's run-budget
 *   message, as a 9 MiB write gets from the host.
 * - Both raised: a request within them but past what crosses RPC is refused `E2BIG` naming the call; an answer past
 *   it (readFile of a 40 MiB file, a host function returning 40 MiB) is refused by the host `E2BIG`.
 * - A replay run (`onInterrupt: "replay"`) refuses the same way.
 * - The run's own RPC calls: with `maxInputBytes`/`maxStdinBytes` raised, `exec` of a 40 MiB `input` or `stdin`
 *   rejects RangeError `E2BIG` before anything runs (as the shell backend's exec); with `maxResultBytes` raised, a
 *   40 MiB result fails the run with a message saying so (before: workerd's text, the run failed uncoded).
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const MiB = 1024 * 1024;

/** The code's `attempt(label, fn)` records `[code, message]` of a failure, or "ok". */
const ATTEMPT = `const out = {};
async function attempt(label, fn) {
  try { const v = await fn(); out[label] = typeof v === "string" ? "ok " + v.length : "ok"; }
  catch (e) { out[label] = [e.name, e.code ?? null, String(e.message).replace(/was: \\d+ bytes/, "was: N bytes")]; }
}`;

describe("fix30 E2: host calls past workerd's 32 MiB RPC limit fail E2BIG", () => {
  it("default limits: the host's message, measured in the isolate, for node:fs and a ws: module; nothing written or run", { timeout: 180_000 }, async () => {
    let ran = 0;
    const result = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        const h = await ws.runtime.exec(
          `import { writeFile, readdir } from "node:fs/promises";
           import { f } from "ws:m";
           ${ATTEMPT}
           export default async function () {
             await attempt("text", () => writeFile("a.txt", "x".repeat(40 * ${MiB})));
             await attempt("bytes", () => writeFile("b.bin", new Uint8Array(40 * ${MiB})));
             await attempt("twoByte", () => writeFile("c.txt", "\u00e9".repeat(20 * ${MiB})));
             await attempt("module", () => f({ big: "y".repeat(33 * ${MiB}) }));
             await attempt("small", () => writeFile("d.txt", "fine"));
             out.files = await readdir(".");
             return out;
           }`,
          { timeoutMs: 120_000 },
        );
        const r = await h.result();
        return { status: r.status, value: r.value, files: (await ws.fs.readdir("/workspace")).map((e) => e.name) };
      },
      { backend: { modules: { "ws:m": { f: () => (ran++, "ran") } } } },
    );
    expect(result).toEqual({
      status: "completed",
      value: {
        text: ["Error", "E2BIG", `host call request is ${8 + 5 + 40 * MiB} bytes, over maxCapabilityBytes (1048576)`],
        bytes: ["Error", "E2BIG", `host call request is ${8 + 5 + 40 * MiB} bytes, over maxCapabilityBytes (1048576)`],
        twoByte: ["Error", "E2BIG", `host call request is ${8 + 5 + 40 * MiB} bytes, over maxCapabilityBytes (1048576)`],
        module: ["Error", "E2BIG", `host call request is ${8 + 8 + 3 + 33 * MiB} bytes, over maxCapabilityBytes (1048576)`],
        small: "ok",
        files: ["d.txt"],
      },
      files: ["d.txt"],
    });
    expect(ran).toBe(0);
  });

  it("maxCapabilityBytes raised, the run's request budget not: the host's budget message, as for 9 MiB", { timeout: 180_000 }, async () => {
    const result = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        const h = await ws.runtime.exec(
          `import { writeFile } from "node:fs/promises";
           ${ATTEMPT}
           export default async function () {
             await attempt("nine", () => writeFile("a.txt", "x".repeat(9 * ${MiB})));
             await attempt("forty", () => writeFile("b.txt", "x".repeat(40 * ${MiB})));
             return out;
           }`,
          { timeoutMs: 120_000 },
        );
        const r = await h.result();
        return { status: r.status, value: r.value, files: (await ws.fs.readdir("/workspace")).map((e) => e.name) };
      },
      { backend: { maxCapabilityBytes: 64 * MiB } },
    );
    const budget = ["Error", "E2BIG", "host call requests exceed maxCapabilityRequestBytes (8388608) for this run"];
    expect(result).toEqual({ status: "completed", value: { nine: budget, forty: budget }, files: [] });
  });

  it("all limits raised: a request or an answer past what crosses RPC is refused E2BIG; 20 MiB each way works", { timeout: 240_000 }, async () => {
    let ran = 0;
    const result = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        await ws.fs.writeFile("/workspace/big.txt", "z".repeat(40 * MiB));
        const h = await ws.runtime.exec(
          `import { writeFile, readFile } from "node:fs/promises";
           import { g } from "ws:m";
           ${ATTEMPT}
           export default async function () {
             await attempt("write40", () => writeFile("w40.txt", "x".repeat(40 * ${MiB})));
             await attempt("write20", () => writeFile("w20.txt", "x".repeat(20 * ${MiB})));
             await attempt("read40", () => readFile("big.txt", "utf8"));
             await attempt("read20", () => readFile("w20.txt", "utf8"));
             await attempt("answer40", () => g(40 * ${MiB}));
             return out;
           }`,
          { timeoutMs: 180_000 },
        );
        const r = await h.result();
        return { status: r.status, value: r.value, files: (await ws.fs.readdir("/workspace")).map((e) => e.name).sort() };
      },
      {
        backend: {
          maxCapabilityBytes: 128 * MiB,
          maxCapabilityRequestBytes: 256 * MiB,
          maxCapabilityResponseBytes: 256 * MiB,
          modules: { "ws:m": { g: (args) => (ran++, "g".repeat(Number(args[0]))) } },
        },
      },
    );
    expect(result).toEqual({
      status: "completed",
      value: {
        write40: [
          "Error",
          "E2BIG",
          "fs.writeFile(): the call is over 32 MiB, more than crosses RPC (Serialized RPC arguments or return values are limited to 32MiB, but the size of this value was: N bytes.); pass less at once (write big data to a file and pass its path)",
        ],
        write20: "ok",
        read40: [
          "Error",
          "E2BIG",
          "host call response is over 31457280 bytes, more than crosses RPC back to the run (workerd's limit is 32 MiB); read less at once (a file is read whole)",
        ],
        read20: `ok ${20 * MiB}`,
        answer40: [
          "Error",
          "E2BIG",
          "host call response is over 31457280 bytes, more than crosses RPC back to the run (workerd's limit is 32 MiB); the call ran, but its answer cannot be sent: return less per call (write big data to a file and return its path)",
        ],
      },
      files: ["big.txt", "w20.txt"],
    });
    expect(ran).toBe(1);
  });

  it("a replay run refuses a 40 MiB write with the host's message and goes on", { timeout: 180_000 }, async () => {
    const result = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const h = await ws.runtime.exec(
        `import { writeFile } from "node:fs/promises";
         ${ATTEMPT}
         export default async function () {
           await attempt("forty", () => writeFile("a.txt", "x".repeat(40 * ${MiB})));
           await attempt("small", () => writeFile("b.txt", "ok"));
           return out;
         }`,
        { timeoutMs: 120_000, onInterrupt: "replay" },
      );
      const r = await h.result();
      return { status: r.status, value: r.value, files: (await ws.fs.readdir("/workspace")).map((e) => e.name) };
    });
    expect(result).toEqual({
      status: "completed",
      value: { forty: ["Error", "E2BIG", `host call request is ${8 + 5 + 40 * MiB} bytes, over maxCapabilityBytes (1048576)`], small: "ok" },
      files: ["b.txt"],
    });
  });

  it("the run's own calls: a 40 MiB input or stdin is refused E2BIG before it runs; a 40 MiB result fails saying why", { timeout: 180_000 }, async () => {
    const out = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        const res: Record<string, unknown> = {};
        const cases = [
          ["stdin", { stdin: new Uint8Array(40 * MiB) }, "export default async () => 1"],
          ["input", { input: "i".repeat(40 * MiB) }, "export default async () => 1"],
          ["result", {}, `export default async () => "r".repeat(${40 * MiB})`],
        ] as const;
        for (const [k, opts, code] of cases) {
          try {
            const r = await (await ws.runtime.exec(code, { timeoutMs: 60_000, encoding: "utf8", ...opts })).result();
            res[k] = { status: r.status, exitCode: r.exitCode, stderr: r.stderr };
          } catch (e) {
            res[k] = [(e as Error).name, (e as { code?: string }).code, (e as Error).message];
          }
        }
        return res;
      },
      { backend: { maxStdinBytes: 64 * MiB, maxInputBytes: 64 * MiB, maxResultBytes: 64 * MiB } },
    );
    const over =
      "over the 31457280 bytes (30 MiB) one call to the run's isolate takes (workerd's limit is 32 MiB); nothing ran. Put large input in a Workspace file and have the code read it (node:fs readFile) instead.";
    expect(out).toEqual({
      stdin: ["RangeError", "E2BIG", `exec: the request is ${40 * MiB + 1037} bytes as sent to the run's isolate (input 1, stdin ${40 * MiB + 9}, env 3, other fields 1024), ${over}`],
      input: ["RangeError", "E2BIG", `exec: the request is ${40 * MiB + 1042} bytes as sent to the run's isolate (input ${40 * MiB + 6}, stdin 9, env 3, other fields 1024), ${over}`],
      result: {
        status: "failed",
        exitCode: 1,
        stderr: `The default export returned ${40 * MiB + 2} bytes of JSON (${40 * MiB + 2} as sent), more than crosses RPC back to the host (31457280 bytes; workerd's limit is 32 MiB). Write a large result to a file and return its path.\n`,
      },
    });
  });
});
