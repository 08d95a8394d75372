/**
 * `workspace.provider()` in a real Durable Object (workerd, DO SQLite):
 * handles, whole-file calls, node:fs errors, and a watcher that sees a
 * change made through `workspace.fs` — with the bytes left in storage checked.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SQLiteWorkspaceProvider, Workspace } from "../../../src/index.js";

function inObject<T>(fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  return runInDurableObject(stub, async (_instance, state) => fn(new Workspace({ storage: state.storage })));
}

describe("SQLiteWorkspaceProvider in a Durable Object", () => {
  it("a handle's writes land in DO storage at close; whole-file reads give bytes or UTF-8", async () => {
    const result = await inObject(async (ws) => {
      const provider = ws.provider();
      await provider.mkdir("/workspace/src", { recursive: true });
      const handle = await provider.open("/workspace/src/a.txt", "w");
      await handle.write(new TextEncoder().encode("héllo "));
      const beforeClose = await ws.fs.readFile("/workspace/src/a.txt", "utf8");
      await handle.write("wörld");
      await handle.close();
      const bytes = (await provider.readFile("/workspace/src/a.txt")) as Uint8Array;
      await provider.appendFile("/workspace/src/a.txt", "!");
      return {
        beforeClose,
        stored: await ws.fs.readFile("/workspace/src/a.txt", "utf8"),
        bytes: [...bytes],
        text: await provider.readFile("/workspace/src/a.txt", "utf8"),
        listing: await provider.readdir("/workspace", { recursive: true }),
        mode: (await provider.stat("/workspace/src/a.txt")).mode,
      };
    });
    expect(result).toEqual({
      beforeClose: "",
      stored: "héllo wörld!",
      bytes: [...new TextEncoder().encode("héllo wörld")],
      text: "héllo wörld!",
      listing: ["src", "src/a.txt"],
      mode: 0o100644,
    });
  });

  it("rejects with node:fs errors", async () => {
    const errors = await inObject(async (ws) => {
      const provider = ws.provider();
      const out: unknown[] = [];
      for (const attempt of [() => provider.readFile("/missing"), () => provider.open("/missing/f", "w"), () => provider.link("/", "/x")]) {
        try {
          await attempt();
        } catch (error) {
          const e = error as { code: string; errno: number; syscall: string; message: string };
          out.push({ code: e.code, errno: e.errno, syscall: e.syscall, message: e.message });
        }
      }
      return out;
    });
    expect(errors).toEqual([
      { code: "ENOENT", errno: -2, syscall: "open", message: "ENOENT: no such file or directory, open '/missing'" },
      { code: "ENOENT", errno: -2, syscall: "open", message: "ENOENT: no such file or directory, open '/missing/f'" },
      { code: "ENOSYS", errno: -38, syscall: "link", message: "ENOSYS: hard links are not supported by the Workspace (use symlink, or copyFile), link '/x'" },
    ]);
  });

  it("watch sees a write made through workspace.fs", async () => {
    const events = await inObject(async (ws) => {
      await ws.fs.mkdir("/w");
      const provider = new SQLiteWorkspaceProvider(ws, { watchIntervalMs: 5 });
      const seen: string[] = [];
      const watcher = provider.watch("/w");
      watcher.on("change", (type: string, name: string) => seen.push(`${type} ${name}`));
      await new Promise((r) => setTimeout(r, 20));
      await ws.fs.writeFile("/w/new.txt", "x");
      for (let i = 0; i < 200 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      watcher.close();
      return seen;
    });
    expect(events).toEqual(["rename new.txt"]);
  });
});
