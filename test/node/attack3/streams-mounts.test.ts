/**
 * Issue 20 third attack run, categories 2 and 3: hostile streams and read
 * windows through workspace.fs, and a read-only mount attacked through
 * workspace.fs and the file tools. A stream that yields something other than
 * bytes, errors midway or is cancelled leaves the old file and no unleased
 * chunk behind; read windows with odd numbers are refused or clamped; a
 * reader holds its snapshot while the file is replaced; nothing writes,
 * moves, removes or links into a read-only mount, by any spelling.
 */
import { describe, expect, it } from "vitest";
import { Workspace, WorkerBundle } from "../../../src/index.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { integrityProblems, unleasedOrphans } from "../../shared/attack3/integrity.js";
import { drivers } from "../tools/adapter-drivers.js";

function fresh(mounts?: ConstructorParameters<typeof Workspace>[0]["mounts"]) {
  const storage = nodeSqliteStorage(":memory:");
  return { ws: new Workspace({ storage, mounts }), sql: storage.sql };
}
const code = (p: Promise<unknown>) => p.then(() => "ok", (e: { code?: string; name?: string; message?: string }) => e.code ?? `${e.name}: ${e.message}`);
const streamOf = (chunks: unknown[], end: "close" | "error" = "close") => {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (i < chunks.length) c.enqueue(chunks[i++] as Uint8Array);
      else if (end === "close") c.close();
      else c.error(new Error("source failed"));
    },
  });
};
const text = async (ws: Workspace, p: string) => ws.fs.readFile(p, "utf8");

describe("attack3: hostile streams and read windows", () => {
  it("a stream yielding non-bytes, or failing midway, leaves the old file and no unleased chunk", async () => {
    const { ws, sql } = fresh();
    await ws.fs.writeFile("/f", "OLD");
    const big = new Uint8Array(600_000).fill(1);
    const bad: Record<string, ReadableStream<Uint8Array>> = {
      string: streamOf([big, "text"]),
      number: streamOf([big, 42]),
      object: streamOf([big, { length: 3 }]),
      nullChunk: streamOf([big, null]),
      errors: streamOf([big, big], "error"),
    };
    for (const [what, stream] of Object.entries(bad)) {
      expect(await code(ws.fs.writeFile("/f", stream)), what).not.toBe("ok");
      expect(await text(ws, "/f"), what).toBe("OLD");
    }
    expect(integrityProblems(sql)).toEqual([]);
    expect(unleasedOrphans(sql)).toBe(0);
    // only Uint8Array chunks: other views are refused too, and create nothing
    expect(await code(ws.fs.writeFile("/g", streamOf([new Uint16Array([0x6261])])))).toBe("TypeError: writeFile: the stream must yield Uint8Array chunks");
    expect(await code(ws.fs.stat("/g"))).toBe("ENOENT");
  });

  it("100,000 one-byte chunks stream in bounded time and read back exactly", async () => {
    const { ws, sql } = fresh();
    const chunks = Array.from({ length: 100_000 }, (_, i) => new Uint8Array([97 + (i % 26)]));
    const t = Date.now();
    await ws.fs.writeFile("/many", streamOf(chunks));
    expect(Date.now() - t).toBeLessThan(10_000);
    const got = await text(ws, "/many");
    expect(got.length).toBe(100_000);
    expect(got.slice(0, 27)).toBe("abcdefghijklmnopqrstuvwxyza");
    expect(integrityProblems(sql)).toEqual([]);
  }, 20_000);

  it("read windows: negative, fractional, NaN and infinite values are refused; past the end is clamped", async () => {
    const { ws } = fresh();
    await ws.fs.writeFile("/f", "0123456789");
    const read = (o: Record<string, unknown>) => code(ws.fs.readFile("/f", { encoding: "utf8", ...o } as never));
    for (const o of [{ byteOffset: -1 }, { byteOffset: 1.5 }, { byteOffset: NaN }, { byteLength: -1 }, { byteLength: Infinity }, { byteOffset: "2" }]) {
      expect(await read(o), JSON.stringify(o)).not.toBe("ok");
    }
    expect(await ws.fs.readFile("/f", { encoding: "utf8", byteOffset: 8, byteLength: 1e15 })).toBe("89");
    expect(await ws.fs.readFile("/f", { encoding: "utf8", byteOffset: 2 ** 53 - 1 })).toBe("");
  });

  it("a reader keeps its snapshot while the file is replaced and removed; the old chunks go after", async () => {
    const { ws, sql } = fresh();
    const old = new Uint8Array(3 * 524_288).map((_, i) => i % 251);
    await ws.fs.writeFile("/f", old);
    const stream = await ws.fs.readFile("/f");
    const reader = stream.getReader();
    const first = await reader.read();
    await ws.fs.writeFile("/f", "new");
    await ws.fs.rm("/f");
    const parts = [first.value!];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
    }
    const got = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of parts) (got.set(p, at), (at += p.byteLength));
    expect(got.byteLength).toBe(old.byteLength);
    expect(got.every((b, i) => b === old[i])).toBe(true);
    // the next release runs the sweep
    await ws.fs.writeFile("/sweep", "x");
    await ws.fs.rm("/sweep");
    expect(integrityProblems(sql)).toEqual([]);
    expect(unleasedOrphans(sql)).toBe(0);
    expect((sql.exec("SELECT count(*) AS n FROM __ws_chunks WHERE size = 524288").toArray()[0] as { n: number }).n).toBe(0);
  });
});

describe("attack3: a read-only mount", () => {
  const mounts = () => ({ "/skills": WorkerBundle({ "pdf/SKILL.md": "# PDF\n", "run.sh": "#!/bin/sh\n" }) });

  it("workspace.fs: no write, mkdir, rm, rename, chmod or symlink into it, by any spelling or through a link", async () => {
    const { ws, sql } = fresh(mounts());
    await ws.ready();
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/mine.txt", "mine");
    await ws.fs.symlink("/skills/pdf", "/workspace/link");
    const attempts: Record<string, () => Promise<unknown>> = {
      write: () => ws.fs.writeFile("/skills/pdf/SKILL.md", "x"),
      writeDots: () => ws.fs.writeFile("/workspace/../skills/./pdf//SKILL.md", "x"),
      writeNew: () => ws.fs.writeFile("/skills/new.txt", "x"),
      writeLink: () => ws.fs.writeFile("/workspace/link/SKILL.md", "x"),
      writeLinkNew: () => ws.fs.writeFile("/workspace/link/new.md", "x"),
      mkdir: () => ws.fs.mkdir("/skills/d"),
      mkdirLink: () => ws.fs.mkdir("/workspace/link/d/e", { recursive: true }),
      rmFile: () => ws.fs.rm("/skills/run.sh"),
      rmRoot: () => ws.fs.rm("/skills", { recursive: true, force: true }),
      rmThroughLink: () => ws.fs.rm("/workspace/link/SKILL.md", { force: true }),
      renameOut: () => ws.fs.rename("/skills/run.sh", "/workspace/run.sh"),
      renameIn: () => ws.fs.rename("/workspace/mine.txt", "/skills/mine.txt"),
      renameOver: () => ws.fs.rename("/workspace/mine.txt", "/skills/run.sh"),
      renameRoot: () => ws.fs.rename("/skills", "/elsewhere"),
      renameOntoRoot: () => ws.fs.rename("/workspace", "/skills"),
      renameParentOfRoot: () => ws.fs.rename("/", "/x"),
      chmod: () => ws.fs.chmod("/skills/run.sh", 0o777),
      symlinkIn: () => ws.fs.symlink("/workspace/mine.txt", "/skills/l"),
    };
    const codes: Record<string, string> = {};
    for (const [k, attempt] of Object.entries(attempts)) codes[k] = await code(attempt());
    for (const [k, c] of Object.entries(codes)) expect(c, k).not.toBe("ok");
    expect(codes.write).toBe("EROFS");
    // Spec 01 §6.3 (and 0.8.0) checked only the path given to chmod, so a link into the mount took a chmod through;
    // since issue 20 (fix16b) chmod checks where links lead too, as writeFile/mkdir/rm/rename do.
    expect(await code(ws.fs.chmod("/workspace/link/SKILL.md", 0o600))).toBe("EROFS");
    expect(codes.writeLink).toBe("EROFS");
    expect(codes.rmRoot).toBe("EROFS");
    expect(codes.renameIn).toBe("EROFS");
    expect((await ws.fs.find("/skills")).map((e) => e.path)).toEqual(["/skills/pdf", "/skills/pdf/SKILL.md", "/skills/run.sh"]);
    expect(await text(ws, "/skills/pdf/SKILL.md")).toBe("# PDF\n");
    expect((await ws.fs.stat("/skills/run.sh")).mode).toBe(0o755);
    expect((await ws.fs.stat("/skills/pdf/SKILL.md")).mode).toBe(0o644);
    expect(await text(ws, "/workspace/mine.txt")).toBe("mine");
    expect(integrityProblems(sql)).toEqual([]);
  });

  for (const driver of drivers()) {
    it(`${driver.name}: write, edit and delete into the mount are error results; the mount is unchanged`, async () => {
      const { ws } = fresh(mounts());
      await ws.ready();
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.symlink("/skills/pdf", "/workspace/link");
      const tools = driver.build({ workspace: ws });
      const calls: Array<[string, Record<string, unknown>]> = [
        ["write", { path: "/skills/pdf/SKILL.md", content: "x" }],
        ["write", { path: "/skills/new/deep.md", content: "x" }],
        ["write", { path: "/workspace/link/SKILL.md", content: "x" }],
        ["edit", { path: "/skills/pdf/SKILL.md", edits: [{ oldText: "# PDF", newText: "# X" }] }],
        ["edit", { path: "/workspace/link/SKILL.md", edits: [{ oldText: "# PDF", newText: "# X" }] }],
        ["delete", { path: "/skills/run.sh" }],
        ["delete", { path: "/skills", recursive: true }],
        ["delete", { path: "/workspace/link/SKILL.md" }],
      ];
      for (const [name, input] of calls) {
        const seen = await driver.call(tools, name, input);
        expect(seen.isError, `${name} ${JSON.stringify(input)}: ${seen.text}`).toBe(true);
      }
      expect((await ws.fs.find("/skills")).map((e) => e.path)).toEqual(["/skills/pdf", "/skills/pdf/SKILL.md", "/skills/run.sh"]);
      expect(await text(ws, "/skills/pdf/SKILL.md")).toBe("# PDF\n");
    });
  }
});
