/**
 * A lone UTF-16 surrogate in a name (issue 20, third attack run): Durable
 * Object SQLite stored it so that it listed as three U+FFFD and opened only
 * by its original spelling — a name readdir returned could not be opened.
 * Paths are now made well-formed first (U+FFFD, as Node's fs), so the name
 * listed is the name that opens, as on node:sqlite.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";

it("a name with a lone surrogate is stored as U+FFFD: both spellings open it, and the listed name opens it", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage });
    await ws.fs.mkdir("/d");
    await ws.fs.writeFile("/d/x\ud800y", "lone");
    const listed = (await ws.fs.readdir("/d")).map((e) => e.name);
    const viaListed = await ws.fs.readFile(`/d/${listed[0]}`, "utf8");
    const viaOriginal = await ws.fs.readFile("/d/x\ud800y", "utf8");
    const viaReplacement = await ws.fs.readFile("/d/x\ufffdy", "utf8");
    const found = (await ws.fs.find("/d", "*")).map((e) => e.path);
    await ws.fs.rm(`/d/${listed[0]}`);
    const after = (await ws.fs.readdir("/d")).length;
    return { listed, viaListed, viaOriginal, viaReplacement, found, after };
  });
  expect(out).toEqual({
    listed: ["x\ufffdy"],
    viaListed: "lone",
    viaOriginal: "lone",
    viaReplacement: "lone",
    found: ["/d/x\ufffdy"],
    after: 0,
  });
});
