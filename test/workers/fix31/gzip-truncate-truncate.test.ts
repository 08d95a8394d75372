/**
 * Issue 20, run 31, fixer GZ: `truncate` as GNU coreutils 9.1. just-bash has none — `truncate -s 0 app.log` was
 * `bash: truncate: command not found`, status 127 — though agent scripts use it. Every expectation below is what GNU
 * coreutils 9.1 printed for the same command and tree (a file f of "hello world\n" and a directory d) in a temp dir
 * with LC_ALL=C, except the Workspace's bound, which GNU does not have: the Workspace has no sparse files, so a new
 * size past 64 MiB (the shell's read bound) is `File too large` (EFBIG), status 1, the file as it was.
 *
 * Fixed: src/backends/worker-shell/isolate/truncate.ts (a custom command of the shell worker, listed in /usr/bin).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh, shellCases } from "../shell/helpers.js";

const MiB = 1024 * 1024;

it("truncate sizes, prefixes, options, errors and statuses as GNU coreutils 9.1", async () => {
  const expected: [string, string, string][] = [
    ["truncate -s 0 f; echo rc=$?; wc -c < f", "rc=0\n0\n", ""],
    ["truncate -s 5 f; echo rc=$?; od -c f", "rc=0\n0000000   h   e   l   l   o\n0000005\n", ""],
    ["truncate -s +3 f; echo rc=$?; od -c f", "rc=0\n0000000   h   e   l   l   o       w   o   r   l   d  \\n  \\0  \\0  \\0\n0000017\n", ""],
    ["truncate -s -5 f; echo rc=$?; cat f", "rc=0\nhello w", ""],
    ["truncate -s -100 f; echo rc=$?; wc -c < f", "rc=0\n0\n", ""],
    ["truncate -s 1K g; wc -c < g; truncate -s 1KB g; wc -c < g; truncate -s 1KiB g; wc -c < g; truncate -s 1kB g; wc -c < g; truncate -s 1KD g; wc -c < g", "1024\n1000\n1024\n1000\n1000\n", ""],
    ["truncate -s 1M h; echo rc=$?; wc -c < h; od -An -c h | head -2", "rc=0\n1048576\n  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0  \\0\n*\n", ""],
    ["truncate -s K f; wc -c < f; truncate -s 010 f; wc -c < f; truncate -s ' +4' f; wc -c < f", "1024\n10\n14\n", ""],
    ["truncate -s x f; echo rc=$?; truncate -s '' f; echo rc=$?; truncate -s 1e f; echo rc=$?; truncate -s 2b f; echo rc=$?; truncate -s 1.5K f; echo rc=$?; truncate -s 0x10 f; echo rc=$?; truncate -s '+ 4' f; echo rc=$?; truncate -s 1Ki f; echo rc=$?; wc -c < f", "rc=1\nrc=1\nrc=1\nrc=1\nrc=1\nrc=1\nrc=1\nrc=1\n12\n", "truncate: Invalid number: 'x'\ntruncate: Invalid number: ''\ntruncate: Invalid number: '1e'\ntruncate: Invalid number: '2b'\ntruncate: Invalid number: '1.5K'\ntruncate: Invalid number: '0x10'\ntruncate: Invalid number: '+ 4'\ntruncate: Invalid number: '1Ki'\n"],
    ["truncate -s 9223372036854775808 f; echo rc=$?; truncate -s 100E f; echo rc=$?; truncate -s 9999999999999999999K f; echo rc=$?", "rc=1\nrc=1\nrc=1\n", "truncate: Invalid number: '9223372036854775808': Value too large for defined data type\ntruncate: Invalid number: '100E': Value too large for defined data type\ntruncate: Invalid number: '9999999999999999999K': Value too large for defined data type\n"],
    ["truncate -s 5 d; echo rc=$?; truncate -s 5 nod/f; echo rc=$?; truncate -c -s 5 nod/f; echo rc=$?; truncate -s 5 f/; echo rc=$?; truncate -s 5 new/; echo rc=$?; truncate -c -s 5 new/; echo rc=$?; truncate -c -s 5 f/; echo rc=$?; ls", "rc=1\nrc=1\nrc=0\nrc=1\nrc=1\nrc=0\nrc=1\nd\nf\n", "truncate: cannot open 'd' for writing: Is a directory\ntruncate: cannot open 'nod/f' for writing: No such file or directory\ntruncate: cannot open 'f/' for writing: Is a directory\ntruncate: cannot open 'new/' for writing: Is a directory\ntruncate: cannot open 'f/' for writing: Not a directory\n"],
    ["truncate -c -s 5 nope; echo rc=$?; ls", "rc=0\nd\nf\n", ""],
    ["truncate -s 5 f d g3; echo rc=$?; ls; wc -c < g3", "rc=1\nd\nf\ng3\n5\n", "truncate: cannot open 'd' for writing: Is a directory\n"],
    ["truncate -r nope f; echo rc=$?; truncate -r f -s 5 g; echo rc=$?; truncate -r f g; echo rc=$?; wc -c < g; truncate -r f -s +2 g2; wc -c < g2; truncate -r f -s '<3' g4; wc -c < g4", "rc=1\nrc=1\nrc=0\n12\n14\n3\n", "truncate: cannot stat 'nope': No such file or directory\ntruncate: you must specify a relative '--size' with '--reference'\nTry 'truncate --help' for more information.\n"],
    ["truncate -s +5 -s +3 f; echo rc=$?; truncate -s /0 f; echo rc=$?; truncate -s %0 f; echo rc=$?; truncate -s '/-5' f; echo rc=$?", "rc=1\nrc=1\nrc=1\nrc=1\n", "truncate: multiple relative modifiers specified\nTry 'truncate --help' for more information.\ntruncate: division by zero\ntruncate: division by zero\ntruncate: multiple relative modifiers specified\nTry 'truncate --help' for more information.\n"],
    ["truncate -s 100 f; truncate -s /30 f; wc -c < f; truncate -s %40 f; wc -c < f; truncate -s '<10' f; wc -c < f; truncate -s '>20' f; wc -c < f; truncate -s '<100' f; wc -c < f", "90\n120\n10\n20\n20\n", ""],
    ["truncate -o f; echo rc=$?; truncate -o -s 2 f; echo rc=$?; wc -c < f; truncate -o -s 9223372036854775807 f; echo rc=$?", "rc=1\nrc=0\n8192\nrc=1\n", "truncate: you must specify either '--size' or '--reference'\nTry 'truncate --help' for more information.\ntruncate: overflow in 9223372036854775807 * 4096 byte blocks for file 'f'\n"],
    ["truncate -s; echo rc=$?; truncate --size; echo rc=$?; truncate -x; echo rc=$?; truncate --bogus; echo rc=$?; truncate f; echo rc=$?; truncate -s 5; echo rc=$?; truncate --no-create=1 -s 1 f; echo rc=$?", "rc=1\nrc=1\nrc=1\nrc=1\nrc=1\nrc=1\nrc=1\n", "truncate: option requires an argument -- 's'\nTry 'truncate --help' for more information.\ntruncate: option '--size' requires an argument\nTry 'truncate --help' for more information.\ntruncate: invalid option -- 'x'\nTry 'truncate --help' for more information.\ntruncate: unrecognized option '--bogus'\nTry 'truncate --help' for more information.\ntruncate: you must specify either '--size' or '--reference'\nTry 'truncate --help' for more information.\ntruncate: missing file operand\nTry 'truncate --help' for more information.\ntruncate: option '--no-create' doesn't allow an argument\nTry 'truncate --help' for more information.\n"],
    ["truncate --si=3 f; wc -c < f; truncate --s=4 f; wc -c < f; truncate f -s 7; wc -c < f; truncate -cs2 f; wc -c < f; truncate --size 6 --no-create f nope; echo rc=$?; wc -c < f; ls", "3\n4\n7\n2\nrc=0\n6\nd\nf\n", ""],
    ["truncate -s 3 -- -c; echo rc=$?; ls; truncate -s 2 -; stat -c %s ./-", "rc=0\n-c\nd\nf\n2\n", ""],
    ["ln -s tgt lnk; truncate -s 3 lnk; echo rc=$?; stat -c %s tgt; chmod 600 f; truncate -s 2 f; stat -c '%a %s' f", "rc=0\n3\n600 2\n", ""],
    ["truncate -s 9223372036854775807 f; echo rc=$?; wc -c < f; truncate -s +9223372036854775807 f; echo rc=$?", "rc=1\n12\nrc=1\n", "truncate: failed to truncate 'f' at 9223372036854775807 bytes: File too large\ntruncate: overflow extending size of file 'f'\n"],
    ["truncate --version | head -1; truncate --help | head -2", "truncate (GNU coreutils) 9.1\nUsage: truncate OPTION... FILE...\nShrink or extend the size of each FILE to the specified size\n", ""],
    ["command -v truncate; type -t truncate", "/usr/bin/truncate\nfile\n", ""],
  ];
  // Was: each one "bash: truncate: command not found" (127).
  const out = await shellCases({ dirs: ["d"], files: { f: "hello world\n" } }, expected.map(([c]) => c));
  expect(out).toEqual(expected);
}, 120_000);

it("a new size past the shell's read bound is File too large; a large file may still be cut", async () => {
  await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace", { recursive: true });
    await ws.fs.writeFile("/workspace/f", "hello world\n");
    const huge = new Uint8Array(70 * MiB);
    huge.set(new TextEncoder().encode("0123456789abcdef"));
    await ws.fs.writeFile("/workspace/huge", huge);
    await ws.fs.writeFile("/workspace/huge2", huge);
    const r = await sh(
      ws,
      "truncate -s 65M f; echo rc=$?; wc -c < f; truncate -s 1T new; echo rc=$?; wc -c < new; truncate -s 64M g; echo rc=$?; wc -c < g; " +
        "truncate -s +1 huge; echo rc=$?; truncate -s '<100M' huge; echo rc=$?; truncate -s 10 huge; echo rc=$?; cat huge; echo; truncate -s 0 huge2; echo rc=$?; wc -c < huge2",
      { cwd: "/workspace" },
    );
    expect([r.stdout, r.stderr]).toEqual([
      "rc=1\n12\nrc=1\n0\nrc=0\n67108864\nrc=1\nrc=0\nrc=0\n0123456789\nrc=0\n0\n",
      "truncate: failed to truncate 'f' at 68157440 bytes: File too large\n" +
        "truncate: failed to truncate 'new' at 1099511627776 bytes: File too large\n" +
        "truncate: failed to truncate 'huge' at 73400321 bytes: File too large\n",
    ]);
  });
}, 300_000);
