/**
 * Issue 20, run 40, attacker c: the node:fs provider's `open(path, "wx" | "ax" | "wx+" | "ax+")` (and the O_* form
 * `O_WRONLY|O_CREAT|O_EXCL`) of a path where something already is answers by what is there instead of `EEXIST`:
 * an existing DIRECTORY is `EISDIR`, a symbolic LINK LOOP (`self -> self`) is `ELOOP`. open(2) with
 * `O_CREAT|O_EXCL` fails `EEXIST` whenever the last component exists, and never follows a final link (so a loop is
 * `EEXIST` too). The provider's own TSDoc promises "`EEXIST` exclusive and present (a link included)"
 * (src/fs/provider.ts `open`), and its own `writeFile(p, …, { flag: "wx" })` and `appendFile(…, { flag: "ax" })`
 * already answer `EEXIST` for the same two paths.
 *
 * Reproduction: `p = workspace.provider()`; `p.mkdir("/d")`; `p.symlink("self", "/self")`;
 * `p.open("/d", "wx")` → today EISDIR; `p.open("/self", "wx")` → today ELOOP.
 * Reference (Node 22 on Linux, node:fs/promises in a temp dir, checked by hand and again below):
 *   open("d", "wx"|"ax"|"wx+"|"ax+") → EEXIST; open("self", same) → EEXIST; python3 os.open(p, O_WRONLY|O_CREAT|O_EXCL)
 *   → "File exists" for both. (`d/` with "wx" is EISDIR on both: that held.)
 * Cause: src/fs/provider.ts `open` — the existence check for `exclusive && create` comes after the
 * directory branch (`if (stat?.isDirectory()) { if (parsed.write) throw EISDIR }`), and the final link is followed
 * by `#statOrUndefined(path, true, …)` before it, which throws ELOOP for a loop; an `O_EXCL` open should lstat the
 * path (no final link followed) first and answer EEXIST for anything there.
 * Severity: low (a wrong error code; nothing is created or changed).
 * Fixed in run 40 by fixer f40fs: provider open checks O_CREAT|O_EXCL with an lstat (no final link followed) before anything else: EEXIST for anything there.
 */
import * as real from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const O_WRONLY = 1;
const O_CREAT = 0o100;
const O_EXCL = 0o200;
const cases: [string, string | number][] = [
  ["/d", "wx"],
  ["/d", "ax"],
  ["/d", "wx+"],
  ["/d", "ax+"],
  ["/d", O_WRONLY | O_CREAT | O_EXCL],
  ["/self", "wx"],
  ["/self", "ax"],
  ["/self", "ax+"],
  ["/self", O_WRONLY | O_CREAT | O_EXCL],
  ["/d/", "wx"], // EISDIR on both: held
];

async function codeOf(p: Promise<{ close(): Promise<void> }>): Promise<string> {
  try {
    await (await p).close();
    return "opened";
  } catch (e) {
    return String((e as { code?: string }).code);
  }
}

it("open with O_CREAT|O_EXCL of an existing directory or link loop is EEXIST, as node:fs on Linux", async () => {
  const dir = mkdtempSync(join(tmpdir(), "attack40c-excl-"));
  const storage = nodeSqliteStorage(":memory:");
  const workspace = new Workspace({ storage });
  try {
    // The reference: node:fs on a real directory.
    const base = join(dir, "real");
    await real.mkdir(base);
    await real.mkdir(join(base, "d"));
    await real.symlink("self", join(base, "self"));
    const expected: Record<string, string> = {};
    for (const [path, flags] of cases) expected[`${path} ${flags}`] = await codeOf(real.open(base + path, flags));
    expect(expected).toEqual({
      "/d wx": "EEXIST",
      "/d ax": "EEXIST",
      "/d wx+": "EEXIST",
      "/d ax+": "EEXIST",
      "/d 193": "EEXIST",
      "/self wx": "EEXIST",
      "/self ax": "EEXIST",
      "/self ax+": "EEXIST",
      "/self 193": "EEXIST",
      "/d/ wx": "EISDIR",
    });

    const p = workspace.provider();
    await p.mkdir("/d");
    await p.symlink("self", "/self");
    const actual: Record<string, string> = {};
    for (const [path, flags] of cases) actual[`${path} ${flags}`] = await codeOf(p.open(path, flags));
    // Was: "/d …" EISDIR and "/self …" ELOOP.
    expect(actual).toEqual(expected);
    // Nothing created or changed.
    expect((await p.readdir("/")).sort()).toEqual(["d", "self"]);
    expect(await p.readdir("/d")).toEqual([]);
    expect(await p.readlink("/self")).toBe("self");
  } finally {
    await workspace.close();
    storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
