/**
 * Probe 17: the sync bracket (docs/container.md "Sync", "Ignore rules") with odd names, modes and
 * links made on either side, ignore globs at the edges of the documented rules, and
 * `sync: "defer"` then `pull()` twice. A `TestBackend` against a real local daemon.
 */
import { describe, expect, it } from "vitest";
import { containerTree, drain, inWorkspace, startContainer, workspaceTree } from "../container/helpers.js";
import { ContainerBackend, type IWorkspaceContainerAPI } from "../../../src/backends/container/index.js";
import type { Workspace } from "../../../src/index.js";

type Res = { exitCode: number; stdout: string; stderr: string; pushed: number; pulled: number; skipped: unknown[]; sync: { status: string; applied: number; skipped: unknown[] } };
const run = async (ws: Workspace, command: string, options: Record<string, unknown> = {}): Promise<Res> =>
  (await (await ws.runtime.exec(command, { backend: "box", encoding: "utf8", timeoutMs: 30_000, ...options })).result()) as unknown as Res;

const holder = { getWorkspaceContainer: (): IWorkspaceContainerAPI => { throw new Error("unused"); } };
const construct = (ignore: unknown): string => {
  try {
    new ContainerBackend({ container: () => holder, workspace: { binding: "A", id: "x" }, ignore: ignore as string[] });
    return "ok";
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
};

describe("probe17: ignore option edges", () => {
  it("globs must start with / or **/ after one optional !; {}[]?\\ and over 4096 characters throw TypeError", () => {
    const msgStart = (g: string) => `TypeError: new ContainerBackend({ ignore }): ${JSON.stringify(g)} must start with "/" or "**/" (after an optional "!")`;
    for (const g of ["", "!", "!!/x", "!**", "**", "node_modules", "./x"]) expect(construct([g])).toBe(msgStart(g));
    for (const g of ["/x?", "/a\\b", "**/a[bc]", "/{a,b}", "/(a|b)", "**/x|y"]) expect(construct([g])).toBe(`TypeError: new ContainerBackend({ ignore }): ${JSON.stringify(g)} uses one of {}[]?\\()|, which are not supported`);
    for (const g of ["/", "**/", "!/", "/a b", "**/*.log", "**/.git/**", "/workspace", `/${"a".repeat(4095)}`]) expect(construct([g])).toBe("ok");
    expect(construct([`/${"a".repeat(4096)}`])).toBe("TypeError: new ContainerBackend({ ignore }): a glob is 4097 characters; at most 4096");
    expect(construct("**/x")).toBe("TypeError: new ContainerBackend({ ignore }): ignore must be an array of globs");
    expect(construct([5])).toBe("TypeError: new ContainerBackend({ ignore }): every glob must be a string, got number");
  });
});

describe("probe17: sync", () => {
  it("odd names, modes and links made in the Workspace arrive verbatim; ignored paths stay", async () => {
    const c = await startContainer({ MOUNT_IGNORE: '["**/node_modules","!**/dist/keep"]' });
    await inWorkspace(c, async (ws) => {
      await ws.fs.writeFile("/workspace/sp ace.txt", "1");
      await ws.fs.writeFile("/workspace/nl\nname", "2");
      await ws.fs.writeFile("/workspace/-dash", "3");
      await ws.fs.writeFile("/workspace/ünï😀", "4");
      await ws.fs.writeFile("/workspace/back\\slash", "5");
      await ws.fs.writeFile("/workspace/exe.sh", "#!/bin/sh\necho ran\n");
      await ws.fs.chmod("/workspace/exe.sh", 0o755);
      await ws.fs.writeFile("/workspace/secret", "s");
      await ws.fs.chmod("/workspace/secret", 0o000);
      await ws.fs.symlink("/etc/passwd", "/workspace/lnk-abs");
      await ws.fs.symlink("../../../etc/passwd", "/workspace/lnk-up");
      await ws.fs.mkdir("/workspace/node_modules/x", { recursive: true });
      await ws.fs.writeFile("/workspace/node_modules/x/i.js", "i");
      const r = await run(ws, "./exe.sh && readlink lnk-abs lnk-up && cat -- -dash");
      expect(r).toMatchObject({ exitCode: 0, stdout: "ran\n/etc/passwd\n../../../etc/passwd\n3", pushed: 9, pulled: 0, skipped: [], sync: { status: "complete", applied: 0, skipped: [] } });
      expect(Object.fromEntries(await containerTree(c))).toEqual({
        "-dash": { kind: "file", mode: 0o644, text: "3" },
        "back\\slash": { kind: "file", mode: 0o644, text: "5" },
        "exe.sh": { kind: "file", mode: 0o755, text: "#!/bin/sh\necho ran\n" },
        "lnk-abs": { kind: "symlink", mode: 0o777, target: "/etc/passwd" },
        "lnk-up": { kind: "symlink", mode: 0o777, target: "../../../etc/passwd" },
        "nl\nname": { kind: "file", mode: 0o644, text: "2" },
        secret: { kind: "file", mode: 0, text: "s" },
        "sp ace.txt": { kind: "file", mode: 0o644, text: "1" },
        "ünï😀": { kind: "file", mode: 0o644, text: "4" },
      });
    });
  });

  it("odd names, modes, links, hard links and deletions made in the container come back; fifo and non-UTF-8 names are skipped", async () => {
    const c = await startContainer({ MOUNT_IGNORE: '["**/node_modules"]' });
    await inWorkspace(c, async (ws) => {
      await ws.fs.writeFile("/workspace/-dash", "3");
      await ws.fs.writeFile("/workspace/orig", "1");
      expect((await run(ws, "true")).pushed).toBe(2);
      const skipped = [
        { op: "write", path: "/workspace/bad\uFFFDname", reason: "name is not valid UTF-8" },
        { op: "write", path: "/workspace/fifo", reason: "special file (fifo, socket or device)" },
        // Links that lead outside /workspace in the Workspace are not made (attack8 fixes, docs/container.md "What a pull refuses").
        { op: "write", path: "/workspace/cl-abs", reason: "link leads outside /workspace" },
        { op: "write", path: "/workspace/cl-dotdot", reason: "link leads outside /workspace" },
      ];
      const r = await run(
        ws,
        "printf y > 'c\nnl'; mkfifo fifo; ln -s /etc/hostname cl-abs; ln -s .. cl-dotdot; ln orig hard; printf '#!/bin/sh\\n' > suid; chmod 4755 suid; " +
          "printf z > \"$(printf 'bad\\377name')\"; mkdir -p deep/node_modules/q && echo q > deep/node_modules/q/f; echo 0 > zero && chmod 000 zero; rm -- -dash",
      );
      expect(r).toMatchObject({ exitCode: 0, pushed: 0, skipped, sync: { status: "complete", skipped } });
      expect(Object.fromEntries(await workspaceTree(ws))).toEqual({
        "c\nnl": { kind: "file", mode: 0o644, text: "y" },
        deep: { kind: "directory", mode: 0o755 },
        hard: { kind: "file", mode: 0o644, text: "1" },
        orig: { kind: "file", mode: 0o644, text: "1" },
        suid: { kind: "file", mode: 0o4755, text: "#!/bin/sh\n" },
        zero: { kind: "file", mode: 0, text: "0\n" },
      });
      // A write through the hard link changes both names; both come back.
      expect(await run(ws, "echo again > hard; cat orig")).toMatchObject({ stdout: "again\n", pulled: 2 });
      expect(await ws.fs.readFile("/workspace/orig", "utf8")).toBe("again\n");
    });
  });

  it('sync: "defer" reports pending and pulls nothing; the first pull() brings the file, the second finds nothing', async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const r = await run(ws, "echo d > d.txt", { sync: "defer" });
      expect(r).toMatchObject({ exitCode: 0, pulled: 0, sync: { status: "pending", applied: 0, backend: "box", skipped: [] } });
      await expect(ws.fs.readFile("/workspace/d.txt", "utf8")).rejects.toMatchObject({ code: "ENOENT" });
      const first = await drain(ws.pull("box"));
      expect(first.map((p) => [p.complete, p.entries, p.bytes, p.skipped, p.backend])).toEqual([[true, 1, 2, 0, "box"]]);
      expect(await ws.fs.readFile("/workspace/d.txt", "utf8")).toBe("d\n");
      const second = await drain(ws.pull("box"));
      expect(second.map((p) => [p.complete, p.entries, p.bytes, p.skipped])).toEqual([[true, 0, 0, 0]]);
      expect(await ws.fs.readFile("/workspace/d.txt", "utf8")).toBe("d\n");
    });
  });
});
