/**
 * Issue 20, twenty-seventh attack run: `uniq IN OUT` and `split … PREFIX` whose output file cannot be created hide the
 * reason. Into a read-only mount uniq says `uniq: ro/u: No such file or directory` (GNU: `Read-only file system`), and
 * split says only `split: failed to write output`, never naming the file nor why, for a read-only mount and for a
 * missing directory alike (GNU: `split: ro/partaa: Read-only file system`, `split: nodir/partaa: No such file or
 * directory`). The status (1) is right; an agent is sent looking for a missing file, or told nothing.
 * Tried: side by side with GNU coreutils 9.1 — every writing route into a WorkerBundle read-only mount
 * (/workspace/ro): redirects, tee, cp, mv, ln, mkdir -p, rm, find -delete, touch, gzip, sort -o, awk print >, tar -x,
 * uniq IN OUT, split.
 * Held: redirects, tee, cp, mv, ln, mkdir, rm, touch, tar name "Read-only file system"; gzip, sort -o, awk and
 * find -delete name EROFS; run 22's chmod / sed -i fix.
 * Found (low — wrong or missing reason in an error, status right, nothing written; 2 of 2 runs).
 * Suggested fix: in the gen-shell uniq and split paths, report a failed output open as GNU does, `<cmd>: <file>:
 * <strerror of the error's code>` (path-errors.ts's reason helpers, as run 22's chmod / sed -i fix), split naming the
 * piece it failed to create (`<prefix>aa`).
 *
 * Fixed: uniq is text-gnu.ts uniqCommand (gen-shell patch "uniq as GNU uniq (SI)"): OUTPUT is written (never read),
 * its failure `uniq: OUT: <reason>`; -f/-s/-w/-D/--group/-z supported. split's failed write names the piece being
 * written and the reason (patches "split piece written"/"split output failure", text-gnu.ts splitFailure).
 */
import { expect, it } from "vitest";
import { WorkerBundle } from "../../../src/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const commands = ["uniq ok.txt ro/u", "split -l 1 ok.txt ro/part", "split -l 1 ok.txt nodir/part"];

it("uniq and split name the output file and the reason it could not be created, as GNU", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      await ws.ready();
      await ws.fs.writeFile("/workspace/ok.txt", "ok\n");
      const results = [];
      for (const command of commands) {
        const r = await sh(ws, `${command}; echo rc=$?; ls ro`, { cwd: "/workspace" });
        results.push([command, r.stdout, r.stderr]);
      }
      return results;
    },
    { workspace: { mounts: { "/workspace/ro": WorkerBundle({ "f.txt": "abc\n" }) } } },
  );
  expect(out).toEqual([
    // Was: "uniq: ro/u: No such file or directory\n".
    ["uniq ok.txt ro/u", "rc=1\nf.txt\n", "uniq: ro/u: Read-only file system\n"],
    // Was: "split: failed to write output\n".
    ["split -l 1 ok.txt ro/part", "rc=1\nf.txt\n", "split: ro/partaa: Read-only file system\n"],
    // Was: "split: failed to write output\n".
    ["split -l 1 ok.txt nodir/part", "rc=1\nf.txt\n", "split: nodir/partaa: No such file or directory\n"],
  ]);
});
