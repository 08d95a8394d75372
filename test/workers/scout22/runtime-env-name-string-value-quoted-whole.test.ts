/**
 * Issue 20, twenty-second attack run (scout of fixes): a 1 MB env name with a string value is still quoted whole.
 * Tried: 7825866 (runtime refusals quote ids/cwd/env names through quoteCut: src/runtime/index.ts
 * checkExecArguments) — the same 1,000,000-character env name as attack22a's runtime-errors-echo-whole-id, but with a
 * string value (what the exec tool's schema lets a model send), on the shell backend, whose own check refuses a name
 * that is not a shell variable name; and a NUL inside a name.
 * Held: the attack's case (a 1 MB name whose value is not a string) is refused by the runtime in ~120 characters,
 * `exec: env["<64 x>…" (1000000 characters)] must be a string, got number`.
 * Found (low — the same ~1 MB echo attack22a reported, into a tool result, an HTTP response or a log line;
 * deterministic): checkExecArguments only looks at names whose value is not a string, so `env: { [big]: "v" }`
 * reaches WorkerShellBackend, which rejects `exec: env name "<1,000,000 characters>" is not a shell variable name
 * (…)` (src/backends/worker-shell/backend.ts, JSON.stringify(k)) — 1,000,097 characters. The container daemon's
 * `exec: bad env name "<whole>"` / `exec: env <whole> must be a string without NUL` (container/lib/api.mjs) are
 * the same echo on the command backends. Also still whole: a `backend` that is not a string (`{ backend: [big] }`,
 * from an untyped caller or a JSON body) — `no backend with id ["xxx…"]`, 1,000,063 characters: #resolve keeps
 * JSON.stringify for non-strings.
 * Suggested fix: in checkExecArguments, refuse (or quote through quoteCut) any env name over 64 characters that a
 * backend would refuse — or simply have the backends' env messages quote the name with quoteCut, as the runtime's;
 * in #resolve quote a non-string id through quoteCut(JSON.stringify(id)) (or refuse it as a TypeError naming its type).
 * Fixed: the backends' own env refusals quote a caller's name through quoteCut (src/util/cut.ts): the shell backend's
 * `exec: env name "<64>…" (<n> characters) is not a shell variable name (…)` and `exec: env["<64>…" (<n> characters)]
 * must be a string` (memberCut: `env.NAME` kept for names of at most 64 characters), the JavaScript backend's
 * `env["<64>…" (<n> characters)] must be a string` and its cwd refusals (NUL, outside the root), the container daemon's
 * `exec: bad env name` / `exec: env … must be a string without NUL` / `unknown signal` (container/lib/api.mjs, its own
 * copy of quoteCut). #resolve shows a backend id that is not a string as its JSON cut to 64 characters and the length
 * (jsonCut: `no backend with id ["xxx…" … (1000004 characters); …`). Siblings: test/workers/fix22/runtime-quote-cut.test.ts,
 * test/node/fix22/quote-cut-daemon.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace } from "../shell/helpers.js";

it("a 1 MB env name with a string value, or a backend id that is not a string, is quoted 64 characters and its length", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const big = "x".repeat(999_999) + "-";
    const measure = (p: Promise<unknown>) =>
      p.then(
        () => "resolved",
        (e: Error) => ({ name: e.name, message: e.message }),
      );
    return {
      envName: await measure(ws.runtime.exec("true", { env: { [big]: "v" } })),
      backendNotString: await measure(ws.runtime.exec("true", { backend: [big] as never })),
    };
  });
  // Found: envName 1,000,097 characters (`exec: env name "xxx…xxx-" is not a shell variable name …`); backendNotString
  // 1,000,063 characters.
  expect(out).toEqual({
    envName: {
      name: "TypeError",
      message: `exec: env name "${"x".repeat(64)}…" (1000000 characters) is not a shell variable name (letters, digits and _, not starting with a digit)`,
    },
    backendNotString: { name: "Error", message: `no backend with id ["${"x".repeat(62)}… (1000004 characters); this Workspace has "worker-shell"` },
  });
}, 60_000);
