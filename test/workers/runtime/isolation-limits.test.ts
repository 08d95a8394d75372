import { describe, expect, it } from "vitest";
import { collect, inWorkspace, jsBackend } from "./helpers.js";

const text = (b: Uint8Array | string) => (typeof b === "string" ? b : new TextDecoder().decode(b));

describe("isolation", () => {
  it("cannot see host env, bindings or storage; process.env is exactly the exec env", async () => {
    const r = await inWorkspace(async (ws) =>
      (
        await ws.runtime.exec(
          `export default async function () {
             return { env: process.env, argv: process.argv, cwd: process.cwd(), platform: process.platform,
                      loader: typeof globalThis.LOADER, testDo: typeof globalThis.TEST_DO, storage: typeof globalThis.storage };
           }`,
          { env: { A: "1" } },
        )
      ).result(),
    );
    expect(r.value).toEqual({ env: { A: "1" }, argv: ["workspace", "__workspace_entry__.js"], cwd: "/workspace", platform: "linux", loader: "undefined", testDo: "undefined", storage: "undefined" });
  });

  it("fetch fails with no egress (globalOutbound: null)", async () => {
    for (const backend of [{}, { globalOutbound: null }]) {
      const r = await inWorkspace(
        async (ws) => (await ws.runtime.exec(`export default async () => { try { await fetch("https://example.com"); return "reached"; } catch (e) { return "blocked"; } }`)).result(),
        { backend },
      );
      expect(r.value).toBe("blocked");
    }
  });

  it("refuses paths outside root and symlink components; access: read refuses writes", async () => {
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/real", { recursive: true });
      await ws.fs.writeFile("/secret.txt", "top secret");
      await ws.fs.writeFile("/workspace/real/f.txt", "ok");
      await ws.fs.symlink("/workspace/real", "/workspace/link");
      return (
        await ws.runtime.exec(
          `import { readFile, lstat, readlink } from "node:fs/promises";
           const attempt = async (fn) => { try { await fn(); return "ok"; } catch (e) { return e.code + " " + e.message; } };
           export default async () => ({
             outside: await attempt(() => readFile("/secret.txt", "utf8")),
             dotdot: await attempt(() => readFile("../secret.txt", "utf8")),
             throughLink: await attempt(() => readFile("link/f.txt", "utf8")),
             lstatLink: (await lstat("link")).isSymbolicLink(),
             readlink: await readlink("link"),
           });`,
        )
      ).result();
    });
    expect(r.value).toEqual({
      outside: "EACCES paths must stay under /workspace: /secret.txt",
      dotdot: "EACCES paths must stay under /workspace: ../secret.txt",
      throughLink: "EACCES cannot traverse symbolic link: /workspace/link",
      lstatLink: true,
      readlink: "/workspace/real",
    });
    const ro = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        await ws.fs.writeFile("/workspace/a.txt", "read me");
        const result = await (
          await ws.runtime.exec(
            `import { readFile, writeFile } from "node:fs/promises";
             export default async () => { const t = await readFile("a.txt", "utf8"); try { await writeFile("a.txt", "x"); } catch (e) { return [t, e.code, e.message]; } return "wrote"; }`,
          )
        ).result();
        return { value: result.value, after: await ws.fs.readFile("/workspace/a.txt", "utf8") };
      },
      { backend: { access: "read" } },
    );
    expect(ro.value).toEqual(["read me", "EROFS", 'write access is not available: this backend is read-only (access: "read")']);
    expect(ro.after).toBe("read me");
  });
});

describe("limits", () => {
  it("an endless async loop times out with exit 1, and a killed one is cancelled with 130", async () => {
    const loop = `export default async () => { for (;;) await new Promise((r) => setTimeout(r, 5)); }`;
    const out = await inWorkspace(async (ws) => {
      const timedOut = await (await ws.runtime.exec(loop, { timeoutMs: 200, encoding: "utf8" })).result();
      const h = await ws.runtime.exec(loop, { id: "k", encoding: "utf8" });
      await new Promise((r) => setTimeout(r, 50));
      await ws.runtime.killExec("k");
      const killed = await h.result();
      await ws.runtime.killExec("k"); // finished → no-op
      return { timedOut, killed };
    });
    expect(out.timedOut).toMatchObject({ status: "failed", exitCode: 1, stderr: "JavaScript execution timed out\n" });
    expect(out.killed).toMatchObject({ status: "cancelled", exitCode: 130, stderr: "Execution cancelled.\n" });
  });

  it("a run printing 10 MB gets a capped result plus the full file (within the default maxStdioBytes)", async () => {
    const out = await inWorkspace(
      async (ws) => {
        const h = await ws.runtime.exec(
          `export default async () => { const line = "x".repeat(99) + "\\n"; for (let i = 0; i < 100000; i++) process.stdout.write(line); }`,
          { id: "big", encoding: "utf8" },
        );
        const r = await h.result();
        const st = await ws.fs.stat("/.computer/output/worker-javascript.big.stdout.log");
        const head = await ws.fs.readFile("/.computer/output/worker-javascript.big.stdout.log", { encoding: "utf8", byteOffset: 0, byteLength: 200 });
        return { stdoutLength: (r.stdout as string).length, truncated: r.truncated, size: st.size, head, status: r.status };
      },
    );
    expect(out.status).toBe("completed");
    expect(out.size).toBe(10_000_000);
    expect(out.stdoutLength).toBe(65_500); // 655 whole lines of 100 bytes within 64 KiB
    expect(out.truncated).toEqual({
      stdout: { status: "saved", path: "/.computer/output/worker-javascript.big.stdout.log", totalBytes: 10_000_000, totalLines: 100_000, firstLine: 99_346, partialLine: false },
    });
    expect(out.head).toBe(`${"x".repeat(99)}\n${"x".repeat(99)}\n`);
  });

  it("caps each stream at maxStdioBytes with a marker line stating the bytes dropped", async () => {
    const r = await inWorkspace(
      async (ws) => (await ws.runtime.exec(`export default () => { process.stdout.write("é".repeat(10)); console.log("later"); }`, { encoding: "utf8" })).result(),
      { backend: { maxStdioBytes: 5 } },
    );
    expect(r.stdout).toBe("éé\n[stdout truncated: maxStdioBytes (5 bytes) reached; 22 bytes dropped]\n");
  });

  it("errors the stream past maxExecutionSubscribers with EEXEC_BUSY", async () => {
    await inWorkspace(
      async (ws) => {
        const h = await ws.runtime.exec(`export default async () => { await new Promise((r) => setTimeout(r, 100)); }`, { id: "s" });
        const second = await ws.runtime.getExec("s");
        const third = await ws.runtime.getExec("s");
        await expect(third.getReader().read()).rejects.toMatchObject({ code: "EEXEC_BUSY" });
        await expect(ws.runtime.exec(`export default 1`, { id: "s" })).rejects.toMatchObject({ code: "EEXEC_BUSY" });
        expect((await h.result()).status).toBe("completed");
        expect((await collect(second)).at(-1)).toMatchObject({ name: "exit", code: 0 });
        await expect(ws.runtime.exec(`export default 1`, { id: "s" })).rejects.toMatchObject({ code: "EEXEC_EXISTS" });
      },
      { backend: { maxExecutionSubscribers: 2 } },
    );
  });

  it("rejects oversized source, input, stdin, env and over-long timeouts with clear errors", async () => {
    await inWorkspace(
      async (ws) => {
        await expect(ws.runtime.exec(`export default 1; // ${"x".repeat(300)}`)).rejects.toThrow("over maxSourceBytes (256)");
        await expect(ws.runtime.exec(`export default 1`, { input: "y".repeat(300) })).rejects.toThrow("over maxInputBytes (256)");
        await expect(ws.runtime.exec(`export default 1`, { stdin: "z".repeat(300) })).rejects.toThrow("over maxStdinBytes (256)");
        await expect(ws.runtime.exec(`export default 1`, { env: { K: "v".repeat(300) } })).rejects.toThrow("over maxEnvBytes (256)");
        await expect(ws.runtime.exec(`export default 1`, { timeoutMs: 999_999 })).rejects.toThrow("timeout cannot exceed 180000 milliseconds");
        const big = await (await ws.runtime.exec(`export default () => "r".repeat(400)`, { encoding: "utf8" })).result();
        expect(big).toMatchObject({ status: "failed", exitCode: 1, stderr: "The default export returned 402 bytes of JSON, over maxResultBytes (256 bytes).\n" });
        const plain = await (await ws.runtime.exec(`export default () => new Map()`, { encoding: "utf8" })).result();
        expect(plain.stderr).toBe("The default export returned a value that is not JSON-compatible plain data: it holds a Map at the result\n");
      },
      { backend: { maxSourceBytes: 256, maxInputBytes: 256, maxStdinBytes: 256, maxEnvBytes: 256, maxResultBytes: 256, maxCapabilityBytes: 256 } },
    );
  });

  it("enforces bridge limits: file reads over maxCapabilityBytes, call counts, directory entries", async () => {
    const r = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace/many", { recursive: true });
        await ws.fs.writeFile("/workspace/big.txt", "b".repeat(2000));
        for (let i = 0; i < 5; i++) await ws.fs.writeFile(`/workspace/many/${i}`, "");
        return (
          await ws.runtime.exec(
            `import fs from "node:fs/promises";
             const attempt = async (fn) => { try { await fn(); return "ok"; } catch (e) { return e.message; } };
             export default async () => ({
               big: await attempt(() => fs.readFile("big.txt")),
               dir: await attempt(() => fs.readdir("many")),
               count: await attempt(async () => { for (let i = 0; i < 10; i++) await fs.access("big.txt"); }),
             });`,
          )
        ).result();
      },
      { backend: { maxCapabilityBytes: 1024, maxDirectoryEntries: 3, maxCapabilityCalls: 6 } },
    );
    expect(r.value).toEqual({
      big: "file read exceeds maxCapabilityBytes (1024 bytes): /workspace/big.txt is 2000 bytes",
      dir: "readdir of /workspace/many has more than maxDirectoryEntries (3) entries",
      count: "this run made more than maxCapabilityCalls (6) host calls",
    });
  });

  it("fails a module doing I/O at top level, even if it catches the error", async () => {
    const r = await inWorkspace(async (ws) =>
      (
        await ws.runtime.exec(`import { readdir } from "node:fs/promises"; try { await readdir("."); } catch {} export default () => 1;`, { encoding: "utf8" })
      ).result(),
    );
    expect(r.status).toBe("failed");
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain("fs.readdir() was called at module scope");
    expect(r.stderr).toContain("inside the default export");
  });

  it("reports thrown errors and unhandled rejections on stderr with exit 1", async () => {
    const out = await inWorkspace(async (ws) => ({
      thrown: await (await ws.runtime.exec(`export default () => { throw new Error("boom"); }`, { encoding: "utf8" })).result(),
      rejected: await (await ws.runtime.exec(`export default () => { Promise.reject(new Error("late")); return 1; }`, { encoding: "utf8" })).result(),
      none: await (await ws.runtime.exec(`export default () => {}`, { encoding: "utf8" })).result(),
    }));
    expect(out.thrown).toMatchObject({ status: "failed", exitCode: 1, stderr: "boom\n" });
    expect("value" in out.thrown).toBe(false);
    expect(out.rejected).toMatchObject({ exitCode: 1, stderr: "Unhandled rejection: late\n" });
    expect(out.none).toMatchObject({ exitCode: 0, value: null });
  });

  it("rejects invalid constructor options naming the option", () => {
    expect(() => jsBackend({ maxTimeoutMs: -1 })).toThrow("maxTimeoutMs must be a positive finite number");
    expect(() => jsBackend({ maxCapabilityCalls: 1.5 })).toThrow("maxCapabilityCalls must be a positive safe integer");
    expect(() => jsBackend({ defaultTimeoutMs: 5000, maxTimeoutMs: 1000 })).toThrow("defaultTimeoutMs (5000) cannot exceed maxTimeoutMs (1000)");
    expect(() => jsBackend({ onInterrupt: "later" as never })).toThrow('onInterrupt must be "fail", "restart" or "replay".');
    expect(() => jsBackend({ maxCapabilityBytes: 100 })).toThrow("maxCapabilityBytes must be at least 256");
    expect(() => jsBackend({ egress: { mode: "none" }, globalOutbound: null })).toThrow("not both");
    expect(() => jsBackend({ loader: undefined as never })).toThrow("loader is required");
    expect(() => jsBackend({ modules: { "a/b": "x" } })).toThrow('module name "a/b" is not allowed');
    expect(() => jsBackend({ modules: { "ws:x": { default: () => 1 } } })).toThrow('export name "default"');
    expect(() => jsBackend({ compatibilityDate: "May 2026" })).toThrow("compatibilityDate must be YYYY-MM-DD");
  });
});
