/**
 * Issue 20, twenty-first attack run: `mv` (and `cp -r`) look through a symbolic link operand where rename(2) and GNU
 * do not: `mv a.txt la` (la -> a.txt) does NOTHING and exits 0 (GNU renames a.txt over the link); `mv la a.txt` and
 * `mv d/f.txt ld/f.txt` exit 0 having done nothing (GNU: `are the same file`, $? 1); `mv ld d` and `cp -r ld d/sub`
 * (ld -> d) are refused as moving/copying d "into itself" (GNU moves/copies the LINK: d/ld, d/sub/ld).
 * Tried: /workspace with a.txt, d/f.txt, d/sub, la -> a.txt, ld -> d: the five commands above, `mv -v a.txt la`,
 * `mv -f la a.txt`; side by side with GNU coreutils 9.1.
 * Held: `cp la a.txt` (same file, refused, as GNU); `mv d ld` and `mv d/sub ld/sub` (into itself, refused — only the
 * wording differs); `mv ld/ d` refused; the Workspace API's rename of a directory below itself through a link
 * (EINVAL) and over a link (ENOTDIR).
 * Found (medium — `mv a.txt la` reports success for a rename that did not happen: a.txt is still there, la still a
 * link, `mv -v` prints nothing; the rest refuse or accept the wrong way; 2 of 2 runs): ours, in order: rc=0 with
 * a.txt and la unchanged; rc=0 (×2) no message; rc=1 `mv: cannot move 'ld' into itself, '/workspace/d/ld'`; rc=1
 * `cp: cannot copy 'ld' into itself, '/workspace/d/sub/ld'`.
 * Suggested fix: in the mv/cp commands (gen-shell patches or the adapter's mv), compare source and destination by
 * lstat of the source (the link itself) and stat of the destination's parent + name as rename(2) sees them: the
 * same node only when both lstat to one inode (then GNU's "are the same file", $? 1); a link source is never
 * "a directory into itself"; otherwise do the rename.
 * Fixed: scripts/gen-shell.mjs patches mv to lstat its source (a link is never "a directory into itself"), to check
 * "same file" with mvSameFile (src/backends/worker-shell/isolate/link-operands.ts: both lstat to one node, or the
 * source is a link to the destination; `mv: 'S' and 'D' are the same file`, $? 1 — it used to `continue` silently),
 * and -n to lstat the destination; cp -r lstats its source (copies a link as a link), and cp without -r now copies
 * what a source link leads to (it made a link before; GNU copies the bytes).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const base = ["/workspace", "/workspace/a.txt", "/workspace/d", "/workspace/d/f.txt", "/workspace/d/sub", "/workspace/la", "/workspace/ld"];
const tree = (drop: string[], add: string[]) => `${[...base.filter((p) => !drop.includes(p)), ...add].sort().join(" ")} `;

const cases: { command: string; stdout: string; stderr: string }[] = [
  { command: "mv a.txt la; echo rc=$?; cat la", stdout: `rc=0\none\ntwo\n${tree(["/workspace/a.txt"], [])}`, stderr: "" },
  { command: "mv la a.txt; echo rc=$?", stdout: `rc=1\n${tree([], [])}`, stderr: "mv: 'la' and 'a.txt' are the same file\n" },
  { command: "mv d/f.txt ld/f.txt; echo rc=$?", stdout: `rc=1\n${tree([], [])}`, stderr: "mv: 'd/f.txt' and 'ld/f.txt' are the same file\n" },
  { command: "mv ld d; echo rc=$?", stdout: `rc=0\n${tree(["/workspace/ld"], ["/workspace/d/ld"])}`, stderr: "" },
  { command: "cp -r ld d/sub; echo rc=$?", stdout: `rc=0\n${tree([], ["/workspace/d/sub/ld"])}`, stderr: "" },
];

it("mv and cp -r act on a link operand itself, as rename(2) and GNU", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const results: { command: string; stdout: string; stderr: string }[] = [];
    for (const { command } of cases) {
      await ws.fs.rm("/workspace", { recursive: true, force: true });
      await ws.fs.mkdir("/workspace/d/sub", { recursive: true });
      await ws.fs.writeFile("/workspace/a.txt", "one\ntwo\n");
      await ws.fs.writeFile("/workspace/d/f.txt", "keep\n");
      await ws.fs.symlink("a.txt", "/workspace/la");
      await ws.fs.symlink("d", "/workspace/ld");
      const r = await sh(ws, `(${command}); find /workspace | sort | tr '\\n' ' '`, { cwd: "/workspace" });
      results.push({ command, stdout: r.stdout, stderr: r.stderr });
    }
    return results;
  });
  expect(out).toEqual(cases);
});
