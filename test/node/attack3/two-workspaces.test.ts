/**
 * Issue 20 third attack run, category 3: two Workspaces racing on one store.
 * Renames that would nest two directories in each other (one must fail, no
 * cycle cut off from the root), rename against rm -r, and writes into a
 * directory being moved — from two Workspaces on one storage object and on
 * two storage objects over one database file. A reader on the same storage
 * object keeps its snapshot while the other Workspace replaces the file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

const dir = mkdtempSync(join(tmpdir(), "attack3-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

function pair(kind: "one storage object" | "two storage objects on one file") {
  if (kind === "one storage object") {
    const storage = nodeSqliteStorage(":memory:");
    return { a: new Workspace({ storage }), b: new Workspace({ storage }), sql: storage.sql };
  }
  const file = join(dir, `db${++files}.sqlite`);
  const sa = nodeSqliteStorage(file);
  return { a: new Workspace({ storage: sa }), b: new Workspace({ storage: nodeSqliteStorage(file) }), sql: sa.sql };
}
const settle = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code ?? "error");

describe("attack3: two Workspaces racing on one store", () => {
  for (const kind of ["one storage object", "two storage objects on one file"] as const) {
    it(`${kind}: crossed renames never make a cycle; rename vs rm -r and writes into a moving directory stay sound`, async () => {
      const { a, b, sql } = pair(kind);
      for (let round = 0; round < 30; round++) {
        await a.fs.rm("/a", { recursive: true, force: true });
        await a.fs.rm("/b", { recursive: true, force: true });
        await a.fs.mkdir("/a/x", { recursive: true });
        await a.fs.mkdir("/b/y", { recursive: true });
        const [ra, rb] = await Promise.all([settle(a.fs.rename("/a", "/b/y/a")), settle(b.fs.rename("/b", "/a/x/b"))]);
        expect([ra, rb], `round ${round}`).not.toEqual(["ok", "ok"]);
        expect(integrityProblems(sql), `round ${round}`).toEqual([]);
      }
      await a.fs.mkdir("/m/sub", { recursive: true });
      await Promise.all([
        settle(a.fs.rename("/m", "/moved")),
        settle(b.fs.rm("/m", { recursive: true })),
        ...Array.from({ length: 20 }, (_, i) => settle(b.fs.writeFile(`/m/sub/f${i}`, new Uint8Array(1000 * i)))),
        ...Array.from({ length: 20 }, (_, i) => settle(a.fs.writeFile(`/moved/sub/g${i}`, "x"))),
      ]);
      expect(integrityProblems(sql)).toEqual([]);
    });
  }

  it("one storage object: a reader keeps its snapshot while the other Workspace replaces and removes the file", async () => {
    const { a, b, sql } = pair("one storage object");
    const old = new Uint8Array(3 * 524_288).map((_, i) => i % 251);
    await a.fs.writeFile("/f", old);
    const reader = (await b.fs.readFile("/f")).getReader();
    let total = 0;
    let bad = 0;
    const first = await reader.read();
    total += first.value!.byteLength;
    await a.fs.writeFile("/f", "new");
    await a.fs.rm("/f");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      for (let i = 0; i < value.byteLength; i++) if (value[i] !== (total + i) % 251) bad++;
      total += value.byteLength;
    }
    expect([total, bad]).toEqual([old.byteLength, 0]);
    expect(integrityProblems(sql)).toEqual([]);
  });
});
