/**
 * Issue 20, thirty-first attack run: awk's `print > "file"` (and `>>`, `printf >`) re-reads and rewrites the whole
 * output file for every record printed (just-bash's awk `appendFile` is `readFile` then `writeFile(old + line)`, two
 * host round trips carrying the whole file each), so writing N lines costs O(N²) bytes: 5,000 short lines took 53 s,
 * 10,000 took 137 s, and a 100,000-line split-by-key (`awk '{print > $1 ".txt"}'`) would hold the command for hours;
 * without `timeoutMs` nothing stops it. gawk/mawk keep the file open and write the 4,000 lines below in milliseconds.
 *
 * Tried: a 1,000,000-line (27 MB) file and its 5,000/10,000/20,000-line heads through `awk '{print > "o"}'`, timed;
 * `awk '{print > ("k" ($2 % 4) ".txt")}'`; beside it `sed -i`, `sort -o f f`, `tee`, `split`, `gzip`/`gunzip`, `tar`,
 * `mv *` stopped by `timeoutMs` halfway, and every writing command against a read-only mount.
 * Held: commands stopped by `timeoutMs` halfway (`sed -i` over 300 files, `gzip` of 30 MB, `mv * dir/` of 300 files)
 * left every file whole, old or new, none lost or truncated; `mv`/`cp -r`/`gzip`/`gunzip`/`sed -i`/`sort -o`/`tee`/
 * `split`/`tar x`/`find -exec sed -i {} +` against a read-only mount fail with EROFS and keep the source.
 * Found (medium — a common awk form (splitting a file by a key, writing a report file from awk) turns from
 * milliseconds into minutes or hours, an unbounded hold of the command without a timeout; 1 of 1 runs, timings
 * 53 s for 5,000 lines and 137 s for 10,000).
 * Suggested fix: the awk fs wrapper in scripts/gen-shell.mjs / src/backends/worker-shell/isolate/awk.ts: keep each
 * file awk opened (`openedFiles`) as a buffer in the isolate and write it once at `close(file)`/`fflush()`/the end
 * of the program (bounded by maxOutputBytes as a redirection is), or at least use the adapter's own `appendFile`
 * instead of read-then-rewrite.
 *
 * Fixed: src/backends/worker-shell/isolate/awk-io.ts (`OutputFiles`, patched in by scripts/gen-shell.mjs, entries
 * marked `// AW2`): a file's first write creates or truncates it in storage (its open), the text printed to it is kept
 * in the isolate and appended with the adapter's `appendFile` at close()/fflush()/the program's end, or when a file's
 * pending text reaches 1 MiB (8 MiB for all files); close() ends a `>` opening. Siblings in
 * test/workers/fix31/awk2-io-regex.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("awk print > file writes 4,000 lines in well under 15 s, as gawk (milliseconds)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const lines: string[] = [];
    for (let i = 0; i < 4000; i++) lines.push(`k${i % 4} ${i} some text here`);
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/in.txt", lines.join("\n") + "\n");
    const r = await sh(ws, "awk '{print > \"out.txt\"}' in.txt; echo $?; wc -l < out.txt", { cwd: "/workspace", timeoutMs: 15000 });
    return [r.stdout, r.stderr, r.exitCode];
  });
  // Was: ["", "Execution timed out after 15000 ms\n", 124] (5,000 lines took 53 s).
  expect(out).toEqual(["0\n4000\n", "", 0]);
}, 60000);
