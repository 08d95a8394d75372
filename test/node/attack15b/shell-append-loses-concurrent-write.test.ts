/**
 * Issue 20, fifteenth attack run: the shell's `>>` (WorkspaceFsAdapter.appendFile — also what the Workers shell's
 * host runs for every append, src/backends/worker-shell/backend.ts `appendBytes`) loses a write made to the file
 * by anyone else while the append runs.
 * Tried: `appendFile("/f", "APP\n")` on a WorkspaceFsAdapter over `workspace.fs`, and `workspace.fs.writeFile("/f",
 * "EDITED\n")` (the write/edit tools, the JavaScript backend, the host) issued at once or after 1–29 macrotasks;
 * a 10-byte file and a 3 MB one. Held for the 10-byte file after the first tick (the append's read and write
 * finish before the other write starts). For the 3 MB file, 24 of 30 interleavings (and 3 of 3 at once, below).
 * Found (medium, data loss): appendFile streams the old content into a new writeFile with no condition — no
 * ifUnmodified / ifInode as the provider's streamed append got in b849421 (attack14b) — so a write that commits
 * while the old content is being copied is overwritten by old + "APP\n": both calls resolve, "EDITED" is gone.
 * The host's per-path append queue orders appends only among themselves. Severity low-medium: on Node (the
 * adapter is exported for just-bash over any Workspace) it is hit easily; in real workerd a host write issued
 * 0–300 ms into `echo APP >> /workspace/big` (3 MB and 30 MB) always landed after the append (10 of 10
 * delays: the append's steps did not yield to the host's timers), so the Workers shell was not caught.
 * Suggested fix: bind the rewrite to the file read (`ifInode` + `ifUnmodified: { size, mtime }` from the stat, as
 * the provider's #appendBytes does) and retry on ESTALE, so the append lands after the other write.
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../../src/index.js";
import { WorkspaceFsAdapter } from "../../../src/backends/worker-shell/index.js";

describe("attack15b: shell append and a concurrent write", () => {
  it.fails("a write made while `>>` copies a 3 MB file is kept (the append lands after it, or the write after the append)", async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage() });
    await ws.fs.writeFile("/f", "o".repeat(3_000_000));
    const append = new WorkspaceFsAdapter(ws.fs).appendFile("/f", "APP\n");
    const write = ws.fs.writeFile("/f", "EDITED\n");
    await Promise.all([append, write]);
    const text = await new Response(await ws.fs.readFile("/f")).text();
    // Either order is fine (the append after the write, or the write after the append); losing the write is not.
    expect(["EDITED\nAPP\n", "EDITED\n"]).toContain(text.length > 40 ? `${text.slice(0, 20)}… (${text.length} bytes)` : text);
  });
});
