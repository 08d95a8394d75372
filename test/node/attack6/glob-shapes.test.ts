/**
 * Issue 20 sixth attack run, category 2 (listing/glob sizes): glob SHAPES
 * runs 2–5 did not send (they sent long `*a*a*b` runs, 5,000 `*` and 1,000
 * excludes): a 40-fold `{a,b}` alternation (2^40 expansions) as a find
 * pattern, an exclude and a grep include; braces nested 5,000 deep, with
 * and without commas; one alternation of 100,000 names; 10,000 `[`; 2,000
 * `[a-z]` classes; extglob syntax; 100,000 `?`, `\`, `/`; 1,000 `../`; 5,000
 * `**` segments. Each answers in bounded time: refused past the 4,096
 * character limit with the message below, or an exact (empty or full) list.
 * All withstood.
 */
import { describe, expect, it } from "vitest";
import { makeWorkspace } from "../tools/helpers.js";

const outcome = async (p: Promise<{ path: string }[]>) => {
  const started = Date.now();
  const r = await p.then(
    (v) => ({ paths: v.map((e) => e.path) }),
    (e: Error) => ({ error: e.message.slice(0, 60) }),
  );
  return { ...r, ms: Date.now() - started };
};
const tooLong = (n: number) => ({ error: `glob too long: ${n} characters, at most 4096: ` });

describe("attack6: glob shapes", () => {
  it("alternation bombs, deep nesting, classes, extglob and long runs: bounded answers", async () => {
    const ws = await makeWorkspace();
    await ws.fs.mkdir("/workspace/ab", { recursive: true });
    await ws.fs.writeFile("/workspace/ab/c.txt", "abc\n");
    await ws.fs.writeFile("/workspace/f.txt", "alpha\n");
    const bomb = "{a,b}".repeat(40);
    const r = {
      bomb: await outcome(ws.fs.find("/workspace", bomb)),
      exclude: await outcome(ws.fs.find("/workspace", "**", { exclude: [bomb] })),
      include: await outcome(ws.fs.grep("a", "/workspace", { include: bomb })),
      nested: await outcome(ws.fs.find("/workspace", "{".repeat(5000) + "a" + "}".repeat(5000))),
      nestedComma: await outcome(ws.fs.find("/workspace", "{a,".repeat(3000) + "b" + "}".repeat(3000))),
      wide: await outcome(ws.fs.find("/workspace", "{" + Array.from({ length: 100_000 }, (_, i) => `n${i}`).join(",") + "}")),
      brackets: await outcome(ws.fs.find("/workspace", "[".repeat(10_000))),
      classes: await outcome(ws.fs.find("/workspace", "[a-z]".repeat(2000))),
      extglob: await outcome(ws.fs.find("/workspace", "+(a|b)*(c)@(x)!(y)")),
      qmarks: await outcome(ws.fs.find("/workspace", "?".repeat(100_000))),
      backslashes: await outcome(ws.fs.find("/workspace", "\\".repeat(100_001))),
      dots: await outcome(ws.fs.find("/workspace", "../".repeat(1000) + "*")),
      globstars: await outcome(ws.fs.find("/workspace", "**/".repeat(5000) + "*")),
    };
    const strip = ({ ms: _ms, ...rest }: { ms: number } & Record<string, unknown>) =>
      "error" in rest ? { error: String(rest.error).replace(/"[^]*$/, "") } : rest;
    expect(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, strip(v)]))).toEqual({
      bomb: { paths: [] },
      exclude: { paths: ["/workspace/ab", "/workspace/ab/c.txt", "/workspace/f.txt"] },
      include: { paths: [] },
      nested: tooLong(10_001),
      nestedComma: tooLong(12_001),
      wide: tooLong(688_891),
      brackets: tooLong(10_000),
      classes: tooLong(10_000),
      extglob: { paths: [] },
      qmarks: tooLong(100_000),
      backslashes: tooLong(100_001),
      dots: { paths: [] },
      globstars: tooLong(15_001),
    });
    // about hangs, not speed
    for (const [k, v] of Object.entries(r)) expect(v.ms, k).toBeLessThan(10_000);
  });
});
