/**
 * Issue 20, run 26, fixer SD: siblings of test/workers/attack26b/shell-umask-builtin-missing.test.ts. The `umask`
 * builtin reads and sets its mask as bash 5.2 (octal, symbolic, -S, -p, bash's messages), and every place the shell
 * creates a file or directory or applies the mask uses it: `>>`, `mkdir -p`, `chmod +r`, `tar -x` (as GNU tar 1.34
 * for a user who is not root: `--no-same-permissions`), `cp`, `cp -r`; gzip keeps its input's mode whatever the mask
 * (GNU gzip 1.12). A child (`$(…)`, `( … )`, `bash -c`) gets the caller's mask and cannot change it, and each run
 * starts with 022. Expected outputs are bash 5.2.15's and GNU coreutils 9.1's on Linux.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("umask parses and prints as bash 5.2, and each run starts with 022", async () => {
  const out = await shellCases({}, [
    "umask -p; umask -p -S; umask 0o77; echo st=$?; umask u=rwq; echo st=$?; umask 'u*r'; echo st=$?; umask -x; echo st=$?; umask",
    "umask u=rwx,g=,o=; umask; umask g+rx; umask; umask -S 077; umask a=rx,u+w; umask; umask +w; umask; umask 7777; umask",
    "umask 077; umask",
    "umask",
  ]);
  expect(out).toEqual([
    [
      "umask -p; umask -p -S; umask 0o77; echo st=$?; umask u=rwq; echo st=$?; umask 'u*r'; echo st=$?; umask -x; echo st=$?; umask",
      "umask 0022\numask -S u=rwx,g=rx,o=rx\nst=1\nst=1\nst=1\nst=2\n0022\n",
      "bash: umask: 0o77: octal number out of range\nbash: umask: `q': invalid symbolic mode character\nbash: umask: `*': invalid symbolic mode operator\nbash: umask: -x: invalid option\numask: usage: umask [-p] [-S] [mode]\n",
    ],
    ["umask u=rwx,g=,o=; umask; umask g+rx; umask; umask -S 077; umask a=rx,u+w; umask; umask +w; umask; umask 7777; umask", "0077\n0027\nu=rwx,g=,o=\n0022\n0000\n0777\n", ""],
    ["umask 077; umask", "0077\n", ""],
    // A new run: the mask set by the one before is gone.
    ["umask", "0022\n", ""],
  ]);
});

it("files and directories the shell makes get the mask, as bash and GNU", async () => {
  const out = await shellCases({ files: { "f.txt": "x\n" } }, [
    "umask 077; echo a >> app; stat -c %a app",
    "umask 027; mkdir -p x/y; mkdir z; stat -c %a x x/y z",
    "chmod 600 f.txt; umask 027; chmod +r f.txt; stat -c %a f.txt",
    "mkdir s; echo x > s/m; chmod 666 s/m; tar -cf a.tar s; rm -r s; umask 077; tar -xf a.tar; stat -c %a s s/m",
    "chmod 755 f.txt; umask 077; cp f.txt c; mkdir d; cp -r d e; stat -c %a c e",
    "umask 000; echo > z; mkdir zd; stat -c %a z zd",
    "umask 077; gzip -k f.txt; stat -c %a f.txt.gz",
  ]);
  expect(out).toEqual([
    ["umask 077; echo a >> app; stat -c %a app", "600\n", ""],
    ["umask 027; mkdir -p x/y; mkdir z; stat -c %a x x/y z", "750\n750\n750\n", ""],
    ["chmod 600 f.txt; umask 027; chmod +r f.txt; stat -c %a f.txt", "640\n", ""],
    ["mkdir s; echo x > s/m; chmod 666 s/m; tar -cf a.tar s; rm -r s; umask 077; tar -xf a.tar; stat -c %a s s/m", "700\n600\n", ""],
    ["chmod 755 f.txt; umask 077; cp f.txt c; mkdir d; cp -r d e; stat -c %a c e", "700\n700\n", ""],
    ["umask 000; echo > z; mkdir zd; stat -c %a z zd", "666\n777\n", ""],
    ["umask 077; gzip -k f.txt; stat -c %a f.txt.gz", "644\n", ""],
  ]);
});

it("a child shell starts with the caller's mask and cannot change it", async () => {
  const out = await shellCases({}, [
    "umask 077; x=$(umask 022); umask; bash -c umask; (umask 000); umask; bash -c 'umask 022'; touch t; stat -c %a t",
    "umask 077; echo umask > s.sh; bash s.sh; (umask 022; umask); umask",
  ]);
  expect(out).toEqual([
    ["umask 077; x=$(umask 022); umask; bash -c umask; (umask 000); umask; bash -c 'umask 022'; touch t; stat -c %a t", "0077\n0077\n0077\n600\n", ""],
    ["umask 077; echo umask > s.sh; bash s.sh; (umask 022; umask); umask", "0077\n0022\n0077\n", ""],
  ]);
});
