/**
 * Issue 20, twenty-seventh attack run: sed's `w FILE` command and `s///w FILE` flag, when FILE cannot be created — a
 * read-only mount, a missing directory — write nothing, print no error and exit 0, and the script runs on: what the
 * script meant to save is silently lost. GNU sed opens every `w` file before reading any input and stops with
 * `sed: couldn't open file <f>: <reason>`, exit 4, printing nothing.
 * Tried: side by side with GNU sed 4.9 — `w` and `s///w` into a WorkerBundle read-only mount (/workspace/ro) and into a
 * missing directory; and every other writing route into the mount: redirects (>, >>), tee, cp, mv, ln, ln -sf,
 * mkdir -p, rm -r/-rf, rmdir, find -delete, touch, gzip, sort -o, awk print >, tar -x, git init.
 * Held: `w out` to a writable file; all of the other routes above fail with "Read-only file system" (or EROFS) and a
 * non-zero status, leaving the mount unchanged.
 * Found (medium — data silently lost with exit 0, so `&&` chains and agents go on believing the file was written; 2 of
 * 2 runs).
 * Suggested fix: in the shell's sed (just-bash sed, patched through scripts/gen-shell.mjs /
 * src/backends/worker-shell/isolate/sort-sed.ts), open (create/truncate) every `w` file when the script is parsed,
 * before any input is read, and fail with `sed: couldn't open file <f>: <strerror>` and status 4 when one cannot be
 * opened, as GNU sed does.
 *
 * Fixed: after parsing, sed opens (creates empty) every w/W/`s///w` file before reading input (sed-gnu.ts
 * openWriteFiles, called from a `// SH` patch in scripts/gen-shell.mjs) and stops with `sed: couldn't open file F:
 * <reason>`, status 4.
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const commands = [
  "sed -n 'w ro/saved' ro/f.txt",
  "sed 's/a/A/w ro/changed' ro/f.txt",
  "sed -n 'w nodir/x' ok.txt",
];

it("sed w to a file it cannot create fails with status 4 before reading input, as GNU sed", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      await ws.fs.writeFile("/workspace/ok.txt", "ok\n");
      const results = [];
      for (const command of commands) {
        const r = await sh(ws, `${command}; echo rc=$?`, { cwd: "/workspace" });
        results.push([command, r.stdout, r.stderr]);
      }
      return results;
    },
    { workspace: { mounts: { "/workspace/ro": WorkerBundle({ "f.txt": "abc\n" }) } } },
  );
  expect(out).toEqual([
    // Was: "rc=0\n", "".
    ["sed -n 'w ro/saved' ro/f.txt", "rc=4\n", "sed: couldn't open file ro/saved: Read-only file system\n"],
    // Was: "Abc\nrc=0\n", "".
    ["sed 's/a/A/w ro/changed' ro/f.txt", "rc=4\n", "sed: couldn't open file ro/changed: Read-only file system\n"],
    // Was: "rc=0\n", "".
    ["sed -n 'w nodir/x' ok.txt", "rc=4\n", "sed: couldn't open file nodir/x: No such file or directory\n"],
  ]);
});
