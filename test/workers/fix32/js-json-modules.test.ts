/**
 * Issue 20, run 32, fixer JB: the JavaScript backend imports a `.json` Workspace file as Node's ESM loader does
 * (`import d from "./d.json" with { type: "json" }`, `import("./d.json", { with: { type: "json" } })`, a re-export):
 * its value as the default export, a byte order mark dropped. It was refused with acorn's bare `Unexpected token
 * (1:4)` (the JSON parsed as JavaScript), and the Worker Loader refuses any import attribute ("Unrecognized import
 * attributes specified"), so graph.ts drops them after checking them as Node does. Expected messages are Node 22's
 * on the same files (with the Workspace path where Node prints a file: URL).
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";
it("JSON modules load with type json; the attribute is checked as Node's", async () => {
  const v = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/d.json", '\uFEFF{"a":[1,"é"],"__proto__":{"x":1}}');
    await ws.fs.writeFile("/workspace/bad.json", '{"a":');
    await ws.fs.writeFile("/workspace/m.js", 'export default 5;');
    const out = [];
    for (const src of [`import d from "./d.json" with { type: "json" }; export default () => [d, Object.getPrototypeOf(d) === Object.prototype]`,
      `import d from "./d.json"; export default () => d`,
      `export default async () => (await import("./d.json", { with: { type: "json" } })).default`,
      `export { default } from "./d.json" with { type: "json" }`,
      `import d from "./bad.json" with { type: "json" }; export default () => d`,
      `import d from "./m.js" with { type: "json" }; export default () => d`,
      `import d from "./m.js" with { type: "css" }; export default () => d`,
      `import d from "./m.js" with { }; export default () => d`,
    ]) {
      try {
        const r = await (await ws.runtime.exec(src)).result();
        out.push([r.exitCode, r.value, new TextDecoder().decode(r.stderr)]);
      } catch (e) { out.push([(e as any).name, (e as any).code, (e as Error).message]); }
    }
    return out;
  });
  const value: Record<string, unknown> = { a: [1, "é"] };
  Object.defineProperty(value, "__proto__", { value: { x: 1 }, enumerable: true, configurable: true, writable: true });
  expect(v).toEqual([
    [0, [value, true], ""],
    ["TypeError", "ERR_IMPORT_ATTRIBUTE_MISSING", 'Module "/workspace/d.json" needs an import attribute of "type: json" (import "./d.json" with { type: "json" })'],
    [0, value, ""],
    [0, value, ""],
    ["SyntaxError", undefined, "/workspace/bad.json: Unexpected end of JSON input"], // Was: acorn's "Unexpected token" text
    ["TypeError", "ERR_IMPORT_ATTRIBUTE_TYPE_INCOMPATIBLE", 'Module "/workspace/m.js" is not of type "json"'],
    ["TypeError", "ERR_IMPORT_ATTRIBUTE_UNSUPPORTED", 'Import attribute "type" with value "css" is not supported (importing "./m.js")'],
    [0, 5, ""],
  ]);

}, 60_000);
