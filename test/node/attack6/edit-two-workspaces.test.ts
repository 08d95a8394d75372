/**
 * Issue 20 sixth attack run, category 3 (concurrent writes): two Workspaces
 * over ONE storage (one node:sqlite file, as two isolates or processes of
 * one deployment), a pi tool set over each, 50 concurrent `edit` calls
 * alternating between them, each replacing its own line of one file.
 *
 * DEFECT (medium), FIXED — same defect as test/workers/attack6/edit-lost-update
 * .test.ts (reproduction, impact and fix proposal there): every call answered
 * success, 25 of the 50 replacements were in the file; the edit tool's
 * read-modify-write was serialised only per `workspace.fs` object, and the
 * write was not conditional on the version read. Now edit writes with
 * `writeFile(…, { ifMatch: sha256 of what it read })` and applies its batch
 * again to what another writer left (EDIT_ATTEMPTS rounds): all 50 land.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { EDIT_ATTEMPTS } from "../../../src/tools/core/edit.js";
import { WorkspaceFileStore } from "../../../src/tools/core/store.js";
import { createEditTool } from "../../../src/tools/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";
import { Workspace } from "../../../src/workspace.js";

const dir = mkdtempSync(join(tmpdir(), "attack6-edit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("attack6: concurrent edits from two Workspaces over one storage", () => {
  it("every edit that answered success is in the file (none lost silently)", async () => {
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
    expect(succeeded).toHaveLength(50);
    await a.close();
    await b.close();
  });

  it("a writer that changes the file between every read and write: edit gives up after EDIT_ATTEMPTS rounds, writes nothing", async () => {
    const file = join(dir, "db2.sqlite");
    const a = new Workspace({ storage: nodeSqliteStorage(file) });
    const b = new Workspace({ storage: nodeSqliteStorage(file) });
    await a.fs.writeFile("/f.txt", "alpha beta\n");
    let reads = 0;
    // The store edit uses (over `a`); each time edit has read the file, `b` rewrites it.
    class Racing extends WorkspaceFileStore {
      override async readAll(path: string): Promise<Uint8Array | null> {
        const bytes = await super.readAll(path);
        reads++;
        await b.fs.writeFile("/f.txt", `alpha beta ${reads}\n`);
        return bytes;
      }
    }
    const edit = createEditTool({ store: new Racing(a) });
    const result = (await edit.execute!({ path: "/f.txt", edits: [{ oldText: "alpha", newText: "ALPHA" }] }, { toolCallId: "t", messages: [] } as never)) as { error?: string };
    expect(result.error).toBe(
      `File changed while it was being edited (${EDIT_ATTEMPTS} attempts, another writer each time): /f.txt. Nothing was written; read it again and retry the edit.`,
    );
    expect(reads).toBe(EDIT_ATTEMPTS);
    expect(await a.fs.readFile("/f.txt", "utf8")).toBe(`alpha beta ${EDIT_ATTEMPTS}\n`);
    // Once the other writer stops, the same call succeeds on the first round.
    const plain = createEditTool({ store: new WorkspaceFileStore(a) });
    const ok = (await plain.execute!({ path: "/f.txt", edits: [{ oldText: "alpha", newText: "ALPHA" }] }, { toolCallId: "t2", messages: [] } as never)) as { editsApplied?: number };
    expect(ok.editsApplied).toBe(1);
    expect(await b.fs.readFile("/f.txt", "utf8")).toBe(`ALPHA beta ${EDIT_ATTEMPTS}\n`);
    await a.close();
    await b.close();
  });
});
