/**
 * Issue 20, twenty-first attack run: the delete tool removes the directory a last `.`/`..` segment collapses to.
 * Tried: the pi tool set's `delete` (src/tools/core/delete.ts → store.remove → workspace.fs.rm, `{ recursive: true, force: true }`)
 * on a Workspace over the Durable Object's storage, with paths whose last segment is `.` or `..`, with and without the
 * tool set's `root` — the entry point left after the same bug was fixed in the shell (c4ebc57: `rm -rf d/..`), the JS
 * backend's node:fs `rm` (da3a73f: EINVAL "as node:fs on Linux") and the provider's rmdir/rename (fd14df8).
 * Held: `delete("/")` is EPERM; `delete("")` without a root EINVAL; a path outside the root is refused.
 * Found (medium-high — data loss from one tool call; 3 of 3 runs): `delete({ path: "/workspace/d/..", recursive: true })`
 * answers `{ deleted: "/workspace/d/.." }` and removes /workspace itself with everything in it (left: nothing); with
 * `root: "/workspace/proj"`, `delete({ path: "sub/.." })`, `delete({ path: "." })` and `delete({ path: "" })` (an
 * empty path — what a model sends when it fails to fill the argument; without a root it is EINVAL) remove the tool
 * set's own root with everything in it (the shell made `rm -rf ''` a no-op in c4ebc57).
 * `delete("/workspace/d/.")` removes d. GNU `rm -rf d/..` refuses ("refusing to remove '.' or '..' directory"), node:fs
 * `rm` is EINVAL, and the shell and JS backend of this library now do the same — the model's tool does not.
 * Suggested fix: in deleteDefinition (or WorkspaceFileStore.remove), refuse a path whose last segment as written
 * (trailing slashes ignored) is `.` or `..` — `{ error: "EINVAL: … refusing to remove '.' or '..'" }` — and an empty
 * path, before the lock; consider refusing the tool set's root itself as `/` is refused.
 * Fixed: the delete tool (src/tools/core/delete.ts) refuses, before the lock and without touching the store, an
 * empty path (`EINVAL: invalid argument, delete: the path is empty; …`) and a path whose last segment as written,
 * trailing `/` ignored (`lastSegment`, src/util/path.ts), is `.` or `..` (`EINVAL: invalid argument, delete: refusing
 * to delete a path ending in ".." ("/workspace/d/.."); name the file or directory itself, …`); WorkspaceFileStore.remove
 * refuses the root of a tool set's confined view itself, by any spelling (`/workspace/d`, `/workspace/d/`, `x/..` if
 * it got there): `EPERM: operation not permitted, the tool set's root cannot be deleted (delete the entries inside it
 * instead), rm: /workspace/d`, as `/` is EPERM. A path that names `/` (`/workspace/..`, `/.`) stays the store's EPERM
 * (`cannot remove the root directory`). Entries inside the root, and `d/` (a directory by name), still delete.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

const ALL = ["/workspace", "/workspace/d", "/workspace/d/x", "/workspace/d/x/k.txt", "/workspace/f.txt"];

type Call = ["all" | "rooted", string];

/** Runs each delete call (the whole tree's tool set, or one rooted at /workspace/d) on a fresh copy of ALL. */
async function deleteCalls(calls: Call[]): Promise<{ path: string; error: boolean; text: string; left: string[] }[]> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage });
    const results: { path: string; error: boolean; text: string; left: string[] }[] = [];
    try {
      const sets = {
        all: createPiTools({ workspace: ws }).execute,
        rooted: createPiTools({ workspace: ws, root: "/workspace/d" }).execute,
      };
      for (const [set, path] of calls) {
        await ws.fs.mkdir("/workspace/d/x", { recursive: true });
        await ws.fs.writeFile("/workspace/d/x/k.txt", "k");
        await ws.fs.writeFile("/workspace/f.txt", "f");
        const r = await sets[set]({ id: path, name: "delete", arguments: { path, recursive: true } });
        const left = (await ws.fs.find("/", "**")).map((e) => e.path).sort();
        results.push({ path, error: r.isError === true, text: (r.content[0] as { text: string }).text, left });
      }
    } finally {
      await ws.close();
    }
    return results;
  });
}

it("delete of a path ending in . or .. removes nothing and answers an error", async () => {
  const out = await deleteCalls([
    ["all", "/workspace/d/.."],
    ["all", "/workspace/d/x/.."],
    ["all", "/workspace/d/."],
    ["rooted", "x/.."],
    ["rooted", "."],
    ["rooted", ""],
  ]);
  // Found: every call answered { deleted: <path> }; left: [] for /workspace/d/.., ["/workspace", "/workspace/f.txt"]
  // for the others ("/workspace/d/." and rooted "." / "x/.." / "" removed /workspace/d, the root).
  const dots = (path: string) =>
    `EINVAL: invalid argument, delete: refusing to delete a path ending in "${path.endsWith("..") ? ".." : "."}" (${JSON.stringify(path)}); name the file or directory itself, without a last "." or "..".`;
  expect(out).toEqual(
    ["/workspace/d/..", "/workspace/d/x/..", "/workspace/d/.", "x/..", ".", ""].map((path) => ({
      path,
      error: true,
      text: path === "" ? "EINVAL: invalid argument, delete: the path is empty; give the path of the file or directory to delete." : dots(path),
      left: ALL,
    })),
  );
}, 60_000);

it("the tool set's root is refused by any spelling; what is inside it, and d/, still delete", async () => {
  const out = (
    await deleteCalls([
      ["rooted", "/workspace/d"],
      ["rooted", "/workspace/d/"],
      ["rooted", "/workspace/d//"],
      ["rooted", "x/"],
      ["all", "/workspace/d/"],
      ["all", "/workspace/d/x/../."],
      ["all", "/."],
    ])
  ).map(({ path, text, left }) => ({ path, text, left }));
  const root = "EPERM: operation not permitted, the tool set's root cannot be deleted (delete the entries inside it instead), rm: /workspace/d";
  expect(out).toEqual([
    { path: "/workspace/d", text: root, left: ALL },
    { path: "/workspace/d/", text: root, left: ALL },
    { path: "/workspace/d//", text: root, left: ALL },
    { path: "x/", text: JSON.stringify({ deleted: "x/" }), left: ["/workspace", "/workspace/d", "/workspace/f.txt"] },
    { path: "/workspace/d/", text: JSON.stringify({ deleted: "/workspace/d/" }), left: ["/workspace", "/workspace/f.txt"] },
    {
      path: "/workspace/d/x/../.",
      text: `EINVAL: invalid argument, delete: refusing to delete a path ending in "." ("/workspace/d/x/../."); name the file or directory itself, without a last "." or "..".`,
      left: ALL,
    },
    { path: "/.", text: "EPERM: cannot remove the root directory, rm: /", left: ALL },
  ]);
}, 60_000);
