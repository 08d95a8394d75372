/**
 * Issue 20, thirty-second attack run (lead from attacker d): text tools on a 5 MB single-line "minified" file.
 *
 * Tried: a 5.4 MB one-line file of 200,000 `var aN=oldName(N);` statements (as
 * `awk 'BEGIN{for(i=0;i<200000;i++) printf "var a%d=oldName(%d);", i, i}' > min.js` makes), then `grep -c`,
 * `grep -o … | wc -l`, `sed -i s///g`, `awk '{print length}'`, `tr ';' '\n' | wc -l`, `cut -c1-20`, one at a time
 * and at 1.3 MB and 5.4 MB to see the growth. Bash 5.2 with GNU grep 3.8 does each in well under a second.
 *
 * Held: `grep -c` (0.1 s at 1.3 MB), `cut` (0.4 s), `awk '{print length}'` (0.1 s), `sed -i` (0.8 s), `tr | wc -l`
 * (0.6 s), all about linear up to 5.4 MB (0.3–5 s on the loaded test machine).
 *
 * Found: `grep -o oldName min.js | wc -l` did not finish: at 1.3 MB (50,000 matches on the one line) it ran into a
 * 60 s timeout (114 s wall). grep -o (isolate/grep-gnu.ts `search`) computed each match's -b byte offset, used or
 * not, as the UTF-8 length of the whole line before the match (`line.slice(0, s)`): quadratic in the line's length
 * (50,000 × ~640 KB on average). -P (`grep -oP`) goes the same way.
 *
 * Fixed: grep-gnu.ts `search` counts -o's byte offsets only with -b, and on from the previous match (the bytes between
 * the two), so one line is walked once. After: 1.4 s at 1.3 MB, 2.1 s at 5.4 MB (`grep -ob … | tail -1`: 3.5 s).
 */
import { describe, expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

function minified(n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(`var a${i}=oldName(${i});`);
  return parts.join("");
}

describe("grep -o on one long line (issue 20, run 32, LL)", () => {
  it("grep -o, -ob and -oP over 200,000 matches on a 5.4 MB line finish in seconds with GNU's output", async () => {
    await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      const content = minified(200_000);
      expect(content.length).toBe(5_377_780);
      await ws.fs.writeFile("/workspace/min.js", content);
      for (const [command, stdout] of [
        ["grep -o oldName min.js | wc -l", "200000\n"],
        ["grep -ob oldName min.js | tail -1", "5377764:oldName\n"],
        ["grep -ob oldName min.js | head -2", "7:oldName\n25:oldName\n"],
        ["grep -oP 'old\\w+' min.js | wc -l", "200000\n"],
        ["grep -c oldName min.js", "1\n"],
      ] as const) {
        const r = await sh(ws, command, { cwd: "/workspace", timeoutMs: 20_000 });
        expect([command, r.stdout, r.stderr, r.exitCode]).toEqual([command, stdout, "", 0]);
      }
      // Storage keeps the file as written.
      expect(await ws.fs.readFile("/workspace/min.js", "utf8")).toBe(content);
    });
  }, 120_000);

  it("grep -ob still counts bytes, not characters, between matches (as GNU grep 3.8)", async () => {
    await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/u.txt", "é oldName ü oldName\nxx oldName\n");
      const cases: [string, string][] = [
        ["grep -ob oldName u.txt", "3:oldName\n14:oldName\n25:oldName\n"],
        ["grep -nbo old u.txt", "1:3:old\n1:14:old\n2:25:old\n"],
        ["printf 'a\\303\\251\\n' | grep -ob 'é\\|a'", "0:a\n1:é\n"],
      ];
      for (const [command, stdout] of cases) {
        const r = await sh(ws, command, { cwd: "/workspace", timeoutMs: 20_000 });
        expect([command, r.stdout, r.stderr, r.exitCode]).toEqual([command, stdout, "", 0]);
      }
    });
  }, 60_000);
});
