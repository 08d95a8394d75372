/**
 * Issue 20, twenty-first attack run: the file tools disagree on `f.txt/` (a trailing slash on a regular file).
 * Tried: the pi tool set on a Workspace over the Durable Object's storage with /workspace/f.txt ("f"): write, edit,
 * read and delete of `/workspace/f.txt/`, write of `f.txt/.` and `f.txt/x`.
 * Held: `write f.txt/x` is `ENOTDIR: not a directory, writeFile: /workspace/f.txt/x` and nothing changes; no write
 * or edit changes f.txt's bytes.
 * Found (low — wrong code and a contradicted doc; 3 of 3 runs): docs/porting.md says "A write to `/workspace/f.txt/x`
 * or `/workspace/f.txt/`, where `f.txt` is a file (or a link to one), returns `{"error":"ENOTDIR: not a directory,
 * writeFile: …"}`, as POSIX `open(2)` says", but `write f.txt/` and `write f.txt/.` answer `EISDIR: is a directory,
 * writeFile: /workspace/f.txt` (481f22d made every path ending in `/` EISDIR, also an existing file's); `edit f.txt/`
 * reads the file, applies the edit and then fails the same EISDIR (telling the model a file is a directory);
 * `read f.txt/` answers the file's content; `delete f.txt/` removes the file. Linux: ENOTDIR for each
 * (open(2)/stat(2)/unlink(2) of "f.txt/"), as this library's shell and node:fs-like provider now answer.
 * Suggested fix: one check in the tool layer (WorkspaceFileStore or resolveToolPath) for a path whose last segment
 * as written is `/` or `.`: existing non-directory → `ENOTDIR: not a directory, <op>: <path>` for read, edit, write
 * and delete alike; a missing one stays EISDIR for write (as open(2) with O_CREAT).
 * Fixed: WorkspaceFileStore (src/tools/core/store.ts) checks a path in directory form (`f/`, `f/.`: `directoryForm`,
 * now in src/util/path.ts and shared with the shell's fs adapter and the JS backend) against what is there: `stat`
 * (read, edit and write start with it) answers `ENOTDIR: not a directory, stat: <path>` for a non-directory, and
 * `remove` (delete: `…, rm: <path>`), `write` and `readChunks` check it too for direct store users.
 * read returns that as its `{ error }` (no longer reading the file); delete no longer removes it. A missing `new/` or a
 * directory `d/` stays `EISDIR` for write; `f.txt/` under a tool set's `root` answers the same.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { WorkspaceFileStore } from "../../../src/tools/core/store.js";

const CALLS: [string, Record<string, unknown>][] = [
  ["write", { path: "/workspace/f.txt/", content: "W" }],
  ["write", { path: "/workspace/f.txt/.", content: "W" }],
  ["edit", { path: "/workspace/f.txt/", edits: [{ oldText: "f", newText: "E" }] }],
  ["read", { path: "/workspace/f.txt/" }],
  ["delete", { path: "/workspace/f.txt/" }],
];

it("read, write, edit and delete of f.txt/ all answer ENOTDIR and leave the file", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage });
    try {
      const { execute } = createPiTools({ workspace: ws });
      const results: { call: string; code: string; file: string }[] = [];
      for (const [name, args] of CALLS) {
        await ws.fs.mkdir("/workspace", { recursive: true });
        await ws.fs.writeFile("/workspace/f.txt", "f");
        const r = await execute({ id: name, name, arguments: args });
        const error = (r.details as { error?: string } | undefined)?.error;
        const file = await ws.fs.readFile("/workspace/f.txt", "utf8").catch((e: { code?: string }) => String(e.code));
        results.push({ call: `${name} ${String(args.path)}`, code: error === undefined ? "no error" : error, file });
      }
      return results;
    } finally {
      await ws.close();
    }
  });
  // Found: write ×2 and edit "EISDIR"; read and delete "no error" (delete leaves file "ENOENT").
  // read may keep its spec'd "File not found: P" for a path that is not a regular file.
  expect(out).toEqual(
    CALLS.map(([name, args]) => ({
      call: `${name} ${String(args.path)}`,
      code: `ENOTDIR: not a directory, ${name === "delete" ? "rm" : "stat"}: ${String(args.path)}`,
      file: "f",
    })),
  );
}, 60_000);

it("f.txt/ under a root, f.txt/. for read and delete, and a directory or missing name for write", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage });
    try {
      const { execute } = createPiTools({ workspace: ws });
      const { execute: rooted } = createPiTools({ workspace: ws, root: "/workspace" });
      const calls: [typeof execute, string, Record<string, unknown>][] = [
        [rooted, "read", { path: "f.txt/" }],
        [rooted, "write", { path: "f.txt/", content: "W" }],
        [rooted, "delete", { path: "f.txt/" }],
        [execute, "read", { path: "/workspace/f.txt/." }],
        [execute, "delete", { path: "/workspace/f.txt//" }],
        [execute, "write", { path: "/workspace/new/", content: "W" }],
        [execute, "write", { path: "/workspace/d/", content: "W" }],
        [execute, "read", { path: "/workspace/d/" }],
        [execute, "delete", { path: "/workspace/gone/" }],
      ];
      const results: string[] = [];
      for (const [run, name, args] of calls) {
        await ws.fs.mkdir("/workspace/d", { recursive: true });
        await ws.fs.writeFile("/workspace/f.txt", "f");
        const r = await run({ id: name, name, arguments: args });
        results.push((r.content[0] as { text: string }).text);
      }
      const left = (await ws.fs.find("/", "**")).map((e) => `${e.path}${e.type === "file" ? "" : "/"}`).sort();
      return { results, left, file: await ws.fs.readFile("/workspace/f.txt", "utf8") };
    } finally {
      await ws.close();
    }
  });
  expect(out).toEqual({
    results: [
      "ENOTDIR: not a directory, stat: f.txt/",
      "ENOTDIR: not a directory, stat: f.txt/",
      "ENOTDIR: not a directory, rm: f.txt/",
      "ENOTDIR: not a directory, stat: /workspace/f.txt/.",
      "ENOTDIR: not a directory, rm: /workspace/f.txt//",
      "EISDIR: is a directory, writeFile: /workspace/new",
      "EISDIR: is a directory, writeFile: /workspace/d",
      "File not found: /workspace/d/",
      JSON.stringify({ deleted: "/workspace/gone/" }),
    ],
    left: ["/workspace/", "/workspace/d/", "/workspace/f.txt"],
    file: "f",
  });
}, 60_000);

it("WorkspaceFileStore's write, readChunks and remove of f.txt/ answer ENOTDIR with their own syscall", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/f.txt", "f");
      const store = new WorkspaceFileStore(ws);
      const message = (p: Promise<unknown>) => p.then(() => "resolved", (e: Error) => e.message);
      return {
        write: await message(store.write("/workspace/f.txt/", new TextEncoder().encode("W"))),
        writeDot: await message(store.write("/workspace/f.txt/.", new TextEncoder().encode("W"))),
        read: await message(store.readAll("/workspace/f.txt/")),
        remove: await message(store.remove("/workspace/f.txt/", { force: true })),
        file: await ws.fs.readFile("/workspace/f.txt", "utf8"),
      };
    } finally {
      await ws.close();
    }
  });
  expect(out).toEqual({
    write: "ENOTDIR: not a directory, writeFile: /workspace/f.txt/",
    writeDot: "ENOTDIR: not a directory, writeFile: /workspace/f.txt/.",
    read: "ENOTDIR: not a directory, readFile: /workspace/f.txt/",
    remove: "ENOTDIR: not a directory, rm: /workspace/f.txt/",
    file: "f",
  });
}, 60_000);
