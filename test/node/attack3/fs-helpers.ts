/** Helpers shared by the Node attack3 fs tests (fs-hostile, storage-close). */
import { expect } from "vitest";
import type { Workspace } from "../../../src/workspace.js";

/** Twenty trees `/t0` … `/t19`, each holding `s/f`: 600,000 bytes of its number. */
export async function writeTwentyTrees(ws: Workspace): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await ws.fs.mkdir(`/t${i}/s`, { recursive: true });
    await ws.fs.writeFile(`/t${i}/s/f`, new Uint8Array(600_000).fill(i));
  }
}

/** Every file `find` still reaches reads back whole: as many bytes as its size. */
export async function expectFilesReadWhole(ws: Workspace): Promise<void> {
  for (const e of await ws.fs.find("/", "**")) {
    const s = await ws.fs.stat(e.path);
    if (!s.isFile) continue;
    const b = new Uint8Array(await new Response(await ws.fs.readFile(e.path)).arrayBuffer());
    expect(b.byteLength, e.path).toBe(s.size);
  }
}
