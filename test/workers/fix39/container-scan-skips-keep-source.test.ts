/**
 * Issue 20, run 39, fixer CR: every container write the pull does not apply because the scan passed it over — a name
 * that is not UTF-8 (a file, a link, a directory and what is in it), a path past the container's PATH_MAX — reaches
 * the pull's `Stranded`, so the deletion of the synced entry the command moved there is held back and reported (a
 * `delete` in `skipped`), not applied: the Workspace keeps the only durable copy (docs/container.md step 4). A
 * deletion whose content went nowhere unseen (an `rm` beside an unrelated Latin-1 file) still applies.
 * Each form below: the container leaves the moved bytes where `mv` (coreutils 9.1) puts them, and the Workspace
 * keeps the source with its bytes; a form whose content the pull cannot look into (a Latin-1 directory holding more
 * than SKIP_INSIDE_MAX entries) holds back every deleted file of that pull, saying why. (A path past PATH_MAX does
 * too, but is not made here: the test host's cleanup, fs.rmSync, cannot remove such a tree.)
 * Sibling of test/workers/attack39a/container-move-to-non-utf8-name-deletes-source.test.ts.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace, sh, startContainer } from "../container/helpers.js";

const NOT_UTF8 = "name is not valid UTF-8";
const kept = (to: string, why = NOT_UTF8) => `the container moved or copied it to ${to}, which was not applied (${why}): kept, it is not lost`;
const unseen = (into: string, why: string) => `the container may have moved it into ${into}, which this pull cannot look into (${why}): kept, it is not lost`;

describe("fix39: entries the container scan skips keep the synced source of a move", () => {
  it("a file moved to a Latin-1 name, a link moved to a Latin-1 name, a file moved into a Latin-1 directory", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.writeFile("/workspace/notes.md", "my notes\n");
      await ws.fs.writeFile("/workspace/todo.md", "todo\n");
      await ws.fs.symlink("notes.md", "/workspace/link");
      expect((await sh(ws, "mkdir \"$(printf 'd\\351')\"")).exitCode).toBe(0);
      const r = await sh(ws, "mv notes.md \"$(printf 'n\\351.md')\" && mv link \"$(printf 'l\\351')\" && mv todo.md \"$(printf 'd\\351')/\" && find . -mindepth 1 | LC_ALL=C sort | od -An -c -w4096 | tr -s ' '");
      expect(r.exitCode).toBe(0);
      // As coreutils mv leaves it (bytes of the names: \351 = 0xE9).
      expect(r.stdout).toBe(" . / d 351 \\n . / d 351 / t o d o . m d \\n . / l 351 \\n . / n 351 . m d \\n\n");
      expect(r.skipped).toEqual(
        expect.arrayContaining([
          { path: "/workspace/notes.md", op: "delete", reason: kept("/workspace/n\uFFFD.md") },
          { path: "/workspace/todo.md", op: "delete", reason: kept("/workspace/d\uFFFD/todo.md") },
          { path: "/workspace/link", op: "delete", reason: kept("/workspace/l\uFFFD") },
        ]),
      );
      expect((await ws.fs.readdir("/workspace")).map((e) => e.name).sort()).toEqual(["link", "notes.md", "todo.md"]);
      expect(await ws.fs.readFile("/workspace/notes.md", "utf8")).toBe("my notes\n");
      expect(await ws.fs.readFile("/workspace/todo.md", "utf8")).toBe("todo\n");
      expect(await ws.fs.readlink("/workspace/link")).toBe("notes.md");
    });
  });

  it("a directory moved to a Latin-1 name keeps its files and itself", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.mkdir("/workspace/docs/sub", { recursive: true });
      await ws.fs.writeFile("/workspace/docs/a.md", "a\n");
      await ws.fs.writeFile("/workspace/docs/sub/b.md", "bb\n");
      const r = await sh(ws, "mv docs \"$(printf 'd\\351')\" && find . -mindepth 1 -type f | LC_ALL=C sort | od -An -c -w4096 | tr -s ' '");
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(" . / d 351 / a . m d \\n . / d 351 / s u b / b . m d \\n\n");
      expect(r.skipped).toEqual(
        expect.arrayContaining([
          { path: "/workspace/docs/a.md", op: "delete", reason: kept("/workspace/d\uFFFD/a.md") },
          { path: "/workspace/docs/sub/b.md", op: "delete", reason: kept("/workspace/d\uFFFD/sub/b.md") },
        ]),
      );
      expect(await ws.fs.readFile("/workspace/docs/a.md", "utf8")).toBe("a\n");
      expect(await ws.fs.readFile("/workspace/docs/sub/b.md", "utf8")).toBe("bb\n");
    });
  });

  it("an rm beside an unrelated Latin-1 file still applies; a Latin-1 file edited after the move is not told (as before)", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.writeFile("/workspace/gone.md", "gone\n");
      await ws.fs.writeFile("/workspace/edited.md", "e\n");
      const r = await sh(ws, "printf x > \"$(printf 'bad\\377')\" && rm gone.md && mv edited.md \"$(printf 'e\\351')\" && printf more >> \"$(printf 'e\\351')\"");
      expect(r.exitCode).toBe(0);
      expect(r.skipped).toEqual([
        { path: "/workspace/bad\uFFFD", op: "write", reason: NOT_UTF8 },
        { path: "/workspace/e\uFFFD", op: "write", reason: NOT_UTF8 },
      ]);
      expect((await ws.fs.readdir("/workspace")).map((e) => e.name)).toEqual([]);
    });
  });

  it("a Latin-1 directory holding more than the scan looks into: every deleted file of the pull is kept", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.writeFile("/workspace/big.md", "big\n");
      await ws.fs.writeFile("/workspace/rm.md", "rm\n");
      const r = await sh(ws, "d=\"$(printf 'D\\351')\" && mkdir \"$d\" && for i in $(seq 300); do : > \"$d/f$i\"; done && mv big.md \"$d/\" && rm rm.md");
      expect(r.exitCode).toBe(0);
      expect(r.skipped).toEqual(
        expect.arrayContaining([
          { path: "/workspace/rm.md", op: "delete", reason: unseen("/workspace/D\uFFFD", NOT_UTF8) },
        ]),
      );
      // big.md: told by its stat when among the first SKIP_INSIDE_MAX entries the daemon looked at (readdir order), else as rm.md.
      const big = r.skipped.find((s) => s.path === "/workspace/big.md");
      expect([kept("/workspace/D\uFFFD/big.md"), unseen("/workspace/D\uFFFD", NOT_UTF8)]).toContain(big?.reason);
      expect(await ws.fs.readFile("/workspace/big.md", "utf8")).toBe("big\n");
      expect(await ws.fs.readFile("/workspace/rm.md", "utf8")).toBe("rm\n");
    });
  });
});
