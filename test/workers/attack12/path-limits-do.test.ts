/**
 * Issue 20, twelfth attack run: the path limits of src/fs/path.ts (256 KiB per path, 32 MiB of ancestors'
 * paths) on Durable Object SQLite and through the shell (WorkerShellBackend), in real workerd.
 * The Node twins (test/node/attack12/path-limits.test.ts) show the causes; this file shows the same
 * defects where agents meet them: `mv` and `ln -s` in bash, and `ws.fs` on the object's own storage.
 *
 * Tried: `mv` of a 200-deep directory under a 200,000-byte directory name (its deepest path's ancestors
 * pass 32 MiB); `ln -s` to a 300,000-byte path and `echo > link`; `ws.fs.writeFile` through a link to a
 * 1,900,000-byte path (close to Durable Object SQLite's 2 MB value limit); a file `mv`ed to a too-long
 * name and `mkdir -p` of a too-deep path in bash (held: "File name too long", nothing changed); 150-deep
 * paths of astral, accented, CJK and lone-surrogate names (the chain lookup past 100 keys binds the longest
 * key and prefix lengths in code points, nodes.ts keyBindings — held); a JavaScript run's node:fs writeFile/stat of
 * a 300,000-byte path and mkdir -p of a too-deep one (held: ENAMETOOLONG with the Workspace's message).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import { inToolWorkspace } from "../tool-dirs/helpers.js";

const LONG = "L".repeat(200_000);

function inShellWorkspace<T>(fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage, backends: [new WorkerShellBackend({ loader: env.LOADER })] });
    try {
      return await fn(ws);
    } finally {
      await ws.close();
    }
  });
}

async function bash(ws: Workspace, script: string): Promise<{ exitCode: number; stdout: string }> {
  const handle = await ws.runtime.exec(script, { encoding: "utf8" });
  const r = (await handle.result()) as { exitCode: number; stdout: string };
  return { exitCode: r.exitCode, stdout: r.stdout };
}

describe("attack12: path limits passed through the shell and on Durable Object SQLite", () => {
  // FIXED (was DEFECT, medium; cause and fix: test/node/attack12/path-limits.test.ts "rename of a deep directory …").
  // `mv` is one Workspace rename, which checked only the two paths given: the subtree landed where its
  // deepest file's ancestors hold ~40 MB of path, and `cat` of that file then failed. Expected: mv fails
  // ("File name too long", ENAMETOOLONG) and /sh stays. Fixed: rename measures the moved subtree first
  // (Nodes.assertMovable) and refuses with ENAMETOOLONG, moving nothing.
  it("bash: mv of a deep directory under a long one fails and moves nothing", { timeout: 60_000 }, async () => {
    const out = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir(`/${LONG}`);
      const deep = `${"q/".repeat(200)}x`;
      const run = await bash(ws, `mkdir -p /sh/${deep} && mv /sh /${LONG}/sh; echo "mv=$?"`);
      return { stdout: run.stdout, left: await ws.fs.stat(`/sh/${deep}`).then(() => "stays", (e: { code: string }) => e.code) };
    });
    expect({ mvFailed: /^mv=[1-9]\d*\n$/.test(out.stdout), left: out.left }).toEqual({ mvFailed: true, left: "stays" }); // before the fix: mv=0, ENOENT
  });

  // FIXED (was DEFECT, medium; cause and fix: test/node/attack12/path-limits.test.ts "writeFile through a link …").
  // `ln -s` stored any target; `echo > link` created the target, a file named by 300,000 bytes that no
  // path-taking command can then remove (rm gives "File name too long"). Fixed: `ln -s` of a target past
  // 256 KiB fails; and a write through a link within the limits that leads past them (a relative target in
  // a 200,000-byte directory) fails too, creating nothing.
  it("bash: writing through a link to a 300,000-byte path fails and creates nothing", { timeout: 60_000 }, async () => {
    const out = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir(`/${LONG}`);
      const links = await bash(ws, `ln -s /${"k".repeat(300_000)} /shl 2>/dev/null; echo "ln=$?"; ln -s ${"k".repeat(100_000)} /${LONG}/shl; echo "ln2=$?"`);
      // A failed redirection ends this shell's script (exit code 1), so the write runs on its own.
      const write = await bash(ws, `echo y > /${LONG}/shl`);
      return {
        links: links.stdout,
        write: write.exitCode,
        root: (await ws.fs.readdir("/")).map((e) => (e.name.length > 100 ? e.name.length : e.name)),
        long: (await ws.fs.readdir(`/${LONG}`)).map((e) => e.name),
      };
    });
    // before the fix: ln=0 and the write succeeded, leaving a 300,000-byte name at /
    expect(out).toEqual({ links: "ln=1\nln2=0\n", write: 1, root: [".computer", LONG.length, "workspace"], long: ["shl"] });
  });

  // FIXED (was DEFECT, medium; same cause): on the object's own SQLite, a 1,900,000-byte file name was created
  // through a link (seven times the 256 KiB limit, next to the 2 MB value limit the limit exists for).
  // Fixed: the link itself is refused (its target is past 256 KiB), and so nothing can be written through it.
  it("ws.fs: writeFile through a link to a 1,900,000-byte path fails ENAMETOOLONG", { timeout: 60_000 }, async () => {
    const out = await inShellWorkspace(async (ws) => {
      const linked = await ws.fs.symlink(`/${"t".repeat(1_900_000)}`, "/lnk").then(() => "ok", (e: { code: string }) => e.code);
      await ws.fs.mkdir(`/${LONG}`);
      await ws.fs.symlink("t".repeat(200_000), `/${LONG}/lnk`); // within the limits; leads to 400,002 bytes
      const wrote = await ws.fs.writeFile(`/${LONG}/lnk`, "x").then(() => "ok", (e: { code: string; message: string }) => `${e.code} ${e.message.slice(14, 88)}`);
      return { linked, wrote, longest: Math.max(...(await ws.fs.readdir(`/${LONG}`)).map((e) => e.name.length)) };
    });
    expect(out).toEqual({
      linked: "ENAMETOOLONG",
      wrote: "ENAMETOOLONG path too long: 400002 bytes of UTF-8, at most 262144, where its links lead",
      longest: "lnk".length,
    }); // before the fix: { wrote: "ok", longest: 1900000 }
  });

  it("held: bash mv of a file to a too-long name and mkdir -p of a too-deep path fail, and nothing changes", { timeout: 60_000 }, async () => {
    const out = await inShellWorkspace(async (ws) => {
      await ws.fs.writeFile("/f", "keep");
      const run = await bash(ws, `mv /f /${"n".repeat(300_000)} 2>/dev/null; echo "mv=$?"; mkdir -p /${"ab/".repeat(9_000)}x 2>/dev/null; echo "mkdir=$?"`);
      return { stdout: run.stdout, f: await ws.fs.readFile("/f", "utf8"), names: (await ws.fs.readdir("/")).map((e) => e.name).sort() };
    });
    expect(out.stdout).toMatch(/^mv=[1-9]\d*\nmkdir=[1-9]\d*\n$/);
    expect(out.f).toBe("keep");
    expect(out.names).toEqual(["f", "workspace"]);
  });

  it("held: 150-deep paths of astral, accented, CJK and lone-surrogate names: mkdir -p, write, read, stat, rename", { timeout: 60_000 }, async () => {
    const out = await inShellWorkspace(async (ws) => {
      const seen: string[] = [];
      for (const seg of ["😀", "é😀x", "\u{10FFFF}", "\ud800", "日本"]) {
        const path = `/t/${Array.from({ length: 150 }, (_, i) => `${seg}${i}`).join("/")}`;
        await ws.fs.mkdir(path, { recursive: true });
        await ws.fs.writeFile(`${path}/f`, seg);
        await ws.fs.rename(`${path}/f`, `${path}/g`);
        seen.push(`${await ws.fs.readFile(`${path}/g`, "utf8")} ${(await ws.fs.stat(path)).isDirectory}`);
        await ws.fs.rm("/t", { recursive: true });
      }
      return seen;
    });
    expect(out).toEqual(["😀 true", "é😀x true", "\u{10FFFF} true", "\ufffd true", "日本 true"]);
  });

  it("held: a JavaScript run's node:fs refuses a 300,000-byte path and a too-deep mkdir -p with ENAMETOOLONG", { timeout: 60_000 }, async () => {
    const out = await inToolWorkspace(async (ws) => {
      const code = `import fs from "node:fs/promises";
const r = {};
const attempt = async (k, f) => { try { await f(); r[k] = "ok"; } catch (e) { r[k] = e.code + " " + String(e.message).slice(0, 40); } };
export default async () => {
  await attempt("write", () => fs.writeFile("/workspace/" + "a".repeat(300000), "x"));
  await attempt("stat", () => fs.stat("/workspace/" + "a".repeat(300000)));
  await attempt("mkdir", () => fs.mkdir("/workspace/" + "ab/".repeat(9000) + "x", { recursive: true }));
  return r;
};`;
      const result = await (await ws.runtime.exec(code, { encoding: "utf8" })).result();
      return { value: result.value, names: (await ws.fs.readdir("/workspace")).map((e) => e.name).sort() };
    }, { shell: false });
    expect(out.value).toEqual({
      write: "ENAMETOOLONG ENAMETOOLONG: path too long: 300011 byte",
      stat: "ENAMETOOLONG ENAMETOOLONG: path too long: 300011 byte",
      mkdir: "ENAMETOOLONG ENAMETOOLONG: path too deep for its leng",
    });
    expect(out.names).toEqual(["tools"]);
  });
});
