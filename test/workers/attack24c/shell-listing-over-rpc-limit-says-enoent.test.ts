/**
 * Issue 20, twenty-fourth attack run: the shell backend lists a directory in ONE Workers RPC answer
 * (`ShellHostTarget.readdir` / `listWithContents`, src/backends/worker-shell/backend.ts): every `WorkspaceDirentResult`
 * repeats the listed directory's whole path as `parentPath`, so a directory at a long — but Linux-legal — path holding
 * a few thousand files answers past workerd's 32 MiB RPC limit. The uncoded workerd error then reaches just-bash:
 * `ls` says the directory does not exist, a glob silently matches nothing, `find` prints workerd's text.
 *
 * Sibling of run 23's artifacts-stub finding (RPC answers of caller-sized data unmeasured): the filesystem stub pages
 * or refuses with E2BIG (`checkFsRpcResult`), the JavaScript backend pages its readdir (fix19a2); the shell's
 * per-command RPC target answers the whole listing.
 *
 * Tried: a Workspace with the shell backend in real workerd; D = /workspace/<40 segments of 99 characters> (4,010
 * characters, under Linux's PATH_MAX of 4096, each segment under NAME_MAX 255) holding 9,000 one-byte files
 * f0000…f8999; `ls "$D"`, `echo "$D"/*`, `find "$D" -type f`, `cd "$D" && ls`, `rm "$D"/f*`.
 * Held: `ws.fs.readdir(D)` in the object lists 9,000; `cat "$D"/f0001` reads one file; the same tree with 100 files
 * lists in the shell.
 *
 * Found (medium; 3 of 3 runs): `ls "$D" | wc -l` → 0 and `ls: <D>: No such file or directory`; `cd "$D" && ls` →
 * `ls: .: No such file or directory`; `echo "$D"/* | wc -w` → 1 (the glob matched nothing and stayed literal, no
 * error); `find "$D" -type f` → `find: Serialized RPC arguments or return values are limited to 32MiB, but the size of
 * this value was: 36948875 bytes.`; `rm "$D"/f*` removes nothing (`cannot remove '…/f*'`). A loop `for f in *` or a
 * `rm *` silently does nothing. With a 200-character directory path ~110,000 files reach the same limit.
 *
 * Suggested fix: page the host's readdir over RPC (limit/offset, as fix19a2 did for the JavaScript backend) and drop
 * the repeated `parentPath` from what crosses (the isolate knows the path it asked for); map an uncoded RPC error to
 * EIO with its message, never ENOENT.
 *
 * Fixed: the shell's host (`ShellHostTarget.listWithContents`, src/backends/worker-shell/backend.ts) answers entries
 * without `parentPath`, and a listing still past 16 MiB (estimated) as a stream of JSON lines (`entryLines`,
 * src/util/rpc-bytes.ts), which the adapter reads back; every listing of the adapter (`readdir`, `readdirWithFileTypes`,
 * `cp -r`) goes through it (`{ contents: false }` where no contents are kept). The host's plain `readdir`/`readFile`
 * answers are measured (`checkFsRpcResult`: E2BIG with advice), and the adapter maps workerd's uncoded size error to
 * EIO/EFBIG with its message (never ENOENT). The expectations changed where they met the documented 16 MiB output
 * limit, not RPC: `echo "$D"/*` and `find "$D"` print 9,000 paths of 4,015 characters (36 MB), so the glob is counted
 * with `set -- "$D"/*; echo $#` and find with `-printf`; `rm "$D"/f0*` removes 1,000. The long-path
 * listing past 16 MiB (the stream) is in test/workers/fix24/shell-rpc-data.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const FILES = 9000;

describe("attack24c: the shell lists a directory of 9,000 files at a 4,010-character path", () => {
  it("ls, a glob and find see all 9,000 files", { timeout: 300_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      const D = `/workspace/${Array.from({ length: 40 }, (_, i) => `${String(i).padStart(2, "0")}${"s".repeat(97)}`).join("/")}`;
      await ws.fs.mkdir(D, { recursive: true });
      for (let i = 0; i < FILES; i++) await ws.fs.writeFile(`${D}/f${String(i).padStart(4, "0")}`, "x");
      const local = (await ws.fs.readdir(D)).length;
      const out: [string, number, string, string][] = [];
      for (const cmd of ['ls "$D" | wc -l', 'cd "$D" && ls | wc -l', 'set -- "$D"/*; echo $#', "find \"$D\" -type f -printf 'x\\n' | wc -l", 'rm "$D"/f0*; ls "$D" | wc -l']) {
        const s = await sh(ws, cmd, { cwd: "/workspace", timeoutMs: 200_000, env: { D } });
        out.push([cmd, s.exitCode, s.stdout, s.stderr.length > 300 ? `${s.stderr.slice(0, 60)}…${s.stderr.slice(-200)}` : s.stderr]);
      }
      return { length: D.length, local, out };
    });
    expect([r.length, r.local]).toEqual([4010, FILES]);
    expect(r.out).toEqual([
      ['ls "$D" | wc -l', 0, `${FILES}\n`, ""],
      ['cd "$D" && ls | wc -l', 0, `${FILES}\n`, ""],
      ['set -- "$D"/*; echo $#', 0, `${FILES}\n`, ""],
      ["find \"$D\" -type f -printf 'x\\n' | wc -l", 0, `${FILES}\n`, ""],
      ['rm "$D"/f0*; ls "$D" | wc -l', 0, `${FILES - 1000}\n`, ""],
    ]);
  });
});
