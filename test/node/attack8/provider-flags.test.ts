/**
 * Issue 20 eighth attack run, newest surface: `workspace.provider().open`
 * flags given as `O_*` bits (docs/filesystem.md: "`flags` as node:fs (`r`,
 * `r+`, …) or `O_*` bits") and modes, from host code.
 *
 * FIXED — `open` honours O_NOFOLLOW (a final link is ELOOP) and O_DIRECTORY
 * (ENOTDIR), refuses unknown O_* bits (EINVAL), and every mode argument must
 * be an unsigned 32-bit integer or an octal string, its 0o7777 bits kept, as
 * node:fs (-1 and 2^40 are EINVAL).
 *
 * DEFECT 1 (medium) — `O_NOFOLLOW` is ignored. Reproduction:
 *   await ws.fs.writeFile("/f", "target"); await ws.fs.symlink("/f", "/l");
 *   const h = await p.open("/l", constants.O_RDWR | constants.O_NOFOLLOW);   // node:fs, POSIX: ELOOP
 *   await h.write("X"); await h.close();
 *   await ws.fs.readFile("/f", "utf8")   // → "Xarget": written through the link
 * Impact: medium — O_NOFOLLOW is how node:fs code refuses to follow a link an
 * untrusted writer planted (a log or lock file in a directory the model's
 * code can write); here that code writes wherever the link points.
 * Fix proposal: honour O_NOFOLLOW (lstat the final component; a link →
 * ELOOP), and refuse unknown bits rather than ignore them.
 *
 * DEFECT 2 (low) — `O_DIRECTORY` on a file opens it (POSIX: ENOTDIR); a mode
 * of -1 or 2^40 is taken (-1 → 0o7755 after the umask, 2^40 → 0) where
 * node:fs throws a RangeError (ERR_OUT_OF_RANGE, 0..0o777 + the special bits).
 * Reproduction: `p.open("/f", O_RDONLY | O_DIRECTORY)` resolves;
 * `p.open("/new", "w", -1)` → file mode 0o7755 (4077).
 * Impact: low — odd modes (setuid, setgid, sticky bits set from -1) reach
 * files and later the container (push keeps modes).
 * Fix proposal: O_DIRECTORY → ENOTDIR on a non-directory; mode must be an
 * integer in 0..0o7777 (else EINVAL/RangeError), as `chmod` already checks.
 *
 * Withstood: `O_CREAT|O_EXCL`, `"wx"` and `writeFile(…, { flag: "wx" })` on
 * a dangling link are EEXIST (the target is not created, as POSIX); junk
 * flags ("rw+", 0x7fffffff) are EINVAL naming the accepted forms.
 */
import { constants } from "node:fs";
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const fresh = () => new Workspace({ storage: nodeSqliteStorage(":memory:") });
const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code);

describe("attack8: provider open flags and modes", () => {
  it("O_NOFOLLOW on a link is ELOOP and writes nothing (DEFECT 1)", async () => {
    const ws = fresh();
    try {
      const p = ws.provider();
      await ws.fs.writeFile("/f", "target");
      await ws.fs.symlink("/f", "/l");
      const opened = await p.open("/l", constants.O_RDWR | constants.O_NOFOLLOW).then(
        async (h) => {
          await h.write("X");
          await h.close();
          return "opened";
        },
        (e: { code?: string }) => e.code,
      );
      expect(opened).toBe("ELOOP");
      expect(await ws.fs.readFile("/f", "utf8")).toBe("target");
    } finally {
      await ws.close();
    }
  });

  it("O_DIRECTORY on a file is ENOTDIR; modes outside 0..0o7777 are refused (DEFECT 2)", async () => {
    const ws = fresh();
    try {
      const p = ws.provider();
      await ws.fs.writeFile("/f", "target");
      expect(await codeOf(p.open("/f", constants.O_RDONLY | constants.O_DIRECTORY))).toBe("ENOTDIR");
      expect(await codeOf(p.open("/new", "w", -1))).not.toBe("ok");
      expect(await codeOf(p.open("/new2", "w", 2 ** 40))).not.toBe("ok");
    } finally {
      await ws.close();
    }
  });

  it("O_EXCL on a dangling link is EEXIST (the target is not made); junk flags are EINVAL", async () => {
    const ws = fresh();
    try {
      const p = ws.provider();
      await ws.fs.writeFile("/f", "target");
      await ws.fs.symlink("/nothere", "/dangling");
      expect(await codeOf(p.open("/dangling", constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL))).toBe("EEXIST");
      expect(await codeOf(p.open("/dangling", "wx"))).toBe("EEXIST");
      expect(await codeOf(p.writeFile("/dangling", "Z", { flag: "wx" }))).toBe("EEXIST");
      expect(await codeOf(ws.fs.lstat("/nothere"))).toBe("ENOENT");
      expect(await codeOf(p.open("/f", "rw+"))).toBe("EINVAL");
      expect(await codeOf(p.open("/f", 0x7fffffff))).toBe("EINVAL");
    } finally {
      await ws.close();
    }
  });
});
