/**
 * Fixer TA, issue 20 run 25 — siblings of the attack25a findings:
 * - `workspace.fs.grep`'s `maxTotalLength` counts each match's `path` (src/fs/grep.ts), and the grep tool's
 *   follow-up calls (fetchGrepPage, src/tools/core/grep-page.ts) keep binary-file counts, context and paging exact;
 * - the exec tool echoes `command`, `cwd` and `backend` cut past 4,096 characters (echoedText) in running, settled
 *   and error snapshots; the progress budget (snapshotChars) counts only stdout + stderr.
 */
import { describe, expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { defineExec, type ExecToolOutput } from "../../../src/tools/core.js";
import { buildCoreTools } from "../../../src/tools/core/toolset.js";
import { snapshotChars } from "../../../src/tools/core/directory.js";
import { ScriptBackend } from "../runtime/script-backend.js";
import { setup } from "../tools/helpers.js";

type Tool = { execute(input: unknown): Promise<Record<string, unknown>> };
const cut = (s: string) => `${s.slice(0, 4096)}[… ${s.length - 4096} characters cut …]`;
const LONG = "d".repeat(200_000);

describe("fs.grep maxTotalLength counts match paths", () => {
  it("stops after the match whose path and text pass the bound (17 characters a match: 3 under 40, not 5)", async () => {
    const { workspace } = await setup({ "/ab.txt": Array.from({ length: 10 }, (_, i) => `m${i}--------`).join("\n") + "\n" });
    // "/ab.txt" (7) + "m0--------" (10) = 17 a match: 17, 34, 51 > 40 → three matches (text alone: 10 … 50 → five).
    const lines = async (offset: number) => (await workspace.fs.grep("m", "/ab.txt", { maxTotalLength: 40, offset })).map((m) => m.line);
    expect(await lines(0)).toEqual([1, 2, 3]);
    expect(await lines(3)).toEqual([4, 5, 6]);
    expect(await lines(9)).toEqual([10]);
    // A binary-file entry is not counted (it would leave an offset that cannot move past it).
    await workspace.fs.mkdir("/b");
    await workspace.fs.writeFile(`/b/${"a".repeat(100)}.bin`, new Uint8Array([0, 1, 2]));
    await workspace.fs.writeFile("/b/z.txt", "m\n");
    expect(await workspace.fs.grep("m", "/b", { skipBinary: true, maxTotalLength: 5 })).toEqual([
      { path: `/b/${"a".repeat(100)}.bin`, line: 0, text: "", binary: true },
      { path: "/b/z.txt", line: 1, text: "m" },
    ]);
  });
});

describe("grep tool: long match paths across follow-up calls", () => {
  async function tree() {
    const { workspace } = await setup();
    const dir = `/workspace/t/${LONG}`;
    await workspace.fs.mkdir(dir, { recursive: true });
    await workspace.fs.writeFile(`${dir}/a.txt`, "TODO 1\nTODO 2\nTODO 3\n");
    await workspace.fs.writeFile("/workspace/t/e.bin", new Uint8Array([0x54, 0, 0x4f, 0x44, 0x4f]));
    await workspace.fs.writeFile("/workspace/t/f.txt", "x\nTODO f\n");
    let calls = 0;
    const grep = workspace.fs.grep.bind(workspace.fs);
    workspace.fs.grep = (...args: Parameters<typeof grep>) => (calls++, grep(...args));
    const tools = Object.fromEntries(buildCoreTools({ workspace }).map((t) => [t.name, t as unknown as Tool]));
    return { tools, a: cut(`${dir}/a.txt`), calls: () => calls };
  }

  it("one page: the three cut matches, the binary file counted once, the last match — in two fs.grep calls", async () => {
    const { tools, a, calls } = await tree();
    const out = await tools.grep!.execute({ path: "/workspace/t", query: "TODO" });
    expect(out).toEqual({
      path: "/workspace/t",
      query: "TODO",
      count: 4,
      matches: [
        { path: a, line: 1, text: "TODO 1", pathClipped: true },
        { path: a, line: 2, text: "TODO 2", pathClipped: true },
        { path: a, line: 3, text: "TODO 3", pathClipped: true },
        { path: "/workspace/t/f.txt", line: 2, text: "TODO f" },
      ],
      binarySkipped: 1,
      note: expect.stringMatching(/^1 file that looks binary .* was skipped\. Paths longer than 4096 characters were cut to their first 4096, .*\(pathClipped: true\)/),
    });
    // The first answer stops after the second match (2 × 200,000+ characters of path); one follow-up finishes.
    expect(calls()).toBe(2);
  });

  it("pages with limit 2 return every match once and count the binary file once", async () => {
    const { tools, a } = await tree();
    const one = await tools.grep!.execute({ path: "/workspace/t", query: "TODO", limit: 2 });
    const two = await tools.grep!.execute({ path: "/workspace/t", query: "TODO", limit: 2, offset: 2 });
    expect([one.matches, one.nextOffset, one.binarySkipped]).toEqual([
      [
        { path: a, line: 1, text: "TODO 1", pathClipped: true },
        { path: a, line: 2, text: "TODO 2", pathClipped: true },
      ],
      2,
      undefined,
    ]);
    expect([two.matches, two.nextOffset, two.binarySkipped]).toEqual([
      [
        { path: a, line: 3, text: "TODO 3", pathClipped: true },
        { path: "/workspace/t/f.txt", line: 2, text: "TODO f" },
      ],
      undefined,
      1,
    ]);
  });

  it("context lines come with each cut-path match", async () => {
    const { tools, a } = await tree();
    const out = await tools.grep!.execute({ path: "/workspace/t", query: "TODO 2", context: 1 });
    expect(out.matches).toEqual([
      {
        path: a,
        line: 2,
        text: "TODO 2",
        pathClipped: true,
        context: [
          { line: 1, text: "TODO 1", isMatch: false },
          { line: 2, text: "TODO 2", isMatch: true },
          { line: 3, text: "TODO 3", isMatch: false },
        ],
      },
    ]);
    expect(out.nextOffset).toBeUndefined();
  });
});

describe("exec echoes its arguments cut", () => {
  const ws = (...backends: ScriptBackend[]) => new Workspace({ storage: nodeSqliteStorage(":memory:"), backends });
  async function all(gen: AsyncGenerator<ExecToolOutput>): Promise<ExecToolOutput[]> {
    const out: ExecToolOutput[] = [];
    for await (const s of gen) out.push(s);
    return out;
  }

  it("command and cwd past 4,096 characters are cut in running and settled snapshots; the whole command runs", async () => {
    const workspace = ws(new ScriptBackend({ id: "js" }));
    await workspace.fs.mkdir("/workspace", { recursive: true });
    let t = 0;
    const exec = defineExec({ workspace, now: () => (t += 100) });
    const command = `out a\\n\n# ${"x".repeat(10_000)}\nout b\\n`;
    const cwd = "/workspace" + "/x/..".repeat(1_000);
    const out = await all(exec.execute({ command, cwd }));
    const call = { command: cut(command), cwd: cut(cwd), backend: "js" };
    expect(out).toEqual([
      { ...call, exitCode: null, stdout: "a\n", stderr: "" },
      { ...call, exitCode: null, stdout: "a\nb\n", stderr: "" },
      { ...call, exitCode: 0, stdout: "a\nb\n", stderr: "" },
    ]);
  });

  it("a refused call's snapshot echoes a long backend cut", async () => {
    const exec = defineExec({ workspace: ws(new ScriptBackend({ id: "js" }), new ScriptBackend({ id: "sh", callable: false })) });
    const backend = "b".repeat(10_000);
    const [only, ...rest] = await all(exec.execute({ command: "out a", backend } as never));
    expect(rest).toEqual([]);
    expect({ ...only, error: undefined }).toEqual({ command: "out a", cwd: null, backend: cut(backend), error: undefined });
    expect((only as { error: string }).error).toMatch(/^Invalid arguments for exec: backend: /);
  });

  it("the progress budget counts stdout and stderr only", () => {
    expect(snapshotChars({ command: "c".repeat(700_000), cwd: "/w", backend: "js", exitCode: null, stdout: "ab", stderr: "c" })).toBe(3);
    expect(snapshotChars({ command: "c", cwd: null, backend: "js", error: "e".repeat(50) })).toBe(0);
  });
});
