/**
 * Issue 20, run 40, fixer f40fs (siblings of test/node/attack40c/provider-open-excl-on-directory-or-link-loop,
 * provider-appendfile-ignores-truncate-and-position-flags and provider-readfile-ignores-its-flag): more flags of the
 * provider's `open`, `appendFile` and `readFile`, each checked against node:fs/promises on a real directory (Node 22,
 * Linux) — O_EXCL with `d/.`, with a link to a file and with O_NOFOLLOW; readFile with a flag that does not read
 * (EBADF after its open truncated or created the file), with O_NOFOLLOW on a link (ELOOP), with `r+` (reads);
 * appendFile with `wx` (EEXIST / creates), with `r+` and data longer than the file, with `a+`.
 */
import * as real from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const O_RDONLY = 0;
const O_WRONLY = 1;
const O_CREAT = 0o100;
const O_EXCL = 0o200;
const O_NOFOLLOW = 0o400000;

interface Fs {
  mkdir(path: string): Promise<unknown>;
  symlink(target: string, path: string): Promise<void>;
  writeFile(path: string, data: string): Promise<void>;
  appendFile(path: string, data: string, options: { flag: string | number }): Promise<void>;
  readFile(path: string, options: { flag: string | number; encoding: "utf8" }): Promise<string>;
  open(path: string, flags: string | number): Promise<{ close(): Promise<void> }>;
  stat(path: string): Promise<{ size: number }>;
}

const outcome = async (p: Promise<unknown>): Promise<string> =>
  p.then(
    (v) => (typeof v === "string" ? JSON.stringify(v) : "ok"),
    (e: { code?: string }) => String(e.code),
  );

async function run(fs: Fs, at: (p: string) => string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const size = (p: string) => outcome(fs.stat(at(p)).then((s) => `size ${s.size}`));
  await fs.mkdir(at("/d"));
  await fs.writeFile(at("/f"), "12345");
  await fs.symlink("f", at("/lf"));
  for (const [path, flags] of [
    ["/d/.", "wx"],
    ["/lf", "wx"],
    ["/lf", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW],
    ["/f/x", "wx"],
  ] as const) {
    out[`open ${path} ${flags}`] = await outcome(fs.open(at(path), flags).then((h) => h.close()));
  }
  for (const flag of ["w", "a"]) {
    await fs.writeFile(at(`/r-${flag}`), "CD");
    out[`readFile ${flag}`] = await outcome(fs.readFile(at(`/r-${flag}`), { flag, encoding: "utf8" }));
    out[`readFile ${flag} after`] = await size(`/r-${flag}`);
    out[`readFile ${flag} missing`] = await outcome(fs.readFile(at(`/m-${flag}`), { flag, encoding: "utf8" }));
    out[`readFile ${flag} missing after`] = await size(`/m-${flag}`);
  }
  out["readFile r+"] = await outcome(fs.readFile(at("/f"), { flag: "r+", encoding: "utf8" }));
  out["readFile nofollow link"] = await outcome(fs.readFile(at("/lf"), { flag: O_RDONLY | O_NOFOLLOW, encoding: "utf8" }));
  out["readFile nofollow file"] = await outcome(fs.readFile(at("/f"), { flag: O_RDONLY | O_NOFOLLOW, encoding: "utf8" }));
  out["readFile a+ directory"] = await outcome(fs.readFile(at("/d"), { flag: "a+", encoding: "utf8" }));
  for (const [name, path, flag, seed] of [
    ["wx existing", "/ax", "wx", "12345"],
    ["wx missing", "/ay", "wx", undefined],
    ["r+ longer", "/az", "r+", "12"],
    ["a+", "/aa", "a+", "12"],
  ] as const) {
    if (seed !== undefined) await fs.writeFile(at(path), seed);
    out[`appendFile ${name}`] = await outcome(fs.appendFile(at(path), "abcd", { flag }));
    out[`appendFile ${name} text`] = await outcome(fs.readFile(at(path), { flag: "r", encoding: "utf8" }));
  }
  return out;
}

it("open, readFile and appendFile flags answer as node:fs", async () => {
  const dir = mkdtempSync(join(tmpdir(), "fix40-flags-"));
  const storage = nodeSqliteStorage(":memory:");
  const workspace = new Workspace({ storage });
  try {
    const expected = await run(real as unknown as Fs, (p) => dir + p);
    expect(expected).toEqual({
      "open /d/. wx": "EEXIST",
      "open /lf wx": "EEXIST",
      "open /lf 131265": "EEXIST",
      "open /f/x wx": "ENOTDIR",
      "readFile w": "EBADF",
      "readFile w after": '"size 0"',
      "readFile w missing": "EBADF",
      "readFile w missing after": '"size 0"',
      "readFile a": "EBADF",
      "readFile a after": '"size 2"',
      "readFile a missing": "EBADF",
      "readFile a missing after": '"size 0"',
      "readFile r+": '"12345"',
      "readFile nofollow link": "ELOOP",
      "readFile nofollow file": '"12345"',
      "readFile a+ directory": "EISDIR",
      "appendFile wx existing": "EEXIST",
      "appendFile wx existing text": '"12345"',
      "appendFile wx missing": "ok",
      "appendFile wx missing text": '"abcd"',
      "appendFile r+ longer": "ok",
      "appendFile r+ longer text": '"abcd"',
      "appendFile a+": "ok",
      "appendFile a+ text": '"12abcd"',
    });
    const actual = await run(workspace.provider() as unknown as Fs, (p) => p);
    expect(actual).toEqual(expected);
  } finally {
    await workspace.close();
    storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
