/**
 * Issue 20, fourteenth attack run: concurrent `>>` appends to one file under two spellings — the file and a
 * symbolic link to it — from three shell commands at once (the host serialises appends per path STRING,
 * src/backends/worker-shell/backend.ts `#serially`, so the link's appends are not queued with the file's).
 * Tried: 3 × 40 appends, one command through the link. Held: every line lands (120 lines, 40 of each).
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

describe("attack14a: concurrent appends through a link (held)", () => {
  it("keeps every appended line", { timeout: 60_000 }, async () => {
    const r = await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/f", "");
      await ws.fs.symlink("/workspace/f", "/workspace/l");
      const outs = await Promise.all([
        sh(ws, "for i in $(seq 1 40); do echo a$i >> /workspace/f; done; echo done"),
        sh(ws, "for i in $(seq 1 40); do echo b$i >> /workspace/l; done; echo done"),
        sh(ws, "for i in $(seq 1 40); do echo c$i >> /workspace/f; done; echo done"),
      ]);
      const text = await ws.fs.readFile("/workspace/f", "utf8");
      return { outs: outs.map((o) => [o.exitCode, o.stdout, o.stderr]), lines: text.split("\n").filter(Boolean).sort() };
    });
    expect(r.outs).toEqual([[0, "done\n", ""], [0, "done\n", ""], [0, "done\n", ""]]);
    const want = ["a", "b", "c"].flatMap((p) => Array.from({ length: 40 }, (_, i) => `${p}${i + 1}`)).sort();
    expect(r.lines).toEqual(want);
  });
});
