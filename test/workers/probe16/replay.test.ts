/**
 * Probe 16: what a replay run gets back. `respond()` makes the run replay to
 * the waiting call (docs: "Once no call of the run waits, the run replays to
 * the call"), so an answered wait is itself a replay: values read before the
 * wait must come back identical, output is printed once.
 */
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { pendingN, probeModules, within, withProbe } from "./helpers.js";
import { unsafeToRepeat } from "../../../src/index.js";



/** exec `source`, wait for its one pending call, answer it, return the result. */
async function askAndAnswer(ws: Workspace, id: string, source: string, between?: () => Promise<void>) {
  const h = await ws.runtime.exec(source, { id, encoding: "utf8" });
  const [call] = await pendingN(ws, 1);
  await between?.();
  await ws.runtime.respond(id, call!.callId, "yes");
  return within(h.result(), 20_000, "pending" as const);
}

describe("probe16: replayed sources of nondeterminism", () => {
  it("Date, performance.now, setTimeout, Math.random, crypto.getRandomValues, crypto.randomUUID replay identically; stdout once", async () => {
    await withProbe(async (ws) => {
      const r = await askAndAnswer(
        ws,
        "det",
        `import { ask } from "ws:ask";
export default async () => {
  const a = { date: Date.now(), perf: performance.now(), rnd: Math.random(), uuid: crypto.randomUUID(), bytes: [...crypto.getRandomValues(new Uint8Array(4))], iso: new Date().toISOString() };
  await new Promise((r) => setTimeout(r, 30));
  await scheduler.wait(10);
  a.after = Date.now();
  console.log(JSON.stringify(a));
  const answer = await ask("go");
  a.answer = answer;
  return a;
};`,
      );
      expect(r).toMatchObject({ status: "completed", exitCode: 0, stderr: "" });
      const res = r as { stdout: string; value: Record<string, unknown> };
      const lines = res.stdout.trim().split("\n");
      expect(lines).toHaveLength(1);
      const { answer, ...rest } = res.value;
      expect(answer).toBe("yes");
      expect(JSON.parse(lines[0]!)).toEqual(rest);
      expect(rest.after as number).toBeGreaterThanOrEqual((rest.date as number) + 40);
    });
  });

  // Docs: "Not replayed: … node:crypto randomness". Observed: randomBytes()
  // replays identically (the line printed by the first attempt equals the
  // value the replay computed), so the docs are more pessimistic than reality.
  it("node:crypto randomBytes printed before the wait replays identically (docs say it is not replayed)", async () => {
    await withProbe(async (ws) => {
      const r = await askAndAnswer(
        ws,
        "noderand",
        `import { ask } from "ws:ask";
import { randomBytes } from "node:crypto";
export default async () => {
  const hex = randomBytes(8).toString("hex");
  console.log(hex);
  return { hex, answer: await ask("go") };
};`,
      );
      const res = r as { status: string; stdout: string; stderr: string; value?: { hex: string } };
      expect(res).toMatchObject({ status: "completed", stderr: "" });
      expect(res.value!.hex + "\n").toBe(res.stdout);
    });
  });

  it("node:crypto randomness only in the return value: the run completes (the value is from the replay, silently)", async () => {
    await withProbe(async (ws) => {
      const r = await askAndAnswer(
        ws,
        "noderand2",
        `import { ask } from "ws:ask";
import { randomBytes } from "node:crypto";
export default async () => {
  const before = randomBytes(8).toString("hex");
  const answer = await ask("go");
  return { before, answer };
};`,
      );
      expect(r).toMatchObject({ status: "completed", value: { before: expect.stringMatching(/^[0-9a-f]{16}$/), answer: "yes" } });
    });
  });

  it("a file changed by someone else while the run waits: the read before the wait is served from the journal, the read after sees the change", async () => {
    await withProbe(async (ws) => {
      await ws.fs.writeFile("/workspace/f.txt", "old");
      const r = await askAndAnswer(
        ws,
        "file",
        `import { ask } from "ws:ask";
import { readFile } from "node:fs/promises";
export default async () => {
  const before = await readFile("f.txt", "utf8");
  console.log("before " + before);
  const answer = await ask("go");
  const after = await readFile("f.txt", "utf8");
  return { before, after, answer };
};`,
        () => ws.fs.writeFile("/workspace/f.txt", "new"),
      );
      expect(r).toMatchObject({ status: "completed", stdout: "before old\n", value: { before: "old", after: "new", answer: "yes" } });
    });
  });

  it("a write before the wait is not repeated on replay (an append happens once)", async () => {
    await withProbe(async (ws) => {
      await ws.fs.writeFile("/workspace/log.txt", "");
      const r = await askAndAnswer(
        ws,
        "append",
        `import { ask } from "ws:ask";
import { readFile, writeFile } from "node:fs/promises";
export default async () => {
  const cur = await readFile("log.txt", "utf8");
  await writeFile("log.txt", cur + "x");
  return await ask("go");
};`,
      );
      expect(r).toMatchObject({ status: "completed", value: "yes" });
      expect(await ws.fs.readFile("/workspace/log.txt", { encoding: "utf8" } as never)).toBe("x");
    });
  });

  it("fetch before the wait is sent once (served from the journal on replay)", async () => {
    const base = inject("httpServer" as never) as string;
    const key = `probe16-${crypto.randomUUID()}`;
    await withProbe(
      async (ws) => {
        const r = await askAndAnswer(
          ws,
          "fetch",
          `import { ask } from "ws:ask";
export default async () => {
  const n = await (await fetch(${JSON.stringify(`${base}/count/${key}`)})).text();
  console.log("count " + n);
  const answer = await ask("go");
  const m = await (await fetch(${JSON.stringify(`${base}/counted/${key}`)})).text();
  return { n, m, answer };
};`,
        );
        expect(r).toMatchObject({ status: "completed", stdout: "count 1\n", value: { n: "1", m: "1", answer: "yes" } });
      },
      { egress: { mode: "direct" } },
    );
  });

  it("unsafeToRepeat host function before the wait: it already returned, so the replay serves its answer and the run completes", async () => {
    let n = 0;
    await withProbe(
      async (ws) => {
        const r = await askAndAnswer(
          ws,
          "unsafe",
          `import { ask } from "ws:ask";
import { once } from "ws:once";
export default async () => { const a = await once(); const b = await ask("go"); return { a, b }; };`,
        );
        expect(r).toMatchObject({ status: "completed", value: { a: 1, b: "yes" } });
        expect(n).toBe(1);
      },
      { modules: { ...probeModules({ calls: [] }), "ws:once": { once: unsafeToRepeat(() => ++n) } } },
    );
  });
});
