/**
 * Fixer TA2, issue 20 run 21 (sibling of attack21a exec-tool-result-past-output-bound): the exec tool holds a
 * callable backend's return value to its `maxBytes` on both of its paths — the streamed snapshots (a handle
 * with `getReader`) and the settled one (a handle with only `result()`, as some clients give) — against a
 * real Workspace runtime (the script backend), with a small `maxBytes` so the values are exact.
 */
import { expect, it } from "vitest";
import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";
import { defineExec, type ExecToolOutput } from "../../../src/tools/core.js";
import { ScriptBackend } from "../runtime/script-backend.js";

async function last(gen: AsyncGenerator<ExecToolOutput>): Promise<ExecToolOutput> {
  let out: ExecToolOutput | undefined;
  for await (const s of gen) out = s;
  return out!;
}

const NOTE = "The full value was not saved: return less, or write it to a file and return the path.]";

for (const path of ["streamed", "settled"] as const) {
  it(`${path}: a result past maxBytes is its start and a note; one within it is itself`, async () => {
    const ws = new Workspace({ storage: nodeSqliteStorage(":memory:"), backends: [new ScriptBackend({ id: "js" })] });
    const runtime =
      path === "streamed"
        ? ws.runtime
        : {
            backends: () => ws.runtime.backends(),
            exec: async (source: string, options?: Record<string, unknown>) => {
              const handle = await ws.runtime.exec(source, options as never);
              return { result: () => handle.result(), kill: (signal?: string) => handle.kill(signal as never) };
            },
          };
    const exec = defineExec({ workspace: { runtime } as never, maxBytes: 100 });
    const result = async (value: unknown) => {
      const out = await last(exec.execute({ command: `result ${JSON.stringify(value)}` }));
      return (out as { result?: unknown }).result;
    };
    try {
      expect(await result("y".repeat(98))).toBe("y".repeat(98));
      expect(await result("y".repeat(99))).toBe(
        `${"y".repeat(98)}\n\n[Result cut: the return value is a string of 99 characters (101B of JSON, over the 100B limit); showing its first 98 characters. ${NOTE}`,
      );
      // Each `"` costs two bytes once the cut text is written as JSON: the start kept stays within 100 bytes.
      const json = JSON.stringify(Array.from({ length: 40 }, () => "ab"));
      const kept = json.slice(0, 70); // 70 characters, 28 of them `"`: 100 bytes as JSON; 71 would be 101
      expect([JSON.stringify(kept).length, JSON.stringify(json.slice(0, 71)).length]).toEqual([100, 101]);
      expect(await result(Array.from({ length: 40 }, () => "ab"))).toBe(
        `${kept}\n\n[Result cut: the return value is an array whose JSON has 201 characters (201B of JSON, over the 100B limit); showing its first 70 characters of JSON. ${NOTE}`,
      );
      // Code points are never split: 33 emoji are 132 bytes; the start kept is whole emoji.
      const emoji = (await result("😀".repeat(33))) as string;
      expect(emoji.slice(0, emoji.indexOf("\n\n["))).toBe("😀".repeat(24));
      expect(await result({ n: 1 })).toEqual({ n: 1 });
    } finally {
      await ws.close();
    }
  });
}
