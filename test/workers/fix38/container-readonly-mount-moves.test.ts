/**
 * Issue 20, run 38, fixer RC — the neighbourhood of test/workers/attack38i/container-move-into-invisible-mount-drops-file.test.ts.
 * A read-only mount (a WorkerBundle at /workspace/docs) is not pushed, so a container command does not see it and
 * `mv`/`cp` into it succeed there; the pull skips the writes into the mount (`read-only`) and now keeps in the
 * Workspace every deleted file or link whose content it found among those skipped writes (same kind, mode, size,
 * mtime, link target: what `mv` keeps), listing the deletion as `op: "delete"` with the place the container put it.
 * Each script is run by the container (the local daemon) and by the shell backend, where the mount is visible and
 * `mv`/`cp` into it fail EROFS: the Workspace's files and their bytes must come out the same (the exit codes differ:
 * the container's `mv` did succeed in its scratch copy — docs/container.md "read-only mount"). Controls: a plain
 * `rm`, and an `rm` beside an unrelated skipped write, still delete; a later pull does not list the deletion again;
 * `mv a b` of a directory holding a read-only mount keeps `a` and says why (the mount), not "changed in the
 * Workspace since the last sync".
 */
import { describe, expect, it } from "vitest";
import { WorkerBundle, type Workspace } from "../../../src/index.js";
import { env } from "cloudflare:test";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { bytesOf, inWorkspace, sh, startContainer, type LocalContainer } from "../container/helpers.js";

const NOTES = new Uint8Array([0x6d, 0x79, 0x20, 0xc3, 0xa9, 0x00, 0xff, 0x0a]); // "my é\0\xff\n": bytes, not text
const mounts = { "/workspace/docs": WorkerBundle({ "guide.md": "# guide\n" }) };

async function setUp(ws: Workspace): Promise<void> {
  await ws.ready();
  await ws.fs.writeFile("/workspace/notes.md", NOTES);
  await ws.fs.mkdir("/workspace/src/lib", { recursive: true });
  await ws.fs.writeFile("/workspace/src/a.ts", "A\n");
  await ws.fs.writeFile("/workspace/src/lib/b.ts", "B\n");
  await ws.fs.symlink("a.ts", "/workspace/src/ln");
}

/** Every entry under /workspace: path → bytes (hex) of a file, `-> target` of a link, `dir` of a directory. */
async function tree(ws: Workspace): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await ws.fs.find("/workspace")) {
    const st = await ws.fs.lstat(e.path);
    out[e.path] = st.isSymbolicLink
      ? `-> ${await ws.fs.readlink(e.path)}`
      : st.isDirectory
        ? "dir"
        : [...(await bytesOf(ws, e.path))].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return out;
}

async function run(box: LocalContainer, on: "box" | "shell", script: string) {
  const shell = new WorkerShellBackend({ loader: env.LOADER });
  return inWorkspace(
    box,
    async (ws) => {
      await setUp(ws);
      const r = await (await ws.runtime.exec(script, { backend: on === "box" ? "box" : shell.id, encoding: "utf8", timeoutMs: 60_000, cwd: "/workspace" })).result();
      const deletes = (r.skipped ?? []).filter((s) => s.op === "delete").map((s) => `${s.path}: ${s.reason}`);
      return { exitCode: r.exitCode, tree: await tree(ws), deletes };
    },
    on === "box" ? { mounts } : { mounts, backends: [shell] },
  );
}

describe("container moves and copies into a read-only mount it does not see keep the source (fixer RC)", () => {
  const held: [string, string[]][] = [
    ["mkdir -p docs && mv notes.md docs/", ["/workspace/notes.md"]],
    ["mv notes.md docs", ["/workspace/notes.md"]],
    ["mkdir -p docs && cp -p notes.md docs/ && rm notes.md", ["/workspace/notes.md"]],
    ["mv src docs", ["/workspace/src/ln", "/workspace/src/lib/b.ts", "/workspace/src/lib", "/workspace/src/a.ts", "/workspace/src"]],
    ["mkdir -p docs/x && mv src/lib docs/x/", ["/workspace/src/lib/b.ts", "/workspace/src/lib"]],
    ["mkdir -p docs && mv src/ln src/a.ts docs/", ["/workspace/src/a.ts", "/workspace/src/ln"]],
  ];
  for (const [script, kept] of held) {
    it(`\`${script}\`: the Workspace keeps what the shell backend keeps, byte for byte`, async () => {
      const box = await startContainer();
      const container = await run(box, "box", script);
      const shell = await run(box, "shell", script);
      expect(shell.exitCode).toBe(1); // EROFS there
      expect(container.exitCode).toBe(0); // the container's scratch copy did move
      expect(container.tree).toEqual(shell.tree);
      expect(container.tree["/workspace/notes.md"]).toBe("6d7920c3a900ff0a");
      expect(container.tree["/workspace/docs/guide.md"]).toBe("232067756964650a");
      // Each kept deletion is listed with where the container put it; a directory kept for an entry held in it says so.
      expect(container.deletes.map((d) => d.slice(0, d.indexOf(":")))).toEqual(kept);
      for (const d of container.deletes) expect(d).toMatch(/which was not applied \(read-only\): kept, it is not lost$/);
      for (const d of container.deletes) expect(d).toMatch(/the container moved or copied it to \/workspace\/docs(\/|\)|,)/);
    }, 180000);
  }

  const deleted: string[] = ["rm notes.md", "mkdir -p docs && echo new > docs/n.txt; rm notes.md"];
  for (const script of deleted) {
    it(`\`${script}\`: the deletion applies, as on the shell backend`, async () => {
      const box = await startContainer();
      const container = await run(box, "box", script);
      const shell = await run(box, "shell", script);
      expect(container.tree).toEqual(shell.tree);
      expect(container.tree["/workspace/notes.md"]).toBeUndefined();
      expect(container.deletes).toEqual([]);
    }, 180000);
  }

  it("a later pull keeps the file and does not list the deletion again", async () => {
    const box = await startContainer();
    const out = await inWorkspace(
      box,
      async (ws) => {
        await setUp(ws);
        const first = await sh(ws, "mkdir -p docs && mv notes.md docs/");
        const second = await sh(ws, "true");
        return {
          first: first.skipped.map((s) => `${s.op} ${s.path}`),
          second: second.skipped.map((s) => `${s.op} ${s.path}`),
          notes: [...(await bytesOf(ws, "/workspace/notes.md"))],
        };
      },
      { mounts },
    );
    expect(out.first).toEqual(["write /workspace/docs/notes.md", "delete /workspace/notes.md"]);
    expect(out.second).toEqual(["write /workspace/docs/notes.md"]);
    expect(out.notes).toEqual([...NOTES]);
  }, 180000);

  it("`mv a b` of a directory holding a read-only mount: `a` is kept for the mount, the rest moves", async () => {
    const box = await startContainer();
    const out = await inWorkspace(
      box,
      async (ws) => {
        await ws.ready();
        await ws.fs.mkdir("/workspace/a", { recursive: true });
        await ws.fs.writeFile("/workspace/a/x.txt", "x\n");
        const r = await sh(ws, "mv a b");
        return { exitCode: r.exitCode, skipped: r.skipped.map((s) => `${s.op} ${s.path}: ${s.reason}`), tree: await tree(ws) };
      },
      { mounts: { "/workspace/a/m": WorkerBundle({ "g.md": "g\n" }) } },
    );
    expect(out.exitCode).toBe(0);
    expect(out.skipped).toEqual(["delete /workspace/a: holds a read-only mount, which a container does not see and the Workspace never removes: kept (/workspace/a/m)"]);
    expect(out.tree).toEqual({ "/workspace/a": "dir", "/workspace/a/m": "dir", "/workspace/a/m/g.md": "670a", "/workspace/b": "dir", "/workspace/b/x.txt": "780a" });
  }, 180000);
});
