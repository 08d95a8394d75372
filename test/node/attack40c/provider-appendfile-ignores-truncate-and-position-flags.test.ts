/**
 * Issue 20, run 40, attacker c: the node:fs provider's `appendFile(path, data, { flag })` honours only part of its
 * flag. node:fs opens the file with the flag given (default "a") and writes `data` through that descriptor, so
 * `{ flag: "w" }` / `"w+"` truncate first, `"r+"` writes from offset 0 over what is there (keeping the rest) and
 * fails ENOENT on a missing file. The provider reads the flag (`"ax"` is EEXIST, `"r"` EBADF — both held) but then
 * appends at the end whatever it says: `appendFile("/f", "ab", { flag: "w" })` on "12345" leaves "12345ab" where
 * node:fs leaves "ab", and `{ flag: "r+" }` on a missing file creates it. The provider's own `writeFile` honours
 * the same flags (docs/filesystem.md "`writeFile` honours its flag"; it even hands "a" flags to appendFile), and
 * its docs list `appendFile` among the node:fs methods with no exception for its flag (docs/filesystem.md, "The
 * node:fs-style provider"; `workspace.fs.appendFile`'s "without its `encoding`/`flag` options" is about
 * workspace.fs, not the provider, which takes and checks the flag).
 *
 * Reproduction: `p = workspace.provider()`; `p.writeFile("/f", "12345")`; `p.appendFile("/f", "ab", { flag: "w" })`;
 * `p.readFile("/f", "utf8")` → today "12345ab".
 * Reference: the same calls with node:fs/promises (Node 22, Linux) in a temp dir — done below, and by hand:
 *   flag "w" → "ab", "w+" → "ab", "r+" → "ab345", "a" → "12345ab", "r+" on a missing file → ENOENT (nothing made).
 * Cause: src/fs/provider.ts `appendFile` — after `wholeFileOptions` it handles `parsed.exclusive` and otherwise
 * always calls `#appendBytes`; a flag without `append` should take `writeFile`'s path (truncate when the flag
 * truncates, write at offset 0 through a handle otherwise, ENOENT when it does not create).
 * Severity: low (a rarely used option; the bytes left differ from node:fs's — old content kept that node:fs drops).
 * Fixed in run 40 by fixer f40fs: provider appendFile hands a flag without append to writeFile, as node:fs's appendFile is writeFile with flag "a".
 */
import * as real from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

interface Fs {
  writeFile(path: string, data: string): Promise<void>;
  appendFile(path: string, data: string, options: { flag: string }): Promise<void>;
  readFile(path: string, encoding: "utf8"): Promise<string>;
}

async function run(fs: Fs, at: (p: string) => string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const flag of ["a", "w", "w+", "r+", "as"]) {
    const path = at(`/f-${flag}`);
    await fs.writeFile(path, "12345");
    try {
      await fs.appendFile(path, "ab", { flag });
      out[flag] = await fs.readFile(path, "utf8");
    } catch (e) {
      out[flag] = String((e as { code?: string }).code);
    }
  }
  try {
    await fs.appendFile(at("/missing"), "ab", { flag: "r+" });
    out["r+ missing"] = await fs.readFile(at("/missing"), "utf8");
  } catch (e) {
    out["r+ missing"] = String((e as { code?: string }).code);
  }
  return out;
}

it("provider appendFile honours a flag that truncates or writes from offset 0, as node:fs", async () => {
  const dir = mkdtempSync(join(tmpdir(), "attack40c-append-flag-"));
  const storage = nodeSqliteStorage(":memory:");
  const workspace = new Workspace({ storage });
  try {
    const expected = await run(real as unknown as Fs, (p) => dir + p);
    expect(expected).toEqual({ a: "12345ab", w: "ab", "w+": "ab", "r+": "ab345", as: "12345ab", "r+ missing": "ENOENT" });
    const actual = await run(workspace.provider() as unknown as Fs, (p) => p);
    // Was: { w: "12345ab", "w+": "12345ab", "r+": "12345ab", "r+ missing": "ab" }.
    expect(actual).toEqual(expected);
  } finally {
    await workspace.close();
    storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
