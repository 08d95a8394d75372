/**
 * Issue 20, thirty-first attack run: GNU sed's idiom `sed -e '$a\'` (append nothing after the last line) ends a file
 * that lacks its final newline with one and leaves any other file alone; the shell's sed writes the last line still
 * without the newline, so `sed -i '$a\' f` — the usual "make sure the file ends with a newline" step — silently does
 * nothing.
 * Tried: side by side with GNU sed 4.9 in a temp dir: `printf x | sed '$a\'`, `printf 'x\n' | sed '$a\'`,
 * `sed -i -e '$a\' f` on a file without a final newline.
 * Held: a file that already ends with a newline is left as is; `$a text` and `a\` with text lines; `s///` keeping a
 * missing final newline missing.
 * Found (medium — a common one-line fix-up silently leaves the file unchanged (the next `cat >>` joins two lines);
 * 2 of 2 runs).
 * Suggested fix: sed's output of the pattern space (src/backends/worker-shell/isolate/sed-gnu.ts or the sed chunk
 * patched in scripts/gen-shell.mjs): as GNU's output_missing_newline, an `a`/`i`/`c`/`r` text queued after a line
 * that had no newline first writes that newline, even when the text is empty.
 * Fixed: `a\` ending the script queues an empty raw text (src/backends/worker-shell/isolate/sed-gnu.ts `raw`), and
 * `r FILE` (also empty or missing) / `R FILE` queue the file's text byte for byte; a queued text keeps the last line's
 * newline (GNU's output_missing_newline) and is written as it is (`// GS` patches in scripts/gen-shell.mjs), so
 * `$a\` adds a missing final newline, `$r r2` with r2 lacking its newline writes none (issue 20, run 31, fixer GS;
 * siblings in test/workers/fix31/grep-sed-find-gnu).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("sed '$a\\' adds a missing final newline and nothing else", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const a = await sh(ws, "printf x | sed '$a\\' | od -c", { cwd: "/workspace" });
    const b = await sh(ws, "printf 'x\\n' | sed '$a\\' | od -c", { cwd: "/workspace" });
    await ws.fs.writeFile("/workspace/f", "line");
    const c = await sh(ws, "sed -i -e '$a\\' f && echo more >> f", { cwd: "/workspace" });
    return [a.stdout, b.stdout, c.exitCode, await ws.fs.readFile("/workspace/f", "utf8")];
  });
  expect(out).toEqual([
    "0000000   x  \\n\n0000002\n", // Was: "0000000   x\n0000001\n"
    "0000000   x  \\n\n0000002\n",
    0,
    "line\nmore\n", // Was: "linemore\n"
  ]);
});
