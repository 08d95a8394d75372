/**
 * The bridge remembers, per run, which directories it found not to be
 * symbolic links. These tests change the tree between two calls of one run —
 * through the run's own node:fs, and from the host behind the run's back —
 * and check that every call still sees the tree as it is now.
 */
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { inWorkspace } from "./helpers.js";

const ATTEMPT = `const attempt = async (fn) => { try { return await fn(); } catch (e) { return e.code + " " + e.message; } };`;

describe("per-run memo of checked directories", () => {
  it("sees the run's own writes, removals and new links", async () => {
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/d/e", { recursive: true });
      await ws.fs.mkdir("/workspace/real/e", { recursive: true });
      await ws.fs.writeFile("/workspace/d/e/a.txt", "first");
      await ws.fs.writeFile("/workspace/real/e/a.txt", "via link");
      const result = await (
        await ws.runtime.exec(
          `import { readFile, writeFile, rm, symlink, stat } from "node:fs/promises";
           ${ATTEMPT}
           export default async () => {
             const before = await readFile("d/e/a.txt", "utf8");
             await writeFile("d/e/b.txt", "second");
             const written = await readFile("d/e/b.txt", "utf8");
             await rm("d", { recursive: true });
             const removed = await attempt(() => readFile("d/e/a.txt", "utf8"));
             await symlink("/workspace/real", "d");
             return {
               before, written, removed,
               throughLink: await attempt(() => readFile("d/e/a.txt", "utf8")),
               statThroughLink: await attempt(() => stat("d/e")),
             };
           }`,
        )
      ).result();
      return { value: result.value, stderr: new TextDecoder().decode(result.stderr as Uint8Array) };
    });
    expect(r.stderr).toBe("");
    expect(r.value).toEqual({
      before: "first",
      written: "second",
      removed: "ENOENT ENOENT: no such file or directory, stat: /workspace/d/e/a.txt",
      throughLink: "EACCES cannot traverse symbolic link: /workspace/d",
      statThroughLink: "EACCES cannot traverse symbolic link: /workspace/d",
    });
  });

  it("sees changes the host makes between two calls of the run", async () => {
    let workspace: Workspace | undefined;
    const host = {
      // Moves the directory away and puts a link to it in its place.
      swap: async () => {
        await workspace!.fs.rename("/workspace/d", "/workspace/moved");
        await workspace!.fs.symlink("/workspace/moved", "/workspace/d");
        return null;
      },
      // Renames the directory: the old path no longer exists.
      rename: async () => {
        await workspace!.fs.rename("/workspace/k", "/workspace/k2");
        return null;
      },
    };
    const r = await inWorkspace(
      async (ws) => {
        workspace = ws;
        await ws.fs.mkdir("/workspace/d/e", { recursive: true });
        await ws.fs.mkdir("/workspace/k/e", { recursive: true });
        await ws.fs.writeFile("/workspace/d/e/a.txt", "real dir");
        await ws.fs.writeFile("/workspace/k/e/a.txt", "kept");
        return (
          await ws.runtime.exec(
            `import { readFile, access } from "node:fs/promises";
             import { swap, rename } from "ws:host";
             ${ATTEMPT}
             export default async () => {
               const before = [await readFile("d/e/a.txt", "utf8"), await readFile("k/e/a.txt", "utf8")];
               await swap();
               await rename();
               return {
                 before,
                 throughLink: await attempt(() => readFile("d/e/a.txt", "utf8")),
                 accessThroughLink: await attempt(() => access("d/e/a.txt")),
                 oldPath: await attempt(() => readFile("k/e/a.txt", "utf8")),
                 newPath: await readFile("k2/e/a.txt", "utf8"),
               };
             }`,
          )
        ).result();
      },
      { backend: { modules: { "ws:host": host } } },
    );
    expect(r.value).toEqual({
      before: ["real dir", "kept"],
      throughLink: "EACCES cannot traverse symbolic link: /workspace/d",
      accessThroughLink: "EACCES cannot traverse symbolic link: /workspace/d",
      oldPath: "ENOENT ENOENT: no such file or directory, stat: /workspace/k/e/a.txt",
      newPath: "kept",
    });
  });
});
