/**
 * Issue 20, found by the lead after the fifteenth attack run: the link-target check of confined runs
 * (src/backends/worker-javascript/paths.ts `checkLinkTarget` → `leadsTo`) spread a stored link's target components as
 * call arguments (`pending.push(...next.split("/").reverse())`).
 * Tried: a link made by the host at /workspace/proj/h whose target is "a" + "/".repeat(200_000) + "b" (200,002
 * characters, within the filesystem's 256 KiB target limit; it resolves to /workspace/proj/a/b), then, in a
 * JavaScript run confined to /workspace/proj, `symlink("h", "l")` and `symlink("h/c", "l2")` (each target goes
 * through h, so the check reads h's target and expands it).
 * Found (medium, figures): both symlink() calls failed with a bare `RangeError: Maximum call stack size exceeded`
 * (no POSIX code) — 200,001 components passed as arguments to one `push` — and no link was made; any host link
 * with more than ~120,000 empty components on the way made every sandbox symlink through it fail so.
 * Fixed: the components are pushed one by one in a loop (no spread); both links are made, stored as written.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const ROOT = "/workspace/proj";
const HOST_TARGET = "a" + "/".repeat(200_000) + "b";

describe("fix16b: a host link whose target has 200,000 empty components", () => {
  it("sandbox symlink() through it is checked and made, not a bare RangeError", async () => {
    const r = await inWorkspace(
      async (ws) => {
        await ws.fs.mkdir(`${ROOT}/a`, { recursive: true });
        await ws.fs.symlink(HOST_TARGET, `${ROOT}/h`);
        const res = await (
          await ws.runtime.exec(
            `import { symlink, readlink } from "node:fs/promises";
             const attempt = async (fn) => { try { const v = await fn(); return v === undefined ? "ok" : v; } catch (e) { return String(e.code) + " " + e.name + " " + e.message; } };
             export default async () => ({
               l: await attempt(() => symlink("h", "l")),
               l2: await attempt(() => symlink("h/c", "l2")),
               read: await attempt(() => readlink("l")),
               read2: await attempt(() => readlink("l2")),
             });`,
            { cwd: ROOT },
          )
        ).result();
        const entry = async (p: string) => ws.fs.readlink(p).catch((e: { code?: string }) => String(e.code));
        return { value: res.value, l: await entry(`${ROOT}/l`), l2: await entry(`${ROOT}/l2`), h: (await ws.fs.readlink(`${ROOT}/h`)).length };
      },
      { backend: { root: ROOT } },
    );
    // Found: l and l2 were "undefined RangeError Maximum call stack size exceeded", read/read2 ENOENT, nothing made.
    expect(r).toEqual({ value: { l: "ok", l2: "ok", read: "h", read2: "h/c" }, l: "h", l2: "h/c", h: 200_002 });
  });
});
