/**
 * Issue 20, thirty-second attack run (lead from fixer LL): awk's `printf` to standard output took time quadratic in
 * the output. `awk 'BEGIN{for(i=0;i<N;i++) printf "var a%d=oldName(%d);", i, i}' > min.js` timed out at 20 s already
 * at N=20,000 (about 450 KB; gawk 5.2.1: 0.05 s), with or without a newline in the format.
 *
 * Tried: printf to stdout at N=5,000/10,000/20,000 (0.76 s, 4.7 s, past 20 s before the fix), with a newline in the
 * format (as slow), `print` with ORS="" (linear), printf > "file", > "/dev/stdout", multi-byte text.
 *
 * Found: just-bash's awk limits what each printf may format to the room left under its output limit and measured the
 * room as `maxOutputSize - byteLength(output)`, counting the UTF-8 bytes of everything printed so far on every printf
 * (and flattening the string the appends had built): O(N²). It did so for printf > "file" too, over what stdout
 * held. (`print | "cmd"` / `printf | "cmd"` are not supported by just-bash's awk parser: left as they are.)
 *
 * Fixed: the output's UTF-8 size is kept as it grows — each text's bytes added where print, printf and
 * `> "/dev/stdout"` append it — and printf reads the kept count (src/backends/worker-shell/isolate/awk-output.ts,
 * scripts/gen-shell.mjs AP_PATCHES). Expectations are gawk 5.2.1's (mawk 1.3.4 agrees) on this machine.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const prog = `BEGIN{for(i=0;i<50000;i++) printf "var a%d=oldName(%d);", i, i`;
/** gawk's output for {@link prog}: 1,277,780 bytes. */
const SUM = "c766daec1887082056a788afda562bf3  -\n";

it("awk printf of 50,000 records with no newline runs in linear time, as gawk's bytes", async () => {
  await inShellWorkspace(async (ws) => {
    const cases: [string, string][] = [
      // Was: past 20 s at N=20,000 (timeout).
      [`awk '${prog}}' > min.js; wc -c < min.js; md5sum < min.js`, `1277780\n${SUM}`],
      [`awk 'BEGIN{ORS="";for(i=0;i<50000;i++) print "var a" i "=oldName(" i ");"}' | md5sum`, SUM],
      [`awk '${prog} > "f.js"}'; wc -c < f.js; md5sum < f.js`, `1277780\n${SUM}`],
      [`awk '${prog} > "/dev/stdout"}' | md5sum`, SUM],
      [`awk 'BEGIN{for(i=0;i<50000;i++) printf "é%d€", i}' > u.txt; wc -c < u.txt; md5sum < u.txt`, "488890\ncdd519b861fde45fe42aebb70e2d0aae  -\n"],
    ];
    for (const [command, stdout] of cases) {
      const started = Date.now();
      const r = await sh(ws, command, { cwd: "/workspace", timeoutMs: 20000 });
      expect([command, r.exitCode, r.stdout, r.stderr]).toEqual([command, 0, stdout, ""]);
      expect(Date.now() - started).toBeLessThan(15000);
    }
    expect(await ws.fs.readFile("/workspace/min.js", "utf8")).toHaveLength(1277780);
  });
}, 120000);

it("awk printf, print, /dev/stdout and /dev/stderr interleaved keep their bytes", async () => {
  await inShellWorkspace(async (ws) => {
    const r = await sh(
      ws,
      `awk 'BEGIN{for(i=0;i<3;i++){printf "é%d", i; print "e" i > "/dev/stderr"; printf "%s|", "€" > "/dev/stdout"; print "p" i}}'`,
      { cwd: "/workspace" },
    );
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, "é0€|p0\né1€|p1\né2€|p2\n", "e0\ne1\ne2\n"]);
  });
});
