/**
 * Spec 01 §3.3 / §4.2–§4.5: streamed writes and reads with bounded memory,
 * ranged reads at chunk boundaries, snapshot and atomicity of stream writes.
 */
import { describe, expect } from "vitest";
import {
  CHUNK,
  collectChunks,
  concat,
  expectSameBytes,
  expectStreamMatchesSequence,
  fsIt,
  seededBytes,
  sequenceStream,
  type FsHarness,
} from "./harness.js";

export function defineStreamCases(h: FsHarness): void {
  describe("streams", () => {
    fsIt(
      h,
      "64 MiB streamed write and read back, content exact, memory bounded",
      async (t) => {
        const total = h.bigStreamBytes;
        const seed = 0xc0ffee;
        const baseline = t.liveMemory?.();
        let peakWrite = 0;
        const source = sequenceStream(seed, total, {
          pieceSize: 1_000_003,
          onPull: (produced) => {
            // sample live memory every ~8 MiB of input
            if (baseline !== undefined && produced % (8 * 1_000_003) < 1_000_003) {
              peakWrite = Math.max(peakWrite, t.liveMemory!() - baseline);
            }
          },
        });
        await t.fs.writeFile("/big.bin", source);
        expect((await t.fs.stat("/big.bin")).size).toBe(total);
        // read back through a checker that samples memory while pulling
        const stream = await t.fs.readFile("/big.bin");
        let peakRead = 0;
        let pulled = 0;
        const sampled = stream.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              pulled++;
              if (baseline !== undefined && pulled % 16 === 0) peakRead = Math.max(peakRead, t.liveMemory!() - baseline);
              controller.enqueue(chunk);
            },
          }),
        );
        await expectStreamMatchesSequence(sampled, seed, total);
        if (baseline !== undefined) {
          const limit = 16 * 1024 * 1024; // a quarter of the file: well under its size
          expect(peakWrite, `live memory grew by ${peakWrite} bytes while writing ${total}`).toBeLessThan(limit);
          expect(peakRead, `live memory grew by ${peakRead} bytes while reading ${total}`).toBeLessThan(limit);
        }
        // a window deep inside the big file
        const offset = 40 * CHUNK + 12_345;
        const window = (await t.fs.readFile("/big.bin", { byteOffset: offset, byteLength: 3 * CHUNK })) as ReadableStream<Uint8Array>;
        const skip = sequenceStream(seed, offset + 3 * CHUNK, { pieceSize: offset });
        const reader = skip.getReader();
        await reader.read(); // the first `offset` bytes
        const want = (await reader.read()).value!;
        expectSameBytes(concat(await collectChunks(window)), want, "window at 40 chunks");
      },
      600_000,
    );

    fsIt(h, "ranged reads at chunk boundaries (streams and strings)", async (t) => {
      const size = 3 * CHUNK + 1000;
      const data = seededBytes(7, size);
      await t.fs.writeFile("/f", data);
      const windows: [number, number | undefined][] = [
        [CHUNK - 1, 1],
        [CHUNK - 1, 2],
        [CHUNK - 1, undefined],
        [CHUNK, 1],
        [CHUNK, CHUNK],
        [CHUNK + 1, CHUNK],
        [CHUNK - 1, CHUNK + 2], // spans 3 chunks
        [CHUNK - 10, 20], // spans 2 chunks
        [1, 3 * CHUNK], // spans 4 chunks
        [2 * CHUNK, CHUNK + 1000],
        [3 * CHUNK, undefined],
        [3 * CHUNK + 999, 5],
        [size - 1, undefined],
        [0, CHUNK],
        [0, CHUNK + 1],
      ];
      for (const [byteOffset, byteLength] of windows) {
        const label = `byteOffset ${byteOffset}, byteLength ${byteLength}`;
        const options = byteLength === undefined ? { byteOffset } : { byteOffset, byteLength };
        const end = byteLength === undefined ? size : Math.min(size, byteOffset + byteLength);
        const pieces = await collectChunks((await t.fs.readFile("/f", options)) as ReadableStream<Uint8Array>);
        expectSameBytes(concat(pieces), data.subarray(byteOffset, end), label);
        // one storage chunk per pull, cut to the window: no piece crosses a chunk boundary
        let at = byteOffset;
        for (const piece of pieces) {
          expect(piece.byteLength, label).toBeGreaterThan(0);
          expect(piece.byteLength, label).toBeLessThanOrEqual(CHUNK);
          expect(Math.floor(at / CHUNK), `${label}: piece at ${at} crosses a chunk boundary`).toBe(Math.floor((at + piece.byteLength - 1) / CHUNK));
          at += piece.byteLength;
        }
      }
      // a string read of a window that splits no character
      await t.fs.writeFile("/t", "a".repeat(CHUNK - 1) + "é" + "b".repeat(10));
      expect(await t.fs.readFile("/t", { byteOffset: CHUNK - 2, byteLength: 5, encoding: "utf8" })).toBe("aébb");
      expect((await t.fs.readFile("/t", "utf8")).length).toBe(CHUNK - 1 + 1 + 10);
    });

    fsIt(h, "stream writes re-window any piece sizes into the same content", async (t) => {
      const total = 2 * CHUNK + 77;
      for (const pieceSize of [1, 4095, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK]) {
        if (pieceSize === 1) {
          // 1-byte pieces on a small file only
          await t.fs.writeFile("/p1", sequenceStream(3, 5000, { pieceSize: 1 }));
          await expectStreamMatchesSequence(await t.fs.readFile("/p1"), 3, 5000);
          continue;
        }
        await t.fs.writeFile(`/p${pieceSize}`, sequenceStream(9, total, { pieceSize }));
        expect((await t.fs.stat(`/p${pieceSize}`)).size).toBe(total);
        await expectStreamMatchesSequence(await t.fs.readFile(`/p${pieceSize}`), 9, total);
      }
    });

    fsIt(h, "a source failing half way over a big file leaves it unchanged", async (t) => {
      await t.fs.writeFile("/f", sequenceStream(11, 3 * CHUNK + 5), { mode: 0o700 });
      const before = await t.fs.stat("/f");
      const boom = new Error("half way");
      t.clock.advance(1000);
      const outcome = await t.fs
        .writeFile("/f", sequenceStream(12, 8 * CHUNK, { failAfter: 4 * CHUNK, error: boom }))
        .then(() => "resolved", (e: unknown) => e);
      expect(outcome).toBe(boom);
      expect(await t.fs.stat("/f")).toEqual(before);
      await expectStreamMatchesSequence(await t.fs.readFile("/f"), 11, 3 * CHUNK + 5);
      const outcome2 = await t.fs
        .writeFile("/g", sequenceStream(12, 8 * CHUNK, { failAfter: 2 * CHUNK + 3, error: boom }))
        .then(() => "resolved", (e: unknown) => e);
      expect(outcome2).toBe(boom);
      expect(await t.fs.ls("/")).toEqual(["/f"]);
      expect((await t.fs.readdir("/")).map((e) => e.name)).toEqual(["f"]);
    });
  });
}
