/**
 * Issue 20 (scout after the fifteenth attack run): the type-stripping meter charged each abandoned try from
 * its start to where sucrase's tokenizer stood when it was restored — and sucrase's unexpected() moves that to
 * the END of the input. So every `a < b` that sucrase first tries as type arguments was charged the rest of the
 * file: a 36 KB module with 60 lines like `if (n < 5) t++;`, were refused as "too costly to strip types from". Now a try is charged up to where it failed (the error's
 * position), which is the work it did; the quadratic shapes of attack13a stay refused.
 */
import { describe, expect, it } from "vitest";
import { stripTypes } from "../../../src/backends/worker-javascript/typescript.js";

/** A module with 60 lines of `stmt` and 1,500 plain lines (about 36 KB). */
function ordinary(stmt: string): string {
  let src = "export function f(n: number, m: number, xs: number[], a: string): number {\n  let t = 0, i = 0;\n";
  for (let j = 0; j < 60; j++) src += `  ${stmt}\n`;
  for (let j = 0; j < 1500; j++) src += `  t = t + xs[${j % 7}] * ${j};\n`;
  return `${src}  return t;\n}\n`;
}

describe("stripping ordinary TypeScript with comparisons", () => {
  it("60 comparisons in a 36 KB module, each shape, are stripped", async () => {
    for (const stmt of ["if (n < 5) t++;", "if (n < m) t++;", "if (xs[i] < m) t++;", "for (let i = 0; i < n; i++) t++;", "t = n < m ? 1 : 2;", "while (i < xs.length) i++;"]) {
      const out = await stripTypes(ordinary(stmt), "/m.ts");
      expect(out.split(stmt).length - 1).toBe(60);
      expect(out).not.toContain(": number");
    }
  });

  it("the quadratic shape stays refused (attack13a)", async () => {
    const source = "let x: unknown; const a = 1, b = 2;\n" + `x = ${"a < ".repeat(1000)}b;\n`.repeat(10) + "export const v: number = 1;\n";
    await expect(stripTypes(source, "/q.ts")).rejects.toThrow(/too costly to strip types from/);
  });
});
