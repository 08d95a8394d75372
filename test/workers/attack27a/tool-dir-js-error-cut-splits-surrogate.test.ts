/**
 * Issue 20, twenty-seventh attack run: a JavaScript/TypeScript directory tool's error text (its stderr, through
 * run.ts's `Tail`) is cut to its last 4,096 characters with a bare `slice(-n)` — the cut can start on the low half
 * of a surrogate pair, so the error result the model gets holds a lone surrogate (`\udc00`…), and when the cut
 * happens in `Tail.add` (stderr past 2 × 4,096 characters) nothing marks that anything was cut at all.
 *
 * Tried: `runToolDirectory` on a TypeScript tool whose `execute` throws `new Error("😀".repeat(5000) + "z".repeat(k))`
 * for k = 0 and 1 (so one of the two cuts lands between the halves of a pair, whatever the stack trace's length),
 * and one that writes the same text with `console.error` before throwing; compared with the bash tool's error
 * path (`maskedTail` → `tail()`), which moves a cut off a low surrogate and writes `…[N characters cut]…`, and with
 * docs/tool-directories.md ("A throw is `Tool "x" failed (exit 1): <the error message>`, its last 4,096 characters").
 * Held: the bash/python error path (`tail()` skips a low surrogate and marks the cut); the successful bash output
 * (`clipTail`); masking before the cut; the length bound (≈ 4,123 characters).
 * Found (low — the model's error result carries half a character and no sign that the message was cut; a provider
 * that validates UTF-16 in JSON, as Anthropic's API does for a lone surrogate, refuses the whole turn; 2 of 2 runs).
 * Suggested fix: in src/tool-dirs/run.ts `Tail`, cut with the same surrogate-safe, marked cut as `tail()`
 * (skip a low surrogate at the start; say `…[N characters cut]…` — counting what `add` already dropped, so the
 * marker survives the early cut in `add`), or keep the cut in `add` surrogate-safe and let `get` mark it.
 *
 * Fixed: src/tool-dirs/run.ts — `Tail.add`'s early cut starts past a low surrogate (`tailStart`, shared with
 * `tail()`) and counts what it dropped; `Tail.get` cuts with `tail()`, whose `…[N characters cut]…` now counts
 * the early cuts too, so the JavaScript path marks and cuts as the bash/python path does.
 */
import { expect, it } from "vitest";
import { inToolWorkspace, toolAt, input } from "../tool-dirs/helpers.js";
import { runToolDirectory } from "../../../src/tool-dirs/run.js";

/** Index of the first lone surrogate in `text`, or -1. */
function loneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return i;
  }
  return -1;
}

it("cuts a JavaScript tool's error text on a character boundary and marks the cut", async () => {
  const out = await inToolWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/tools/emoji_err", { recursive: true });
    await ws.fs.writeFile(
      "/workspace/tools/emoji_err/index.ts",
      `export async function execute(_id: string, p: { mode: string; k: number }) {
  const text = "😀".repeat(5000) + "z".repeat(p.k);
  if (p.mode === "stderr") console.error(text);
  throw new Error(p.mode === "stderr" ? "boom" : text);
}
`,
    );
    const tool = toolAt("emoji_err", "typescript", "index.ts", { mode: input("string"), k: input("number") });
    const rows: { mode: string; k: number; isError: boolean | undefined; lone: number; marked: boolean; short: boolean }[] = [];
    for (const mode of ["throw", "stderr"]) {
      for (const k of [0, 1]) {
        const r = await runToolDirectory(tool, { workspace: ws, params: { mode, k } });
        const text = r.content[0].text;
        const prefix = 'Tool "emoji_err" failed (exit 1): ';
        rows.push({
          mode,
          k,
          isError: r.isError,
          lone: loneSurrogate(text),
          marked: text.startsWith(prefix) && text.slice(prefix.length).startsWith("…"),
          short: text.length < 4096 + 200,
        });
      }
    }
    return rows;
  });
  for (const row of out) {
    // Was: throw k=0 and stderr k=1: lone 34 (the text right after `failed (exit 1): ` starts with "\udc00");
    // all four: marked false (no `…`: `Tail.add` had already cut the text to exactly 4,096 characters).
    expect(row).toEqual({ mode: row.mode, k: row.k, isError: true, lone: -1, marked: true, short: true });
  }
});
