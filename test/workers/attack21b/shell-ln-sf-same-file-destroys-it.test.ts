/**
 * Issue 20, twenty-first attack run: `ln -sf TARGET NAME` where NAME is the very file TARGET names replaces that
 * file with a link to itself — its content is gone (a self-loop link left, `cat` ENOENT/ELOOP) and `$?` is 0.
 * GNU ln checks source and destination first and refuses: `ln: 'X' and 'Y' are the same file`, $? 1, nothing changed.
 * Tried: in /workspace with a.txt ("one\ntwo\n"), d/f.txt ("keep\n"), la -> a.txt: `ln -sf a.txt a.txt`,
 * `cd d && ln -sf f.txt .`, `ln -sf "$PWD/d/f.txt" d/`, `ln -sf la a.txt`; side by side with GNU coreutils 9.1.
 * Held: `ln -s a.txt a.txt` without -f (File exists, kept); `ln -sf a.txt la` (re-points the link, as GNU);
 * `ln -sf ../a.txt d/` (d/a.txt); `cp la a.txt`, `cp ld/f.txt d/f.txt` and `cp a.txt ./a.txt` (same file: refused,
 * content kept); `mv ld/f.txt d/` (content kept).
 * Found (high — data loss from one everyday command, e.g. re-linking "in place" or linking a file into the directory
 * it is already in; 2 of 2 runs): every one of the four exits 0 with no message and the named file's bytes are gone
 * (a.txt / d/f.txt is now a link whose target is itself or a loop through la).
 * Suggested fix: in the ln command (gen-shell patch next to __linkNameInDirectory), before removing an existing
 * NAME with -f, stat TARGET as seen from NAME's directory (following links) and lstat NAME; when they are the same
 * node (the Workspace inode), print `ln: '<target>' and '<name>' are the same file` and exit 1 without removing.
 * Fixed: ln is now src/backends/worker-shell/isolate/link-operands.ts (`lnCommand`, patched in by scripts/gen-shell.mjs
 * after just-bash's option parsing): with -f and an existing NAME it stats TARGET as the link would read it (from
 * NAME's directory) and lstats NAME; one node → `ln: 'T' and 'N' are the same file`, $? 1, nothing removed. (GNU 9.1
 * reads a relative TARGET from the working directory, so `ln -sf f.txt d/f.txt` still loses d/f.txt there; here it is
 * refused too — test/workers/fix21/shell-link-operands.test.ts.)
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const cases: [string, string, string][] = [
  ["ln -sf a.txt a.txt", "ln: 'a.txt' and 'a.txt' are the same file\n", "/workspace/a.txt"],
  ["cd d && ln -sf f.txt .", "ln: 'f.txt' and './f.txt' are the same file\n", "/workspace/d/f.txt"],
  ['ln -sf "$PWD/d/f.txt" d/', "ln: '/workspace/d/f.txt' and 'd/f.txt' are the same file\n", "/workspace/d/f.txt"],
  ["ln -sf la a.txt", "ln: 'la' and 'a.txt' are the same file\n", "/workspace/a.txt"],
];

it("ln -sf onto the file it names is refused as GNU's 'are the same file', the file kept", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const results: { stdout: string; stderr: string; kept: string | null }[] = [];
    for (const [command, , path] of cases) {
      await ws.fs.rm("/workspace", { recursive: true, force: true });
      await ws.fs.mkdir("/workspace/d", { recursive: true });
      await ws.fs.writeFile("/workspace/a.txt", "one\ntwo\n");
      await ws.fs.writeFile("/workspace/d/f.txt", "keep\n");
      await ws.fs.symlink("a.txt", "/workspace/la");
      const r = await sh(ws, `(${command}); echo rc=$?`, { cwd: "/workspace" });
      const stat = await ws.fs.lstat(path);
      results.push({ stdout: r.stdout, stderr: r.stderr, kept: stat.isFile ? await ws.fs.readFile(path, "utf8") : null });
    }
    return results;
  });
  expect(out).toEqual(
    cases.map(([, stderr, path]) => ({ stdout: "rc=1\n", stderr, kept: path.endsWith("a.txt") ? "one\ntwo\n" : "keep\n" })),
  );
});
