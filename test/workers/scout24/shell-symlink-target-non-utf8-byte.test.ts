/**
 * Issue 20, twenty-fourth attack run (scout of fixes): d915dcb refuses a NAME holding a byte that is not UTF-8 with
 * EILSEQ (so `$'a\xff'` and `$'a\xfe'` are not one file), but a symbolic link's TARGET with such a byte is not checked:
 * it is stored mangled, so two different targets become one.
 * Tried: `ln -s $'x\xff' l; ln -s $'x\xfe' m`, `readlink l | od`, against bash 5.2 / coreutils 9.1 and against the
 *   names d915dcb refuses (touch, >, mkdir, mv, cp, ln NAME — all refused now, nothing written).
 * Held: names: every command above refuses `$'b\xff'` as a name, and `[ -e $'a\xff' ]`/`rm -f` stay quiet.
 * Found (medium: the same silent collision the fix closed for names): both links are made (status 0); `readlink l`
 *   prints `78 ef bf bd ef bf bd ef bf bd` (the escape's three WTF-8 bytes each made U+FFFD; GNU: `78 ff`), and
 *   `readlink l` = `readlink m`, so `$'x\xff'` and `$'x\xfe'` point at one name.
 * Suggested fix: run the target through the same check as a name in the shell's fs adapter symlink() (NOT_UTF8_BYTE →
 *   EILSEQ, `ln: failed to create symbolic link 'l': Invalid or incomplete multibyte or wide character`, status 1, no
 *   link), as the Workspace stores UTF-8 targets only.
 * Fixed: the shell's filesystem adapter refuses a link target holding a byte that is not UTF-8 as it refuses such
 * a name (EILSEQ, nothing made); ln names the reason from the shared strerror table (link-operands.ts).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("a link target with a byte that is not UTF-8 is refused with EILSEQ (not stored as U+FFFD)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(ws, "ln -s $'x\\xff' l; echo rc=$?; ln -s $'x\\xfe' m; echo rc=$?", { cwd: "/workspace" });
    return { stdout: r.stdout, reasons: r.stderr.split("\n").filter(Boolean).map((line) => line.replace(/^.*: /, "")), names: (await ws.fs.readdir("/workspace")).map((e) => e.name).sort() };
  });
  expect(out).toEqual({ stdout: "rc=1\nrc=1\n", reasons: Array(2).fill("Invalid or incomplete multibyte or wide character"), names: [] });
});
