/**
 * Issue 20 second attack run: a run that replaces JSON.stringify can hand the
 * host a result nested far deeper than the isolate's own check allows. The
 * host parsed it fine, but a client's result() over RPC then failed with
 * "Maximum call stack size exceeded" (structured clone), and the exit event
 * could not be streamed. The host now refuses results nested deeper than
 * MAX_RESULT_DEPTH (1024) levels: the run fails with exit 1 and says why.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { MAX_RESULT_DEPTH, nestedDeeperThan } from "../../../src/backends/worker-javascript/run.js";
import { inWorkspace } from "../runtime/helpers.js";

/** A run whose result is `n` arrays inside each other, produced by a replaced JSON.stringify. */
const nested = (n: number) =>
  `export default async () => { const s = "[".repeat(${n}) + "]".repeat(${n}); JSON.stringify = () => s; return 1; }`;
/** The same with objects: `{"a":{"a":…1…}}`. */
const nestedObjects = (n: number) =>
  `export default async () => { const s = '{"a":'.repeat(${n}) + "1" + "}".repeat(${n}); JSON.stringify = () => s; return 1; }`;
const DEEP_MESSAGE = `The default export returned a value nested deeper than ${MAX_RESULT_DEPTH} levels.\n`;

describe("host-side depth check of a run's result", () => {
  it("counts nesting outside strings only", () => {
    expect(nestedDeeperThan("[[1]]", 2)).toBe(false);
    expect(nestedDeeperThan("[[[1]]]", 2)).toBe(true);
    expect(nestedDeeperThan('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(nestedDeeperThan('{"a":{"b":[1]}}', 2)).toBe(true);
    expect(nestedDeeperThan(JSON.stringify("[[[[[[{{{{{\\\"[[[["), 0)).toBe(false);
    expect(nestedDeeperThan(JSON.stringify(["\\", "[[[["]), 1)).toBe(false);
  });

  it("a result nested 200,000 levels deep fails the run (exit 1, message on stderr); 1024 levels still pass", async () => {
    const out = await inWorkspace(async (ws) => {
      const deep = await (await ws.runtime.exec(nested(200_000), { encoding: "utf8" })).result();
      const objects = await (await ws.runtime.exec(nestedObjects(MAX_RESULT_DEPTH + 1), { encoding: "utf8" })).result();
      const edge = await (await ws.runtime.exec(nested(MAX_RESULT_DEPTH), { encoding: "utf8" })).result();
      return {
        deep: { status: deep.status, exitCode: deep.exitCode, stderr: deep.stderr, value: deep.value },
        objects: { status: objects.status, exitCode: objects.exitCode, stderr: objects.stderr },
        edge: { status: edge.status, exitCode: edge.exitCode, depth: (() => { let d = 0; let v = edge.value; while (Array.isArray(v)) { d++; v = v[0]; } return d; })() },
      };
    });
    expect(out.deep).toEqual({ status: "failed", exitCode: 1, stderr: DEEP_MESSAGE, value: undefined });
    expect(out.objects).toEqual({ status: "failed", exitCode: 1, stderr: DEEP_MESSAGE });
    expect(out.edge).toEqual({ status: "completed", exitCode: 0, depth: MAX_RESULT_DEPTH });
  });

  it("over RPC, result() and the event stream of such a run settle with the failure instead of throwing", async () => {
    using ws = await getWorkspace(env.CLIENT_EXEC_AGENT.get(env.CLIENT_EXEC_AGENT.newUniqueId()));
    using h = await ws.runtime.exec(nested(200_000), { encoding: "utf8" });
    const r = await h.result();
    expect({ status: r.status, exitCode: r.exitCode, stderr: r.stderr }).toEqual({ status: "failed", exitCode: 1, stderr: DEEP_MESSAGE });
    using h2 = await ws.runtime.exec(nested(200_000));
    const names: string[] = [];
    for await (const ev of h2 as unknown as AsyncIterable<{ name: string }>) names.push(ev.name);
    expect(names).toEqual(["stderr", "exit"]);
  });
});
