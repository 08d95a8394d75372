import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../src/index.js";

// grep has two scanners: match-by-match over whole chunks (literal patterns,
// no context) and line-by-line (everything else). Asking for context forces
// the line scanner, so both must report the same lines for the same search.
it("the match scanner and the line scanner agree on random files and literal patterns", async () => {
  const fs = new Workspace({ storage: nodeSqliteStorage() }).fs;
  let seed = 12345;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const alphabet = ["a", "b", "ab", "\n", "\r\n", "é", "😀", "A", " ", "\n\n"];
  await fs.mkdir("/g");
  for (let f = 0; f < 40; f++) {
    let text = "";
    const length = random(f === 0 ? 3000 : 200);
    for (let i = 0; i < length; i++) text += alphabet[random(alphabet.length)];
    // File 39 spans a chunk boundary with a long first line.
    if (f === 39) text = "x".repeat(524_280) + "ab\nab" + text;
    await fs.writeFile(`/g/f${String(f).padStart(2, "0")}`, text);
  }
  for (const pattern of ["a", "ab", "b a", "é", "😀", "A", "\r", "ba\r", "xab"]) {
    for (const ignoreCase of [false, true]) {
      for (const page of [{}, { offset: 3, limit: 5 }, { limit: 1 }]) {
        const fast = await fs.grep(pattern, "/g", { ignoreCase, ...page });
        const lines = (await fs.grep(pattern, "/g", { ignoreCase, context: 1, ...page })).map(({ path, line, text }) => ({ path, line, text }));
        expect(fast, `${JSON.stringify(pattern)} ${ignoreCase} ${JSON.stringify(page)}`).toEqual(lines);
      }
    }
  }
  const all = await fs.grep("ab", "/g/f39");
  expect(all.slice(0, 2)).toEqual([
    { path: "/g/f39", line: 1, text: "x".repeat(524_280) + "ab" },
    { path: "/g/f39", line: 2, text: expect.stringMatching(/^ab/) },
  ]);
});
