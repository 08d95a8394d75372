/**
 * Issue 20, twelfth attack run: the Workspace path limits of src/fs/path.ts (f18acb5, 4036f71):
 * `ENAMETOOLONG` past 256 KiB of UTF-8 per path (MAX_PATH_BYTES) or 32 MiB for a path's ancestors'
 * paths together (MAX_PATH_PREFIX_BYTES), at every entry point.
 *
 * Tried:
 * - `rename` of a directory into a long directory, so that a descendant's new path passes 256 KiB, and
 *   into one where a deep descendant's ancestors pass 32 MiB (through `ws.fs` and the provider);
 * - `rename` of a file to a too-long path, `mkdir -p` of a too-deep path, `symlink` at a too-long path,
 *   `writeFile`, `readlink`, `stat`, the provider's `rename`/`mkdir`/`copyFile` — all must refuse with
 *   ENAMETOOLONG and leave nothing half-done;
 * - `symlink` with a 3,000,000-byte target (stored verbatim: no path limit applies to a target);
 * - a directory whose path is exactly 256 KiB in /workspace/tools (its TOOL.md's path is too long): the
 *   loader, and the ls/find/grep tools over it (held: skipped as unreadable, results bounded);
 * - every agent tool given a 300,000-byte path (held: a short ENAMETOOLONG error result).
 */
import { describe, expect, it } from "vitest";
import { makeWorkspace } from "../tools/helpers.js";
import { MAX_PATH_BYTES } from "../../../src/fs/path.js";
import { loadToolDirectories } from "../../../src/tool-dirs/load.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

const LONG = "L".repeat(200_000); // a 200,000-byte directory name: its path is well inside 256 KiB
const SEG = "s".repeat(2_000);
const chain = (n: number, seg: string) => Array.from({ length: n }, () => seg).join("/");
const code = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code ?? String(e));

describe("attack12: a rename that moves descendants past the path limits", () => {
  // FIXED (was DEFECT, medium: files made unreachable by one successful call — every method refuses their paths).
  // Fixed: rename now calls Nodes.assertMovable before anything changes: the new path is checked, and for a
  // directory the subtree's longest key and greatest depth (one index range read) bound every moved path;
  // when the bound passes a limit, each path is measured exactly (a recursive walk) and the longest offender
  // is named in the ENAMETOOLONG. The original report follows.
  // docs/filesystem.md: "Every method: a path of more than 256 KiB of UTF-8, or whose ancestors' paths
  // hold more than 32 MiB together → ENAMETOOLONG (checked with the path, so before the codes …)". A rename
  // checks only the two paths it is given (src/fs/path.ts canonicalPath via filesystem.ts rename); the
  // directory's descendants get new keys `<newPath>/<rest>` in one statement (nodes.ts rename), never
  // measured. Here /d holds a 40-deep chain of 2,000-byte names (80 KB of path) and /LONG is 200 KB:
  // the rename succeeds, and /LONG/d/…/f (280,045 bytes) then fails ENAMETOOLONG on readFile, stat, rm,
  // the file tools, git — while readdir still lists its parent's entries. (Renaming back recovers it,
  // if the caller knows to.)
  // Expected: the rename fails ENAMETOOLONG ("a path below … would be too long") and /d stays as it was.
  // Fix: in rename of a directory, before the update, measure the subtree — SELECT max(length(path_key))
  // (and the deepest key's depth) FROM __ws_nodes under the old prefix — and refuse when
  // newPath + longest suffix passes MAX_PATH_BYTES or its prefix sum passes MAX_PATH_PREFIX_BYTES.
  it("rename of a directory whose deepest file would pass 256 KiB fails ENAMETOOLONG and moves nothing", async () => {
    const ws = await makeWorkspace();
    try {
      await ws.fs.mkdir(`/${LONG}`);
      const rel = `${chain(40, SEG)}/f`;
      await ws.fs.mkdir(`/d/${chain(40, SEG)}`, { recursive: true });
      await ws.fs.writeFile(`/d/${rel}`, "data");
      expect(`/${LONG}/d/${rel}`.length).toBeGreaterThan(MAX_PATH_BYTES);
      const error = await ws.fs.rename("/d", `/${LONG}/d`).then(() => undefined, (e: Error) => e);
      const renamed = (error as { code?: string } | undefined)?.code ?? "ok";
      // before the fix: "ok", and the file was unreadable where it went
      const afterward = await code(ws.fs.readFile(`/${LONG}/d/${rel}`, "utf8"));
      // (The report expected ENOENT here; the path itself is past the limits, so every method answers ENAMETOOLONG.)
      expect({ renamed, afterward }).toEqual({ renamed: "ENAMETOOLONG", afterward: "ENAMETOOLONG" });
      expect(error!.message).toBe(
        `ENAMETOOLONG: a path below the moved directory would be too long: ${`/${LONG}/d/${rel}`.length} bytes of UTF-8, at most ${MAX_PATH_BYTES}; ` +
          `nothing was moved; move it somewhere shorter or shallower: /${"L".repeat(59)}…, rename`,
      );
      expect(await ws.fs.readFile(`/d/${rel}`, "utf8")).toBe("data");
      expect(await code(ws.fs.stat(`/${LONG}/d`))).toBe("ENOENT");
    } finally {
      await ws.close();
    }
  });

  // FIXED (was DEFECT, same cause; fixed as above): the 32 MiB ancestors bound. /p holds a 200-deep chain of
  // one-letter names (a 400-byte path); moved under the 200 KB directory, its deepest file's ancestors
  // hold 200 × ~200 KB ≈ 40 MB of path, past MAX_PATH_PREFIX_BYTES: the rename succeeds (and writes
  // those 40 MB of keys), and the file is then ENAMETOOLONG.
  it("rename of a deep directory under a long one (ancestors past 32 MiB) fails ENAMETOOLONG and moves nothing", async () => {
    const ws = await makeWorkspace();
    try {
      await ws.fs.mkdir(`/${LONG}`);
      const rel = `${chain(200, "q")}/g`;
      await ws.fs.mkdir(`/p/${chain(200, "q")}`, { recursive: true });
      await ws.fs.writeFile(`/p/${rel}`, "G");
      const error = await ws.fs.rename("/p", `/${LONG}/p`).then(() => undefined, (e: Error) => e);
      const renamed = (error as { code?: string } | undefined)?.code ?? "ok";
      const afterward = await code(ws.fs.readFile(`/${LONG}/p/${rel}`, "utf8"));
      // (The report expected ENOENT here; the path itself is past the limits, so every method answers ENAMETOOLONG.)
      expect({ renamed, afterward }).toEqual({ renamed: "ENAMETOOLONG", afterward: "ENAMETOOLONG" });
      expect(error!.message).toMatch(/^ENAMETOOLONG: a path below the moved directory would be too deep for its length: its ancestors' paths would hold \d+ bytes of UTF-8 together, at most 33554432; nothing was moved/);
      expect(await ws.fs.readFile(`/p/${rel}`, "utf8")).toBe("G");
    } finally {
      await ws.close();
    }
  });

  it("a move whose rough bound passes the limit but whose every path fits is made (the exact measure decides)", async () => {
    const ws = await makeWorkspace();
    try {
      await ws.fs.mkdir(`/${LONG}`);
      // Depth 151 (a chain of one-letter names) and a 60,000-byte name, in different places: the bound
      // (greatest depth × longest relative path) passes 32 MiB; the true deepest path's ancestors hold ~30.4 MB.
      await ws.fs.mkdir(`/e/${chain(150, "q")}`, { recursive: true });
      await ws.fs.writeFile(`/e/${chain(150, "q")}/deep`, "D");
      await ws.fs.writeFile(`/e/${"w".repeat(60_000)}`, "W");
      await ws.fs.rename("/e", `/${LONG}/e`);
      expect(await ws.fs.readFile(`/${LONG}/e/${chain(150, "q")}/deep`, "utf8")).toBe("D");
      expect(await ws.fs.readFile(`/${LONG}/e/${"w".repeat(60_000)}`, "utf8")).toBe("W");
      expect(await code(ws.fs.stat("/e"))).toBe("ENOENT");
    } finally {
      await ws.close();
    }
  });

  it("a file renamed through a link to a long directory, to a name that makes its real path too long: ENAMETOOLONG", async () => {
    const ws = await makeWorkspace();
    try {
      await ws.fs.mkdir(`/${LONG}`);
      await ws.fs.symlink(`/${LONG}`, "/to");
      await ws.fs.writeFile("/f", "keep");
      const to = `/to/${"n".repeat(70_000)}`; // 70,004 bytes as given; 270,002 where the link leads
      const error = await ws.fs.rename("/f", to).then(() => undefined, (e: Error) => e);
      expect(error?.message).toBe(
        `ENAMETOOLONG: path too long: 270002 bytes of UTF-8, at most ${MAX_PATH_BYTES}, where it would be moved to; use a shorter or shallower path: /${"L".repeat(59)}…, rename`,
      );
      expect(await ws.fs.readFile("/f", "utf8")).toBe("keep");
      expect(await ws.fs.readdir(`/${LONG}`)).toEqual([]);
    } finally {
      await ws.close();
    }
  });

  // FIXED (was DEFECT, same cause): through the provider (node:fs-like `rename`), the same move succeeded.
  it("provider rename of such a directory fails ENAMETOOLONG", async () => {
    const ws = await makeWorkspace();
    try {
      await ws.fs.mkdir(`/${LONG}`);
      await ws.fs.mkdir(`/d/${chain(40, SEG)}`, { recursive: true });
      const p = ws.provider();
      expect(await code(p.rename("/d", `/${LONG}/d`))).toBe("ENAMETOOLONG");
      expect((await ws.fs.stat(`/d/${chain(40, SEG)}`)).isDirectory).toBe(true);
    } finally {
      await ws.close();
    }
  });
});

describe("attack12: entry points that refuse a too-long path (held)", () => {
  it("rename of a file to a too-long path, mkdir -p too deep, symlink/writeFile/readlink/stat at a too-long path: ENAMETOOLONG, nothing changed", async () => {
    const ws = await makeWorkspace();
    try {
      await ws.fs.writeFile("/f", "keep");
      const tooLong = `/${"x".repeat(MAX_PATH_BYTES)}`;
      const tooDeep = `/${chain(9_000, "ab")}`; // 27 KB of path, ancestors ≈ 121 MB together
      const results = {
        renameFile: await code(ws.fs.rename("/f", tooLong)),
        mkdirDeep: await code(ws.fs.mkdir(tooDeep, { recursive: true })),
        mkdirLong: await code(ws.fs.mkdir(tooLong, { recursive: true })),
        symlink: await code(ws.fs.symlink("/f", tooLong)),
        writeFile: await code(ws.fs.writeFile(`${tooDeep}/x`, "x")),
        readlink: await code(ws.fs.readlink(tooLong)),
        stat: await code(ws.fs.stat(tooDeep)),
        rmSource: await code(ws.fs.rename(tooLong, "/g")),
      };
      expect(results).toEqual({
        renameFile: "ENAMETOOLONG", mkdirDeep: "ENAMETOOLONG", mkdirLong: "ENAMETOOLONG", symlink: "ENAMETOOLONG",
        writeFile: "ENAMETOOLONG", readlink: "ENAMETOOLONG", stat: "ENAMETOOLONG", rmSource: "ENAMETOOLONG",
      });
      expect(await ws.fs.readFile("/f", "utf8")).toBe("keep");
      expect((await ws.fs.readdir("/")).map((e) => e.name).sort()).toEqual(["f", "workspace"]);
    } finally {
      await ws.close();
    }
  });

  it("the provider refuses the same with node's ENAMETOOLONG (errno -36) and changes nothing", async () => {
    const ws = await makeWorkspace();
    try {
      await ws.fs.writeFile("/f", "keep");
      const p = ws.provider();
      const tooLong = `/${"y".repeat(MAX_PATH_BYTES)}`;
      const errs = await Promise.all([
        p.rename("/f", tooLong).catch((e: NodeJS.ErrnoException) => e),
        p.mkdir(`/${chain(9_000, "ab")}`, { recursive: true }).catch((e: NodeJS.ErrnoException) => e),
        p.copyFile("/f", tooLong).catch((e: NodeJS.ErrnoException) => e),
        p.symlink("/f", tooLong).catch((e: NodeJS.ErrnoException) => e),
      ]);
      expect(errs.map((e) => [(e as NodeJS.ErrnoException).code, (e as NodeJS.ErrnoException).errno])).toEqual(Array(4).fill(["ENAMETOOLONG", -36]));
      expect((await ws.fs.readdir("/")).map((e) => e.name).sort()).toEqual(["f", "workspace"]);
      expect(await ws.fs.readFile("/f", "utf8")).toBe("keep");
    } finally {
      await ws.close();
    }
  });

  // Changed with the fix of "the path limits bypassed through a link" below: a target was stored verbatim
  // at any length (3,000,000 bytes here); now one past MAX_PATH_BYTES is refused, as Linux refuses one past PATH_MAX.
  it("a 3,000,000-byte link target is refused ENAMETOOLONG; one of 256 KiB is stored verbatim and readlink returns it", async () => {
    const ws = await makeWorkspace();
    try {
      const error = await ws.fs.symlink(`/${"t".repeat(3_000_000)}`, "/lnk").then(() => undefined, (e: Error) => e);
      expect(error?.message).toBe(`ENAMETOOLONG: link target too long: 3000001 bytes of UTF-8, at most ${MAX_PATH_BYTES}; use a shorter target: /${"t".repeat(59)}…, symlink`);
      expect(await code(ws.fs.lstat("/lnk"))).toBe("ENOENT");
      const target = `/${"t".repeat(MAX_PATH_BYTES - 1)}`;
      await ws.fs.symlink(target, "/lnk");
      expect(await ws.fs.readlink("/lnk")).toBe(target);
      expect(await code(ws.fs.stat("/lnk"))).toBe("ENOENT");
      expect(await code(ws.fs.symlink(`/${"é".repeat(MAX_PATH_BYTES / 2)}`, "/lnk2"))).toBe("ENAMETOOLONG"); // 131,072 units, 262,145 bytes
    } finally {
      await ws.close();
    }
  });
});

describe("attack12: a directory at the path limit among the tools (held)", () => {
  it("loadToolDirectories skips it as unreadable with ENAMETOOLONG; ls, find and grep over it stay within their byte caps", async () => {
    const ws = await makeWorkspace();
    try {
      await ws.fs.mkdir(`/workspace/tools/${"n".repeat(MAX_PATH_BYTES - "/workspace/tools/".length)}`, { recursive: true });
      const loaded = await loadToolDirectories({ workspace: ws, dirs: ["/workspace/tools"] });
      expect(loaded.tools).toEqual([]);
      expect(loaded.skipped.map((s) => ({ code: s.code, dirBytes: s.dir.length, reason: s.reason.slice(0, 60) }))).toEqual([
        { code: "unreadable", dirBytes: MAX_PATH_BYTES, reason: "cannot read the tool directory: ENAMETOOLONG: path too long:" },
      ]);
      const { execute } = createPiTools({ workspace: ws });
      for (const [name, args] of [["ls", { path: "/workspace/tools" }], ["find", { pattern: "**/*" }], ["grep", { query: "n" }]] as const) {
        const r = await execute({ type: "toolCall", id: name, name, arguments: args } as never);
        expect(r.isError).toBe(false);
        expect(JSON.stringify(r.content).length).toBeLessThan(8_192);
      }
    } finally {
      await ws.close();
    }
  });
});

describe("attack12: the agent tools given a 300,000-byte path (held)", () => {
  it("read, write, edit, delete, ls, find, grep: a short ENAMETOOLONG error result, nothing written", async () => {
    const ws = await makeWorkspace();
    try {
      const { execute } = createPiTools({ workspace: ws });
      const path = `/workspace/${"a".repeat(300_000)}`;
      const calls = [
        ["read", { path }], ["write", { path, content: "x" }], ["edit", { path, edits: [{ oldText: "a", newText: "b" }] }],
        ["delete", { path }], ["ls", { path }], ["find", { path, pattern: "*" }], ["grep", { path, query: "x" }],
      ] as const;
      for (const [name, args] of calls) {
        const r = await execute({ type: "toolCall", id: name, name, arguments: args } as never);
        const text = r.content.map((c) => (c as { text: string }).text).join("");
        expect({ name, isError: r.isError, start: text.slice(0, 60), short: text.length < 256 }).toEqual({
          name, isError: true, start: "ENAMETOOLONG: path too long: 300011 bytes of UTF-8, at most ", short: true,
        });
      }
      expect(await ws.fs.readdir("/workspace")).toEqual([]);
    } finally {
      await ws.close();
    }
  });
});

describe("attack12: the path limits bypassed through a link", () => {
  // FIXED (was DEFECT, medium: a file whose path passes the limit is created, and can never be removed by path —
  // storage that cannot be reclaimed; on Durable Object SQLite a key past 2 MB is raw SQLITE_TOOBIG).
  // docs/filesystem.md: "Every method: a path of more than 256 KiB of UTF-8 … → ENAMETOOLONG". `symlink`
  // stored any target verbatim (filesystem.ts checked type, NUL and empty only), and writeFile
  // through the link created the target — here a file named by 3,000,000 bytes at `/` — because the limit
  // was checked on the paths given (path.ts canonicalPath → withinLimit), not on the path a link
  // resolves to. Afterwards `rm(<that path>)` failed ENAMETOOLONG, so only the link reached the file.
  // The provider's writeFile (node:fs-like) did the same with a 300,000-byte target.
  // Fixed: (1) symlink refuses a target of more than MAX_PATH_BYTES bytes of UTF-8 (ENAMETOOLONG, "link target
  // too long"), so the reproduction's first step now fails; (2) every create checks the real path of what it
  // makes — Nodes.insert (mkdir, mkdir -p, symlink, writeFile) and FileWriter's target (before any content is
  // stored) run the path limits on the new key, and rename on the destination — so a link within the limits
  // that leads somewhere long (a relative target from a long directory, or a link to a long directory with a
  // long name after it) cannot create past them either.
  it("writeFile through a link to a 3,000,000-byte path fails ENAMETOOLONG and creates nothing", async () => {
    const ws = await makeWorkspace();
    try {
      const linked = await code(ws.fs.symlink(`/${"t".repeat(3_000_000)}`, "/lnk")); // before the fix: "ok"
      const wrote = await code(ws.fs.writeFile("/lnk", "x")); // with no link, /lnk is an ordinary short file
      const longest = Math.max(...(await ws.fs.readdir("/")).map((e) => e.name.length)); // before the fix: 3,000,000
      expect({ linked, wrote, longest }).toEqual({ linked: "ENAMETOOLONG", wrote: "ok", longest: "workspace".length });
      // The same bypass with links inside the limits: a relative target read from a 200,000-byte directory,
      // and a link to that directory with a 100,000-byte name after it.
      await ws.fs.mkdir(`/${LONG}`);
      await ws.fs.symlink("r".repeat(100_000), `/${LONG}/rel`);
      await ws.fs.symlink(`/${LONG}`, "/to");
      const error = await ws.fs.writeFile(`/${LONG}/rel`, "x").then(() => undefined, (e: Error) => e);
      expect(error?.message).toBe(
        `ENAMETOOLONG: path too long: 300002 bytes of UTF-8, at most ${MAX_PATH_BYTES}, where its links lead; use a shorter or shallower path: /${"L".repeat(59)}…, writeFile`,
      );
      const results = {
        writeFile: await code(ws.fs.writeFile(`/to/${"u".repeat(100_000)}`, "x")),
        exclusive: await code(ws.fs.writeFile(`/to/${"u".repeat(100_000)}`, "x", { exclusive: true })),
        mkdir: await code(ws.fs.mkdir(`/to/${"u".repeat(100_000)}`)),
        mkdirP: await code(ws.fs.mkdir(`/to/${"u".repeat(40_000)}/${"v".repeat(40_000)}/w`, { recursive: true })),
        stream: await code(ws.fs.writeFile(`/to/${"u".repeat(100_000)}`, new Blob(["s".repeat(2_000_000)]).stream())),
      };
      expect(results).toEqual({ writeFile: "ENAMETOOLONG", exclusive: "ENAMETOOLONG", mkdir: "ENAMETOOLONG", mkdirP: "ENAMETOOLONG", stream: "ENAMETOOLONG" });
      expect((await ws.fs.readdir(`/${LONG}`)).map((e) => e.name)).toEqual(["rel"]);
      // Within the limits through the same link: made.
      await ws.fs.writeFile(`/to/${"u".repeat(50_000)}`, "fits");
      expect(await ws.fs.readFile(`/${LONG}/${"u".repeat(50_000)}`, "utf8")).toBe("fits");
    } finally {
      await ws.close();
    }
  });

  it("provider writeFile through a link to a 300,000-byte path fails ENAMETOOLONG and creates nothing", async () => {
    const ws = await makeWorkspace();
    try {
      const p = ws.provider();
      const linked = await p.symlink(`/${"v".repeat(300_000)}`, "/lnk").then(() => "ok", (e: NodeJS.ErrnoException) => [e.code, e.errno]);
      await ws.fs.mkdir(`/${LONG}`);
      await p.symlink("v".repeat(100_000), `/${LONG}/rel`);
      const wrote = await p.writeFile(`/${LONG}/rel`, "y").then(() => "ok", (e: NodeJS.ErrnoException) => e.code);
      const longest = Math.max(...(await ws.fs.readdir(`/${LONG}`)).map((e) => e.name.length)); // before the fix: 100,000
      expect({ linked, wrote, longest }).toEqual({ linked: ["ENAMETOOLONG", -36], wrote: "ENAMETOOLONG", longest: "rel".length });
    } finally {
      await ws.close();
    }
  });
});
