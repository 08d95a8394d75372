/**
 * probe18 (fresh-user probe), in real workerd: the span table of docs/observability.md for stub
 * calls a user makes — fs methods with their own attributes, and `stub().assets.publish` — recorded
 * with the page's `lineObserver` (as fields, to compare exactly).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Workspace, type WorkspaceObserver } from "../../../src/index.js";
import { createAssets } from "../../../src/assets/index.js";

type Line = { name: string; outcome: string; fields: Record<string, unknown> };

function recorder(lines: Line[]): WorkspaceObserver {
  return {
    async span(name, attributes, run) {
      const fields: Record<string, unknown> = { ...attributes };
      let outcome = "error";
      try {
        const result = await run({ setAttribute: (key, value) => void (value !== undefined && (fields[key] = value)) });
        outcome = "ok";
        return result;
      } finally {
        lines.push({ name, outcome, fields });
      }
    },
  };
}

describe("probe18 spans", () => {
  it("fs methods carry their documented attributes; publish records path and expires_after_ms", async () => {
    const lines: Line[] = [];
    await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_i, state) => {
      const ws = new Workspace({
        storage: state.storage,
        observer: recorder(lines),
        assets: (w: Workspace) =>
          createAssets({
            ws: w,
            bucket: env.ASSETS_BUCKET,
            s3: { bucket: "agent-assets", accountId: "0123456789abcdef0123456789abcdef" },
            env: { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
          }),
      });
      const stub = ws.stub();
      await stub.fs.mkdir("/d", { recursive: true, mode: 0o700 });
      await stub.fs.writeFile("/d/a.txt", "hello token\n", { mode: 0o600 });
      await stub.fs.grep("token", "/d");
      await stub.fs.rename("/d/a.txt", "/d/b.txt");
      await stub.fs.chmod("/d/b.txt", 0o644);
      await stub.fs.symlink("/d/b.txt", "/d/l");
      await stub.fs.rm("/d/l", { force: true });
      await stub.assets!.publish("/d/b.txt", { expiresAfter: 60_000 });
      await stub.assets!.publish("/nope", { expiresAfter: 1000 }).catch(() => {});
      await ws.close();
    });
    const byName = (n: string) => lines.filter((l) => l.name === n);
    expect(byName("workspace.fs.mkdir")[0]).toEqual({ name: "workspace.fs.mkdir", outcome: "ok", fields: { "workspace.fs.path": "/d", "workspace.fs.recursive": true, "workspace.fs.mode": 0o700 } });
    expect(byName("workspace.fs.writeFile")[0]?.fields).toEqual({ "workspace.fs.path": "/d/a.txt", "workspace.fs.mode": 0o600 });
    expect(byName("workspace.fs.grep")[0]?.fields).toEqual({ "workspace.fs.path": "/d", "workspace.fs.pattern": "token", "workspace.fs.matches": 1 });
    expect(byName("workspace.fs.rename")[0]?.fields).toEqual({ "workspace.fs.path": "/d/a.txt", "workspace.fs.destination": "/d/b.txt" });
    expect(byName("workspace.fs.chmod")[0]?.fields).toEqual({ "workspace.fs.path": "/d/b.txt", "workspace.fs.mode": 0o644 });
    expect(byName("workspace.fs.symlink")[0]?.fields).toEqual({ "workspace.fs.path": "/d/l", "workspace.fs.target": "/d/b.txt" });
    expect(byName("workspace.fs.rm")[0]?.fields).toMatchObject({ "workspace.fs.path": "/d/l", "workspace.fs.force": true });
    const publishes = byName("workspace.assets.publish");
    expect(publishes.map((p) => [p.outcome, p.fields["workspace.fs.path"], p.fields["workspace.assets.expires_after_ms"]])).toEqual([
      ["ok", "/d/b.txt", 60_000],
      ["error", "/nope", 1000],
    ]);
    expect(publishes[1]!.fields["error.message"]).toMatch(/ENOENT/);
  });
});
