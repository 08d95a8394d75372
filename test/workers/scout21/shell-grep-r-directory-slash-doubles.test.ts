/**
 * Issue 20, twenty-first attack run (scout of fixes): `grep -r` under an operand ending in `/` prints `d//f.txt`.
 * Tried: the link/operand fixes of this run (grep -r/-R walk links as GNU, 685e323/2c83dd8) with operands written
 * in directory form — `grep -r keep d/`, `grep -R keep ld/` (ld -> d), `grep -rl keep ./` — side by side with GNU
 * grep 3.8 on this machine over the same tree.
 * Held: the matches themselves (the files and lines found) are the same; `ls -d d/ ld/`, `stat -c %n ld/` agree.
 * Found (low — every path grep prints carries a doubled slash the model then copies; deterministic): ours prints
 * `d//f.txt:keep`, `ld//f.txt:keep`, `.//d/f.txt`; GNU prints `d/f.txt:keep`, `ld/f.txt:keep`, `./d/f.txt`.
 * Suggested fix: in the shell's grep walk (walkingCommands / the bundled grep's path join), join a child name to an
 * operand that already ends in `/` without adding another (GNU's fts keeps the operand as written and adds none).
 * Fixed (fixer S2): the bundled grep's recursive walk joins a child to its operand with childName
 * (src/backends/worker-shell/isolate/walk-operands.ts): the operand's trailing slashes, then one `/` — `d/f.txt`
 * for `d/` and `d//`, `./d/f.txt` for `./` and `.//`, as GNU grep 3.8 (test/workers/fix21/shell-walk-operands.test.ts).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("grep -r d/ prints d/f.txt, as GNU grep", async () => {
  const out = await shellCases({ dirs: ["d"], files: { "d/f.txt": "keep\n" }, links: { ld: "d" } }, ["grep -r keep d/", "grep -R keep ld/", "grep -rl keep ./ | sort"], {
    wrap: (command) => `(${command}) 2>&1; echo rc=$?`,
    collect: (_ws, _command, r) => r.stdout,
  });
  // Found: ["d//f.txt:keep\nrc=0\n", "ld//f.txt:keep\nrc=0\n", ".//d/f.txt\nrc=0\n"].
  expect(out).toEqual(["d/f.txt:keep\nrc=0\n", "ld/f.txt:keep\nrc=0\n", "./d/f.txt\nrc=0\n"]);
}, 60_000);
