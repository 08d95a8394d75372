/**
 * Issue 20, twenty-first attack run: docs/container.md Sync 4 — "Workspace writes to paths the command did not touch are
 * kept … also under a directory the command deleted: a deletion removes only what is still as last synced … what the
 * Workspace changed or added there is kept and listed in `skipped`". That holds when the command deletes a directory.
 * When it replaces the directory by a file or link of the same name (`rm -rf build && touch build`, `mv out out.old &&
 * ln -s dist out`, a tool writing a file where a folder was), the pull's `#pullEntry` removes the Workspace directory
 * recursively first (src/runtime/sync.ts: `existing?.isDirectory && entry.kind !== "directory"` → `rm(full, {
 * recursive: true })`): what the Workspace wrote inside it while the command ran — never pushed, never in the
 * container — is deleted with it, and nothing says so.
 *
 * Tried: the real daemon (`Computerd` in process, attack18c/real-daemon.ts). /workspace/d/a synced by a first command;
 * a second command waits for a `go` file, then runs `rm -rf d` (held case) or `rm -rf d; echo file > d`; while it
 * waits the Workspace writes /workspace/d/new.txt ("workspace work"), then `go` is created in the container.
 * Held: `rm -rf d` alone keeps /workspace/d/new.txt and lists /workspace/d in `skipped` ("changed in the Workspace since the
 * last sync"), as documented.
 *
 * Found (medium; 3 of 3 runs): with the replacement, sync.skipped is [], /workspace/d is the
 * container's file and /workspace/d/new.txt is gone (ENOENT) — the Workspace's work lost without a word.
 *
 * Suggested fix: before replacing a Workspace directory by the container's file or link, apply the deletion rules of
 * `#removeGone` to it (remove only what is still as last synced); when something the Workspace changed or added is
 * left, keep the directory, skip the container's entry with a reason (as a deletion keeps and reports) — or move the
 * Workspace's additions aside and report where.
 *
 * Fixed: before the container's file or link replaces a Workspace directory, `#clearDirectory` applies `#removeGone`'s
 * rules to it (only what is still as last synced goes, a directory the manifest does not hold goes only when empty);
 * when the directory is left, the container's entry is not applied and `skipped` lists the directory once
 * (`op: "write"`, "the container replaced this directory by a file or link, but the Workspace changed or added entries
 * in it since the last sync: the directory is kept"), with any synced entry under it the Workspace changed
 * ("changed in the Workspace since the last sync"). Siblings (a link, a changed synced file, an unchanged directory) in
 * test/node/fix21/container-sync-disk-id-and-live-runs.test.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

async function scenario(command: string): Promise<{ d: string; added: string; skipped: string[] }> {
  const real = await realDaemonWorkspace();
  const { ws, dir } = real;
  try {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.writeFile("/workspace/d/a", "a");
    expect((await (await ws.runtime.exec("true", { backend: "box" })).result()).exitCode).toBe(0);
    const run = (await ws.runtime.exec(`while [ ! -f go ]; do sleep 0.05; done; ${command}`, { backend: "box", id: "replace" })).result();
    await new Promise((r) => setTimeout(r, 200));
    await ws.fs.writeFile("/workspace/d/new.txt", "workspace work");
    fs.writeFileSync(path.join(dir, "go"), "");
    const result = await run;
    expect(result.exitCode).toBe(0);
    const st = await ws.fs.lstat("/workspace/d");
    return {
      d: st.isDirectory ? "directory" : "file",
      added: await ws.fs.readFile("/workspace/d/new.txt", "utf8").catch((e: { code?: string }) => e.code ?? "error"),
      skipped: (result.sync?.skipped ?? []).map((s) => s.path),
    };
  } finally {
    await real.close();
  }
}

describe("attack21c: a command replaces a directory in which the Workspace wrote meanwhile", () => {
  it("held: a command that only deletes the directory leaves the Workspace's addition, reported", { timeout: 60_000 }, async () => {
    expect(await scenario("rm -rf d")).toEqual({ d: "directory", added: "workspace work", skipped: ["/workspace/d"] });
  });

  it("replacing it by a file does not delete the Workspace's addition unreported", { timeout: 60_000 }, async () => {
    // Found: { d: "file", added: "ENOENT", skipped: [] }.
    expect(await scenario("rm -rf d; echo file > d")).toEqual({ d: "directory", added: "workspace work", skipped: ["/workspace/d"] });
  });
});
