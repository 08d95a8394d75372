/**
 * Issue 20, run 31 (lead, from run 30's left-alone list): node:fs `chmod` in the JavaScript backend takes its mode as
 * Node's does. `chmod(p, "755")` (an octal string, which Node accepts) failed with an uncoded TypeError
 * "chmod: mode must be a number" from the host; a mode past 0o7777 or below 0 reached the Workspace unchecked
 * (run 29's "JS chmod mode not range-checked").
 * Reference: Node 22 on Linux — `chmod(p, "755")` sets 0o755, `"abc"` is TypeError ERR_INVALID_ARG_VALUE, `-1`
 * RangeError ERR_OUT_OF_RANGE, no mode TypeError ERR_INVALID_ARG_TYPE, `0o100644` sets 0o644 (chmod(2) keeps the
 * permission bits).
 * Fixed: the isolate's node-fs-promises.js `chmod` reads the mode with `modeOf` (Node's parseFileMode) and sends
 * `mode & 0o7777`.
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

it("chmod takes an octal string, refuses bad modes with Node's codes, and keeps the permission bits", async () => {
  const out = await inWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/f.txt", "f");
    const results: Record<string, string> = {};
    for (const mode of [`"755"`, `"0640"`, `"abc"`, `-1`, `2 ** 32`, `undefined`, `0o100600`, `0o4755`]) {
      await ws.fs.chmod("/workspace/f.txt", 0o644);
      const h = await ws.runtime.exec(
        `import fs from "node:fs/promises"; export default async () => { try { await fs.chmod("/workspace/f.txt", ${mode}); return "ok"; } catch (e) { return e.name + " " + e.code; } }`,
      );
      const r = await h.result();
      const st = await ws.fs.stat("/workspace/f.txt");
      results[mode] = `${String(r.value)} ${(st.mode & 0o7777).toString(8)}`;
    }
    return results;
  });
  expect(out).toEqual({
    '"755"': "ok 755", // Was: "TypeError undefined 644"
    '"0640"': "ok 640",
    '"abc"': "TypeError ERR_INVALID_ARG_VALUE 644",
    "-1": "RangeError ERR_OUT_OF_RANGE 644",
    "2 ** 32": "RangeError ERR_OUT_OF_RANGE 644",
    undefined: "TypeError ERR_INVALID_ARG_TYPE 644",
    "0o100600": "ok 600",
    "0o4755": "ok 4755",
  });
});
