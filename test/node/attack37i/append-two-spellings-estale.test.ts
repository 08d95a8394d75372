/**
 * Issue 20, thirty-seventh attack run: `workspace.fs.appendFile` lets appends to one path take turns (a queue
 * keyed by the path's lexical canonical form, src/fs/write.ts `turn(this.#queues, request.path)`), but appends
 * to the same file through two spellings — the file and a path through a symbolic link to its directory —
 * land in two queues and race. They race in lockstep: each time, the head of one queue commits first and the
 * other's try finds the file restamped, retries, and meets the next append of the first queue, so it loses
 * all 10 tries and rejects with ESTALE, its bytes never written. docs/filesystem.md promises "Concurrent
 * appends all land" (ESTALE only when the file "kept changing"); Linux's O_APPEND appends every write
 * whatever path opened the file.
 * Tried: differential against node:fs on Linux (20 `fs.promises.appendFile` calls, 10 to `d/log` and 10 to
 * `l/log` with `l -> d`, started together: 20 lines); the same through the Workspace with 4, 10, 20, 50 per
 * spelling; 30 interleaved appends to a file and a link to the file; a 60-step sequence of byte, stream and
 * provider appends of 0, 1, 7, C−1, C, C+1, 2C−3, 2C bytes (C = 512 KiB) mixed with rewrites, checked byte
 * for byte after each step.
 * Held: every sequential append, across chunk boundaries, from bytes, streams and the provider; concurrent
 * appends through ONE spelling (all land, in call order); the shell's `>>` through both spellings (two background
 * loops of 30 in one exec, and 6 concurrent execs of 20: all 60 / 120 lines landed). The JavaScript backend's
 * node:fs has no appendFile (documented), so the reach is host code: workspace.fs.appendFile and the provider's
 * appendFile / append handles (docs/filesystem.md: "Concurrent appends all land").
 * Found (medium, borderline — host code's concurrent appends to a log lose lines, each a rejected call it must
 * notice and redo, against the documented promise; deterministic, 3 of 3 runs): 4 per spelling → 0 rejected; 10 → 1 rejected (19 of 20 lines);
 * 20 → 2 (38 of 40); 50 → 5 (95 of 100): every tenth append of the second spelling fails ESTALE.
 * Suggested fix: src/fs/write.ts FileWriter.append — take the turn by the file the path leads to (its inode,
 * or the final link-resolved path, looked up before the turn and checked again inside it), not by the text
 * of the path, so every append to one file waits in one queue.
 *
 * Fixed: src/fs/write.ts `FileWriter.append` takes the turn keyed by the path key of the entry the path leads to
 * (`entryKey`: links followed, a missing file by its parent's key and name), resolved before the turn and checked
 * again in it — a path that has come to lead elsewhere takes that entry's turn (issue 20, run 37, fixer AP2).
 * Siblings: test/node/fix37/fs-append-spellings.test.ts.
 */
import { expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";

it("concurrent appends to one file through a link to its directory all land", async () => {
  const storage = nodeSqliteStorage(":memory:");
  const ws = new Workspace({ storage });
  try {
    await ws.ready();
    await ws.fs.mkdir("/d");
    await ws.fs.writeFile("/d/log", "");
    await ws.fs.symlink("/d", "/l");
    const calls: Promise<void>[] = [];
    for (let i = 0; i < 10; i++) {
      calls.push(ws.fs.appendFile("/d/log", `a${i}\n`));
      calls.push(ws.fs.appendFile("/l/log", `b${i}\n`));
    }
    const results = await Promise.allSettled(calls);
    const rejected = results.flatMap((r) => (r.status === "rejected" ? [(r.reason as { code?: string }).code] : []));
    const lines = (await ws.fs.readFile("/d/log", "utf8")).split("\n").filter(Boolean).sort();
    // Linux (node:fs on a temp dir, the same calls): every append lands, none rejects.
    expect(rejected).toEqual([]); // Was: ["ESTALE"]
    expect(lines).toEqual([...Array.from({ length: 10 }, (_, i) => `a${i}`), ...Array.from({ length: 10 }, (_, i) => `b${i}`)].sort()); // Was: 19 lines, one `b…` missing
  } finally {
    await ws.close();
    storage.close();
  }
});
