/**
 * Issue 20, run 27, fixer TA: a JavaScript/TypeScript directory tool's error text is cut as the bash/python path
 * cuts it (siblings of attack27a/tool-dir-js-error-cut-splits-surrogate): its last 4,096 characters behind
 * `…[N characters cut]…`, N counting what the early cut while the stderr arrived dropped too, never half a
 * character; short errors are unchanged; masking still comes before the cut.
 */
import { expect, it } from "vitest";
import { inToolWorkspace, toolAt, input } from "../tool-dirs/helpers.js";
import { runToolDirectory } from "../../../src/tool-dirs/run.js";

it("cuts stderr with the early cut counted, keeps short errors whole, masks before cutting", async () => {
  const out = await inToolWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/tools/err_out", { recursive: true });
    await ws.fs.writeFile(
      "/workspace/tools/err_out/index.ts",
      `export async function execute(_id: string, p: { mode: string; key: string }) {
  if (p.mode === "emoji") { process.stderr.write("😀".repeat(6000) + "\\n"); process.exit(3); }
  if (p.mode === "ascii") { process.stderr.write("a".repeat(5000) + "END\\n"); process.exit(4); }
  if (p.mode === "short") { process.stderr.write("short failure\\n"); process.exit(5); }
  process.stderr.write("b".repeat(9000) + " key=" + p.key + "\\n");
  process.exit(6);
}
`,
    );
    const tool = toolAt("err_out", "typescript", "index.ts", { mode: input("string"), key: input("string", { sensitive: true }) });
    const texts: Record<string, string> = {};
    for (const mode of ["emoji", "ascii", "short", "secret"]) {
      const r = await runToolDirectory(tool, { workspace: ws, params: { mode, key: "s3cr3t-value" } });
      texts[mode] = `${r.isError}|${r.content[0].text}`;
    }
    return texts;
  });
  // 6,000 emoji = 12,000 UTF-16 units. How the stderr arrives (one chunk past 2 × 4,096, or smaller ones) decides
  // whether the last cut is the early one (at 7,905 + 1 past the low half: 2,047 emoji kept) or the final one
  // (at 7,904: 2,048 kept); either way N counts every unit cut and no half character is left.
  expect([
    `true|Tool "err_out" failed (exit 3): …[7904 characters cut]…${"😀".repeat(2048)}`,
    `true|Tool "err_out" failed (exit 3): …[7906 characters cut]…${"😀".repeat(2047)}`,
  ]).toContain(out.emoji);
  // 5,003 characters: under the early cut's bound, cut once at the end (907 dropped).
  expect(out.ascii).toBe(`true|Tool "err_out" failed (exit 4): …[907 characters cut]…${"a".repeat(4093)}END`);
  expect(out.short).toBe('true|Tool "err_out" failed (exit 5): short failure');
  // The secret at the very end is masked, never cut in half: 9,008 characters masked (…" key=***").
  expect(out.secret).toBe(`true|Tool "err_out" failed (exit 6): …[4912 characters cut]…${"b".repeat(4088)} key=***`);
});
