/**
 * Issue 20, twenty-third attack run (fixer SB3): `canonicalize` (src/backends/worker-shell/isolate/link-operands.ts),
 * what the shell's `readlink -f`/`-e`/`-m` print, against a real directory tree. Every expected value is what GNU
 * readlink 9.1 printed (or the reason `-v` gave) for the same operand in the same tree on Linux (see
 * test/workers/attack23b/shell-readlink-f-unresolvable-exit-0.test.ts).
 */
import { mkdir, mkdtemp, readlink, lstat, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalize, type CanonicalizeMode } from "../../../src/backends/worker-shell/isolate/link-operands.js";

let root: string;
let P: string;
const fs = {
  lstat: async (path: string) => {
    const s = await lstat(path);
    return { isFile: s.isFile(), isDirectory: s.isDirectory(), isSymbolicLink: s.isSymbolicLink(), mode: s.mode & 0o7777, size: s.size };
  },
  readlink: (path: string) => readlink(path),
};

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "sb3-readlink-")));
  P = join(root, "w");
  await mkdir(join(P, "d"), { recursive: true });
  await writeFile(join(P, "f"), "\n");
  const links: Record<string, string> = { l: "f", l2: "l1", l1: "l2", ld: "d", dang: "nope", up: "../x", lds: "d/", lfs: "f/", dang2: "nope/x" };
  for (const [name, target] of Object.entries(links)) await symlink(target, join(P, name));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** What canonicalize gives for `operand` (relative to P): the path with P and its parent written `P` and `R`, or the error code. */
async function run(operand: string, mode: CanonicalizeMode): Promise<string> {
  try {
    const out = await canonicalize(fs, operand.startsWith("/") ? operand : `${P}/${operand}`, mode);
    return out === P ? "P" : out.startsWith(`${P}/`) ? `P${out.slice(P.length)}` : out === root ? "R" : out.startsWith(`${root}/`) ? `R${out.slice(root.length)}` : out;
  } catch (error) {
    return (error as { code: string }).code;
  }
}

// operand → [-f, -e, -m]
const CASES: Record<string, [string, string, string]> = {
  f: ["P/f", "P/f", "P/f"],
  l: ["P/f", "P/f", "P/f"],
  l1: ["ELOOP", "ELOOP", "P/l1"],
  "l1/x": ["ELOOP", "ELOOP", "P/l1/x"],
  nope: ["P/nope", "ENOENT", "P/nope"],
  "nope/": ["P/nope", "ENOENT", "P/nope"],
  "nope/x": ["ENOENT", "ENOENT", "P/nope/x"],
  "nope/.": ["ENOENT", "ENOENT", "P/nope"],
  "nope/..": ["ENOENT", "ENOENT", "P"],
  "f/": ["ENOTDIR", "ENOTDIR", "P/f"],
  "f/.": ["ENOTDIR", "ENOTDIR", "P/f"],
  "f/..": ["ENOTDIR", "ENOTDIR", "P"],
  "f/x": ["ENOTDIR", "ENOTDIR", "P/f/x"],
  "d/": ["P/d", "P/d", "P/d"],
  "ld/.": ["P/d", "P/d", "P/d"],
  "ld/..": ["P", "P", "P"],
  ld: ["P/d", "P/d", "P/d"],
  dang: ["P/nope", "ENOENT", "P/nope"],
  "dang/": ["P/nope", "ENOENT", "P/nope"],
  dang2: ["ENOENT", "ENOENT", "P/nope/x"],
  up: ["R/x", "ENOENT", "R/x"],
  lds: ["P/d", "P/d", "P/d"],
  "lds/": ["P/d", "P/d", "P/d"],
  lfs: ["ENOTDIR", "ENOTDIR", "P/f"],
  "d/../f": ["P/f", "P/f", "P/f"],
  "ld/../f": ["P/f", "P/f", "P/f"],
  "./d//.": ["P/d", "P/d", "P/d"],
  "/": ["/", "/", "/"],
  "//": ["/", "/", "/"],
  ".": ["P", "P", "P"],
  "..": ["R", "R", "R"],
  "d/nope/..": ["ENOENT", "ENOENT", "P/d"],
  "ld/nope/../..": ["ENOENT", "ENOENT", "P"],
};

describe("readlink -f/-e/-m canonicalize as GNU readlink 9.1", () => {
  for (const [index, mode] of (["all-but-last", "existing", "missing"] as const).entries()) {
    it(`${mode}: every operand as GNU`, async () => {
      const got: Record<string, string> = {};
      for (const operand of Object.keys(CASES)) got[operand] = await run(operand, mode);
      expect(got).toEqual(Object.fromEntries(Object.entries(CASES).map(([operand, want]) => [operand, want[index]])));
    });
  }

  it("the empty name is ENOENT in every mode", async () => {
    for (const mode of ["all-but-last", "existing", "missing"] as const) {
      await expect(canonicalize(fs, "", mode)).rejects.toMatchObject({ code: "ENOENT" });
    }
  });
});
