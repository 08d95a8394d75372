/**
 * Issue 20, thirtieth attack run: `mapfile -n N` (and `readarray -n N`) reading a redirected file in a group takes the
 * whole remaining input instead of N lines, so the next command reads nothing: `{ mapfile -t -n 2 hdr; cat; } < f`
 * prints nothing where bash 5.2 prints the lines after the second. `read` in the same place consumes one line only.
 * Tried: side by side with bash 5.2.15 in a temp dir — `mapfile -t -n 2 first < f` (held), `{ mapfile -t -n 2 x;
 * cat; } < f`, `{ read -r h; cat; } < f` (held).
 * Held: mapfile -n's array itself (`first` has the two lines); `read` leaves the rest to the next command.
 * Found (medium — lines after a mapfile -n batch are silently dropped; 2 of 2 runs).
 * Suggested fix: the mapfile builtin (just-bash's mapfile in scripts/gen-shell.mjs / the shell's stdin bookkeeping):
 * with -n N advance the group's stdin offset past the N lines read only, as `read` does, instead of consuming it all.
 * Fixed: mapfile advances the group's stdin (and its `<&N` descriptor) past the -s/-n lines it read only, and reads
 * its option words as bash's getopt (`-n1`, `-tn2`, `-d,`) — mapfileDone/mapfileArgs in src/backends/worker-shell/
 * isolate/shared-stdin.ts, SP_PATCHES in scripts/gen-shell.mjs. Siblings in test/workers/fix30/shell-shared-stdin-
 * offset.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("mapfile -n 2 in a group leaves the remaining lines to the next command, as bash", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/f", "a\nb\nc\nd\n");
    const r = await sh(ws, "{ mapfile -t -n 2 x; echo \"${x[*]}\"; cat; } < f", { cwd: "/workspace" });
    return [r.exitCode, r.stdout, r.stderr];
  });
  // Was: [0, "a b\n", ""]
  expect(out).toEqual([0, "a b\nc\nd\n", ""]);
});
