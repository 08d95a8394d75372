/**
 * Issue 20, twentieth attack run (fix SH): the shell's fs adapter on its own (no just-bash patches: plain just-bash
 * commands would still resolve `.` to the cwd) — the empty path is ENOENT for every method and resolvePath keeps it
 * empty; rm of a path ending in `/.` is EINVAL even with force, rename of one is EBUSY; rename of `link/` (a link to
 * a directory) is ENOTDIR; cp of `link/` copies the directory it leads to. The Workspace is checked after each call.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkspaceFsAdapter } from "../../../src/backends/worker-shell/fs-adapter.js";
import { memoryStorages } from "../tools/helpers.js";

const memoryStorage = memoryStorages();

async function setup() {
  const storage = memoryStorage();
  const ws = new Workspace({ storage });
  await ws.ready();
  await ws.fs.mkdir("/workspace/d/sub", { recursive: true });
  await ws.fs.writeFile("/workspace/d/f.txt", "keep\n");
  await ws.fs.symlink("d", "/workspace/link");
  const adapter = new WorkspaceFsAdapter(ws.fs);
  const tree = async () => {
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await ws.fs.readdir(dir)) {
        out.push(`${dir}/${entry.name}`);
        if (entry.isDirectory) await walk(`${dir}/${entry.name}`);
      }
    };
    await walk("/workspace");
    return out.sort();
  };
  return { ws, adapter, tree };
}

const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`);

it("the empty path stays empty and every method answers it ENOENT; nothing changes", async () => {
  const { adapter, tree } = await setup();
  const before = await tree();
  expect(adapter.resolvePath("/workspace", "")).toBe("");
  expect(await adapter.exists("")).toBe(false);
  expect(await codeOf(adapter.stat(""))).toBe("ENOENT: ENOENT: no such file or directory, stat ''");
  expect(await codeOf(adapter.lstat(""))).toBe("ENOENT: ENOENT: no such file or directory, lstat ''");
  expect(await codeOf(adapter.rm("", { recursive: true, force: true }))).toBe("ENOENT: ENOENT: no such file or directory, rm ''");
  expect(await codeOf(adapter.chmod("", 0))).toBe("ENOENT: ENOENT: no such file or directory, chmod ''");
  expect(await codeOf(adapter.readdir(""))).toBe("ENOENT: ENOENT: no such file or directory, scandir ''");
  expect(await codeOf(adapter.writeFile("", "x"))).toBe("ENOENT: ENOENT: no such file or directory, write ''");
  expect(await codeOf(adapter.mkdir("", { recursive: true }))).toBe("ENOENT: ENOENT: no such file or directory, mkdir ''");
  expect(await codeOf(adapter.mv("", "/workspace/x"))).toBe("ENOENT: ENOENT: no such file or directory, mv ''");
  expect(await codeOf(adapter.cp("", "/workspace/x", { recursive: true }))).toBe("ENOENT: ENOENT: no such file or directory, cp ''");
  expect(await tree()).toEqual(before);
});

it("rm of a last '/.' is EINVAL (even forced), rename of one EBUSY, rename of link/ ENOTDIR; the tree is unchanged", async () => {
  const { adapter, tree } = await setup();
  const before = await tree();
  expect(before).toEqual(["/workspace/d", "/workspace/d/f.txt", "/workspace/d/sub", "/workspace/link"]);
  const dotD = adapter.resolvePath("/workspace", "d/.");
  expect(dotD).toBe("/workspace/d/.");
  expect(await codeOf(adapter.rm(dotD, { recursive: true, force: true }))).toBe("EINVAL: EINVAL: invalid argument, rm '/workspace/d/.'");
  expect(await codeOf(adapter.mv(dotD, "/workspace/x"))).toBe("EBUSY: EBUSY: resource busy or locked, mv '/workspace/d/.'");
  expect(await codeOf(adapter.mv("/workspace/link/", "/workspace/y"))).toBe("ENOTDIR: ENOTDIR: not a directory, mv '/workspace/link/'");
  expect(await tree()).toEqual(before);
  // A trailing `/` alone still removes the directory (GNU `rm -r d/`).
  await adapter.rm("/workspace/d/sub/", { recursive: true });
  expect(await tree()).toEqual(before.filter((p) => p !== "/workspace/d/sub"));
});

it("cp of link/ and link/. copies the directory the link leads to, not the link", async () => {
  const { ws, adapter } = await setup();
  await adapter.cp("/workspace/link/", "/workspace/x", { recursive: true });
  await adapter.cp("/workspace/link/.", "/workspace/z", { recursive: true });
  for (const dir of ["/workspace/x", "/workspace/z"]) {
    expect((await ws.fs.lstat(dir)).isDirectory).toBe(true);
    expect((await ws.fs.readdir(dir)).map((e) => e.name)).toEqual(["f.txt", "sub"]);
  }
  await ws.fs.writeFile("/workspace/x/f.txt", "new\n");
  expect(await ws.fs.readFile("/workspace/d/f.txt", "utf8")).toBe("keep\n");
});
