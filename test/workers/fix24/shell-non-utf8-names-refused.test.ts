/**
 * Issue 20, twenty-fourth attack run (lead engineer, after fixer SP made escapes write raw bytes): a name holding a
 * byte that is not UTF-8 (`$'a\xff'`) reached the Workspace as a lone surrogate escape, which the Workspace stores as
 * U+FFFD — so `$'a\xff'` and `$'a\xfe'` were one file and `echo 2 > $'a\xfe'` overwrote what `echo 1 > $'a\xff'`
 * wrote (bash on Linux keeps two files). The Workspace stores UTF-8 names only, so the shell's filesystem adapter
 * refuses such a name with EILSEQ (`Invalid or incomplete multibyte or wide character`) and nothing is written;
 * names with real characters (é, 💀 — whose UTF-16 low half lies in the escape range) are untouched.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("a name with a byte that is not UTF-8 is refused with EILSEQ and writes nothing; real characters pass", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const r = await sh(ws, "echo 1 > $'a\\xff'; echo rc=$?; echo 2 > $'a\\xfe'; touch $'b\\xe9'; echo rc=$?; cat $'a\\xff'; echo rc=$?; echo x > 'é💀'; cat 'é💀'");
    return { stdout: r.stdout, stderr: r.stderr, names: (await ws.fs.readdir("/workspace")).map((e) => e.name).sort() };
  });
  expect(out.stdout).toBe("rc=1\nrc=1\nrc=1\nx\n");
  expect(out.stderr.split("\n").filter(Boolean).map((line) => line.replace(/^.*: /, ""))).toEqual(Array(4).fill("Invalid or incomplete multibyte or wide character"));
  expect(out.names).toEqual(["é💀"]);
});
