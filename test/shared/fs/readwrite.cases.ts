/**
 * Spec 01 §3.3 readFile / writeFile and their §3.6 error rows.
 */
import { describe, expect } from "vitest";
import {
  CHUNK,
  collectChunks,
  concat,
  expectFsError,
  expectSameBytes,
  fsIt,
  readAll,
  seededBytes,
  streamOf,
  utf8,
  type FsHarness,
} from "./harness.js";

const BAD_RANGE_VALUES: readonly unknown[] = [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "1"];

export function defineReadWriteCases(h: FsHarness): void {
  describe("readFile", () => {
    fsIt(h, "no encoding → ReadableStream of the bytes; 'utf8' (argument or option) → string", async (t) => {
      await t.fs.writeFile("/f", "héllo 😀");
      const stream = await t.fs.readFile("/f");
      expect(stream).toBeInstanceOf(ReadableStream);
      expectSameBytes(await readAll(stream), utf8("héllo 😀"));
      expect(await t.fs.readFile("/f", "utf8")).toBe("héllo 😀");
      expect(await t.fs.readFile("/f", { encoding: "utf8" })).toBe("héllo 😀");
      const viaOptions = await t.fs.readFile("/f", {});
      expect(viaOptions).toBeInstanceOf(ReadableStream);
      expectSameBytes(await readAll(viaOptions as ReadableStream<Uint8Array>), utf8("héllo 😀"));
    });

    fsIt(h, "empty file: stream closes with no chunks, string is ''", async (t) => {
      await t.fs.writeFile("/empty", "");
      expect(await collectChunks(await t.fs.readFile("/empty"))).toEqual([]);
      expect(await t.fs.readFile("/empty", "utf8")).toBe("");
      expect((await t.fs.stat("/empty")).size).toBe(0);
    });

    fsIt(h, "byteOffset/byteLength are clamped to the file", async (t) => {
      await t.fs.writeFile("/f", "hello world");
      const cases: [{ byteOffset?: number; byteLength?: number }, string][] = [
        [{}, "hello world"],
        [{ byteOffset: 0 }, "hello world"],
        [{ byteOffset: 6 }, "world"],
        [{ byteOffset: 6, byteLength: 3 }, "wor"],
        [{ byteLength: 5 }, "hello"],
        [{ byteLength: 100 }, "hello world"],
        [{ byteOffset: 10, byteLength: 100 }, "d"],
        [{ byteOffset: 11 }, ""],
        [{ byteOffset: 1000 }, ""],
        [{ byteOffset: 1000, byteLength: 0 }, ""],
        [{ byteLength: 0 }, ""],
        [{ byteOffset: 3, byteLength: 0 }, ""],
      ];
      for (const [range, expected] of cases) {
        expect(await t.fs.readFile("/f", { ...range, encoding: "utf8" }), JSON.stringify(range)).toBe(expected);
        const pieces = await collectChunks((await t.fs.readFile("/f", range)) as ReadableStream<Uint8Array>);
        if (expected === "") expect(pieces, `${JSON.stringify(range)} stream has no chunks`).toEqual([]);
        expectSameBytes(concat(pieces), utf8(expected), JSON.stringify(range));
      }
    });

    fsIt(h, "bad byteOffset/byteLength → EINVAL, checked before the path", async (t) => {
      await t.fs.writeFile("/f", "x");
      for (const bad of BAD_RANGE_VALUES) {
        const o = bad as number;
        await expectFsError(t.fs.readFile("/f", { byteOffset: o }), "EINVAL");
        await expectFsError(t.fs.readFile("/f", { byteLength: o, encoding: "utf8" }), "EINVAL");
        await expectFsError(t.fs.readFile("/missing", { byteOffset: o }), "EINVAL");
        await expectFsError(t.fs.readFile("/", { byteLength: o }), "EINVAL");
      }
    });

    fsIt(h, "utf8 decoding: leading BOM dropped, bad bytes → U+FFFD, window cut mid-character", async (t) => {
      await t.fs.writeFile("/bom", new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0xef, 0xbb, 0xbf, 0x42]));
      expect(await t.fs.readFile("/bom", "utf8")).toBe("A\uFEFFB");
      expectSameBytes(await readAll(await t.fs.readFile("/bom")), new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0xef, 0xbb, 0xbf, 0x42]));
      expect(await t.fs.readFile("/bom", { byteOffset: 3, encoding: "utf8" })).toBe("A\uFEFFB");
      await t.fs.writeFile("/bad", new Uint8Array([0x61, 0xff, 0x62, 0xc3]));
      expect(await t.fs.readFile("/bad", "utf8")).toBe("a\uFFFDb\uFFFD");
      await t.fs.writeFile("/e", "é");
      expect(await t.fs.readFile("/e", { byteLength: 1, encoding: "utf8" })).toBe("\uFFFD");
      expect(await t.fs.readFile("/e", { byteOffset: 1, encoding: "utf8" })).toBe("\uFFFD");
    });

    fsIt(h, "error rows: missing/dangling/file mid-path → ENOENT, directory → EISDIR", async (t) => {
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/f", "x");
      await t.fs.symlink("/nowhere", "/dangling");
      await t.fs.symlink("/d", "/dlink");
      await expectFsError(t.fs.readFile("/missing"), "ENOENT", "/missing");
      await expectFsError(t.fs.readFile("/missing", "utf8"), "ENOENT", "/missing");
      await expectFsError(t.fs.readFile("/dangling", "utf8"), "ENOENT");
      await expectFsError(t.fs.readFile("/f/x", "utf8"), "ENOENT");
      await expectFsError(t.fs.readFile("/d"), "EISDIR", "/d");
      await expectFsError(t.fs.readFile("/d", "utf8"), "EISDIR", "/d");
      await expectFsError(t.fs.readFile("/dlink", "utf8"), "EISDIR");
    });

    fsIt(h, "a stream is a snapshot: a later overwrite does not tear it", async (t) => {
      const before = seededBytes(1, CHUNK * 2 + 10);
      const after = seededBytes(2, CHUNK * 3);
      await t.fs.writeFile("/f", before);
      const stream = await t.fs.readFile("/f");
      const ranged = await t.fs.readFile("/f", { byteOffset: CHUNK - 5, byteLength: CHUNK });
      await t.fs.writeFile("/f", after);
      expectSameBytes(await readAll(stream), before, "snapshot");
      expectSameBytes(await readAll(ranged as ReadableStream<Uint8Array>), before.subarray(CHUNK - 5, 2 * CHUNK - 5), "ranged snapshot");
      expectSameBytes(await readAll(await t.fs.readFile("/f")), after, "new content");
    });
    fsIt(h, "a stream is a snapshot: a partly read stream survives overwrite and rm (within the safety window)", async (t) => {
      const before = seededBytes(3, CHUNK * 3 + 1);
      await t.fs.writeFile("/f", before);
      await t.fs.writeFile("/g", before);
      const partly = await t.fs.readFile("/f");
      const reader = partly.getReader();
      const first = await reader.read();
      await t.fs.writeFile("/f", seededBytes(4, CHUNK * 3 + 1));
      await t.fs.writeFile("/f", "small");
      const rest: Uint8Array[] = [first.value!];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        rest.push(value);
      }
      expectSameBytes(concat(rest), before, "partly read stream");
      const removed = await t.fs.readFile("/g");
      await t.fs.rm("/g");
      await t.fs.writeFile("/other", seededBytes(6, CHUNK)); // more churn after the rm
      expectSameBytes(await readAll(removed), before, "stream of a removed file");
    });

    fsIt(h, "returned chunks are the caller's: mutating them does not change the file", async (t) => {
      const data = seededBytes(8, CHUNK + 100);
      await t.fs.writeFile("/f", data);
      for (let round = 0; round < 2; round++) {
        for (const piece of await collectChunks(await t.fs.readFile("/f"))) piece.fill(0);
        for (const piece of await collectChunks((await t.fs.readFile("/f", { byteOffset: 10, byteLength: 50 })) as ReadableStream<Uint8Array>)) piece.fill(0);
      }
      expectSameBytes(await readAll(await t.fs.readFile("/f")), data);
      // and the written array is not retained by reference
      const input = seededBytes(9, 1000);
      await t.fs.writeFile("/in", input);
      input.fill(7);
      expectSameBytes(await readAll(await t.fs.readFile("/in")), seededBytes(9, 1000));
    });
  });

  describe("writeFile", () => {
    fsIt(h, "string → UTF-8; Uint8Array → exactly its view's bytes; stream → its bytes", async (t) => {
      await t.fs.writeFile("/s", "é😀\r\n");
      expectSameBytes(await readAll(await t.fs.readFile("/s")), utf8("é😀\r\n"));
      expect((await t.fs.stat("/s")).size).toBe(8);
      const backing = new Uint8Array([9, 9, 1, 2, 3, 9, 9]);
      await t.fs.writeFile("/view", backing.subarray(2, 5));
      expectSameBytes(await readAll(await t.fs.readFile("/view")), new Uint8Array([1, 2, 3]));
      expect((await t.fs.stat("/view")).size).toBe(3);
      await t.fs.writeFile("/stream", streamOf(utf8("ab"), new Uint8Array(0), utf8("cd")));
      expect(await t.fs.readFile("/stream", "utf8")).toBe("abcd");
      await t.fs.writeFile("/emptystream", streamOf());
      expect((await t.fs.stat("/emptystream")).size).toBe(0);
    });

    fsIt(h, "mode defaults to 0o644, is masked with 0o7777, and overwrite without mode resets it", async (t) => {
      await t.fs.writeFile("/f", "a");
      expect((await t.fs.stat("/f")).mode).toBe(0o644);
      await t.fs.writeFile("/f", "b", { mode: 0o755 });
      expect((await t.fs.stat("/f")).mode).toBe(0o755);
      await t.fs.writeFile("/f", "c");
      expect((await t.fs.stat("/f")).mode).toBe(0o644);
      await t.fs.writeFile("/f", "d", { mode: 0o100755 });
      expect((await t.fs.stat("/f")).mode).toBe(0o755);
      await t.fs.writeFile("/g", "e", { mode: 0o4711 });
      expect((await t.fs.stat("/g")).mode).toBe(0o4711);
      await t.fs.writeFile("/z", "zero", { mode: 0 });
      expect((await t.fs.stat("/z")).mode).toBe(0);
      await t.fs.writeFile("/s", streamOf(utf8("x")), { mode: 0o600 });
      expect((await t.fs.stat("/s")).mode).toBe(0o600);
    });

    fsIt(h, "overwrite keeps the inode, replaces the whole content and sets mtime", async (t) => {
      await t.fs.writeFile("/f", "a long first version");
      const first = await t.fs.stat("/f");
      t.clock.advance(1234);
      await t.fs.writeFile("/f", "short");
      const second = await t.fs.stat("/f");
      expect(second.inode).toBe(first.inode);
      expect(second.size).toBe(5);
      expect(second.mtime).toBe(first.mtime + 1234);
      expect(await t.fs.readFile("/f", "utf8")).toBe("short");
    });

    fsIt(h, "parents are not created: missing parent → ENOENT, file in parent chain → ENOTDIR", async (t) => {
      await t.fs.writeFile("/f", "x");
      await expectFsError(t.fs.writeFile("/no/f", "x"), "ENOENT");
      await expectFsError(t.fs.writeFile("/no/deeper/f", "x"), "ENOENT");
      await expectFsError(t.fs.writeFile("/f/g", "x"), "ENOTDIR");
      await expectFsError(t.fs.writeFile("/f/g/h", "x"), "ENOTDIR");
      await t.fs.symlink("/nowhere", "/dangling");
      await expectFsError(t.fs.writeFile("/dangling/f", "x"), "ENOENT");
      await t.fs.symlink("/f", "/flink");
      await expectFsError(t.fs.writeFile("/flink/g", "x"), "ENOTDIR");
      await expectFsError(t.fs.stat("/no"), "ENOENT");
    });

    fsIt(h, "target is a directory → EISDIR (also through a link)", async (t) => {
      await t.fs.mkdir("/d");
      await t.fs.symlink("/d", "/dl");
      await t.fs.symlink("..", "/d/up");
      await expectFsError(t.fs.writeFile("/d", "x"), "EISDIR", "/d");
      await expectFsError(t.fs.writeFile("/dl", "x"), "EISDIR");
      await expectFsError(t.fs.writeFile("/d/up", "x"), "EISDIR");
      await expectFsError(t.fs.writeFile("/d", streamOf(utf8("x"))), "EISDIR");
      expect((await t.fs.stat("/d")).isDirectory).toBe(true);
    });

    fsIt(h, "exclusive: EEXIST for any existing entry (file, dir, link, dangling link)", async (t) => {
      await t.fs.writeFile("/f", "old");
      await t.fs.mkdir("/d");
      await t.fs.symlink("/f", "/lf");
      await t.fs.symlink("/nowhere", "/dangling");
      for (const p of ["/f", "/d", "/lf", "/dangling"]) {
        await expectFsError(t.fs.writeFile(p, "new", { exclusive: true }), "EEXIST", p);
      }
      expect(await t.fs.readFile("/f", "utf8")).toBe("old");
      await expectFsError(t.fs.stat("/nowhere"), "ENOENT");
      await t.fs.writeFile("/fresh", "new", { exclusive: true });
      expect(await t.fs.readFile("/fresh", "utf8")).toBe("new");
      await t.fs.writeFile("/fresh2", "new", { exclusive: false });
      await t.fs.writeFile("/fresh2", "newer", { exclusive: false });
      expect(await t.fs.readFile("/fresh2", "utf8")).toBe("newer");
      // check order: "/" → EISDIR before exclusive; missing parent → ENOENT before exclusive
      await expectFsError(t.fs.writeFile("/", "x", { exclusive: true }), "EISDIR");
      await expectFsError(t.fs.writeFile("/no/f", "x", { exclusive: true }), "ENOENT");
      await expectFsError(t.fs.writeFile("/f/g", "x", { exclusive: true }), "ENOTDIR");
    });

    fsIt(h, "a final link is written through: target replaced, or created if dangling", async (t) => {
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/d/t", "old", { mode: 0o755 });
      const targetInode = (await t.fs.stat("/d/t")).inode;
      await t.fs.symlink("d/t", "/l");
      await t.fs.writeFile("/l", "new");
      expect(await t.fs.readFile("/d/t", "utf8")).toBe("new");
      const target = await t.fs.stat("/d/t");
      expect(target.inode).toBe(targetInode);
      expect(target.mode).toBe(0o644);
      const link = await t.fs.lstat("/l");
      expect(link).toMatchObject({ isSymbolicLink: true, mode: 0o777, size: 3 });
      expect(await t.fs.readlink("/l")).toBe("d/t");
      // dangling → creates the target
      await t.fs.symlink("/d/created", "/dangling");
      await t.fs.writeFile("/dangling", "made", { mode: 0o600 });
      expect(await t.fs.readFile("/d/created", "utf8")).toBe("made");
      expect((await t.fs.stat("/d/created")).mode).toBe(0o600);
      expect((await t.fs.lstat("/dangling")).isSymbolicLink).toBe(true);
      // dangling with a missing parent → ENOENT, nothing created
      await t.fs.symlink("/nodir/x", "/dangling2");
      await expectFsError(t.fs.writeFile("/dangling2", "x"), "ENOENT");
      await expectFsError(t.fs.stat("/nodir"), "ENOENT");
      // a chain of links to a dangling end
      await t.fs.symlink("/dangling3", "/chain");
      await t.fs.symlink("/d/end", "/dangling3");
      await t.fs.writeFile("/chain", "end");
      expect(await t.fs.readFile("/d/end", "utf8")).toBe("end");
    });

    fsIt(h, "mtime is the clock when the call starts (stream write)", async (t) => {
      const start = t.clock.value;
      let pulls = 0;
      const stream = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            pulls++;
            t.clock.advance(10_000);
            if (pulls <= 3) controller.enqueue(utf8(`p${pulls}`));
            else controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      await t.fs.writeFile("/s", stream);
      expect(await t.fs.readFile("/s", "utf8")).toBe("p1p2p3");
      expect((await t.fs.stat("/s")).mtime).toBe(start);
    });

    fsIt(h, "stream target is checked before reading the first byte", async (t) => {
      await t.fs.mkdir("/d");
      await t.fs.writeFile("/f", "x");
      for (const [path, code] of [
        ["/missing/f", "ENOENT"],
        ["/f/g", "ENOTDIR"],
        ["/d", "EISDIR"],
        ["/", "EISDIR"],
        ["/f", "EEXIST"],
      ] as const) {
        let pulls = 0;
        const stream = new ReadableStream<Uint8Array>(
          {
            pull(controller) {
              pulls++;
              controller.enqueue(utf8("data"));
              if (pulls > 2) controller.close();
            },
          },
          { highWaterMark: 0 },
        );
        await expectFsError(t.fs.writeFile(path, stream, { exclusive: path === "/f" }), code);
        expect(pulls, `${path}: source pulled before the target check`).toBe(0);
      }
    });

    fsIt(h, "stream error: rejects with that error; old file unchanged; no file when it did not exist", async (t) => {
      await t.fs.writeFile("/f", seededBytes(5, CHUNK + 7), { mode: 0o751 });
      const before = await t.fs.stat("/f");
      const boom = new Error("source exploded");
      let produced = 0;
      const failing = (): ReadableStream<Uint8Array> =>
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (produced >= CHUNK + 1000) {
              controller.error(boom);
              return;
            }
            produced += 300_000;
            controller.enqueue(seededBytes(produced, 300_000));
          },
        });
      t.clock.advance(60_000);
      const error = await t.fs.writeFile("/f", failing()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBe(boom);
      expect(await t.fs.stat("/f")).toEqual(before);
      expectSameBytes(await readAll(await t.fs.readFile("/f")), seededBytes(5, CHUNK + 7));
      produced = 0;
      const error2 = await t.fs.writeFile("/new", failing()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error2).toBe(boom);
      await expectFsError(t.fs.stat("/new"), "ENOENT");
      await expectFsError(t.fs.lstat("/new"), "ENOENT");
      expect((await t.fs.readdir("/")).map((e) => e.name)).toEqual(["f"]);
      expect(await t.fs.ls("/")).toEqual(["/f"]);
    });

    fsIt(h, "a target invalidated before the stream drains changes nothing visible", async (t) => {
      await t.fs.mkdir("/d");
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let step = 0;
      const stream = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            step++;
            if (step === 1) controller.enqueue(utf8("first"));
            else if (step === 2) {
              await gate;
              controller.enqueue(utf8("second"));
            } else controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      const writing = t.fs.writeFile("/d/f", stream);
      // let the writer start, then remove the parent while the source is paused
      for (let i = 0; i < 20 && step < 2; i++) await new Promise((r) => setTimeout(r, 1));
      await t.fs.rm("/d", { recursive: true });
      release();
      await expectFsError(writing, "ENOENT");
      await expectFsError(t.fs.stat("/d"), "ENOENT");
      expect(await t.fs.readdir("/")).toEqual([]);
    });

    fsIt(h, "the target is checked again at commit: exclusive raced, or replaced by a directory", async (t) => {
      const gated = () => {
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        let step = 0;
        const stream = new ReadableStream<Uint8Array>(
          {
            async pull(controller) {
              step++;
              if (step === 1) controller.enqueue(utf8("streamed"));
              else {
                await gate;
                controller.close();
              }
            },
          },
          { highWaterMark: 0 },
        );
        return { stream, release, started: () => step >= 2 };
      };
      const waitFor = async (cond: () => boolean) => {
        for (let i = 0; i < 50 && !cond(); i++) await new Promise((r) => setTimeout(r, 1));
      };
      const a = gated();
      const writingA = t.fs.writeFile("/f", a.stream, { exclusive: true });
      await waitFor(a.started);
      await t.fs.writeFile("/f", "other");
      a.release();
      await expectFsError(writingA, "EEXIST");
      expect(await t.fs.readFile("/f", "utf8")).toBe("other");
      const b = gated();
      const writingB = t.fs.writeFile("/g", b.stream);
      await waitFor(b.started);
      await t.fs.mkdir("/g");
      await t.fs.writeFile("/g/inner", "i");
      b.release();
      await expectFsError(writingB, "EISDIR");
      expect(await t.fs.readFile("/g/inner", "utf8")).toBe("i");
    });

    fsIt(h, "concurrent stream writes to one path: last commit wins", async (t) => {
      let releaseA!: () => void;
      const gateA = new Promise<void>((resolve) => (releaseA = resolve));
      let a = 0;
      const streamA = new ReadableStream<Uint8Array>({
        async pull(controller) {
          a++;
          if (a === 1) controller.enqueue(utf8("AAA"));
          else {
            await gateA;
            controller.close();
          }
        },
      });
      const writeA = t.fs.writeFile("/f", streamA);
      await t.fs.writeFile("/f", streamOf(utf8("BBB")));
      expect(await t.fs.readFile("/f", "utf8")).toBe("BBB");
      releaseA();
      await writeA;
      expect(await t.fs.readFile("/f", "utf8")).toBe("AAA");
    });
  });

  describe("writeFile ifMatch (conditional write, docs/filesystem.md)", () => {
    const sha = async (bytes: Uint8Array): Promise<string> =>
      [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");

    fsIt(h, "the current content's hash → written (mode option too); any other → ESTALE, old bytes kept", async (t) => {
      await t.fs.writeFile("/f", "old");
      const old = await sha(utf8("old"));
      await t.fs.writeFile("/f", "new", { ifMatch: old, mode: 0o600 });
      expect(await t.fs.readFile("/f", "utf8")).toBe("new");
      expect((await t.fs.stat("/f")).mode).toBe(0o600);
      const error = await expectFsError(t.fs.writeFile("/f", "newer", { ifMatch: old }), "ESTALE", "/f");
      expect(error.message).toBe("ESTALE: the file's content no longer matches ifMatch (it changed since it was read); the file was not changed, writeFile: /f");
      expect(await t.fs.readFile("/f", "utf8")).toBe("new");
      // The same content written again by someone else still matches (content, not version).
      await t.fs.writeFile("/f", "new");
      await t.fs.writeFile("/f", "third", { ifMatch: await sha(utf8("new")) });
      expect(await t.fs.readFile("/f", "utf8")).toBe("third");
      // The empty file has the hash of no bytes.
      await t.fs.writeFile("/e", "");
      await t.fs.writeFile("/e", "x", { ifMatch: await sha(new Uint8Array(0)) });
      expect(await t.fs.readFile("/e", "utf8")).toBe("x");
    });

    fsIt(h, "no file → ENOENT and nothing created; a directory → EISDIR; exclusive → EEXIST", async (t) => {
      const any = "0".repeat(64);
      await expectFsError(t.fs.writeFile("/missing", "x", { ifMatch: any }), "ENOENT", "/missing");
      await expectFsError(t.fs.stat("/missing"), "ENOENT");
      await t.fs.mkdir("/d");
      await expectFsError(t.fs.writeFile("/d", "x", { ifMatch: any }), "EISDIR", "/d");
      await t.fs.writeFile("/f", "a");
      await expectFsError(t.fs.writeFile("/f", "b", { ifMatch: await sha(utf8("a")), exclusive: true }), "EEXIST", "/f");
      expect(await t.fs.readFile("/f", "utf8")).toBe("a");
    });

    fsIt(h, "a final link is followed: the hash is the target's content", async (t) => {
      await t.fs.writeFile("/target", "T");
      await t.fs.symlink("/target", "/link");
      await t.fs.writeFile("/link", "U", { ifMatch: await sha(utf8("T")) });
      expect(await t.fs.readFile("/target", "utf8")).toBe("U");
      expect((await t.fs.lstat("/link")).isSymbolicLink).toBe(true);
    });

    fsIt(h, "bad ifMatch → TypeError, nothing written", async (t) => {
      await t.fs.writeFile("/f", "a");
      for (const bad of ["", "A".repeat(64), "0".repeat(63), "0".repeat(65), "g".repeat(64), 1, null, {}]) {
        await expect(t.fs.writeFile("/f", "b", { ifMatch: bad as never }), JSON.stringify(bad)).rejects.toThrow(
          /^writeFile: options\.ifMatch must be a SHA-256 as 64 lowercase hex digits, got /,
        );
      }
      expect(await t.fs.readFile("/f", "utf8")).toBe("a");
    });

    fsIt(h, "multi-chunk files: matched across chunks; a change while a stream is read is caught at commit", async (t) => {
      const big = seededBytes(7, CHUNK * 2 + 5);
      await t.fs.writeFile("/big", big);
      const next = seededBytes(8, CHUNK + 3);
      await t.fs.writeFile("/big", next, { ifMatch: await sha(big) });
      expectSameBytes(await readAll(await t.fs.readFile("/big")), next);
      // A stream write pinned to `next`; another write lands between its chunks.
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let pulls = 0;
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          pulls++;
          if (pulls <= 2) controller.enqueue(seededBytes(9 + pulls, CHUNK));
          else {
            await gate;
            controller.close();
          }
        },
      });
      const writing = t.fs.writeFile("/big", stream, { ifMatch: await sha(next) });
      const settled = writing.then(
        () => undefined,
        (error: unknown) => error,
      );
      await t.fs.writeFile("/big", "someone else");
      release();
      const error = (await settled) as { code?: string } | undefined;
      expect(error?.code).toBe("ESTALE");
      expect(await t.fs.readFile("/big", "utf8")).toBe("someone else");
    });
  });

  describe("writeFile ifInode (bound to a file, docs/filesystem.md)", () => {
    fsIt(h, "the file's inode → written; another file at the path (renamed over it, a link) → ESTALE, nothing written", async (t) => {
      await t.fs.writeFile("/f", "one");
      const ino = (await t.fs.stat("/f")).inode;
      await t.fs.writeFile("/f", "two", { ifInode: ino });
      expect(await t.fs.readFile("/f", "utf8")).toBe("two");
      expect((await t.fs.stat("/f")).inode).toBe(ino);
      await t.fs.writeFile("/other", "other");
      await t.fs.rename("/f", "/moved");
      await t.fs.symlink("/other", "/f");
      const error = await expectFsError(t.fs.writeFile("/f", "three", { ifInode: ino }), "ESTALE", "/f");
      expect(error.message).toBe("ESTALE: the path no longer leads to the file with inode ifInode (it was moved, removed or replaced); nothing was written, writeFile: /f");
      expect(await t.fs.readFile("/other", "utf8")).toBe("other");
      expect(await t.fs.readFile("/moved", "utf8")).toBe("two");
      // Through the link to the bound file: followed, written.
      await t.fs.rm("/f");
      await t.fs.symlink("/moved", "/f");
      await t.fs.writeFile("/f", "four", { ifInode: ino });
      expect(await t.fs.readFile("/moved", "utf8")).toBe("four");
    });

    fsIt(h, "no file → ENOENT (nothing created); with ifMatch both must hold; a bad value → TypeError", async (t) => {
      await expectFsError(t.fs.writeFile("/missing", "x", { ifInode: 1 }), "ENOENT", "/missing");
      expect((await t.fs.readdir("/")).map((e) => e.name)).not.toContain("missing");
      await t.fs.writeFile("/f", "a");
      const ino = (await t.fs.stat("/f")).inode;
      const sha = [...new Uint8Array(await crypto.subtle.digest("SHA-256", utf8("a")))].map((b) => b.toString(16).padStart(2, "0")).join("");
      await expectFsError(t.fs.writeFile("/f", "b", { ifInode: ino + 1000, ifMatch: sha }), "ESTALE", "/f");
      await t.fs.writeFile("/f", "b", { ifInode: ino, ifMatch: sha });
      expect(await t.fs.readFile("/f", "utf8")).toBe("b");
      for (const bad of [-1, 1.5, "1", null, {}]) {
        await expect(t.fs.writeFile("/f", "c", { ifInode: bad as never }), JSON.stringify(bad)).rejects.toThrow(/^writeFile: options\.ifInode must be an inode number/);
      }
      expect(await t.fs.readFile("/f", "utf8")).toBe("b");
    });
  });
}
