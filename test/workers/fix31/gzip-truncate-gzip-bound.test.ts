/**
 * Issue 20, run 31, fixer GZ: gzip and gunzip in the shell agree on what they may write (attacker b, run 31).
 *
 * Found: `gzip big` of a 30 MB file removed big and wrote big.gz, and `gunzip big.gz` then refused
 * `gunzip: big.gz: decompressed data exceeds limit (16777216 bytes)` and kept the .gz — the shell could never restore
 * the file it had compressed. Every gzip output was bounded by the command output limit (16 MiB, meant for stdout),
 * also a .gz written to a file (a 30 MB file that does not compress was refused) and `gzip -t`; a file past the
 * shell's read bound (64 MiB) said `No such file or directory`. GNU gzip 1.12 round-trips all of these (in a temp dir:
 * `gzip big; gunzip big.gz; cmp big orig` prints nothing, status 0).
 *
 * Fixed: what gzip/gunzip write to a file, and what gzip -t inflates, is bounded by the shell's read bound (64 MiB,
 * the bound tar -x uses): gzip reads at most that, so what it compresses decompresses within it, and a .gz it writes
 * is at most that, so gunzip reads it back; a larger file is refused before anything is written or removed
 * (`File too large`). zcat, -c and stdin keep the stdout limit (src/backends/worker-shell/isolate/gzip-bound.ts,
 * scripts/gen-shell.mjs GZ_PATCHES).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const MiB = 1024 * 1024;

function pattern(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = (i * 7919 + (i >> 12)) % 251;
  return out;
}

function random(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(size, i + 65536)));
  return out;
}

async function sha(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function stored(ws: { fs: { readFile(path: string): Promise<ReadableStream<Uint8Array>> } }, path: string): Promise<Uint8Array> {
  return new Uint8Array(await new Response(await ws.fs.readFile(path)).arrayBuffer());
}

async function gzipped(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

it("gunzip restores what gzip compressed: a 30 MB file that compresses and one that does not", async () => {
  await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const big = pattern(30_000_000);
    const rnd = random(30_000_000);
    await ws.fs.writeFile("/workspace/big", big);
    await ws.fs.writeFile("/workspace/rnd", rnd);
    const r1 = await sh(ws, "gzip big; echo rc=$?; gzip -t big.gz; echo rc=$?; gunzip big.gz; echo rc=$?; ls; wc -c < big", { cwd: "/workspace" });
    // Was: gzip -t and gunzip refused `decompressed data exceeds limit (16777216 bytes)`, status 1: big.gz kept, big gone.
    expect([r1.stdout, r1.stderr, r1.exitCode]).toEqual(["rc=0\nrc=0\nrc=0\nbig\nrnd\n30000000\n", "", 0]);
    expect(await sha(await stored(ws, "/workspace/big"))).toBe(await sha(big));
    const r2 = await sh(ws, "gzip rnd; echo rc=$?; ls; gunzip -v rnd.gz 2>/dev/null; echo rc=$?; ls", { cwd: "/workspace" });
    // Was: refused by the 16 MiB output limit (the .gz is about 30 MB), rnd kept.
    expect([r2.stdout, r2.stderr, r2.exitCode]).toEqual(["rc=0\nbig\nrnd.gz\nrc=0\nbig\nrnd\n", "", 0]);
    expect(await sha(await stored(ws, "/workspace/rnd"))).toBe(await sha(rnd));
    // stdout keeps the output limit (16 MiB by default): zcat and gunzip -c refuse, nothing changes.
    const r3 = await sh(ws, "gzip -k big; zcat big.gz | wc -c; gunzip -c big.gz > out; echo rc=$?; wc -c < out; ls", { cwd: "/workspace" });
    expect([r3.stdout, r3.stderr]).toEqual([
      "0\nrc=1\n0\nbig\nbig.gz\nout\nrnd\n",
      "zcat: big.gz: decompressed data exceeds limit (16777216 bytes)\ngunzip: big.gz: decompressed data exceeds limit (16777216 bytes)\n",
    ]);
  });
}, 300_000);

it("a file past the read bound is refused before anything is written or removed, both ways", async () => {
  await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    const huge = pattern(70 * MiB);
    await ws.fs.writeFile("/workspace/huge", huge);
    // A .gz that inflates past 64 MiB (GNU gzip 1.12 inflates it; the shell would hold it whole).
    await ws.fs.writeFile("/workspace/z.gz", await gzipped(new Uint8Array(70 * MiB)));
    const r = await sh(ws, "gzip huge; echo rc=$?; gzip -l huge | wc -l; gunzip z.gz; echo rc=$?; gzip -t z.gz; echo rc=$?; ls", { cwd: "/workspace" });
    // Was: "gzip: huge: No such file or directory" (it exists) and the 16 MiB stdout limit for gunzip.
    expect([r.stdout, r.stderr]).toEqual([
      "rc=1\n1\nrc=1\nrc=1\nhuge\nz.gz\n",
      "gzip: huge: File too large\ngzip: huge: File too large\ngunzip: z.gz: decompressed data exceeds limit (67108864 bytes)\ngzip: z.gz: decompressed data exceeds limit (67108864 bytes)\n",
    ]);
    expect((await ws.fs.stat("/workspace/huge")).size).toBe(70 * MiB);
  });
}, 300_000);

it("a file that would compress past the read bound is refused before anything is written or removed", async () => {
  await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    // 64 MiB that does not compress: its .gz would be a little larger, more than gunzip could read back.
    const rnd = random(64 * MiB);
    await ws.fs.writeFile("/workspace/rnd", rnd);
    const r = await sh(ws, "gzip rnd; echo rc=$?; ls", { cwd: "/workspace" });
    expect([r.stdout, r.stderr]).toEqual(["rc=1\nrnd\n", "gzip: rnd: compressed data exceeds limit (67108864 bytes)\n"]);
    expect(await sha(await stored(ws, "/workspace/rnd"))).toBe(await sha(rnd));
  });
}, 300_000);
