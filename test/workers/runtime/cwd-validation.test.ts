import { describe, expect, it } from "vitest";
import { inWorkspace } from "./helpers.js";

describe("exec cwd", () => {
  it("rejects a bad cwd at exec, before anything runs (B5)", async () => {
    const out = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/sub", { recursive: true });
      await ws.fs.writeFile("/workspace/file.txt", "x");
      const src = `import { writeFile } from "node:fs/promises"; export default async () => { await writeFile("/workspace/ran.txt", "ran"); };`;
      const errors: Record<string, unknown> = {};
      const cases: [string, unknown][] = [
        ["number", 5],
        ["etc", "/etc"],
        ["slash", "/"],
        ["dotdot", "../etc"],
        ["missing", "/workspace/nope"],
        ["file", "/workspace/file.txt"],
        ["underFile", "/workspace/file.txt/x"],
      ];
      for (const [name, cwd] of cases) {
        try {
          await ws.runtime.exec(src, { cwd: cwd as string, id: `cwd-${name}` });
          errors[name] = "accepted";
        } catch (err) {
          const e = err as { name: string; code?: string; message: string };
          errors[name] = { name: e.name, code: e.code, message: e.message };
        }
      }
      const ok = await (await ws.runtime.exec(`export default () => process.cwd();`, { cwd: "sub" })).result();
      const ran = await ws.fs.lstat("/workspace/ran.txt").then(
        () => true,
        (e: { code?: string }) => e.code,
      );
      // No record was created for any rejected id.
      const records = await Promise.all(cases.map(([name]) => ws.runtime.getExec(`cwd-${name}`).then(() => "exists", (e: { code?: string }) => e.code)));
      return { errors, ran, ok: ok.value, records };
    });
    expect(out.errors).toEqual({
      number: { name: "TypeError", code: undefined, message: "cwd must be a non-empty path string under /workspace, got number" },
      etc: { name: "Error", code: "EACCES", message: "paths must stay under /workspace: cwd /etc" },
      slash: { name: "Error", code: "EACCES", message: "paths must stay under /workspace: cwd /" },
      dotdot: { name: "Error", code: "EACCES", message: "paths must stay under /workspace: cwd ../etc" },
      missing: { name: "Error", code: "ENOENT", message: "cwd does not exist: /workspace/nope" },
      file: { name: "Error", code: "ENOTDIR", message: "cwd is not a directory: /workspace/file.txt" },
      // The Workspace filesystem reports a path below a file as missing.
      underFile: { name: "Error", code: "ENOENT", message: "cwd does not exist: /workspace/file.txt/x" },
    });
    expect(out.ran).toBe("ENOENT");
    expect(out.records).toEqual(["ENOENT", "ENOENT", "ENOENT", "ENOENT", "ENOENT", "ENOENT", "ENOENT"]);
    expect(out.ok).toBe("/workspace/sub");
  });
});
