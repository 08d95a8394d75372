/**
 * FIXED — truncate on an append handle adds its pending appends, then the
 * handle holds the file as a r+ handle does; later appends go to the end of
 * what it holds, and one guarded store at close writes the result.
 *
 * Issue 20 ninth attack run, category 4: `workspace.provider()` — an append
 * handle (`a`, `a+`) that truncates. Runs 2–8 and probe-provider truncated
 * `r+`/`w` handles only.
 *
 * An append handle keeps what it appends aside and adds it at the file's end
 * at close (attack8 fix); `truncate` loads the file into the handle and
 * stores it at close, guarded by the hash of what it loaded. At close the
 * appended bytes are stored first — which changes the file — and then the
 * truncated content's guarded store finds the file "changed by another
 * writer": the handle conflicts with itself.
 *
 * DEFECT (medium: the truncate is lost and the error blames a writer that
 * does not exist). Reproduction (Node):
 *   await ws.fs.writeFile("/a", "hello");
 *   const h = await p.open("/a", "a+");
 *   await h.truncate(0); await h.write("X");
 *   await h.close()   // → rejects ESTALE "another writer changed the file since this handle read it; its writes were not stored"
 *   await ws.fs.readFile("/a", "utf8")   // → "helloX"   (node:fs: "X")
 * Also `a` then truncate(2), write("X") → "helloX" (node:fs: "heX"); and
 * write("X"), truncate(3), write("Y") → "helloXY" (node:fs: "helY"). Log
 * rotation that empties a log through its own append handle keeps the old
 * log and gets an error. Expected: as node:fs with O_APPEND — the truncate
 * applies, later appends land after it, close resolves.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string }) => e.code);

describe("attack9: provider append handle and truncate", () => {
  it("a+: truncate(0) then write('X') leaves 'X' and close resolves", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    try {
      const p = ws.provider();
      await ws.fs.writeFile("/a", "hello");
      const h = await p.open("/a", "a+");
      await h.truncate(0);
      await h.write("X");
      const closed = await codeOf(h.close());
      expect({ closed, content: await ws.fs.readFile("/a", "utf8") }).toEqual({ closed: "ok", content: "X" });
    } finally {
      await ws.close();
    }
  });

  it("a: write('X'), truncate(3), write('Y') leaves 'helY' and close resolves", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    try {
      const p = ws.provider();
      await ws.fs.writeFile("/c", "hello");
      const h = await p.open("/c", "a");
      await h.write("X");
      await h.truncate(3);
      await h.write("Y");
      const closed = await codeOf(h.close());
      expect({ closed, content: await ws.fs.readFile("/c", "utf8") }).toEqual({ closed: "ok", content: "helY" });
    } finally {
      await ws.close();
    }
  });
});
