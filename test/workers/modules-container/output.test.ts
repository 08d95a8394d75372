/**
 * `ws:container` long output in real workerd (spec 02 §2, §4.3): each stream
 * keeps its last lines within `maxOutputBytes`; the runtime saves the whole
 * stream to a Workspace file named by `truncated.<stream>.path`. With
 * Workspace `output: false` the module tails over-limit streams itself, with
 * a `[truncated, …]` first line and no `truncated`. Cuts never split a
 * UTF-8 character.
 */
import { describe, expect, it } from "vitest";
import type { ContainerModuleOptions } from "../../../src/modules/container.js";
import { SYNC_COMPLETE, attempts, inContainerWorkspace, runJs, seqText, valueOf } from "./helpers.js";

const FILE = /^\/\.computer\/output\/container-shell\.[^/.]+\.(stdout|stderr)\.log$/;
const E_ACUTE = "é".repeat(100); // 200 bytes, one line without a newline

type Ok = { ok: { exitCode: number; stdout: string; stderr: string; truncated?: Record<string, { path: string }>; sync: unknown } };

/** Runs each command through ws:container (Workspace output limits on, unless `outputOff`); results plus each saved file's text. */
async function commands(calls: string[], module: ContainerModuleOptions = {}, outputOff = false) {
  return inContainerWorkspace(
    async (ws) => {
      await ws.fs.writeFile("/workspace/e.txt", E_ACUTE);
      const value = valueOf(await runJs(ws, attempts(calls))) as Ok[];
      const files: Record<string, string> = {};
      for (const v of value) {
        for (const t of Object.values(v.ok.truncated ?? {})) files[t.path] = await ws.fs.readFile(t.path, "utf8");
      }
      return { value: value.map((v) => v.ok), files };
    },
    { module, ...(outputOff ? { workspace: { output: false as const } } : {}) },
  );
}

describe("ws:container long output (Workspace output limits on)", () => {
  it("default limits: the last 2000 lines are kept and truncated.stdout.path names a Workspace file holding the whole output", async () => {
    const { value, files } = await commands([`"seq 1 3000"`, `"seq 1 3000 >&2; echo out"`, `"seq 1 2000"`]);
    const whole = seqText(1, 3000);
    const [out, err, within] = value;
    expect(out!.stdout).toBe(seqText(1001, 3000));
    expect(out!.stderr).toBe("");
    expect(out!.truncated).toEqual({
      stdout: { status: "saved", path: expect.stringMatching(FILE), totalBytes: whole.length, totalLines: 3000, firstLine: 1001, partialLine: false },
    });
    expect(files[out!.truncated!.stdout!.path]).toBe(whole);
    expect(out!.sync).toEqual(SYNC_COMPLETE);

    expect([err!.stdout, err!.stderr]).toEqual(["out\n", seqText(1001, 3000)]);
    expect(Object.keys(err!.truncated!)).toEqual(["stderr"]);
    expect(err!.truncated!.stderr!.path).toMatch(/\.stderr\.log$/);
    expect(files[err!.truncated!.stderr!.path]).toBe(whole);

    expect(within).toEqual({ exitCode: 0, stdout: seqText(1, 2000), stderr: "", sync: SYNC_COMPLETE });
  });

  it("maxOutputBytes and maxOutputLines set the kept tail; a line longer than maxOutputBytes keeps its end on a UTF-8 boundary", async () => {
    const bytes = await commands([`"seq 1 1000"`, `"cat /workspace/e.txt"`], { maxOutputBytes: 1000 });
    expect(bytes.value[0]!.stdout).toBe(seqText(752, 1000));
    expect(bytes.value[0]!.truncated!.stdout).toMatchObject({ status: "saved", firstLine: 752, totalLines: 1000, partialLine: false });
    expect(bytes.files[bytes.value[0]!.truncated!.stdout!.path]).toBe(seqText(1, 1000));

    const lines = await commands([`"seq 1 100"`], { maxOutputLines: 10 });
    expect(lines.value[0]!.stdout).toBe(seqText(91, 100));
    expect(lines.value[0]!.truncated!.stdout).toMatchObject({ firstLine: 91, totalLines: 100 });

    // 51 bytes would end inside an "é" (2 bytes): 50 bytes, 25 whole characters, are kept.
    const utf8 = await commands([`"cat /workspace/e.txt"`], { maxOutputBytes: 51 });
    expect(utf8.value[0]!.stdout).toBe("é".repeat(25));
    expect(utf8.value[0]!.truncated!.stdout).toMatchObject({ status: "saved", totalBytes: 200, totalLines: 1, firstLine: 1, partialLine: true });
    expect(utf8.files[utf8.value[0]!.truncated!.stdout!.path]).toBe(E_ACUTE);
  });
});

describe("ws:container with Workspace output: false", () => {
  it("tails over-limit streams itself with [truncated, showing lines A-B of N], no truncated key; within limits unchanged", async () => {
    const { value, files } = await commands([`"seq 1 2500"`, `"echo small; echo e >&2"`], {}, true);
    expect(value[0]).toEqual({
      exitCode: 0,
      stdout: `[truncated, showing lines 501-2500 of 2500]\n${seqText(501, 2500)}`,
      stderr: "",
      sync: SYNC_COMPLETE,
    });
    expect(value[1]).toEqual({ exitCode: 0, stdout: "small\n", stderr: "e\n", sync: SYNC_COMPLETE });
    expect(files).toEqual({});
  });

  it("maxOutputLines, maxOutputBytes, both streams, and [truncated, showing the last K bytes of line L] cut on a UTF-8 boundary", async () => {
    const lines = await commands([`"seq 1 10; seq 1 12 >&2; exit 2"`], { maxOutputLines: 5 }, true);
    expect(lines.value[0]).toEqual({
      exitCode: 2,
      stdout: `[truncated, showing lines 6-10 of 10]\n${seqText(6, 10)}`,
      stderr: `[truncated, showing lines 8-12 of 12]\n${seqText(8, 12)}`,
      sync: SYNC_COMPLETE,
    });
    const bytes = await commands([`"seq 1 1000"`, `"cat /workspace/e.txt; echo; cat /workspace/e.txt"`], { maxOutputBytes: 51 }, true);
    expect(bytes.value[0]!.stdout).toBe(`[truncated, showing lines 989-1000 of 1000]\n${seqText(989, 1000)}`);
    expect(bytes.value[1]!.stdout).toBe(`[truncated, showing the last 50 bytes of line 2]\n${"é".repeat(25)}`);
    expect(bytes.value[1]!.truncated).toBeUndefined();
  });
});
