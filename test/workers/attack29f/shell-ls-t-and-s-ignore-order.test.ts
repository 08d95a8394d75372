/**
 * Issue 20, twenty-ninth attack run: `ls -t` lists by name, not newest first (in a directory and for file operands),
 * and `ls -S` / `-Sr` / `-tr` ignore the order for file operands (`ls -S *.log` is by name); so the common "newest
 * file" idiom `ls -t *.log | head -1` silently picks the alphabetically first file.
 * Tried: side by side with GNU coreutils 9.1 ls (mtimes set with touch -d) — `ls -t`, `ls -lt`, `ls -t *.log | head
 * -1`, `ls -tr *.log`, `ls -1t a b c`, `ls -S *.log`, `ls -Sr *.log`, `ls -S`; files written a second apart, checked
 * with `stat -c %Y` that their mtimes differ.
 * Held: `ls -S` / `ls -Sr` of a directory (by size), `ls -r *.log` (reverse name order), `ls -1`, `ls -R`.
 * Found (medium — a common agent idiom silently selects the wrong file; 2 of 2 runs).
 * Suggested fix: src/shell/generated/core.ts (scripts/gen-shell.mjs) ls: sort directory entries by mtime (newest
 * first, ties by name) under `-t`, and sort the file operands (the `group` helper that skips sorting when
 * `sortBySize`/`sortByTime` is set) by size/mtime with `-r` reversing, as GNU ls.
 * Fixed (run 29, fixer LT): just-bash's ls sorted a directory's entries by name unless -S and never by time, and
 * left file operands in the order given under -t/-S. New helper isolate/ls-sort.ts (LT_PATCHES in
 * scripts/gen-shell.mjs): entries, file operands, directory operands and a quoted glob's matches are sorted by mtime
 * (newest first) under -t and by size (largest first) under -S, ties by name, -r reversing the whole order; -R
 * recurses in the listing's order. Siblings: test/workers/fix29/shell-ls-sort.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("ls -t lists newest first and -S/-t order file operands, as GNU ls", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    // Oldest a.log (5 bytes), then c.log (9 bytes), newest b.log (2 bytes).
    await ws.fs.writeFile("/workspace/a.log", "aaaa\n");
    await new Promise((r) => setTimeout(r, 1100));
    await ws.fs.writeFile("/workspace/c.log", "cccccccc\n");
    await new Promise((r) => setTimeout(r, 1100));
    await ws.fs.writeFile("/workspace/b.log", "b\n");
    const res: [string, string, string][] = [];
    for (const c of ["ls -t", "ls -t *.log | head -1", "ls -tr *.log", "ls -S *.log", "ls -Sr *.log"]) {
      const r = await sh(ws, c, { cwd: "/workspace" });
      res.push([c, r.stdout, r.stderr]);
    }
    return res;
  });
  expect(out).toEqual([
    ["ls -t", "b.log\nc.log\na.log\n", ""], // Was: "a.log\nb.log\nc.log\n".
    ["ls -t *.log | head -1", "b.log\n", ""], // Was: "a.log\n".
    ["ls -tr *.log", "a.log\nc.log\nb.log\n", ""], // Was: "a.log\nb.log\nc.log\n".
    ["ls -S *.log", "c.log\na.log\nb.log\n", ""], // Was: "a.log\nb.log\nc.log\n".
    ["ls -Sr *.log", "b.log\na.log\nc.log\n", ""], // Was: "a.log\nb.log\nc.log\n".
  ]);
}, 60000);
