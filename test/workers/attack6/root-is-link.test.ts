/**
 * Issue 20 sixth attack run, category 1 (sandbox escapes): the JavaScript
 * backend's ROOT itself is a symbolic link — to `/`, or to a directory
 * inside /workspace — made before the run (by the host, the shell or a tool,
 * none of which are confined to the backend's root), and a root swapped for
 * a link to `/` while a run is in flight. Runs 2–5 tried links inside root;
 * not root itself. Withstood: a run whose root is a link does not start
 * (the exec rejects; the message, `EEXIST … mkdir: <root>`, is the backend
 * trying to create its root — accurate but not the clearest wording), a
 * static import through it is refused, and a run in flight when its root
 * is swapped reads nothing through the link and writes nothing outside.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

type Ws = Parameters<Parameters<typeof inWorkspace>[0]>[0];
async function run(ws: Ws, source: string) {
  try {
    const r = await (await ws.runtime.exec(source, { encoding: "utf8" })).result();
    return { exit: r.exitCode, value: r.value, stderr: r.stderr as string };
  } catch (e) {
    return { rejected: (e as Error).message };
  }
}
const ATTEMPT = `const attempt = async (fn) => { try { const v = await fn(); return v === undefined ? "ok" : v; } catch (e) { return "ERR " + (e && e.code) + " " + (e && e.message); } };`;
const READ_ALL = `import * as fs from "node:fs/promises"; ${ATTEMPT}`;

describe("attack6: the backend's root is a link", () => {
  it("a root that links to / or into /workspace: the run does not start; an import through it is refused", async () => {
    const toSlash = await inWorkspace(
      async (ws) => {
        await ws.fs.writeFile("/secret.txt", "SECRET");
        await ws.fs.mkdir("/workspace", { recursive: true });
        await ws.fs.symlink("/", "/workspace/proj");
        return {
          fs: await run(ws, `${READ_ALL} export default async () => [await attempt(() => fs.readFile("secret.txt", "utf8")), await attempt(() => fs.writeFile("pwn.txt", "x"))];`),
          imp: await run(ws, `import s from "./secret.txt"; export default () => s;`),
          pwn: await ws.fs.stat("/pwn.txt").then(() => "exists", (e: { code: string }) => e.code),
        };
      },
      { backend: { root: "/workspace/proj" } },
    );
    expect(toSlash).toEqual({
      fs: { rejected: "EEXIST: file already exists, mkdir: /workspace/proj" },
      imp: { rejected: "cannot traverse symbolic link: /workspace/proj" },
      pwn: "ENOENT",
    });
    const inside = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir("/workspace/real", { recursive: true });
        await ws.fs.symlink("/workspace/real", "/workspace/p2");
        return {
          r: await run(ws, `${READ_ALL} export default async () => [await attempt(() => fs.writeFile("a.txt", "x"))];`),
          real: (await ws.fs.readdir("/workspace/real")).map((e) => e.name),
        };
      },
      { backend: { root: "/workspace/p2" } },
    );
    expect(inside).toEqual({ r: { rejected: "EEXIST: file already exists, mkdir: /workspace/p2" }, real: [] });
  });

  it("root swapped for a link to / while a run is in flight: nothing read through it, nothing written outside", async () => {
    const r = await inWorkspace(
      async (ws) => {
        await ws.fs.writeFile("/secret.txt", "SECRET");
        await ws.fs.mkdir("/workspace/proj", { recursive: true });
        await ws.fs.writeFile("/workspace/proj/own.txt", "own");
        const handle = await ws.runtime.exec(
          `${READ_ALL} export default async () => {
             const before = await attempt(() => fs.readFile("own.txt", "utf8"));
             await new Promise((r) => setTimeout(r, 1500));
             return [before, await attempt(() => fs.readFile("secret.txt", "utf8")), await attempt(() => fs.writeFile("pwn.txt", "x")), await attempt(() => fs.readdir("."))];
           };`,
          { encoding: "utf8" },
        );
        await new Promise((res) => setTimeout(res, 500));
        await ws.fs.rename("/workspace/proj", "/workspace/old");
        await ws.fs.symlink("/", "/workspace/proj");
        const result = await handle.result();
        return { exit: result.exitCode, value: result.value, pwn: await ws.fs.stat("/pwn.txt").then(() => "exists", (e: { code: string }) => e.code) };
      },
      { backend: { root: "/workspace/proj" } },
    );
    expect(r.exit).toBe(0);
    const [before, secret, write, list] = r.value as string[];
    expect(before).toBe("own");
    for (const v of [secret, write, list]) expect(v).toBe("ERR EACCES cannot traverse symbolic link: /workspace/proj");
    expect(r.pwn).toBe("ENOENT");
  });
});
