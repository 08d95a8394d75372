/**
 * Issue 20, thirty-fifth attack run: the node:fs-style provider's `symlink(target, path)` rejects `ENOTDIR` when a
 * directory on `path`'s parent chain is a symbolic link (`/w/lnk/x` with `lnk -> real`), where node:fs on Linux
 * (symlink(2) follows links in the parent) makes `/w/real/x`. The provider passes the path straight to
 * `workspace.fs.symlink`, whose parent chain must be real directories (spec 01); every other provider call
 * (`writeFile`, `mkdir`, `rename`, `open`, `copyFile`, `readdir`) follows the same link.
 * Tried: differential with node:fs/promises on a temp dir (test/node/fs/linux-oracle.ts) over link chains (relative,
 * absolute, dangling, loops, `..` links), rename (over files, empty/non-empty dirs, into its own subtree, links,
 * itself), mkdir/rmdir/unlink, handles, truncate/appendFile/copyFile, names (255/256 bytes, NFC/NFD, trailing dots).
 * Held: all of those but this one (or documented: lexical `..`, name length, buffered append handles).
 * Found (medium — code written against node:fs that lays out links in a linked directory, an npm-style `.bin`
 * under a linked `node_modules`, fails where node:fs succeeds; 3 of 3 runs): `ENOTDIR: not a directory, symlink
 * 't.txt' -> '/w/lnk/x'`.
 * Suggested fix: src/fs/provider.ts `symlink` — resolve the parent through its links (`realpath` of the dirname,
 * as the shell's `ln` does in isolate/link-operands.ts `throughParentLinks`) before calling `workspace.fs.symlink`;
 * keep the directory-form (`new/`) rules.
 * Fixed: the provider's `symlink` makes the link again in the parent's real directory when the Workspace refuses a
 * link among the parents (ENOTDIR), through `symlinkThroughParentLinks` in src/fs/node-errors.ts, shared with the
 * shell's file adapter (issue 20, run 35, fixer SL). Siblings: test/node/fix35/provider-link-parent.test.ts.
 */
import { expect, it } from "vitest";
import { onLinuxAndProvider } from "../fs/linux-oracle.js";

it("provider symlink through a linked parent directory makes the link, as node:fs on Linux", async () => {
  const { linux, provider } = await onLinuxAndProvider(async (fs, base) => {
    await fs.mkdir(`${base}/real`);
    await fs.writeFile(`${base}/real/t.txt`, "T");
    await fs.symlink("real", `${base}/lnk`);
    const made = await fs.symlink("t.txt", `${base}/lnk/x`).then(
      () => "ok",
      (e: NodeJS.ErrnoException) => `${e.code}: ${e.message.split(base).join("$B")}`,
    );
    const listed = (await fs.readdir(`${base}/real`)).sort();
    const read = await fs.readFile(`${base}/real/x`, "utf8").catch((e: NodeJS.ErrnoException) => e.code);
    return { made, listed, read };
  });
  expect(linux).toEqual({ made: "ok", listed: ["t.txt", "x"], read: "T" });
  // Was: { made: "ENOTDIR: ENOTDIR: not a directory, symlink 't.txt' -> '$B/lnk/x'", listed: ["t.txt"], read: "ENOENT" }
  expect(provider).toEqual(linux);
});
