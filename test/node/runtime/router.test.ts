import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import type { WorkspaceRuntimeEvent } from "../../../src/runtime/index.js";
import { ScriptBackend } from "./script-backend.js";

function workspace(backends = [new ScriptBackend()], output?: ConstructorParameters<typeof Workspace>[0]["output"]) {
  return new Workspace({ storage: nodeSqliteStorage(":memory:"), backends, ...(output !== undefined ? { output } : {}) });
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

describe("routing", () => {
  it("lists backends in order with protocol, callable and description only when defined", () => {
    const ws = workspace([new ScriptBackend({ id: "a", description: "A." }), new ScriptBackend({ id: "b", callable: false })]);
    expect(ws.runtime.backends()).toEqual([
      { id: "a", protocol: "module", callable: true, description: "A." },
      { id: "b", protocol: "module", callable: false },
    ]);
    expect(Object.keys(ws.runtime.backends()[1])).toEqual(["id", "protocol", "callable"]);
    expect(ws.runtime.isCallable("a")).toBe(true);
    expect(ws.runtime.isCallable("b")).toBe(false);
    expect(ws.runtime.isCallable("nope")).toBe(false);
  });

  it("rejects duplicate ids, unknown backends, no backends and input to non-callable backends", async () => {
    expect(() => workspace([new ScriptBackend({ id: "x" }), new ScriptBackend({ id: "x" })])).toThrow(/duplicate backend id "x"/);
    const ws = workspace([new ScriptBackend({ id: "a" }), new ScriptBackend({ id: "b", callable: false })]);
    await expect(ws.runtime.exec("out hi", { backend: "zz" })).rejects.toThrow('no backend with id "zz"; this Workspace has "a", "b"');
    await expect(ws.runtime.exec("out hi", { backend: "b", input: { x: 1 } })).rejects.toThrow(
      'Backend "b" is not callable; it does not accept structured input.',
    );
    await expect(ws.runtime.exec("out hi", { id: "" })).rejects.toMatchObject({ code: "EINVAL" });
    await expect(ws.runtime.exec("out hi", { id: "x".repeat(257) })).rejects.toThrow(/256 bytes/);
    const empty = new Workspace({ storage: nodeSqliteStorage(":memory:") });
    await expect(empty.runtime.exec("x")).rejects.toThrow("no execution backend configured");
  });

  it("connects lazily once for concurrent callers and does not cache a failed connect", async () => {
    const backend = new ScriptBackend();
    backend.failNextConnect = true;
    const ws = workspace([backend]);
    expect(backend.connects).toBe(0);
    await expect(ws.runtime.exec("out a")).rejects.toThrow("connect failed once");
    const [h1, h2] = await Promise.all([ws.runtime.exec("out a"), ws.runtime.exec("out b")]);
    expect(backend.connects).toBe(2);
    expect((await h1.result()).stdout).toEqual(new TextEncoder().encode("a"));
    expect((await h2.result()).stdout).toEqual(new TextEncoder().encode("b"));
    await ws.close();
    await ws.runtime.exec("out c");
    expect(backend.connects).toBe(3);
  });
});

describe("handle and result", () => {
  it("builds the result with status, exit code, value and sync fields; result() is one promise", async () => {
    const backend = new ScriptBackend();
    const ws = workspace([backend]);
    const handle = await ws.runtime.exec("out hello\\n\nerr warn\\n\nresult {\"ok\":true}", { id: "r1", encoding: "utf8", input: { a: 1 } });
    expect(handle.id).toBe("r1");
    expect(handle.backend).toBe("script");
    expect(Object.keys(handle)).toEqual([]);
    expect(backend.lastInput).toEqual({ a: 1 });
    const p = handle.result();
    expect(handle.result()).toBe(p);
    expect(await p).toEqual({
      status: "completed",
      exitCode: 0,
      stdout: "hello\n",
      stderr: "warn\n",
      value: { ok: true },
      pushed: 0,
      pulled: 0,
      skipped: [],
      sync: { status: "complete", applied: 0, skipped: [] },
    });
  });

  it("maps exit codes to statuses and leaves value out without a result", async () => {
    const ws = workspace();
    for (const [code, status] of [[1, "failed"], [130, "cancelled"], [137, "cancelled"], [143, "cancelled"], [129, "cancelled"], [2, "failed"]] as const) {
      const r = await (await ws.runtime.exec(`exit ${code}`)).result();
      expect(r.status).toBe(status);
      expect(r.exitCode).toBe(code);
      expect("value" in r).toBe(false);
      expect("truncated" in r).toBe(false);
    }
  });

  it("streams events with seq from 1 and exactly one exit, last", async () => {
    const ws = workspace();
    const handle = await ws.runtime.exec("out a\nerr b\nout c\nexit 3");
    const events = await collect(handle);
    expect(events.map((e) => [e.seq, e.name])).toEqual([[1, "stdout"], [2, "stderr"], [3, "stdout"], [4, "exit"]]);
    expect(events[3]).toEqual({ id: handle.id, seq: 4, name: "exit", code: 3 });
    expect(() => handle.result()).toThrow("already streaming");
  });

  it("errors the stream when result() consumed it", async () => {
    const ws = workspace();
    const handle = await ws.runtime.exec("out a");
    await handle.result();
    await expect(handle.getReader().read()).rejects.toThrow("already consumed by result()");
  });

  it("decodes UTF-8 across chunks and flushes a dangling remainder with a fractional seq before exit", async () => {
    const ws = workspace();
    // "é" = c3 a9 split across two events; then a dangling c3 at the end.
    const handle = await ws.runtime.exec("hex stdout 41c3\nhex stdout a942\nhex stdout c3", { encoding: "utf8" });
    const events = (await collect(handle)) as WorkspaceRuntimeEvent<"utf8">[];
    expect(events.map((e) => [e.seq, e.name, e.name === "exit" ? e.code : e.value])).toEqual([
      [1, "stdout", "A"],
      [2, "stdout", "éB"],
      [3.5, "stdout", "\uFFFD"],
      [4, "exit", 0],
    ]);
  });

  it("replays with getExec: full, from a seq, and the tail; result() of a partial handle replays in full", async () => {
    const ws = workspace();
    await (await ws.runtime.exec("out a\nout b\nout c", { id: "g" })).result();
    const full = await collect(await ws.runtime.getExec("g"));
    expect(full.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    const after2 = await collect(await ws.runtime.getExec("g", { resume: 2 }));
    expect(after2.map((e) => e.seq)).toEqual([3, 4]);
    const tail = await collect(await ws.runtime.getExec("g", { resume: "tail" }));
    expect(tail).toEqual([]);
    const partial = await ws.runtime.getExec("g", { resume: 2, encoding: "utf8" });
    expect((await partial.result()).stdout).toBe("abc");
    await expect(ws.runtime.getExec("nope")).rejects.toMatchObject({ code: "ENOENT" });
    await ws.runtime.disposeExec("g");
    await expect(ws.runtime.getExec("g")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("dispose cancels the reader without killing the run", async () => {
    const ws = workspace();
    const handle = await ws.runtime.exec("out a\nout b", { id: "d" });
    const reader = handle.getReader();
    await reader.read();
    handle[Symbol.dispose]();
    expect((await reader.read()).done).toBe(true);
    expect((await (await ws.runtime.getExec("d", { encoding: "utf8" })).result()).stdout).toBe("ab");
  });
});

describe("long output (spec 02 §2)", () => {
  it("keeps the last 2000 lines and saves the whole stream byte-exact to /.computer/output", async () => {
    const ws = workspace();
    const handle = await ws.runtime.exec("repeat stdout 3000 line ", { id: "exec-1", encoding: "utf8" });
    const r = await handle.result();
    const expectedAll = Array.from({ length: 3000 }, (_, i) => `line ${i + 1}\n`).join("");
    const expectedTail = Array.from({ length: 2000 }, (_, i) => `line ${i + 1001}\n`).join("");
    expect(r.stdout).toBe(expectedTail);
    expect(r.truncated).toEqual({
      stdout: {
        status: "saved",
        path: "/.computer/output/script.exec-1.stdout.log",
        totalBytes: new TextEncoder().encode(expectedAll).byteLength,
        totalLines: 3000,
        firstLine: 1001,
        partialLine: false,
      },
    });
    expect(await ws.fs.readFile("/.computer/output/script.exec-1.stdout.log", "utf8")).toBe(expectedAll);
    expect(r.stderr).toBe("");
  });

  it("cuts by bytes on a line start, and keeps the end of one over-long line as a partial line", async () => {
    const ws = workspace();
    const r = await (await ws.runtime.exec("repeat stdout 40 row ", { id: "rows", encoding: "utf8", output: { maxBytes: 100 } })).result();
    expect(r.stdout).toBe(Array.from({ length: 14 }, (_, i) => `row ${i + 27}\n`).join(""));
    expect(r.truncated?.stdout).toMatchObject({ firstLine: 27, totalLines: 40, partialLine: false });
    const long = await (await ws.runtime.exec(`out ${"x".repeat(300)}\\n`, { id: "long.1", encoding: "utf8", output: { maxBytes: 100 } })).result();
    expect(long.stdout).toBe(`${"x".repeat(99)}\n`);
    expect(long.truncated?.stdout).toEqual({
      status: "saved",
      path: "/.computer/output/script.long%2E1.stdout.log",
      totalBytes: 301,
      totalLines: 1,
      firstLine: 1,
      partialLine: true,
    });
  });

  it("puts truncated on the exit event while stream events stay whole", async () => {
    const ws = workspace();
    const handle = await ws.runtime.exec("repeat stderr 5 e", { id: "s", output: { maxLines: 2 } });
    const events = await collect(handle);
    const chunks = events.filter((e) => e.name === "stderr");
    expect(chunks).toHaveLength(5);
    const exit = events.at(-1)!;
    expect(exit.name === "exit" && exit.truncated?.stderr).toMatchObject({ status: "saved", firstLine: 4, totalLines: 5 });
    expect(await ws.fs.readFile("/.computer/output/script.s.stderr.log", "utf8")).toBe("e1\ne2\ne3\ne4\ne5\n");
  });

  it("keeps output whole with output: false per run or per Workspace", async () => {
    const ws = workspace(undefined, { maxLines: 2 });
    const r = await (await ws.runtime.exec("repeat stdout 5 l", { output: false, encoding: "utf8" })).result();
    expect(r.stdout).toBe("l1\nl2\nl3\nl4\nl5\n");
    expect(r.truncated).toBeUndefined();
    const off = workspace(undefined, false);
    const r2 = await (await off.runtime.exec("repeat stdout 5 l", { output: { maxLines: 2 }, encoding: "utf8" })).result();
    expect(r2.stdout).toBe("l1\nl2\nl3\nl4\nl5\n");
    await expect(off.fs.stat("/.computer/output")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("prunes old output files to the newest `keep`, never touching other files", async () => {
    let t = 1000;
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [new ScriptBackend()], output: { keep: 2, maxLines: 1 }, now: () => (t += 10) });
    await ws.fs.mkdir("/.computer/output", { recursive: true });
    await ws.fs.writeFile("/.computer/output/notes.txt", "keep me");
    for (const id of ["a", "b", "c"]) await (await ws.runtime.exec("out 1\\n2\\n", { id })).result();
    const names = (await ws.fs.readdir("/.computer/output")).map((e) => e.name).sort();
    expect(names).toEqual(["notes.txt", "script.b.stdout.log", "script.c.stdout.log"]);
  });

  it("reports not-saved when the file cannot be written, and the run is unaffected", async () => {
    const ws = workspace(undefined, { maxLines: 1, dir: "/blocked/out" });
    await ws.fs.writeFile("/blocked", "a file where a directory should be");
    const r = await (await ws.runtime.exec("out a\\nb\\n\nexit 0", { id: "n", encoding: "utf8" })).result();
    expect(r.status).toBe("completed");
    expect(r.stdout).toBe("b\n");
    expect(r.truncated?.stdout).toMatchObject({ status: "not-saved", totalLines: 2, firstLine: 2 });
    expect((r.truncated?.stdout as { reason: string }).reason).toContain("Could not save command output to /blocked/out/script.n.stdout.log");
  });
});
