/**
 * The shell's built-ins that reach the host (spec 02 §6, spec 04 §1.9):
 * `assets publish` through the Workspace's real assets publisher (createAssets
 * over the local R2 binding), and the `git` / `artifacts` seam, which this
 * version leaves unconfigured.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createAssets, type S3Config } from "../../../src/assets/index.js";
import { inShellWorkspace, sh } from "./helpers.js";

const ACCOUNT = "0123456789abcdef0123456789abcdef";
const S3: S3Config = { bucket: "agent-assets", accountId: ACCOUNT };
const ENV = { R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const URL_RE = new RegExp(`^https://${ACCOUNT}\\.r2\\.cloudflarestorage\\.com/agent-assets/([0-9a-z/._-]+)\\?(.+)$`);

describe("assets publish <path> [<expiry>]", () => {
  it("publishes a file relative to the shell's cwd: prints the URL, the object holds the file's bytes, the expiry is in the URL", async () => {
    const out = await inShellWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace/out", { recursive: true });
        await ws.fs.writeFile("/workspace/out/report.txt", "quarterly numbers\n");
        const r = await sh(ws, "cd out && assets publish ./report.txt 90s");
        const byDefault = await sh(ws, "assets publish /workspace/out/report.txt");
        return { r, byDefault };
      },
      { workspace: { assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }) } },
    );
    expect([out.r.exitCode, out.r.stderr]).toEqual([0, ""]);
    const match = URL_RE.exec(out.r.stdout.trimEnd());
    expect(match, out.r.stdout).not.toBeNull();
    expect(out.r.stdout.endsWith("\n")).toBe(true);
    const params = new URLSearchParams(match![2]);
    expect(params.get("X-Amz-Expires")).toBe("90");
    expect(new URLSearchParams(URL_RE.exec(out.byDefault.stdout.trimEnd())![2]).get("X-Amz-Expires")).toBe("3600");
    const object = await env.ASSETS_BUCKET.get(decodeURIComponent(match![1]!));
    expect(await object!.text()).toBe("quarterly numbers\n");
  });

  it("usage errors exit 2; a bad expiry exits 2 naming it; a missing file exits 1 with assets: <message>", async () => {
    const out = await inShellWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        await ws.fs.writeFile("/workspace/a.txt", "a");
        const run = async (c: string) => {
          const r = await sh(ws, c);
          return [r.exitCode, r.stdout, r.stderr];
        };
        return {
          bare: await run("assets"),
          wrong: await run("assets share a.txt"),
          many: await run("assets publish a.txt 1h extra"),
          zero: await run("assets publish a.txt 0"),
          days: await run("assets publish a.txt 1d"),
          mixed: await run("assets publish a.txt 2h30m"),
          missing: await run("assets publish nope.txt"),
        };
      },
      { workspace: { assets: (w) => createAssets({ ws: w, bucket: env.ASSETS_BUCKET, s3: S3, env: ENV }) } },
    );
    const usage = [2, "", "usage: assets publish <path> [<expiry>]\n"];
    expect(out.bare).toEqual(usage);
    expect(out.wrong).toEqual(usage);
    expect(out.many).toEqual(usage);
    expect(out.zero).toEqual([2, "", 'assets: invalid expiry "0"\n']);
    expect(out.days).toEqual([2, "", 'assets: invalid expiry "1d"\n']);
    expect(out.mixed).toEqual([2, "", 'assets: invalid expiry "2h30m"\n']);
    expect(out.missing[0]).toBe(1);
    expect(out.missing[2]).toMatch(/^assets: .*ENOENT.*\/workspace\/nope\.txt/);
  });

  it("without assets on the Workspace: publishing is not configured, exit 1", async () => {
    const r = await inShellWorkspace(async (ws) => sh(ws, "echo x > a.txt; assets publish a.txt"));
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([1, "", "assets: publishing is not configured for this workspace\n"]);
  });
});

describe("git and artifacts seams", () => {
  it("without git on the Workspace git says so (exit 1), artifacts runs in unconfigured mode (an unknown command: exit 1), and the pipeline goes on", async () => {
    const r = await inShellWorkspace(async (ws) => sh(ws, "git status; echo git=$?; artifacts list; echo artifacts=$?"));
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      0,
      "git=1\nartifacts=1\n",
      "git: git is not configured on this Workspace: pass createGitClient() from agent-computer/git as WorkspaceOptions.git\nartifacts: unknown command 'list'; run 'artifacts help' for the commands\n",
    ]);
  });
});
