/**
 * Issue 20, scout after the eighteenth attack run: pi content "named, never
 * thrown on" (0bb185a) still throws on a part whose type or mimeType cannot
 * be turned into a string.
 *
 * Tried: a ws:tools binding over forPiTools whose tool ran and answered
 * content parts `{ type: Object.create(null) }` and
 * `{ type: "image", mimeType: Object.create(null) }` (a value String()
 * cannot convert: no toString/valueOf), called from a JavaScript run.
 *
 * Found (low — a tool's own odd answer, but exactly the class 0bb185a set
 * out to absorb): piResult names parts with `String(type)` /
 * `String(mimeType)`, which throws `TypeError: Cannot convert object to
 * primitive value`; the call rejects after the tool ran (its effects stand,
 * the run sees a thrown call), where the other odd parts (null, 7, a
 * non-string text) become `[object]`, `[number]`, "".
 *
 * Fixed: piResult names a type/mimeType that is not a string by its typeof (src/modules/tools.ts).
 * Suggested fix: name a part's type/mimeType only when it is a string
 * (`typeof type === "string" ? type : typeof type`), as the part itself is
 * named by typeof; never call String() on a tool's value.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerJavaScriptBackend } from "../../../src/backends/worker-javascript/index.js";
import { createToolBindings, forPiTools } from "../../../src/modules/tools.js";

it("parts whose type or mimeType has no string form are named, and the call resolves", async () => {
  const ran: string[] = [];
  const piTools = [
    { name: "odd", execute: async () => (ran.push("odd"), { content: [{ type: Object.create(null) }, { type: "text", text: "ok" }] }) as never },
    { name: "img", execute: async () => (ran.push("img"), { content: [{ type: "image", mimeType: Object.create(null) }] }) as never },
  ];
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const r = await runInDurableObject(stub, async (_i, state) => {
    const backend = new WorkerJavaScriptBackend({ loader: env.LOADER, modules: { "ws:tools": createToolBindings(forPiTools(piTools)) } });
    const ws = new Workspace({ storage: state.storage, backends: [backend] });
    await ws.fs.mkdir("/workspace", { recursive: true });
    const source = `import * as t from "ws:tools";
      export default async () => {
        const out = {};
        for (const name of ["odd", "img"]) out[name] = await t[name]({}).catch((e) => "threw: " + e.message);
        return out;
      }`;
    const result = await (await ws.runtime.exec(source, { encoding: "utf8" })).result();
    await ws.close();
    return result;
  });
  expect(ran).toEqual(["odd", "img"]);
  // Probe (this checkout): both "threw: Cannot convert object to primitive value".
  expect(r.value).toEqual({
    odd: { text: "[object]\nok", isError: false, details: null },
    img: { text: "[image: object]", isError: false, details: null },
  });
}, 60_000);
