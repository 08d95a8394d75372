/**
 * Issue 20, run 33, fixer SD — siblings of test/workers/attack33d/dev-stdin-operand-not-found.test.ts and
 * test/workers/attack33d/brace-range-past-10000-words-silently-cut.test.ts.
 *
 * /dev/stdin, /dev/fd/0 and /proc/self/fd/0 name the command's own standard input for every command that opens a
 * file (src/backends/worker-shell/isolate/dev-stdin.ts, wired in by scripts/gen-shell.mjs `// SD33`), and `< /dev/stdin`
 * keeps the input. Each expected output is what bash 5.2.15 with GNU coreutils 9.1, grep 3.8, sed 4.9, gawk 5.2.1 and
 * diffutils 3.8 printed for the same line (status 0, empty stderr), run in a directory holding `exp` ("a\n") and `d/`;
 * the bytes `cp` stores are read back from the Workspace.
 *
 * Brace expansion makes up to 100,000 words whole (bash printed the counts below); past that it stops with
 * `bash: brace expansion result limit exceeded (100000)`, status 126 and nothing on stdout, as the shell's other
 * limits — never a cut list (bash has no limit: a documented difference, docs/runtime.md).
 */
import { describe, expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

describe("/dev/stdin as a file operand (bash 5.2.15 + GNU)", () => {
  it("reads the command's standard input in each command that opens a file", async () => {
    const cases: [string, string][] = [
      ["printf 'b\\na\\n' | sort /dev/stdin", "a\nb\n"],
      ["printf 'x\\ny\\n' | grep -c y /dev/stdin", "1\n"],
      ["printf 'l1\\nl2\\n' | wc -l /dev/stdin", "2 /dev/stdin\n"],
      ["printf 'a b\\n' | awk '{print $2}' /dev/stdin", "b\n"],
      ["printf 'hello\\n' | sed 's/h/H/' /dev/fd/0", "Hello\n"],
      ["printf '1\\n2\\n3\\n' | head -n 2 /dev/stdin", "1\n2\n"],
      ["printf '1\\n2\\n3\\n' | tail -n 1 /dev/stdin", "3\n"],
      ["printf 'k=v\\n' | cut -d= -f2 /dev/stdin", "v\n"],
      ["printf 'b\\nb\\na\\n' | uniq /dev/stdin", "b\na\n"],
      ["printf 'z\\n' | cat /dev/./stdin", "z\n"],
      ["printf 'z\\n' | cat /proc/self/fd/0", "z\n"],
      ["printf 'b\\n' | diff /dev/stdin exp; echo rc=$?", "1c1\n< b\n---\n> a\nrc=1\n"],
      ["printf '\\xe9\\n' | cat /dev/stdin | od -An -tx1", " e9 0a\n"],
      [`printf 'one\\ntwo\\n' | awk 'BEGIN { while ((getline l < "/dev/stdin") > 0) print "got " l }'`, "got one\ngot two\n"],
      // `< /dev/stdin` on fd 0 leaves the input as it is.
      ["printf 'p\\n' | tee copy.txt < /dev/stdin; cat copy.txt", "p\np\n"],
      ["printf 'r\\n' | cat < /dev/stdin", "r\n"],
      [`printf '1\\n2\\n' | while read l; do echo "[$l]"; done < /dev/stdin`, "[1]\n[2]\n"],
    ];
    const results = await shellCases({ dirs: ["d"], files: { exp: "a\n" } }, cases.map(([c]) => c), {
      collect: (_ws, command, r) => [command, r.stdout, r.stderr, r.exitCode],
    });
    expect(results).toEqual(cases.map(([c, out]) => [c, out, "", 0]));
  });

  it("cp /dev/stdin into a directory stores the input's bytes as DIR/stdin", async () => {
    const [result] = await shellCases({ dirs: ["d"] }, ["printf 'x\\n\\xff' | cp /dev/stdin d/; echo rc=$?"], {
      collect: async (ws, _command, r) => [r.stdout, r.stderr, [...new Uint8Array(await new Response(await ws.fs.readFile("/workspace/d/stdin")).arrayBuffer())]],
    });
    expect(result).toEqual(["rc=0\n", "", [0x78, 0x0a, 0xff]]);
  });
  // Documented differences (docs/runtime.md, docs/porting.md): each opening reads the whole input again, where Linux
  // reads the pipe once (bash + GNU cat printed "c\n" for the first line); the `test` builtin does not see the name
  // (bash printed "yes").
  it("reads the whole input at each opening; test -e does not see it (documented differences)", async () => {
    const lines = ["printf 'c\\n' | cat - /dev/stdin", "[ -e /dev/stdin ] && echo yes || echo no"];
    const results = await shellCases({}, lines, { collect: (_ws, command, r) => [command, r.stdout, r.stderr, r.exitCode] });
    expect(results).toEqual([
      [lines[0], "c\nc\n", "", 0],
      [lines[1], "no\n", "", 0],
    ]);
  });
});

describe("brace expansion up to 100,000 words (bash 5.2.15), refused past it", () => {
  it("expands whole up to the limit", async () => {
    const cases: [string, string][] = [
      ["echo {1..100000} | wc -w", "100000\n"],
      ["echo {1..200000..2} | wc -w", "100000\n"],
      ["echo {a..z}{a..z}{a..z} | wc -w", "17576\n"],
      ["for i in {0..30000..3}; do :; done; echo $i", "30000\n"],
      ["x=({1..20000}); echo ${#x[@]} ${x[-1]}", "20000 20000\n"],
      ["printf '%s\\n' {100000..1} | head -n 2", "100000\n99999\n"],
    ];
    const results = await shellCases({}, cases.map(([c]) => c), {
      collect: (_ws, command, r) => [command, r.stdout, r.stderr, r.exitCode],
    });
    expect(results).toEqual(cases.map(([c, out]) => [c, out, "", 0]));
  });

  it("stops with status 126 and a message one word past it, in a range, a product or a loop", async () => {
    const lines = [
      "echo {1..100001} | wc -w; echo after",
      "echo {a,b}{1..50001} >/dev/null; echo after",
      "for i in {100001..1}; do :; done; echo $i",
      "echo x{1..300000..2}y | wc -c",
    ];
    const results = await shellCases({}, lines, { collect: (_ws, command, r) => [command, r.stdout, r.stderr, r.exitCode] });
    expect(results).toEqual(lines.map((c) => [c, "", "bash: brace expansion result limit exceeded (100000)\n", 126]));
  });
});
