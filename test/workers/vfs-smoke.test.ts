import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../src/index.js";

it("VFS on Durable Object SQLite: round trip, recursive rm, durability", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  await runInDurableObject(stub, async (_instance, state) => {
    const fs = new Workspace({ storage: state.storage }).fs;
    await fs.mkdir("/w/src", { recursive: true });
    for (let i = 0; i < 20; i++) await fs.writeFile(`/w/src/f${i}.ts`, `export const v = ${i};\n`);
    await fs.writeFile("/w/big.bin", new Uint8Array(600_000).fill(7));
    expect((await fs.grep("v = 1", "/w")).map((m) => m.path)).toEqual([
      "/w/src/f1.ts", "/w/src/f10.ts", "/w/src/f11.ts", "/w/src/f12.ts", "/w/src/f13.ts",
      "/w/src/f14.ts", "/w/src/f15.ts", "/w/src/f16.ts", "/w/src/f17.ts", "/w/src/f18.ts", "/w/src/f19.ts",
    ]);
    await fs.rm("/w/src", { recursive: true });
    expect(await fs.ls("/w")).toEqual(["/w/big.bin"]);
    const n = [...state.storage.sql.exec("SELECT count(*) AS n FROM __ws_chunks")][0].n;
    expect(n).toBe(2);
  });
  await runInDurableObject(stub, async (_instance, state) => {
    const fs = new Workspace({ storage: state.storage }).fs;
    expect((await fs.stat("/w/big.bin")).size).toBe(600_000);
    expect((await fs.stat("/w/big.bin")).inode).toBeGreaterThan(1);
  });
});
