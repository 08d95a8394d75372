/**
 * Fix of attack21c/container-scan-walks-symlinked-mount-point (issue 20, run 21), siblings: a mount point a command
 * replaced by a file, or removed, and `apply` (a push) onto a mount point replaced by a link. The real daemon in process.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realDaemonWorkspace } from "../attack18c/real-daemon.js";

type Scan = (i: unknown) => Promise<{ entries: { path: string }[] }>;
type Apply = (i: unknown) => Promise<{ results: { ok: boolean; error?: { code: string } }[] }>;

describe("fix21: a mount point a command replaced or removed", () => {
  it("a file there: the scan refuses ENOTDIR; the next command makes it a directory again and runs", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    const { ws, dir } = real;
    try {
      const result = await (await ws.runtime.exec(`cd / && rm -rf "$OLDPWD" && echo x > "$OLDPWD"`, { backend: "box" })).result();
      expect(result.exitCode).toBe(0);
      expect(result.sync).toMatchObject({ status: "pending", applied: 0, skipped: [] });
      expect((result.sync as { error?: string } | undefined)?.error).toBe(
        `ENOTDIR: the mount point ${dir} is no longer a directory but a file: a command replaced it, and nothing is synced through it. The next command (or push) makes it an empty directory again (what the link leads to is left alone), and the pull after it finds everything that was under it deleted`,
      );
      const next = await (await ws.runtime.exec("ls -A; echo ok > a.txt", { backend: "box", encoding: "utf8" })).result();
      expect({ exitCode: next.exitCode, stdout: next.stdout }).toEqual({ exitCode: 0, stdout: "" });
      expect(await ws.fs.readFile("/workspace/a.txt", "utf8")).toBe("ok\n");
    } finally {
      await real.close();
    }
  });

  it("removed: the next command recreates it and runs (no ENOENT cwd)", { timeout: 60_000 }, async () => {
    const real = await realDaemonWorkspace();
    const { ws, dir } = real;
    try {
      expect((await (await ws.runtime.exec(`cd / && rm -rf "$OLDPWD"`, { backend: "box" })).result()).exitCode).toBe(0);
      expect(fs.existsSync(dir)).toBe(false);
      const next = await (await ws.runtime.exec("pwd", { backend: "box", encoding: "utf8" })).result();
      expect({ exitCode: next.exitCode, stdout: next.stdout }).toEqual({ exitCode: 0, stdout: `${dir}\n` });
    } finally {
      await real.close();
    }
  });

  it("apply onto a mount point replaced by a link: the link goes (its target untouched), the ops land in a new directory", async () => {
    const real = await realDaemonWorkspace();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "fix21-outside-"));
    fs.writeFileSync(path.join(outside, "secret.txt"), "outside");
    try {
      fs.rmSync(real.dir, { recursive: true });
      fs.symlinkSync(outside, real.dir);
      const daemon = real.daemon as unknown as { scan: Scan; apply: Apply };
      await expect(daemon.scan({})).rejects.toMatchObject({ code: "ENOTDIR" });
      const { results } = await daemon.apply({ ops: [{ op: "write", path: "a.txt", data: "A" }] });
      expect(results.map((r) => r.ok)).toEqual([true]);
      expect(fs.lstatSync(real.dir).isDirectory()).toBe(true);
      expect(fs.readdirSync(real.dir)).toEqual(["a.txt"]);
      expect(fs.readdirSync(outside)).toEqual(["secret.txt"]);
      expect((await daemon.scan({})).entries.map((e) => e.path)).toEqual(["a.txt"]);
    } finally {
      await real.close();
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
