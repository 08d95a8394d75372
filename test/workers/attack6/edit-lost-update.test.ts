/**
 * Issue 20 sixth attack run, category 3 (concurrent writes) through the
 * tools, with two clients of one Workspace.
 *
 * DEFECT (medium), FIXED (edit writes with `ifMatch`, the SHA-256 of what it
 * read, and applies its batch again to another writer's result) — reproduction: two `getWorkspace(stub)` clients of one
 * Durable Object (two Worker requests, two agent sessions), a pi tool set
 * over each (`createPiTools({ workspace: client })`), each reads
 * `/workspace/e.txt` (50 lines `line<i>`), then 50 concurrent `edit` calls,
 * alternating between the two tool sets, each replacing its own line. Every
 * call answers success (`isError: false`), yet only about half of the
 * replacements are in the file: the edit tool reads the file, applies the
 * edits and writes the whole file back, and its lock is keyed by the
 * client's `fs` object (src/tools/core/store.ts `lockIdentity`), so two
 * clients — or two Workspaces over one storage, see
 * test/node/attack6/edit-two-workspaces.test.ts — interleave their
 * read-modify-write and overwrite each other's edits, silently.
 * Impact: medium — data loss reported as success (an agent believes its
 * change landed); needs two concurrent writers of one file, which an
 * application serving several sessions from one object has.
 * Fix proposal: make the write conditional on what was read — the store
 * passes the version it read (mtime + size, or a content hash) and the
 * write happens in one transaction only if the file still has it, else the
 * tool answers the stale-file error it already has for changes since the
 * last read (the model re-reads and retries); or key the lock by the
 * Workspace behind the client (an id the object gives) and take it in the
 * object, not in the caller.
 *
 * Withstood (passing): 50 separate tool sets over ONE client serialise on
 * that client's lock; every edit lands.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

const LINES = Array.from({ length: 50 }, (_, i) => `line${i}`).join("\n") + "\n";

async function concurrentEdits(executes: ReturnType<typeof createPiTools>["execute"][]) {
  for (const execute of executes) await execute({ id: "r", name: "read", arguments: { path: "/workspace/e.txt" } });
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      executes[i % executes.length]!({ id: `e${i}`, name: "edit", arguments: { path: "/workspace/e.txt", edits: [{ oldText: `line${i}\n`, newText: `LINE${i}\n` }] } }),
    ),
  );
  return results.map((r, i) => (r.isError ? null : i)).filter((i): i is number => i !== null);
}

describe("attack6: concurrent edits of one file from two clients", () => {
  it("50 tool sets over one client: every edit lands", async () => {
    const stub = env.CLIENT_AGENT.get(env.CLIENT_AGENT.newUniqueId());
    using ws = await getWorkspace(stub);
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/e.txt", LINES);
    const succeeded = await concurrentEdits(Array.from({ length: 50 }, () => createPiTools({ workspace: ws }).execute));
    expect(succeeded).toHaveLength(50);
    expect(await ws.fs.readFile("/workspace/e.txt", "utf8")).toBe(LINES.replace(/line/g, "LINE"));
  });

  it("two clients: every edit that answered success is in the file (none lost silently)", async () => {
    const stub = env.CLIENT_AGENT.get(env.CLIENT_AGENT.newUniqueId());
    using a = await getWorkspace(stub);
    using b = await getWorkspace(stub);
    await a.fs.mkdir("/workspace", { recursive: true });
    await a.fs.writeFile("/workspace/e.txt", LINES);
    const succeeded = await concurrentEdits([createPiTools({ workspace: a }).execute, createPiTools({ workspace: b }).execute]);
    const text = await a.fs.readFile("/workspace/e.txt", "utf8");
    const landed = Array.from({ length: 50 }, (_, i) => i).filter((i) => text.includes(`LINE${i}\n`));
    expect(landed).toEqual(succeeded);
    expect(succeeded).toHaveLength(50);
  });
});
