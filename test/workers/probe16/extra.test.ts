/**
 * Probe 16: divergence detection with sources the docs say are NOT replayed
 * (crypto.subtle.generateKey, node:timers), and aliasing of payloads/answers.
 */
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { pendingN, sleep, within, withProbe } from "./helpers.js";


async function askAndAnswer(ws: Workspace, id: string, source: string, answer: unknown = "yes") {
  const h = await ws.runtime.exec(source, { id, encoding: "utf8" });
  const [call] = await pendingN(ws, 1);
  await ws.runtime.respond(id, call!.callId, answer as never);
  return within(h.result(), 20_000, "pending" as const);
}

describe("probe16: not-replayed sources", () => {
  it("a crypto.subtle.generateKey key printed before the wait: the replay prints a different key and fails as a different path", async () => {
    await withProbe(async (ws) => {
      const r = await askAndAnswer(
        ws,
        "subtle",
        `import { ask } from "ws:ask";
export default async () => {
  const k = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", k));
  const hex = [...raw.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  console.log(hex);
  return { hex, answer: await ask("go") };
};`,
      );
      const res = r as unknown as { status: string; stdout: string; stderr: string; value?: { hex: string } };
      // documented: different output → "The execution took a different path …".
      // Note for users: the person's approval is then lost — the run fails after it.
      expect(res).toMatchObject({ status: "failed", exitCode: 1, stdout: expect.stringMatching(/^[0-9a-f]{16}\n$/), stderr: expect.stringMatching(/^The execution took a different path when it resumed after an interruption: it printed different output on stdout \(byte (1[0-6]?|[2-9]) differs\)\.\n$/) });
      // (Which of the 16 hex bytes differs first is random: two keys share their first digit 1 time in 16.)
    });
  });

  // Docs list node:timers as not replayed; observed: the clock read after a
  // node:timers timer replays identically (the run completes).
  it("node:timers setTimeout before the wait, then Date.now() printed: the replay prints the same time", async () => {
    await withProbe(async (ws) => {
      const r = await askAndAnswer(
        ws,
        "ntimers",
        `import { ask } from "ws:ask";
import { setTimeout as st } from "node:timers";
export default async () => {
  await new Promise((r) => st(r, 20));
  const t = Date.now();
  console.log(String(t));
  return { t, answer: await ask("go") };
};`,
      );
      const res = r as unknown as { status: string; stdout: string; stderr: string; value?: { t: number } };
      expect(res).toMatchObject({ status: "completed", stderr: "" });
      expect(String(res.value!.t) + "\n").toBe(res.stdout);
    });
  });
});

describe("probe16: aliasing", () => {
  it("mutating the object pending() returned does not change the stored payload", async () => {
    await withProbe(async (ws) => {
      const h = await ws.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => ask({ a: 1 });`, { id: "alias", encoding: "utf8" });
      const [c] = await pendingN(ws, 1);
      (c!.payload as { a: number }).a = 2;
      expect((await ws.runtime.pending())[0]!.payload).toEqual({ a: 1 });
      await ws.runtime.respond("alias", c!.callId, 0);
      await h.result();
    });
  });

  // Found by probe 16, fixed (respond() copies the answer when called). It was: respond() read `answer` after an await, so a change made
  // right after the call (before awaiting it) is what the run gets: the person
  // approved { approved: true } and the run saw { approved: false, list: [1, 2] }.
  // Validation also runs on the mutated value (no bypass: a bigint/function/
  // oversize added after the call is rejected). Expected: respond() snapshots
  // the answer synchronously (like structured clone at the call).
  it("mutating the answer object right after respond() does not change what the run gets", async () => {
    await withProbe(async (ws) => {
      const h = await ws.runtime.exec(`import { ask } from "ws:ask";\nexport default async () => { await new Promise((r) => setTimeout(r, 100)); return ask("m"); };`, { id: "mut", encoding: "utf8" });
      const [c] = await pendingN(ws, 1);
      const answer = { approved: true, list: [1] };
      const p = ws.runtime.respond("mut", c!.callId, answer);
      answer.approved = false;
      answer.list.push(2);
      await p;
      await sleep(10);
      expect(await within(h.result(), 20_000, "pending")).toMatchObject({ status: "completed", value: { approved: true, list: [1] } });
    });
  });
});
