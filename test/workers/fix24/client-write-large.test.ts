/**
 * Fixer FC2, issue 20 run 24 (attack24c client-write-file-over-rpc-limit): siblings of the remote client's
 * `writeFile` sending content past 16 MiB as a stream (src/do/remote-fs.ts), through real Workers RPC.
 *
 * - A typed-array view at an offset into a larger buffer (its own bytes only), and a string of two-byte characters
 *   (18 MiB of UTF-8, estimated past 16 MiB), are stored byte for byte; the caller's array is left as it was.
 * - The write's options still hold on the streamed write: `exclusive` (EEXIST), `ifMatch` (ESTALE), `mode`.
 * - Any other remote call whose arguments workerd refuses (past 32 MiB) rejects `WorkspaceFsError` `E2BIG` naming
 *   the method, never workerd's bare error.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";

const MiB = 1024 * 1024;

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
    return "ok";
  } catch (error) {
    return { code: (error as { code?: unknown }).code ?? null, message: String((error as Error).message).slice(0, 200) };
  }
}

describe("fix24 FC2: a remote client's writeFile past 16 MiB", () => {
  it("stores a typed-array view and a two-byte string whole, options kept, the caller's array untouched", { timeout: 300_000 }, async () => {
    using ws = await getWorkspace(env.CLIENT_AGENT.get(env.CLIENT_AGENT.newUniqueId()));
    const buffer = new ArrayBuffer(20 * MiB + 8);
    const whole = new Uint8Array(buffer);
    for (let i = 0; i < whole.length; i += 4096) whole[i] = (i / 4096) % 256;
    const view = new Int32Array(buffer, 4, (20 * MiB) / 4);
    // Any ArrayBufferView is taken as its raw bytes (fs.writeFile docs); the type names Uint8Array.
    await ws.fs.writeFile("/view.bin", view as unknown as Uint8Array, { mode: 0o600 });
    const text = "é".repeat(9 * MiB);
    await ws.fs.writeFile("/text.txt", text);
    const stored = new Uint8Array(await new Response((await ws.fs.readFile("/view.bin")) as ReadableStream).arrayBuffer());
    const st = await ws.fs.stat("/view.bin");
    expect([st.size, st.mode, stored.every((b, i) => b === whole[i + 4])]).toEqual([20 * MiB, 0o600, true]);
    expect([view.byteLength, view.byteOffset, whole[4096]]).toEqual([20 * MiB, 4, 1]);
    expect([(await ws.fs.stat("/text.txt")).size, await ws.fs.readFile("/text.txt", { encoding: "utf8", byteOffset: 18 * MiB - 4 })]).toEqual([18 * MiB, "éé"]);
    const big = new Uint8Array(17 * MiB);
    expect(await outcome(() => ws.fs.writeFile("/view.bin", big, { exclusive: true }))).toEqual({ code: "EEXIST", message: "EEXIST: file already exists, writeFile: /view.bin" });
    expect(await outcome(() => ws.fs.writeFile("/view.bin", big, { ifMatch: "0".repeat(64) }))).toMatchObject({ code: "ESTALE" });
    expect((await ws.fs.stat("/view.bin")).size).toBe(20 * MiB);
  });

  it("a call whose arguments are past 32 MiB rejects E2BIG naming the method, not workerd's bare error", { timeout: 300_000 }, async () => {
    using ws = await getWorkspace(env.CLIENT_AGENT.get(env.CLIENT_AGENT.newUniqueId()));
    const got = await outcome(() => ws.fs.stat(`/${"a".repeat(40 * MiB)}`));
    expect(got).toEqual({
      code: "E2BIG",
      message: expect.stringMatching(/^E2BIG: the call is over 32 MiB, more than crosses RPC \(Serialized RPC arguments or return values are limited to 32MiB, but the size of this value was: \d+ bytes\.\); pass less at once/),
    });
    expect(String((await ws.fs.writeFile("/after.txt", "x").then(() => ws.fs.readFile("/after.txt", "utf8"))))).toBe("x");
  });
});
