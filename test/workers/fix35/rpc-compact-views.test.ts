/**
 * Issue 20, run 35, fixer UV — siblings of attack35a's client-small-view-of-large-buffer-e2big.test.ts and
 * shell-split-of-large-file-file-too-large.test.ts. V8's structured clone, which workerd uses for every RPC value,
 * writes an `ArrayBufferView` with its whole backing `ArrayBuffer`: a 10-byte `subarray` of a 40 MiB buffer crosses
 * as 40 MiB, and workerd refuses a value past 32 MiB. Every send of bytes now goes through src/util/rpc-bytes.ts
 * `compactView` / `sendableBytes` (a compact copy of a view of a larger buffer; a stream past 16 MiB), and the size
 * estimates (src/do/rpc-size.ts `estimateRpcSize`, the isolate's `rpcEstimate`) count a view's whole buffer.
 *
 * Covered, with the bytes in storage checked exactly against the slice of the input they must hold:
 * - the remote client (getWorkspace(stub)): writeFile of a Uint8Array view, a DataView, a Uint16Array view of a
 *   40 MiB buffer; a 20 MiB view inside a 40 MiB buffer (streamed: its own length is past 16 MiB); a view of a
 *   20 MiB buffer (under 32 MiB: it went through before, carrying 20 MiB); exec `stdin` as a 3-byte view (the run
 *   reads exactly those bytes). Node 22's fs.promises.writeFile(path, view) writes the view's bytes, whatever its
 *   buffer; the client has no appendFile or file handles (its writes are writeFile).
 * - the JavaScript backend (in the object): node:fs/promises writeFile of subarrays and a DataView of one 40 MiB
 *   buffer made inside the run (isolate → host; the isolate's node:fs/promises has no appendFile), and exec `stdin` as a view of a 40 MiB buffer (object → isolate).
 * - the shell: on a 40 MiB file, GNU coreutils 9.1 / bash 5.2.15 on this machine give
 *   `split -b 1M big p` → rc 0, 40 parts of 1,048,576 bytes (paa … pbn); `split -b 3M big q` → 14 parts, the last
 *   (qan) 1,048,576 bytes; `head -c 10 big > h` → 10 bytes `0 7 14 21 28 35 42 49 56 63` (od -tu1);
 *   `tail -c 10 big > t; tail -c 1M big >> t` → 1,048,586 bytes, first ten `225 232 239 246 253 4 11 18 25 32`;
 *   `head -c 2M big > h2` → 2,097,152 bytes. Byte i of `big` is (7·i + ⌊i / 2^20⌋) mod 256.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { freshAgent } from "../client/helpers.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const MIB = 1024 * 1024;

/** The 40 MiB test file: byte i is (7·i + ⌊i / 2^20⌋) mod 256 (the same file GNU split ran on). */
function bigFile(): Uint8Array {
  const bytes = new Uint8Array(40 * MIB);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >>> 20)) & 0xff;
  return bytes;
}

/** Whether `got` holds exactly `want`'s bytes (compared whole, reporting the first difference). */
function sameBytes(got: Uint8Array, want: Uint8Array): { length: number; firstDifference: number } {
  let first = -1;
  for (let i = 0; i < Math.min(got.length, want.length); i++) {
    if (got[i] !== want[i]) {
      first = i;
      break;
    }
  }
  if (first < 0 && got.length !== want.length) first = Math.min(got.length, want.length);
  return { length: got.length, firstDifference: first };
}

async function readAll(ws: { fs: { readFile(path: string): Promise<ReadableStream<Uint8Array> | Uint8Array | string> } }, path: string): Promise<Uint8Array> {
  const read = await ws.fs.readFile(path);
  if (typeof read === "string") throw new Error("expected bytes");
  if (read instanceof Uint8Array) return read;
  return new Uint8Array(await new Response(read).arrayBuffer());
}

describe("fix35 UV: a view of a larger buffer crosses RPC as its own bytes — the remote client", () => {
  it("writeFile stores exactly the bytes of Uint8Array, DataView and Uint16Array views of a 40 MiB buffer", async () => {
    using ws = await getWorkspace(freshAgent());
    await ws.fs.mkdir("/workspace", { recursive: true });
    const buffer = new ArrayBuffer(40 * MIB);
    const all = new Uint8Array(buffer);
    for (let i = 0; i < 4096; i++) all[i] = (i * 13 + 5) & 0xff;
    await ws.fs.writeFile("/workspace/u8", new Uint8Array(buffer, 1000, 10));
    // The typed API takes a Uint8Array; an untyped (JavaScript) caller may pass any ArrayBufferView, as to node:fs.
    await ws.fs.writeFile("/workspace/dv", new DataView(buffer, 2001, 5) as unknown as Uint8Array);
    await ws.fs.writeFile("/workspace/u16", new Uint16Array(buffer, 3000, 3) as unknown as Uint8Array);
    expect([...(await readAll(ws, "/workspace/u8"))]).toEqual([...all.slice(1000, 1010)]);
    expect([...(await readAll(ws, "/workspace/dv"))]).toEqual([...all.slice(2001, 2006)]);
    expect([...(await readAll(ws, "/workspace/u16"))]).toEqual([...all.slice(3000, 3006)]);
    // The caller's buffer is kept whole (not transferred, not detached).
    expect(buffer.byteLength).toBe(40 * MIB);
  }, 120_000);

  it("writeFile of a 20 MiB view inside a 40 MiB buffer stores its 20 MiB (streamed), and a view of a 20 MiB buffer its bytes", async () => {
    using ws = await getWorkspace(freshAgent());
    await ws.fs.mkdir("/workspace", { recursive: true });
    const big = bigFile();
    const view = big.subarray(5 * MIB + 3, 25 * MIB + 3);
    await ws.fs.writeFile("/workspace/mid", view);
    expect(sameBytes(await readAll(ws, "/workspace/mid"), big.slice(5 * MIB + 3, 25 * MIB + 3))).toEqual({ length: 20 * MIB, firstDifference: -1 });
    const twenty = new Uint8Array(20 * MIB);
    twenty.set([66, 66, 66], 17);
    await ws.fs.writeFile("/workspace/small", twenty.subarray(17, 20));
    expect(await ws.fs.readFile("/workspace/small", "utf8")).toBe("BBB");
  }, 120_000);

  it("exec takes a stdin view of a 40 MiB buffer and the run reads exactly its bytes", async () => {
    using ws = await getWorkspace(env.CLIENT_EXEC_AGENT.get(env.CLIENT_EXEC_AGENT.newUniqueId()));
    const stdin = new Uint8Array(new ArrayBuffer(40 * MIB), 7, 3);
    stdin.set([0x61, 0x62, 0x63]);
    using handle = await ws.runtime.exec(
      `export default async () => { const got = []; for await (const c of process.stdin) got.push(...c); return got; }`,
      { stdin, encoding: "utf8" },
    );
    const result = (await handle.result()) as { status: string; value: unknown };
    expect({ status: result.status, value: result.value }).toEqual({ status: "completed", value: [0x61, 0x62, 0x63] });
  }, 120_000);
});

describe("fix35 UV: the JavaScript backend (isolate → host, object → isolate)", () => {
  it("node:fs writeFile of subarrays and a DataView of a 40 MiB buffer write their bytes; a stdin view reaches the run whole", async () => {
    await inShellWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace", { recursive: true });
        const source = `import fs from "node:fs/promises";
export default async () => {
  const big = new Uint8Array(40 * 1024 * 1024);
  for (let i = 0; i < 64; i++) big[1000 + i] = 65 + (i % 26);
  await fs.writeFile("/workspace/js.bin", big.subarray(1000, 1010));
  await fs.writeFile("/workspace/js2.bin", big.subarray(1010, 1016));
  await fs.writeFile("/workspace/dv.bin", new DataView(big.buffer, 1020, 4));
  let n = 0; for await (const c of process.stdin) n += c.byteLength;
  return n;
};`;
        const stdin = new Uint8Array(new ArrayBuffer(40 * MIB), 11, 5).fill(0x7a);
        const handle = await ws.runtime.exec(source, { backend: "worker-javascript", stdin, encoding: "utf8" });
        const result = (await handle.result()) as { status: string; stderr: string; value: unknown };
        expect({ status: result.status, stderr: result.stderr, value: result.value }).toEqual({ status: "completed", stderr: "", value: 5 });
        expect(await ws.fs.readFile("/workspace/js.bin", "utf8")).toBe("ABCDEFGHIJ");
        expect(await ws.fs.readFile("/workspace/js2.bin", "utf8")).toBe("KLMNOP");
        expect(await ws.fs.readFile("/workspace/dv.bin", "utf8")).toBe("UVWX");
      },
      { javascript: true },
    );
  }, 180_000);
});

describe("fix35 UV: shell commands that write slices of a large file", () => {
  it("split -b 1M / -b 3M, head -c, tail -c and >> of a 40 MiB file store the slices GNU writes", async () => {
    await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const big = bigFile();
      await ws.fs.writeFile("/workspace/big", big);
      const r = await sh(
        ws,
        "split -b 1M big p; echo rc=$?; ls p* | wc -l; split -b 3M big q; echo rc=$?; ls q* | wc -l; wc -c < qan; " +
          "head -c 10 big > h; tail -c 10 big > t; tail -c 1M big >> t; head -c 2M big > h2; wc -c h t h2",
        { cwd: "/workspace", timeoutMs: 240_000 },
      );
      expect({ stdout: r.stdout, stderr: r.stderr }).toEqual({
        stdout: "rc=0\n40\nrc=0\n14\n1048576\n     10 h\n1048586 t\n2097152 h2\n3145748 total\n",
        stderr: "",
      });
      // Storage holds the slices exactly (GNU: paa = bytes [0, 1M), pbn = the 40th MiB, qan = the last MiB).
      expect(sameBytes(await readAll(ws, "/workspace/paa"), big.slice(0, MIB))).toEqual({ length: MIB, firstDifference: -1 });
      expect(sameBytes(await readAll(ws, "/workspace/pbn"), big.slice(39 * MIB))).toEqual({ length: MIB, firstDifference: -1 });
      expect(sameBytes(await readAll(ws, "/workspace/qad"), big.slice(9 * MIB, 12 * MIB))).toEqual({ length: 3 * MIB, firstDifference: -1 });
      expect([...(await readAll(ws, "/workspace/h"))]).toEqual([0, 7, 14, 21, 28, 35, 42, 49, 56, 63]);
      const t = await readAll(ws, "/workspace/t");
      expect([...t.subarray(0, 10)]).toEqual([225, 232, 239, 246, 253, 4, 11, 18, 25, 32]);
      const tail = new Uint8Array(10 + MIB);
      tail.set(big.subarray(big.length - 10));
      tail.set(big.subarray(big.length - MIB), 10);
      expect(sameBytes(t, tail)).toEqual({ length: MIB + 10, firstDifference: -1 });
      expect(sameBytes(await readAll(ws, "/workspace/h2"), big.slice(0, 2 * MIB))).toEqual({ length: 2 * MIB, firstDifference: -1 });
    });
  }, 300_000);
});
