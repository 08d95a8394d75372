import { describe, expect, it } from "vitest";
import { collect, inWorkspace } from "./helpers.js";

describe("WorkerJavaScriptBackend: modules", () => {
  it("round-trips input to value, with stdout/stderr", async () => {
    const r = await inWorkspace(async (ws) => {
      const h = await ws.runtime.exec(
        `export default async function (input) { console.log("hello", input.n); console.error("warn"); return { doubled: input.n * 2, list: [1, "a", null], skip: undefined }; }`,
        { input: { n: 21 }, encoding: "utf8" },
      );
      return h.result();
    });
    expect(r).toMatchObject({ status: "completed", exitCode: 0, stdout: "hello 21\n", stderr: "warn\n", value: { doubled: 42, list: [1, "a", null] } });
  });

  it("streams live events with seq from 1 and the exit last", async () => {
    const events = await inWorkspace(async (ws) => {
      const h = await ws.runtime.exec(
        `export default async function () { console.log("a"); await new Promise((r) => setTimeout(r, 20)); console.log("b"); return 7; }`,
        { encoding: "utf8" },
      );
      return collect(h);
    });
    expect(events.map((e) => [e.seq, e.name, e.name === "exit" ? e.code : e.value])).toEqual([
      [1, "stdout", "a\n"],
      [2, "stdout", "b\n"],
      [3, "exit", 0],
    ]);
    expect(events[2]).toMatchObject({ result: 7 });
  });

  it("imports durable relative modules from cwd, a configured module, and a literal dynamic import", async () => {
    const r = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace/app/lib", { recursive: true });
        await ws.fs.writeFile("/workspace/app/lib/math.js", `import { twice } from "./twice.js"; export const quad = (x) => twice(twice(x));`);
        await ws.fs.writeFile("/workspace/app/lib/twice.js", `export const twice = (x) => x * 2;`);
        await ws.fs.writeFile("/workspace/app/main.js", `import { quad } from "./lib/math.js"; import { shout } from "shout"; export default async (input) => shout(String(quad(input)));`);
        const h = await ws.runtime.exec(
          `export { default } from "./main.js"; const lazy = () => import("./lib/twice.js");`,
          { cwd: "/workspace/app", input: 3, encoding: "utf8" },
        );
        return h.result();
      },
      { backend: { modules: { shout: `import { helper } from "./helper"; export const shout = (s) => helper(s) + "!";`, helper: `export const helper = (s) => s.toUpperCase();` } } },
    );
    expect(r.value).toBe("12!");
  });

  it("node:fs writes are visible to workspace.fs afterwards, and reads see Workspace files", async () => {
    const out = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/in.txt", "from host");
      const h = await ws.runtime.exec(
        `import { readFile, writeFile, mkdir, readdir, stat } from "node:fs/promises";
         import fs from "node:fs";
         export default async function () {
           const text = await readFile("in.txt", "utf8");
           await mkdir("out/deep", { recursive: true });
           await writeFile("out/deep/result.txt", text.toUpperCase());
           await fs.promises.writeFile("/workspace/bytes.bin", new Uint8Array([1, 2, 3]));
           const bytes = await readFile("/workspace/bytes.bin");
           const st = await stat("out/deep/result.txt");
           return { text, names: await readdir("."), isFile: st.isFile(), size: st.size, bytes: Array.from(bytes), isBytes: bytes instanceof Uint8Array };
         }`,
      );
      const result = await h.result();
      return { value: result.value, stderr: new TextDecoder().decode(result.stderr), file: await ws.fs.readFile("/workspace/out/deep/result.txt", "utf8") };
    });
    expect(out.stderr).toBe("");
    expect(out.value).toEqual({ text: "from host", names: ["bytes.bin", "in.txt", "out"], isFile: true, size: 9, bytes: [1, 2, 3], isBytes: true });
    expect(out.file).toBe("FROM HOST");
  });

  it("rejects an unknown import before any run exists", async () => {
    await inWorkspace(async (ws) => {
      await expect(ws.runtime.exec(`import x from "left-pad"; export default () => x;`, { id: "u" })).rejects.toThrow(
        'Module "left-pad" is not configured for the worker-javascript backend',
      );
      await expect(ws.runtime.exec(`import { f } from "ws:nope"; export default () => f();`)).rejects.toThrow("Add it to the backend's modules option");
      await expect(ws.runtime.getExec("u")).rejects.toMatchObject({ code: "ENOENT" });
      await expect(ws.runtime.exec(`export default 1; const m = "x"; import(m);`)).rejects.toThrow("dynamic imports must use a string literal");
      await expect(ws.runtime.exec(`export const a = 1; export function b() {}`)).rejects.toThrow(/nothing to run.*`a`, `b`/);
      await expect(ws.runtime.exec(`export default (`)).rejects.toThrow("Unexpected token (1:16)");
    });
  });

  it("refuses ws: shadowing: reserved paths in imports and source strings under ws:", async () => {
    await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/ws:tools", "export const x = 1;");
      await expect(ws.runtime.exec(`import { x } from "./ws:tools"; export default () => x;`)).rejects.toThrow("reserved for Workspace internals");
      await ws.fs.writeFile("/workspace/__workspace_entry__.js", "export default 1;");
      await expect(ws.runtime.exec(`export { default } from "./__workspace_entry__.js";`)).rejects.toThrow("reserved for Workspace internals");
    });
    const { jsBackend } = await import("./helpers.js");
    expect(() => jsBackend({ modules: { "ws:tools": "export const x = 1;" } })).toThrow(/ws: namespace is for host modules/);
    expect(() => jsBackend({ modules: { "node:fs": "export const x = 1;" } })).toThrow(/built in and cannot be replaced/);
  });
});
