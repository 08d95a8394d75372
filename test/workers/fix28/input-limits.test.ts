/**
 * Issue 20, run 28, fixer LM: siblings of attack28b's output-limit and awk-record findings. Lines of input (awk's
 * records, join's lines, seq's numbers, strings' strings) are not loop iterations; bytes written to files by a
 * redirection or captured by `$(…)`/`<(…)` do not count against the run's 16 MiB output bound, while what reaches the
 * run's stdout/stderr, one command's output and one capture stay bounded. Expected outputs from GNU coreutils 9.1,
 * binutils strings, gawk 5.2.1 and bash 5.2.15 on the same input.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

async function run(commands: string[], lines = 150_000) {
  return inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    let text = "";
    for (let i = 1; i <= lines; i++) text += `${i} 2\n`;
    await ws.fs.writeFile("/workspace/t", text);
    const results = [];
    for (const command of commands) {
      const r = await sh(ws, command, { cwd: "/workspace" });
      results.push([command, r.exitCode, r.stdout, r.stderr]);
    }
    return results;
  });
}

it("150,000-line inputs through awk, join, seq, strings and the text tools, as GNU", async () => {
  const out = await run([
    "awk 'END{print NR}' t; awk '{n++} END{print n}' t",
    "awk '{print $1}' t | tail -1",
    "join t t | wc -l; join t t | tail -1",
    "seq 150000 | tail -1; seq 150000 | wc -c",
    "strings t | wc -l",
    "sort -n t | tail -1; uniq t | wc -l; comm -12 t t | wc -l; paste t t | tail -1; nl t | tail -1",
    "sed -n '$=' t; sed 'N;s/\\n/ /' t | wc -l; cut -d' ' -f1 t | tail -1",
  ]);
  expect(out).toEqual([
    // Was: 126, "", "awk: record limit exceeded (100000)\n" (twice).
    ["awk 'END{print NR}' t; awk '{n++} END{print n}' t", 0, "150000\n150000\n", ""],
    ["awk '{print $1}' t | tail -1", 0, "150000\n", ""],
    // Was: 126, "", "bash: join: iteration limit exceeded (100000)\n" (twice).
    ["join t t | wc -l; join t t | tail -1", 0, "150000\n150000 2 2\n", ""],
    // Was: 126, "", "bash: seq: iteration limit exceeded (100000)\n" (twice).
    ["seq 150000 | tail -1; seq 150000 | wc -c", 0, "150000\n938895\n", ""],
    // Was: 126, "", "bash: strings: iteration limit exceeded (100000)\n".
    ["strings t | wc -l", 0, "149991\n", ""],
    ["sort -n t | tail -1; uniq t | wc -l; comm -12 t t | wc -l; paste t t | tail -1; nl t | tail -1", 0, "150000 2\n150000\n150000\n150000 2\t150000 2\n150000\t150000 2\n", ""],
    ["sed -n '$=' t; sed 'N;s/\\n/ /' t | wc -l; cut -d' ' -f1 t | tail -1", 0, "150000\n75000\n150000\n", ""],
  ]);
}, 300_000);

it("awk's own loops keep their documented 100,000-iteration cap", async () => {
  const out = await run(["awk 'BEGIN{for(i=0;i<200000;i++)n++; print n}'", "awk 'BEGIN{for(i=0;i<100000;i++)n++; print n}'"], 1);
  expect(out).toEqual([
    ["awk 'BEGIN{for(i=0;i<200000;i++)n++; print n}'", 126, "", "awk: awk: for loop exceeded maximum iterations (100000)\n"],
    ["awk 'BEGIN{for(i=0;i<100000;i++)n++; print n}'", 0, "100000\n", ""],
  ]);
});

const MB = "x=$(printf %01000000d 0); echo \"$x\" > big; ";
const LIMIT = "total output size exceeded (>16777216 bytes), increase executionLimits.maxOutputSize\n";

it("redirected, discarded and captured output does not count against the run; what reaches it still does", async () => {
  const out = await run(
    [
      MB + "for i in $(seq 20); do cat big > /dev/null; sed s/0/1/ big >> all 2>&1; done; echo rc=$?; wc -c < all",
      MB + "for i in $(seq 20); do { cat big; cat big >&2; } > o 2> e; done; echo rc=$?; wc -c < o; wc -c < e",
      MB + "for i in $(seq 20); do y=$(cat big; exit 3); done; echo rc=$? ${#y}",
      MB + "for i in $(seq 20); do wc -c < <(cat big) > /dev/null; done; echo rc=$?",
      MB + "for i in $(seq 20); do echo \"$x\"; done | wc -c",
      MB + "for i in $(seq 20); do cat big; done > /dev/null; echo after",
      MB + "cat big big big big big big big big big big big big big big big big big > all; echo rc=$?",
      MB + "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do cat big; done; echo after",
      MB + "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do cat big >&2; done; echo after",
      MB + "y=$(for i in $(seq 17); do cat big; done); echo after ${#y}",
    ],
    1,
  );
  // Past the Workspace's long-output limit the result keeps the stream's last 64 KiB: give its length.
  const strip = (r: unknown[]) => [String(r[0]).slice(MB.length), r[1], String(r[2]).length > 100 ? String(r[2]).length : r[2], r[3]];
  expect(out.map(strip)).toEqual([
    // Was (each of these four): 126, "", "bash: redirection: total output size exceeded …" (or `pipeline:`) at the 17th pass.
    ["for i in $(seq 20); do cat big > /dev/null; sed s/0/1/ big >> all 2>&1; done; echo rc=$?; wc -c < all", 0, "rc=0\n20000020\n", ""],
    ["for i in $(seq 20); do { cat big; cat big >&2; } > o 2> e; done; echo rc=$?; wc -c < o; wc -c < e", 0, "rc=0\n1000001\n1000001\n", ""],
    ["for i in $(seq 20); do y=$(cat big; exit 3); done; echo rc=$? ${#y}", 0, "rc=3 1000000\n", ""],
    ["for i in $(seq 20); do wc -c < <(cat big) > /dev/null; done; echo rc=$?", 0, "rc=0\n", ""],
    // One command (here the loop) producing more than 16 MiB still fails, into a pipe, a file or nowhere.
    ["for i in $(seq 20); do echo \"$x\"; done | wc -c", 126, 65536, `bash: pipeline: ${LIMIT}`],
    ["for i in $(seq 20); do cat big; done > /dev/null; echo after", 126, 65536, `bash: pipeline: ${LIMIT}`],
    ["cat big big big big big big big big big big big big big big big big big > all; echo rc=$?", 126, "", "bash: cat: output size limit exceeded (16777216 bytes)\n"],
    // What reaches the run's stdout or stderr stays bounded by 16 MiB.
    ["for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do cat big; done; echo after", 126, 65536, `bash: pipeline: ${LIMIT}`],
    ["for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do cat big >&2; done; echo after", 126, "", `bash: redirection: ${LIMIT}`],
    // One capture stays bounded.
    ["y=$(for i in $(seq 17); do cat big; done); echo after ${#y}", 126, 65536, `bash: pipeline: ${LIMIT}`],
  ]);
}, 300_000);
