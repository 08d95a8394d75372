/**
 * The JavaScript backend's TypeScript Workspace modules (issue 19, used by
 * tool directories): `.ts` files have their types stripped (sucrase) and
 * `./x.js` finds `./x.ts` when no `x.js` exists; a `.js` file that exists
 * wins; a type error in syntax is a SyntaxError naming the file.
 */
import { describe, expect, it } from "vitest";
import { inToolWorkspace } from "./helpers.js";

describe("worker-javascript: TypeScript Workspace modules", () => {
  it("strips types from imported .ts files and resolves ./x.js to ./x.ts", async () => {
    const out = await inToolWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace/ts", { recursive: true });
      await ws.fs.writeFile("/workspace/ts/shape.ts", `export interface Box<T> { v: T }\nexport enum Kind { A = 1, B }\nexport const wrap = <T,>(v: T): Box<T> => ({ v });\n`);
      await ws.fs.writeFile("/workspace/ts/use.ts", `import { wrap, Kind, type Box } from "./shape.js";\nexport const both = (n: number): Box<number>[] => [wrap(n), wrap(Kind.B as number)];\n`);
      await ws.fs.writeFile("/workspace/ts/plain.js", `export const which = "js";\n`);
      await ws.fs.writeFile("/workspace/ts/plain.ts", `export const which: string = "ts";\n`);
      const h = await ws.runtime.exec(
        `import { both } from "./ts/use.ts"; import { which } from "./ts/plain.js";\nexport default async function () { return { both: both(1), which }; }`,
        { encoding: "utf8" },
      );
      const ok = await h.result();
      await ws.fs.writeFile("/workspace/ts/bad.ts", `export const x: = 1;\n`);
      const bad = await ws.runtime.exec(`import { x } from "./ts/bad.js"; export default () => x;`).then(
        () => "started",
        (err: Error) => `${err.name}: ${err.message}`,
      );
      return { ok: [ok.exitCode, ok.value], bad };
    });
    expect(out.ok).toEqual([0, { both: [{ v: 1 }, { v: 2 }], which: "js" }]);
    expect(out.bad).toMatch(/^SyntaxError: \/workspace\/ts\/bad\.ts: /);
  });
});
