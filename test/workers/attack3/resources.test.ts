/**
 * Issue 20 third attack run, category 2: resource exhaustion through the
 * JavaScript backend in workerd — many concurrent runs and host calls,
 * concurrency past the limit, wide results and inputs, a directory past
 * maxDirectoryEntries, a 900,000-character file name, invalid UTF-8 output,
 * several live subscribers, twenty concurrent kills, and a run kept alive by
 * timers past its timeout. Each is bounded, exact, and leaves the Workspace
 * working.
 */
import { describe, expect, it } from "vitest";
import { collect, inWorkspace } from "../runtime/helpers.js";

describe("attack3: resource exhaustion through the JavaScript backend", () => {
  it("20 concurrent runs of 20 concurrent host calls each: every value exact", async () => {
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await Promise.all(Array.from({ length: 20 }, (_, i) => ws.fs.writeFile(`/workspace/in${i}.txt`, `v${i}`)));
      const runs = await Promise.all(
        Array.from({ length: 20 }, (_, run) =>
          ws.runtime.exec(
            `import { readFile, writeFile } from "node:fs/promises";
             export default async () => {
               const got = await Promise.all(Array.from({ length: 20 }, (_, i) => readFile("/workspace/in" + i + ".txt", "utf8")));
               await writeFile("/workspace/out${run}.txt", got.join(","));
               return got.join(",");
             };`,
            { encoding: "utf8" },
          ),
        ),
      );
      const results = await Promise.all(runs.map((h) => h.result()));
      const outs = await Promise.all(Array.from({ length: 20 }, (_, i) => ws.fs.readFile(`/workspace/out${i}.txt`, "utf8")));
      return { values: results.map((x) => [x.exitCode, x.value]), outs };
    });
    const want = Array.from({ length: 20 }, (_, i) => `v${i}`).join(",");
    expect(r.values).toEqual(Array(20).fill([0, want]));
    expect(r.outs).toEqual(Array(20).fill(want));
  });

  it("host calls past maxConcurrentCapabilityCalls are E2BIG for the excess only; later calls work", async () => {
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/f.txt", "x");
      return (
        await ws.runtime.exec(
          `import { readFile } from "node:fs/promises";
           export default async () => {
             const out = await Promise.allSettled(Array.from({ length: 100 }, () => readFile("/workspace/f.txt", "utf8")));
             const ok = out.filter((o) => o.status === "fulfilled" && o.value === "x").length;
             const busy = out.filter((o) => o.status === "rejected" && o.reason.code === "E2BIG" && /maxConcurrentCapabilityCalls \\(32\\)/.test(o.reason.message)).length;
             const after = await readFile("/workspace/f.txt", "utf8");
             return { ok, busy, after };
           };`,
          { encoding: "utf8" },
        )
      ).result();
    });
    expect(r.exitCode).toBe(0);
    const v = r.value as { ok: number; busy: number; after: string };
    expect(v.ok + v.busy).toBe(100);
    expect(v.ok).toBeGreaterThanOrEqual(32);
    expect(v.after).toBe("x");
  });

  it("a 100,000-element result and a 50,000-key input pass whole", async () => {
    const input = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i]));
    const r = await inWorkspace(async (ws) =>
      (
        await ws.runtime.exec(
          `export default (input) => ({ keys: Object.keys(input).length, last: input.k49999, wide: Array.from({ length: 100000 }, (_, i) => i % 10) })`,
          { input, encoding: "utf8" },
        )
      ).result(),
    );
    const v = r.value as { keys: number; last: number; wide: number[] };
    expect([r.exitCode, v.keys, v.last, v.wide.length, v.wide[99_999]]).toEqual([0, 50_000, 49_999, 100_000, 9]);
  });

  // A 200,000-character name works; a 900,000-character one is past the path limit (256 KiB of UTF-8,
  // docs/filesystem.md "Paths") and is refused ENAMETOOLONG before any SQL.
  it("a directory past maxDirectoryEntries, a 200,000-character name (900,000: ENAMETOOLONG), invalid UTF-8 output", async () => {
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/many", { recursive: true });
      await Promise.all(Array.from({ length: 1100 }, (_, i) => ws.fs.writeFile(`/workspace/many/f${i}`, "")));
      const out = await (
        await ws.runtime.exec(
          `import { readdir, writeFile, readFile } from "node:fs/promises";
           export default async () => {
             let dir; try { dir = (await readdir("/workspace/many")).length; } catch (e) { dir = e.code + " " + e.message; }
             const name = "/workspace/" + "n".repeat(200_000);
             await writeFile(name, "long name");
             let huge; try { await writeFile("/workspace/" + "n".repeat(900_000), "x"); huge = "written"; } catch (e) { huge = e.code; }
             process.stdout.write(new Uint8Array([0x61, 0xff, 0xfe, 0x62, 0xe2, 0x82]));
             return { dir, back: await readFile(name, "utf8"), huge };
           };`,
          { encoding: "utf8" },
        )
      ).result();
      const names = (await ws.fs.readdir("/workspace")).map((e) => e.name.length).sort((a, b) => a - b);
      return { out, names };
    });
    expect(r.out).toMatchObject({
      exitCode: 0,
      stdout: "a\ufffd\ufffdb\ufffd",
      value: { dir: "E2BIG readdir of /workspace/many has more than maxDirectoryEntries (1024) entries", back: "long name", huge: "ENAMETOOLONG" },
    });
    expect(r.names).toEqual([4, 200_000]);
  });

  it("eight live subscribers see the same events; twenty concurrent kills settle once with 130", async () => {
    const r = await inWorkspace(
      async (ws) => {
        const h = await ws.runtime.exec(
          `export default async () => { for (let i = 0; i < 20; i++) { console.log("line " + i); await new Promise((r) => setTimeout(r, 10)); } return "end"; }`,
          { id: "watched", encoding: "utf8" },
        );
        const subs = await Promise.all(Array.from({ length: 7 }, () => ws.runtime.getExec("watched", { encoding: "utf8" })));
        const all = await Promise.all([collect(h), ...subs.map((s) => collect(s))]);
        const texts = all.map((events) => events.filter((e) => e.name === "stdout").map((e) => (e as { value: string }).value).join(""));
        const exits = all.map((events) => events.at(-1));
        const k = await ws.runtime.exec(`export default async () => { await new Promise((r) => setTimeout(r, 5000)); return 1; }`, { id: "killed" });
        const kills = await Promise.allSettled(Array.from({ length: 20 }, () => ws.runtime.killExec("killed")));
        const killed = await k.result();
        return { texts, exits, kills: kills.map((x) => x.status), killed: [killed.status, killed.exitCode] };
      },
      { backend: { maxExecutionSubscribers: 8 } },
    );
    const want = Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join("");
    expect(r.texts).toEqual(Array(8).fill(want));
    for (const exit of r.exits) expect(exit).toMatchObject({ name: "exit", code: 0, result: "end" });
    expect(r.kills).toEqual(Array(20).fill("fulfilled"));
    expect(r.killed).toEqual(["cancelled", 130]);
  });

  it("a run kept alive by timers ends at its timeout with exit 1", async () => {
    const r = await inWorkspace(async (ws) => {
      const started = Date.now();
      const result = await (
        await ws.runtime.exec(
          `export default async () => { setInterval(() => console.log("tick"), 50); await new Promise((r) => setTimeout(r, 600000)); }`,
          { timeoutMs: 700, encoding: "utf8" },
        )
      ).result();
      return { status: result.status, exitCode: result.exitCode, ms: Date.now() - started, next: (await (await ws.runtime.exec(`export default () => 2`)).result()).value };
    });
    expect(r).toMatchObject({ status: "failed", exitCode: 1, next: 2 });
    expect(r.ms).toBeLessThan(5000);
  });
});
