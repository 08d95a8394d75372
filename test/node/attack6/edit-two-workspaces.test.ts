/**
 * Issue 20 sixth attack run, category 3 (concurrent writes): two Workspaces
 * over ONE storage (one node:sqlite file, as two isolates or processes of
 * one deployment), a pi tool set over each, 50 concurrent `edit` calls
 * alternating between them, each replacing its own line of one file.
 *
 * DEFECT (medium) — same defect as test/workers/attack6/edit-lost-update
 * .test.ts (reproduction, impact and fix proposal there): every call answers
 * success, 25 of the 50 replacements are in the file; the edit tool's
 * read-modify-write is serialised only per `workspace.fs` object, and the
 * write is not conditional on the version read.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { Workspace } from "../../../src/workspace.js";

const dir = mkdtempSync(join(tmpdir(), "attack6-edit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("attack6: concurrent edits from two Workspaces over one storage", () => {
  it.fails("every edit that answered success is in the file (none lost silently)", async () => {
    const file = join(dir, "db.sqlite");
    const a = new Workspace({ storage: nodeSqliteStorage(file) });
    const b = new Workspace({ storage: nodeSqliteStorage(file) });
    const lines = Array.from({ length: 50 }, (_, i) => `line${i}`).join("\n") + "\n";
    await a.fs.mkdir("/workspace", { recursive: true });
    await a.fs.writeFile("/workspace/e.txt", lines);
    const tools = [createPiTools({ workspace: a }).execute, createPiTools({ workspace: b }).execute];
    for (const execute of tools) await execute({ id: "r", name: "read", arguments: { path: "/workspace/e.txt" } });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        tools[i % 2]!({ id: `e${i}`, name: "edit", arguments: { path: "/workspace/e.txt", edits: [{ oldText: `line${i}\n`, newText: `LINE${i}\n` }] } }),
      ),
    );
    const succeeded = results.map((r, i) => (r.isError ? null : i)).filter((i) => i !== null);
    const text = await a.fs.readFile("/workspace/e.txt", "utf8");
    const landed = Array.from({ length: 50 }, (_, i) => i).filter((i) => text.includes(`LINE${i}\n`));
    expect(landed).toEqual(succeeded);
    await a.close();
    await b.close();
  });
});
