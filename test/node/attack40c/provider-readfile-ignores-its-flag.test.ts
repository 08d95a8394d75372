/**
 * Issue 20, run 40, attacker c: the node:fs provider's `readFile(path, { flag })` ignores `flag`. node:fs opens the
 * file with it (default "r"): `{ flag: "w+" }` truncates the file and reads "" (O_RDWR|O_CREAT|O_TRUNC),
 * `{ flag: "a+" }` creates a missing file and reads "", `{ flag: "wx+" }` of an existing file is EEXIST. The
 * provider reads the old bytes, leaves them, and answers ENOENT for the missing file. Its `writeFile` and
 * `appendFile` take and check the same option (`"wx"` EEXIST, `"r"` EBADF), and docs/filesystem.md lists
 * `readFile` among the provider's node:fs methods with no exception for its flag.
 *
 * Reproduction: `p = workspace.provider()`; `p.writeFile("/h", "CD")`; `p.readFile("/h", { flag: "w+" })` → today
 * "CD" (file kept); `p.readFile("/new", { flag: "a+" })` → today ENOENT.
 * Reference: the same calls with node:fs/promises (Node 22, Linux) in a temp dir — done below, and by hand:
 *   "w+" → "" and the file is then empty; "a+" on a missing file → "" and it exists (size 0); "wx+" on an existing
 *   file → EEXIST; "r" → "CD".
 * Cause: src/fs/provider.ts `readFile` — only `encodingOf(options, …)` is read; the flag is never parsed (it
 * could open through `this.open(path, flag)` when a flag other than "r"/"rs" is given, or refuse one it does not
 * support with EINVAL, rather than silently reading).
 * Severity: low (a rare option; a caller relying on it — truncate-then-read, create-if-missing — gets other bytes
 * and other files than under node:fs).
 * Fixed in run 40 by fixer f40fs: provider readFile opens through open(path, flag) when the flag creates, truncates, does not read or checks the entry.
 */
import * as real from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

interface Fs {
  writeFile(path: string, data: string): Promise<void>;
  readFile(path: string, options: { flag: string; encoding: "utf8" }): Promise<string>;
  stat(path: string): Promise<{ size: number }>;
}

async function run(fs: Fs, at: (p: string) => string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const attempt = async (key: string, path: string, flag: string, seed?: string) => {
    if (seed !== undefined) await fs.writeFile(at(path), seed);
    try {
      out[key] = JSON.stringify(await fs.readFile(at(path), { flag, encoding: "utf8" }));
    } catch (e) {
      out[key] = String((e as { code?: string }).code);
    }
    out[`${key} after`] = await fs.stat(at(path)).then((s) => `size ${s.size}`, (e: { code?: string }) => String(e.code));
  };
  await attempt("r", "/r", "r", "CD");
  await attempt("w+", "/w", "w+", "CD");
  await attempt("a+ missing", "/new", "a+");
  await attempt("wx+ existing", "/x", "wx+", "CD");
  return out;
}

it("provider readFile opens with its flag, as node:fs: w+ truncates, a+ creates, wx+ refuses an existing file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "attack40c-read-flag-"));
  const storage = nodeSqliteStorage(":memory:");
  const workspace = new Workspace({ storage });
  try {
    const expected = await run(real as unknown as Fs, (p) => dir + p);
    expect(expected).toEqual({
      r: '"CD"',
      "r after": "size 2",
      "w+": '""',
      "w+ after": "size 0",
      "a+ missing": '""',
      "a+ missing after": "size 0",
      "wx+ existing": "EEXIST",
      "wx+ existing after": "size 2",
    });
    const actual = await run(workspace.provider() as unknown as Fs, (p) => p);
    // Was: "w+" → "CD" (size 2 after), "a+ missing" → ENOENT (nothing created), "wx+ existing" → "CD".
    expect(actual).toEqual(expected);
  } finally {
    await workspace.close();
    storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
