/**
 * Issue 20, run 38, fixer SG2 — siblings of test/workers/attack38h/grep-fails-past-a-million-lines.test.ts and
 * test/workers/attack38h/rg-fails-past-100000-matching-lines.test.ts: grep and rg over a 1,100,000-line file (21.6 MB,
 * lines `key<i> <Error every 7th, else ok> word<i mod 13>`) and over a directory of its three parts, in the forms an
 * agent uses on a large log (-c, -n, -v, -o, -w, -F, -E, -i, -l, -r, `| wc -l`).
 *
 * Before: grep's search bounded its work (one unit per line and per match) by 1,000,000 units whatever the input,
 * rg's by maxLoopIterations (100,000) and its lines by maxArrayElements (1,000,000), so every form below failed
 * (`grep: f: matching work limit exceeded (1000000)`, status 2; `bash: search: matching work limit exceeded
 * (100000)`, status 126) and a pipeline went on with a silent `0`. After: both bounds grow with the input (isolate/
 * grep-gnu.ts searchWorkBound — base + 8 units per character — and searchItemBound), so only super-linear work meets
 * them, as a loud error (last case: rg's -B N revisits N lines for each match).
 *
 * Expected outputs are GNU grep 3.8's on the same data, made on this machine with the same generator:
 *   python3 -c 'import sys; sys.stdout.write("".join(f"key{i} {"Error" if i%7==0 else "ok"} word{i%13}\n" for i in
 *   range(1100000)))' > f; mkdir d; split -n l/3 -d f d/part
 * then e.g. `grep -n Error f | md5sum`; rg is checked against the same GNU grep outputs (ripgrep prints the same for
 * these forms with one file operand and no tty).
 */
import { describe, expect, it } from "vitest";
import type { Workspace } from "../../../src/index.js";
import { inShellWorkspace, sh } from "../shell/helpers.js";

const LINES = 1_100_000;

function logText(): string {
  const parts: string[] = [];
  for (let i = 0; i < LINES; i++) parts.push(`key${i} ${i % 7 === 0 ? "Error" : "ok"} word${i % 13}\n`);
  return parts.join("");
}

/** GNU `split -n l/3`: three parts of about a third of the bytes each, each ending at a line's end. */
function splitThree(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let k = 1; k <= 3; k++) {
    if (k === 3) {
      out.push(text.slice(start));
      break;
    }
    // GNU's chunk k ends at the first newline at or after byte k*size/3 - 1.
    const end = text.indexOf("\n", Math.floor((k * text.length) / 3) - 1) + 1;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

async function setUp(ws: Workspace): Promise<string> {
  await ws.fs.mkdir("/workspace/d", { recursive: true });
  const text = logText();
  await ws.fs.writeFile("/workspace/f", text);
  const parts = splitThree(text);
  for (let k = 0; k < 3; k++) await ws.fs.writeFile(`/workspace/d/part0${k}`, parts[k] as string);
  return text;
}

// GNU grep 3.8 on the data above.
const N_MD5 = "483e281a5000325beb5483adca7d0b68  -\n"; // grep -n Error f | md5sum
const O_MD5 = "97cb6feef8ea0a2d13acbe56e9bb884d  -\n"; // grep -o 'key[0-9]*' f | md5sum

describe("grep and rg over 1,100,000 lines (issue 20, run 38, fixer SG2)", () => {
  it("grep's forms give GNU grep's output and status", async () => {
    await inShellWorkspace(async (ws) => {
      const text = await setUp(ws);
      expect(text.length).toBe(21_614_164);
      const cases: [string, string][] = [
        ["grep -c Error f", "157143\n"],
        ["grep -n Error f | md5sum", N_MD5],
        ["grep -v -c ok f", "157143\n"],
        ["grep -o 'key[0-9]*' f | md5sum", O_MD5],
        ["grep -o 'key[0-9]*' f | wc -l", "1100000\n"],
        ["grep -w -c word1 f", "84616\n"],
        ["grep -F -c 'ok word1' f", "290109\n"],
        ["grep -E -c 'key[0-9]*5 (Error|ok)' f", "110000\n"],
        ["grep -i -c error f", "157143\n"],
        ["grep -l Error f d/part00", "f\nd/part00\n"],
        ["grep -r -c Error d | sort", "d/part00:53162\nd/part01:52354\nd/part02:51627\n"],
        ["grep Error f | wc -l", "157143\n"],
        ["grep -vn ok f | tail -1", "1099995:key1099994 Error word12\n"],
        ["grep -c '' f", "1100000\n"],
      ];
      for (const [command, stdout] of cases) {
        const r = await sh(ws, command, { cwd: "/workspace", timeoutMs: 240_000 });
        expect([command, r.stdout, r.stderr, r.exitCode]).toEqual([command, stdout, "", 0]);
      }
      // The file in storage is the one written.
      expect((await ws.fs.stat("/workspace/f")).size).toBe(21_614_164);
    });
  }, 900_000);

  it("rg's forms give the same output as GNU grep's", async () => {
    await inShellWorkspace(async (ws) => {
      await setUp(ws);
      const cases: [string, string][] = [
        ["rg -c Error f", "157143\n"],
        ["rg -n Error f | md5sum", N_MD5],
        ["rg -v -c ok f", "157143\n"],
        ["rg -o 'key[0-9]*' f | md5sum", O_MD5],
        ["rg -w -c word1 f", "84616\n"],
        ["rg -F -c 'ok word1' f", "290109\n"],
        ["rg -c 'key[0-9]*5 (Error|ok)' f", "110000\n"],
        ["rg -i -c error f", "157143\n"],
        ["rg -l Error f d/part00 | sort", "d/part00\nf\n"],
        ["rg -c Error d | sort", "d/part00:53162\nd/part01:52354\nd/part02:51627\n"],
        ["rg Error f | wc -l; echo after", "157143\nafter\n"],
      ];
      for (const [command, stdout] of cases) {
        const r = await sh(ws, command, { cwd: "/workspace", timeoutMs: 240_000 });
        expect([command, r.stdout, r.stderr, r.exitCode]).toEqual([command, stdout, "", 0]);
      }
    });
  }, 900_000);

  it("super-linear work still meets the bound, loudly; grep's linear context does not", async () => {
    await inShellWorkspace(async (ws) => {
      await ws.fs.mkdir("/workspace", { recursive: true });
      // 200,000 empty lines; GNU grep: `grep -B 100000 '' g | wc -l` → 200000.
      await ws.fs.writeFile("/workspace/g", "\n".repeat(200_000));
      const grep = await sh(ws, "grep -B 100000 '' g | wc -l", { cwd: "/workspace", timeoutMs: 120_000 });
      expect([grep.stdout, grep.stderr, grep.exitCode]).toEqual(["200000\n", "", 0]);
      // rg revisits up to 100,000 context lines for each of 200,000 matches (~10^10 units): past the bound of
      // 100,000 + 8 × 200,001 units it stops with an error and no output, never a cut list.
      const rg = await sh(ws, "rg -B 100000 '' g", { cwd: "/workspace", timeoutMs: 120_000 });
      expect([rg.stdout, rg.stderr, rg.exitCode]).toEqual(["", "bash: search: matching work limit exceeded (1700008)\n", 126]);
    });
  }, 300_000);
});
