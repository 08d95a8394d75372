/**
 * Issue 20, twenty-first attack run (scout of fixes): `du -s` of a file or link operand prints nothing and exits 0.
 * Tried: the link-operand rule 685e323 applied to ln, mv, cp -r, find -type, stat and ls — the sibling `du`, over
 * `ld -> d` (d holding f.txt) and `la -> a.txt`, compared with GNU coreutils 9.1 on this machine.
 * Held: `ls -l`, `stat -c %F` and `find -type l` show the link as GNU does.
 * Found (low — a silent partial answer; deterministic): `du -s d a.txt la ld` prints only `1\td` (rc 0): every
 * non-directory operand — a file, a link — is left out, where GNU prints one line per operand (`d`, `a.txt`, `la`,
 * `ld`; a link without -L is the link itself, 0 blocks); `du -s ld/` prints nothing where GNU follows the link
 * (`<size>\tld/`). Sizes differ by design (no blocks in the Workspace); only the names are asserted.
 * Suggested fix: print a line for every operand (a file: its size); give du the link-operand rule (statOperand in
 * link-operands.ts): a link operand without a trailing slash is the link (0 blocks), with one (`ld/`) it is followed.
 * Fixed (fixer S2): du prints the operand's own line for every operand (`-s` had dropped non-directories); its
 * existence check is lstat unless the operand is in directory form, and the shared tree walker follows its root
 * when asked (`followRoot`, du passes it for `ld/`, `ld/.`); names are joined as GNU du (`d/f.txt` under `d/`,
 * `d//`; `ld/./f.txt`), and `du: cannot access 'la/': Not a directory` names the reason
 * (src/backends/worker-shell/isolate/walk-operands.ts; test/workers/fix21/shell-walk-operands.test.ts).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("du -s lists every operand — a file, a link as itself, ld/ as the directory — as GNU du", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.writeFile("/workspace/d/f.txt", "keep\n");
    await ws.fs.writeFile("/workspace/a.txt", "one\n");
    await ws.fs.symlink("d", "/workspace/ld");
    await ws.fs.symlink("a.txt", "/workspace/la");
    const results: string[] = [];
    for (const command of ["du -s d a.txt la ld | cut -f2", "du -s ld/ | cut -f2"]) {
      results.push((await sh(ws, `(${command}) 2>&1; echo rc=$?`, { cwd: "/workspace" })).stdout);
    }
    return results;
  });
  // Found: ["d\nrc=0\n", "rc=0\n"].
  expect(out).toEqual(["d\na.txt\nla\nld\nrc=0\n", "ld/\nrc=0\n"]);
}, 60_000);
