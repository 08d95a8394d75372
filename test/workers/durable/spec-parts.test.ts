/**
 * Issue 20 (lead, fifteenth attack run): a restart or replay run keeps what it was started with (module
 * graph, input, env, stdin, …) as JSON in one row until it ends. Within the defaults (1 MiB of source,
 * 1 MiB of input, 1 MiB of env, 256 KiB of stdin) that JSON can pass the 2 MB Durable Object SQLite accepts
 * for one value in production (local workerd stores it), and the run could not start there. A start
 * longer than SPEC_PART_CHARS (524,288 characters) is now kept in parts, never cut between the two halves
 * of a character, joined when the run resumes, and deleted when it ends.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SPEC_PART_CHARS } from "../../../src/backends/worker-javascript/durable.js";
import { durable, restart, resultOf, sleep, start, type DurableStub } from "./helpers.js";

const SRC = `import { hold } from "ws:side";
export default async (input) => {
  await hold(input.tag, 60000, 0);
  let h = 0;
  for (let i = 0; i < input.s.length; i++) h = (h * 31 + input.s.charCodeAt(i)) | 0;
  return { length: input.s.length, hash: h, last: input.s.slice(-3) };
};`;

const parts = (stub: DurableStub, id: string) =>
  runInDurableObject(stub as unknown as DurableObjectStub, (_i, state) =>
    state.storage.sql.exec<{ n: number; data: string }>("SELECT n, data FROM __ws_exec_spec WHERE id = ? ORDER BY n", id).toArray(),
  );

describe("a durable run's start past one SQL value", () => {
  it("is kept in parts (never between a character's halves), resumes with the same input, and is deleted at the end", { timeout: 120_000 }, async () => {
    expect(SPEC_PART_CHARS).toBe(524_288);
    const firstParts: number[] = [];
    for (const prefix of ["", "a"]) {
      const { stub, fresh } = durable();
      const id = `spec${prefix.length}`;
      // 40,000 ASCII characters, then 500,000 characters of emoji (two halves each; 1,040,000 bytes of input
      // in all, within maxInputBytes): the cut at 524,288 falls in the emoji, inside a pair for one of the prefixes
      const b = "b".repeat(40_000);
      const s = prefix + "😀".repeat(250_000) + "end";
      let h = 0;
      for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
      await start(stub, SRC, { id, onInterrupt: "restart", input: { tag: id, b, s } });
      await sleep(1500);
      const kept = await parts(fresh(), id);
      expect(kept.map((p) => p.n)).toEqual([1, 2]);
      firstParts.push(kept[0]!.data.length);
      expect((JSON.parse(kept.map((p) => p.data).join("")) as { input: { s: string } }).input.s).toBe(s);
      await restart(stub);
      const r = await resultOf(fresh(), id);
      expect(r).toMatchObject({ status: "completed", exitCode: 0, value: { length: 500_003 + prefix.length, hash: h, last: "end" } });
      expect(await parts(fresh(), id)).toEqual([]);
      // the hold ran twice: once cut by the restart, once in the resumed attempt (which had the same input)
      expect((await fresh().callRows()).map((c) => [c.fn, c.tag])).toEqual([
        ["hold", id],
        ["hold", id],
      ]);
    }
    // a first part of the full length, and one a character shorter (the pair it would have cut kept whole)
    expect(firstParts.sort()).toEqual([SPEC_PART_CHARS - 1, SPEC_PART_CHARS]);
  });
});
