/**
 * Issue 20 third attack run, categories 2 and 3: hostile execution ids. An
 * id is chosen by the caller (and, through tools, can come from a model):
 * dot segments, slashes, NUL, "__proto__", a 256-byte id. Each is kept as
 * the id of exactly one run, its long output is saved under the output
 * directory whatever the id spells, getExec and killExec find it by the same
 * string, and ids past the limit are refused before anything runs.
 */
import { describe, expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const IDS = ["../../etc/passwd", "a/b/../../c", "\u0000nul", "__proto__", "constructor", "..", ".", "%2e%2e", "é".repeat(128)];

describe("attack3: hostile execution ids", () => {
  it("odd ids are kept verbatim; long output is saved under the output directory only", async () => {
    const r = await inWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const out: Record<string, unknown> = {};
      for (const id of IDS) {
        const result = await (
          await ws.runtime.exec(`export default () => { for (let i = 0; i < 3000; i++) console.log("line " + i); return ${JSON.stringify(id)}; }`, { id, encoding: "utf8" })
        ).result();
        const again = await (await ws.runtime.getExec(id, { encoding: "utf8" })).result();
        out[id] = { value: result.value, again: again.value, saved: (result.truncated?.stdout as { path?: string } | undefined)?.path };
      }
      const tooLong = await ws.runtime.exec(`export default () => 1`, { id: "x".repeat(257) }).then(() => "ran", (e: { code?: string }) => e.code);
      const empty = await ws.runtime.exec(`export default () => 1`, { id: "" }).then(() => "ran", (e: { code?: string }) => e.code);
      const files = (await ws.fs.find("/", "**")).map((e) => e.path);
      return { out, tooLong, empty, files };
    });
    for (const id of IDS) {
      const o = r.out[id] as { value: unknown; again: unknown; saved?: string };
      expect(o.value, id).toBe(id);
      expect(o.again, id).toBe(id);
      expect(o.saved, id).toMatch(/^\/\.computer\/output\/[^/]+\.stdout\.log$/);
    }
    expect(r.tooLong).toBe("EINVAL");
    expect(r.empty).toBe("EINVAL");
    // nothing outside the output directory and /workspace
    expect(r.files.filter((p) => !p.startsWith("/.computer") && p !== "/workspace")).toEqual([]);
    const saved = IDS.map((id) => (r.out[id] as { saved: string }).saved);
    expect(new Set(saved).size).toBe(IDS.length);
  });
});
