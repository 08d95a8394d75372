/**
 * Issue 20 fourth attack run, category 5: a real `ctx.abort()` of a
 * Durable Object with a shell backend (`ShellAgent`, docs/runtime.md "The
 * shell") while a shell command is appending lines in a loop, writing
 * numbered files and copying a 6 MiB file. After the restart: every append
 * is a whole line (never half a line), every numbered file is whole (the
 * last may be empty: a redirect truncates before it writes, as bash), the
 * copy is whole or absent, storage is sound (no orphan chunk, refs exact,
 * no lease left by the stopped command's writes outliving it), and the shell
 * works on the restarted object.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { getWorkspace } from "../../../src/index.js";
import { abortObject } from "../attack2/abort-helpers.js";
import { integrityProblems } from "../../shared/attack3/integrity.js";

const shellAgent = () => {
  const id = env.SHELL_AGENT.newUniqueId();
  return { stub: env.SHELL_AGENT.get(id), fresh: () => env.SHELL_AGENT.get(id) };
};
const LINE = (i: number) => `line ${String(i).padStart(6, "0")} ${"x".repeat(200)}\n`;

describe("attack4: ctx.abort() mid shell command", () => {
  it("appends, numbered files and a 6 MiB cp under way: lines whole, files whole or absent, storage sound", async () => {
    const { stub, fresh } = shellAgent();
    const big = new Uint8Array(6 * 1024 * 1024).map((_, i) => (i * 31) & 0xff);
    {
      using ws = await getWorkspace(stub);
      await ws.fs.mkdir("/workspace/out", { recursive: true });
      await ws.fs.writeFile("/workspace/big.bin", big);
      const pad = "x".repeat(200);
      using loop = await ws.runtime.exec(
        `i=0; while [ $i -lt 5000 ]; do printf 'line %06d ${pad}\\n' $i >> /workspace/log.txt; printf '%s' "$i-$i-$i" > /workspace/out/f$i; i=$((i+1)); done`,
        { backend: "worker-shell", id: "loop", timeoutMs: 4000 },
      );
      using copy = await ws.runtime.exec(`for i in 1 2 3 4 5 6 7 8; do cp /workspace/big.bin /workspace/copy.bin; done`, { backend: "worker-shell", id: "copy", timeoutMs: 4000 });
      void loop;
      void copy;
      await new Promise((r) => setTimeout(r, 1500));
      expect(await abortObject(stub, "attack4: simulated crash")).toMatch(/^aborted/);
    }
    using ws = await getWorkspace(fresh());
    const log = await ws.fs.readFile("/workspace/log.txt", "utf8");
    const lines = log.split("\n");
    expect(lines.pop()).toBe(""); // ends with a newline: no half line
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.map((l) => `${l}\n`)).toEqual(lines.map((_, i) => LINE(i)));
    const names = (await ws.fs.readdir("/workspace/out")).map((e) => Number(e.name.slice(1))).sort((a, b) => a - b);
    expect(names).toEqual(names.map((_, i) => i));
    // A redirect truncates (creates) its file before it writes, as bash's open(O_TRUNC) does: only the
    // last file, the one the crash came between those two steps of, may be empty; none holds part of its text.
    for (const i of names) {
      const text = await ws.fs.readFile(`/workspace/out/f${i}`, "utf8");
      if (i === names.at(-1) && text === "") continue;
      expect(text, `f${i}`).toBe(`${i}-${i}-${i}`);
    }
    const copy = await ws.fs.readFile("/workspace/copy.bin").then(
      async (s) => new Uint8Array(await new Response(s).arrayBuffer()),
      () => undefined,
    );
    if (copy !== undefined) expect(copy.byteLength === big.byteLength && copy.every((b, i) => b === big[i])).toBe(true);
    const problems = await runInDurableObject(fresh(), (_i, state) => integrityProblems(state.storage.sql));
    expect(problems).toEqual([]);
    const r = await (await ws.runtime.exec("wc -l < /workspace/log.txt; echo ok > /workspace/after.txt; cat /workspace/after.txt", { backend: "worker-shell", encoding: "utf8" })).result();
    expect(r).toMatchObject({ exitCode: 0, stdout: `${lines.length}\nok\n` });
  }, 20_000);
});
