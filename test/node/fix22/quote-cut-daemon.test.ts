/**
 * fix22 (FQ), issue 20 run 22 scout finding 2 — the container daemon's sibling: its env and signal refusals quote at
 * most 64 characters of a caller's name and its length (container/lib/api.mjs, as src/util/cut.ts quoteCut); short
 * ones read as before (the daemon's messages carry its `EINVAL: ` prefix). The real daemon in process (`Computerd`, attack18c/real-daemon.ts), through a Workspace's
 * remote command backend and called directly. Also the pure helpers memberCut / jsonCut and the JavaScript backend's
 * checkRequest (a long env key, which the runtime refuses first on the exec path).
 */
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";
import { jsonCut, memberCut, quoteCut } from "../../../src/util/cut.js";
import { checkRequest } from "../../../src/backends/worker-javascript/request.js";
import { resolveOptions } from "../../../src/backends/worker-javascript/options.js";

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "resolved",
    (e: Error & { code?: string }) => ({ code: e.code, message: e.message }),
  );

describe("fix22 FQ: the daemon cuts a caller's env name and signal", () => {
  it("exec env names over 64 characters are quoted 64 characters and the length", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    try {
      const big = "x".repeat(100_000);
      const viaWorkspace = await refusal(real.ws.runtime.exec("true", { backend: "box", env: { [big + "="]: "v" } }));
      const direct = (env: unknown) => refusal((real.daemon as unknown as { exec(a: unknown): Promise<unknown> }).exec({ id: "q1", command: "true", env }));
      expect({
        viaWorkspace,
        nul: await direct([[big, "a\0b"]]),
        shortName: await direct([["A=B", "v"]]),
        shortNul: await direct([["K", "a\0b"]]),
      }).toEqual({
        viaWorkspace: { code: "EINVAL", message: `exec: bad env name "${"x".repeat(64)}…" (100001 characters)` },
        nul: { code: "EINVAL", message: `EINVAL: exec: env "${"x".repeat(64)}…" (100000 characters) must be a string without NUL` },
        shortName: { code: "EINVAL", message: 'EINVAL: exec: bad env name "A=B"' },
        shortNul: { code: "EINVAL", message: "EINVAL: exec: env K must be a string without NUL" },
      });
    } finally {
      await real.close();
    }
  });

  it("kill with an unknown signal quotes 64 characters of it", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    try {
      const d = real.daemon as unknown as { exec(a: unknown): Promise<unknown>; kill(a: unknown): Promise<unknown>; events(a: unknown): Promise<unknown> };
      await d.exec({ id: "k1", command: "sleep 30" });
      const kill = (signal: unknown) => refusal(Promise.resolve().then(() => d.kill({ id: "k1", signal })));
      expect({ long: await kill("S".repeat(1000)), short: await kill("NOPE"), array: await kill(["x".repeat(1000)]), number: await kill(99999) }).toEqual({
        long: { code: "EINVAL", message: `EINVAL: unknown signal "${"S".repeat(64)}…" (1000 characters)` },
        short: { code: "EINVAL", message: 'EINVAL: unknown signal "NOPE"' },
        array: { code: "EINVAL", message: "EINVAL: unknown signal of type object" },
        number: { code: "EINVAL", message: "EINVAL: unknown signal 99999" },
      });
      await d.kill({ id: "k1", signal: "SIGKILL" });
    } finally {
      await real.close();
    }
  });
});

describe("fix22 FQ: cut helpers", () => {
  it("memberCut keeps .name up to 64 characters, else [quoteCut(name)]", () => {
    expect([memberCut("HOME"), memberCut("a".repeat(64)), memberCut("b".repeat(65))]).toEqual([
      ".HOME",
      `.${"a".repeat(64)}`,
      `["${"b".repeat(64)}…" (65 characters)]`,
    ]);
  });

  it("jsonCut shows JSON whole up to 64 characters, else 64 and the length; never half a surrogate pair", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect([jsonCut(42), jsonCut(null), jsonCut(undefined), jsonCut(10n), jsonCut(circular), jsonCut(["x".repeat(100)]), jsonCut([`${"y".repeat(61)}😀`])]).toEqual([
      "42",
      "null",
      "undefined",
      "10",
      "[object Object]",
      `["${"x".repeat(62)}… (104 characters)`,
      `["${"y".repeat(61)}… (67 characters)`,
    ]);
    expect(quoteCut("short")).toBe('"short"');
  });

  it("the JavaScript backend's checkRequest names a long env key through memberCut", () => {
    const o = resolveOptions({ loader: { load() {} } as never });
    expect(() => checkRequest({ source: "x", env: { ["k".repeat(1000)]: 1 as never } }, o)).toThrow(
      new TypeError(`env["${"k".repeat(64)}…" (1000 characters)] must be a string, got number`),
    );
    expect(() => checkRequest({ source: "x", env: { K: 1 as never } }, o)).toThrow(new TypeError("env.K must be a string, got number"));
  });
});
