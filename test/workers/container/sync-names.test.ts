/**
 * Issue 17, sync of awkward entries (spec 02 §7.3), both ways between a
 * Workspace in workerd and a real `computerd`: non-ASCII names (one name
 * in NFC and in NFD is two entries on both sides), emoji, spaces and
 * quotes; a file replaced by a directory and back; an empty file; modes
 * 0o600 and 0o755; and a read-only mount under /workspace, which a pull
 * skips with `{ path, op, reason: "read-only" }`.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { R2Bucket } from "../../../src/index.js";
import { containerTree, inWorkspace, sh, startContainer, workspaceTree } from "./helpers.js";

type Tree = Map<string, { kind: string; mode: number; text?: string; target?: string }>;
const sorted = (tree: Tree) => [...tree.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const NFC = "caf\u00e9"; // é as one code point
const NFD = "cafe\u0301"; // e + combining acute
const ALL_NAMES = [`${NFC}.txt`, `${NFD}.txt`, "🚀 launch.txt", "with  two spaces.txt", `it's "quoted".txt`, "日本語/ファイル.txt", ".named.like.ws-sync-0123abcd"];
/** A shell word for `s` (single quotes, `'` as `'\''`). */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

describe("sync of awkward entries", () => {
  it("non-ASCII names, NFC and NFD apart, emoji, spaces and quotes: Workspace → container", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const NAMES = ALL_NAMES;
      await ws.fs.mkdir("/workspace/n/日本語", { recursive: true });
      for (const [i, name] of NAMES.entries()) await ws.fs.writeFile(`/workspace/n/${name}`, `content ${i}`);
      const r = await sh(ws, `cd n && for f in ${NAMES.map(q).join(" ")}; do cat "$f"; echo; done; ls | wc -l`);
      expect(r.stdout).toBe(`${NAMES.map((_, i) => `content ${i}\n`).join("")}6\n`); // 5 files + 日本語 (ls hides the dot file)
      expect([r.exitCode, r.pushed, r.pulled]).toEqual([0, 9, 0]); // n, 日本語, 7 files
      expect(sorted(await containerTree(c))).toEqual(sorted(await workspaceTree(ws)));
      // A synced file named like a push's piece file is the user's: kept on both sides.
      const again = await sh(ws, "true");
      expect([again.pushed, again.pulled]).toEqual([0, 0]);
      expect(sorted(await containerTree(c))).toEqual(sorted(await workspaceTree(ws)));
      expect(await ws.fs.readFile("/workspace/n/.named.like.ws-sync-0123abcd", "utf8")).toBe("content 6");
    });
  });

  it("non-ASCII names, NFC and NFD apart, emoji, spaces and quotes: container → Workspace", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      // (Not the piece-file name: one the container makes is taken for a cut push's leftover — sync.ts isPieceFile.)
      const NAMES = ALL_NAMES.filter((name) => !name.includes("ws-sync-"));
      const make = NAMES.map((name, i) => `printf 'made %s' ${i} > ${q(name)}`).join(" && ");
      const r = await sh(ws, `mkdir -p n/日本語 && cd n && ${make}`);
      expect([r.exitCode, r.pushed, r.pulled]).toEqual([0, 0, 8]);
      expect(r.sync).toEqual({ status: "complete", applied: 8, skipped: [] });
      for (const [i, name] of NAMES.entries()) expect(await ws.fs.readFile(`/workspace/n/${name}`, "utf8")).toBe(`made ${i}`);
      const names = (await ws.fs.readdir("/workspace/n")).map((e) => e.name);
      expect(names.filter((n) => n.normalize("NFC") === `${NFC}.txt`).sort()).toEqual([`${NFC}.txt`, `${NFD}.txt`].sort());
      expect(sorted(await workspaceTree(ws))).toEqual(sorted(await containerTree(c)));
      const idle = await sh(ws, "true");
      expect([idle.pushed, idle.pulled]).toEqual([0, 0]);
    });
  });

  it("a name that is not UTF-8 and a fifo made by a command are skipped (op write), the rest is pulled", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const r = await sh(ws, "printf x > \"$(printf 'bad\\377name')\" && mkfifo pipe && echo ok > ok.txt");
      expect(r.exitCode).toBe(0);
      const skipped = [
        { path: "/workspace/bad\ufffdname", op: "write", reason: "name is not valid UTF-8" },
        { path: "/workspace/pipe", op: "write", reason: "special file (fifo, socket or device)" },
      ];
      expect(r).toMatchObject({ pulled: 1, skipped });
      expect(r.sync).toEqual({ status: "complete", applied: 1, skipped });
      expect((await ws.fs.readdir("/workspace")).map((e) => e.name)).toEqual(["ok.txt"]);
    });
  });

  it("a file replaced by a directory and back, an empty file, modes 0o600 and 0o755: Workspace → container", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      await ws.fs.writeFile("/workspace/x", "a file");
      await ws.fs.writeFile("/workspace/empty", "");
      await ws.fs.writeFile("/workspace/secret", "s", { mode: 0o600 });
      await ws.fs.writeFile("/workspace/tool", "#!/bin/sh\necho tool\n", { mode: 0o755 });
      const r1 = await sh(ws, "stat -c '%n %F %a %s' x empty secret tool && ./tool");
      expect(r1.stdout).toBe("x regular file 644 6\nempty regular empty file 644 0\nsecret regular file 600 1\ntool regular file 755 20\ntool\n");
      expect(r1.pushed).toBe(4);
      await ws.fs.rm("/workspace/x");
      await ws.fs.mkdir("/workspace/x");
      await ws.fs.writeFile("/workspace/x/inner", "inside");
      await ws.fs.chmod("/workspace/secret", 0o755);
      await ws.fs.chmod("/workspace/tool", 0o600);
      const r2 = await sh(ws, "stat -c '%n %F %a' x secret tool && cat x/inner");
      expect(r2.stdout).toBe("x directory 755\nsecret regular file 755\ntool regular file 600\ninside");
      expect([r2.pushed, r2.pulled]).toEqual([5, 0]); // rm x, x, x/inner, secret, tool
      await ws.fs.rm("/workspace/x", { recursive: true });
      await ws.fs.writeFile("/workspace/x", "a file again");
      const r3 = await sh(ws, "stat -c '%n %F' x && cat x");
      expect(r3.stdout).toBe("x regular file\na file again");
      expect([r3.pushed, r3.pulled]).toEqual([2, 0]); // rm x, x
      // A directory made and removed between two commands never reaches the container: nothing to push.
      await ws.fs.mkdir("/workspace/tmp/deep", { recursive: true });
      await ws.fs.writeFile("/workspace/tmp/deep/t.txt", "t");
      await ws.fs.rm("/workspace/tmp", { recursive: true });
      expect((await sh(ws, "true")).pushed).toBe(0);
      expect(sorted(await containerTree(c))).toEqual(sorted(await workspaceTree(ws)));
    });
  });

  it("a file replaced by a directory and back, an empty file, modes 0o600 and 0o755: container → Workspace", async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const r1 = await sh(ws, "echo f > y && : > empty && echo s > secret && chmod 600 secret && printf '#!/bin/sh\\n' > tool && chmod 755 tool");
      expect([r1.exitCode, r1.pulled]).toEqual([0, 4]);
      expect(await ws.fs.readFile("/workspace/empty", "utf8")).toBe("");
      expect((await ws.fs.stat("/workspace/empty")).size).toBe(0);
      expect((await ws.fs.stat("/workspace/secret")).mode).toBe(0o600);
      expect((await ws.fs.stat("/workspace/tool")).mode).toBe(0o755);
      const r2 = await sh(ws, "rm y && mkdir y && echo in > y/inner && chmod 755 secret && chmod 600 tool");
      expect(r2.sync).toEqual({ status: "complete", applied: 4, skipped: [] }); // y, y/inner, secret, tool
      expect((await ws.fs.stat("/workspace/y")).isDirectory).toBe(true);
      expect(await ws.fs.readFile("/workspace/y/inner", "utf8")).toBe("in\n");
      expect((await ws.fs.stat("/workspace/secret")).mode).toBe(0o755);
      expect((await ws.fs.stat("/workspace/tool")).mode).toBe(0o600);
      const r3 = await sh(ws, "rm -r y && echo back > y");
      expect(r3.sync).toEqual({ status: "complete", applied: 1, skipped: [] });
      expect((await ws.fs.stat("/workspace/y")).isFile).toBe(true);
      expect(await ws.fs.readFile("/workspace/y", "utf8")).toBe("back\n");
      expect(sorted(await workspaceTree(ws))).toEqual(sorted(await containerTree(c)));
      const idle = await sh(ws, "true");
      expect([idle.pushed, idle.pulled]).toEqual([0, 0]);
    });
  });

  it("a read-only mount under /workspace: its content is not pushed, and a pull into it is skipped as read-only", async () => {
    const bucket = env.MOUNT_BUCKET;
    const prefix = `sync-ro-${crypto.randomUUID().slice(0, 8)}`;
    await bucket.put(`${prefix}/doc.txt`, "from r2");
    const c = await startContainer();
    await inWorkspace(
      c,
      async (ws) => {
        await ws.ready();
        expect(await ws.fs.readFile("/workspace/ro/doc.txt", "utf8")).toBe("from r2");
        await ws.fs.writeFile("/workspace/rw.txt", "rw");
        const r = await sh(ws, "ls; mkdir -p ro && echo x > ro/new.txt && echo y > ro/doc.txt && echo z > ok.txt");
        expect(r.stdout).toBe("rw.txt\n"); // the mount's content is not pushed
        expect(r.pushed).toBe(1);
        expect(r.skipped).toEqual([
          { path: "/workspace/ro/doc.txt", op: "write", reason: "read-only" },
          { path: "/workspace/ro/new.txt", op: "write", reason: "read-only" },
        ]);
        expect(r.sync).toEqual({ status: "complete", applied: 1, skipped: r.skipped }); // ok.txt
        expect(await ws.fs.readFile("/workspace/ro/doc.txt", "utf8")).toBe("from r2");
        await expect(ws.fs.stat("/workspace/ro/new.txt")).rejects.toMatchObject({ code: "ENOENT" });
        expect(await ws.fs.readFile("/workspace/ok.txt", "utf8")).toBe("z\n");
      },
      { mounts: { "/workspace/ro": R2Bucket(bucket, { prefix }) } },
    );
  });
});
