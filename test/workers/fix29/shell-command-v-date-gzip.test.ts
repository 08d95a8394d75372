/**
 * Issue 20, twenty-ninth run, fixer CZ: siblings of three attack29d findings, each compared with bash 5.2.15, GNU
 * coreutils 9.1 date and GNU gzip 1.12 (LC_ALL=C) in a temp dir.
 *
 * - Commands the shell cannot run are not commands (attack29d/shell-command-v-finds-unavailable-commands): no
 *   lookup finds them (`which`, `hash`, `type -a`/`-t`, `compgen -c`, /usr/bin), every route that runs one (`env`,
 *   `timeout`, `sh -c`, `command`, `exec`) answers the group's message with 127, a script or function of that name
 *   is found first, and with the group listed the command is found again.
 * - `date -d` refuses out-of-range fields in every form (attack29d/shell-date-impossible-day-rolls-over): slash and
 *   US dates, month names, `24:00`, minute 60, `Z` times, non-leap centuries; with TZ set, a local time that a
 *   daylight-saving change skips.
 * - gzip suffixes as GNU gzip (attack29d/shell-gzip-tgz-suffix-and-stdout): every known suffix in any case, `-S`,
 *   `.tgz`/`.taz` → `.tar`, `unknown suffix` status 2 (silent and 0 with -q or -r), `already has … suffix` status 0,
 *   -f and -c compress a `.gz` name again, `-S ''` refused, -l names, -r and -k.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh, shellCases } from "../shell/helpers.js";
import jq from "../../../src/shell/jq.js";

const JQ = 'bash: jq: command not found; it comes with the jq command group (import "agent-computer/shell/jq" and pass it in WorkerShellBackend({ commands }))\n';

it("no lookup finds a command the shell cannot run; every route that runs one answers its message, 127", async () => {
  const out = await shellCases({ files: { "p.json": "{}\n" } }, [
    "which jq; echo rc=$?",
    "hash jq; echo rc=$?",
    "type -a jq; echo rc=$?",
    "type -t jq; echo rc=$?",
    "type python3 node sqlite3; echo rc=$?",
    "compgen -c jq; echo rc=$?; compgen -c | grep -cx -e jq -e python3 -e node -e sqlite3 -e yq",
    "ls /usr/bin | grep -cx -e jq -e python3 -e node; [ -x /usr/bin/jq ] && echo yes || echo no; [ -e /bin/jq ] && echo yes || echo no",
    "env jq; echo rc=$?",
    "timeout 5 jq; echo rc=$?",
    "sh -c 'jq .'; echo rc=$?",
    "command jq; echo rc=$?",
    "(exec jq); echo rc=$?",
    "mkdir -p bin; printf '#!/bin/bash\\necho myjq\\n' > bin/jq; chmod +x bin/jq; PATH=$PWD/bin:$PATH; command -v jq; jq; echo rc=$?",
    "jq() { echo fn; }; jq; command -v jq",
    "mkdir -p bin; printf '#!/bin/bash\\necho hi\\n' > bin/mytool; chmod +x bin/mytool; PATH=$PWD/bin:$PATH; command -v mytool; command -V mytool",
    "command -v git sed awk grep; echo rc=$?",
  ]);
  expect(out).toEqual([
    // Was: "/usr/bin/jq\nrc=0\n".
    ["which jq; echo rc=$?", "rc=1\n", ""],
    // Was: "rc=0\n".
    ["hash jq; echo rc=$?", "rc=1\n", "bash: hash: jq: not found\n"],
    ["type -a jq; echo rc=$?", "rc=1\n", "bash: type: jq: not found\n"],
    // Was: "file\nrc=0\n".
    ["type -t jq; echo rc=$?", "rc=1\n", ""],
    [
      "type python3 node sqlite3; echo rc=$?",
      "rc=1\n",
      "bash: type: python3: not found\nbash: type: node: not found\nbash: type: sqlite3: not found\n",
    ],
    ["compgen -c jq; echo rc=$?; compgen -c | grep -cx -e jq -e python3 -e node -e sqlite3 -e yq", "rc=1\n0\n", ""],
    ["ls /usr/bin | grep -cx -e jq -e python3 -e node; [ -x /usr/bin/jq ] && echo yes || echo no; [ -e /bin/jq ] && echo yes || echo no", "0\nno\nno\n", ""],
    ["env jq; echo rc=$?", "rc=127\n", JQ],
    ["timeout 5 jq; echo rc=$?", "rc=127\n", JQ],
    ["sh -c 'jq .'; echo rc=$?", "rc=127\n", JQ],
    ["command jq; echo rc=$?", "rc=127\n", JQ],
    ["(exec jq); echo rc=$?", "rc=127\n", JQ],
    [
      "mkdir -p bin; printf '#!/bin/bash\\necho myjq\\n' > bin/jq; chmod +x bin/jq; PATH=$PWD/bin:$PATH; command -v jq; jq; echo rc=$?",
      "/workspace/bin/jq\nmyjq\nrc=0\n",
      "",
    ],
    ["jq() { echo fn; }; jq; command -v jq", "fn\njq\n", ""],
    // Was: "", "mytool: not found\n" (command -v looked only at registered commands, `type` found the script).
    [
      "mkdir -p bin; printf '#!/bin/bash\\necho hi\\n' > bin/mytool; chmod +x bin/mytool; PATH=$PWD/bin:$PATH; command -v mytool; command -V mytool",
      "/workspace/bin/mytool\nmytool is /workspace/bin/mytool\n",
      "",
    ],
    ["command -v git sed awk grep; echo rc=$?", "/usr/bin/git\n/usr/bin/sed\n/usr/bin/awk\n/usr/bin/grep\nrc=0\n", ""],
  ]);
});

it("with its group listed, the command is found and runs", async () => {
  const out = await inShellWorkspace(
    async (ws) => {
      const r = await sh(ws, "command -v jq; type -t jq; which jq; if command -v jq >/dev/null; then echo '{\"v\":1}' | jq .v; fi");
      return [r.exitCode, r.stdout, r.stderr];
    },
    { shell: { commands: [jq] } },
  );
  expect(out).toEqual([0, "/usr/bin/jq\nfile\n/usr/bin/jq\n1\n", ""]);
});

it("date -d refuses out-of-range fields in every form, as GNU date 9.1", async () => {
  const out = await shellCases({}, [
    "for d in 2024/02/30 02/30/2024 'Feb 30 2024' '30 Feb 2024' '2024-01-15 24:00' '2024-01-15T23:60' '2024-01-15 23:59:60' '2024-02-30T10:00Z' 1900-02-29 2100-02-29 2024-2-30; do date -d \"$d\" +%F; echo rc=$?; done",
    "for d in 2024-02-29 '2024-02-29 12:00' 2024/02/29 02/29/2024 'Feb 29 2024' '29 Feb 2024' 2000-02-29 '2024-01-15 23:59:59' 2024-1-5 'Thu Feb 29 12:00:00 UTC 2024'; do date -u -d \"$d\" '+%F %T'; done",
    "TZ=America/New_York date -d '2024-03-10 02:30' +%F; echo rc=$?; TZ=America/New_York date -d '2024-03-10 03:30' '+%F %T %Z'; TZ=America/New_York date -d 2024-02-30; echo rc=$?",
  ]);
  expect(out).toEqual([
    [
      "for d in 2024/02/30 02/30/2024 'Feb 30 2024' '30 Feb 2024' '2024-01-15 24:00' '2024-01-15T23:60' '2024-01-15 23:59:60' '2024-02-30T10:00Z' 1900-02-29 2100-02-29 2024-2-30; do date -d \"$d\" +%F; echo rc=$?; done",
      // Was: 2024-03-01 (1900-03-01, 2100-03-01; 2024-01-16 for 24:00), status 0, for all but 23:60 and 23:59:60.
      "rc=1\n".repeat(11),
      "date: invalid date '2024/02/30'\ndate: invalid date '02/30/2024'\ndate: invalid date 'Feb 30 2024'\ndate: invalid date '30 Feb 2024'\n" +
        "date: invalid date '2024-01-15 24:00'\ndate: invalid date '2024-01-15T23:60'\ndate: invalid date '2024-01-15 23:59:60'\n" +
        "date: invalid date '2024-02-30T10:00Z'\ndate: invalid date '1900-02-29'\ndate: invalid date '2100-02-29'\ndate: invalid date '2024-2-30'\n",
    ],
    [
      "for d in 2024-02-29 '2024-02-29 12:00' 2024/02/29 02/29/2024 'Feb 29 2024' '29 Feb 2024' 2000-02-29 '2024-01-15 23:59:59' 2024-1-5 'Thu Feb 29 12:00:00 UTC 2024'; do date -u -d \"$d\" '+%F %T'; done",
      "2024-02-29 00:00:00\n2024-02-29 12:00:00\n2024-02-29 00:00:00\n2024-02-29 00:00:00\n2024-02-29 00:00:00\n2024-02-29 00:00:00\n" +
        "2000-02-29 00:00:00\n2024-01-15 23:59:59\n2024-01-05 00:00:00\n2024-02-29 12:00:00\n",
      "",
    ],
    [
      "TZ=America/New_York date -d '2024-03-10 02:30' +%F; echo rc=$?; TZ=America/New_York date -d '2024-03-10 03:30' '+%F %T %Z'; TZ=America/New_York date -d 2024-02-30; echo rc=$?",
      // Was: "2024-03-09\nrc=0\n…" (the skipped hour read as UTC).
      "rc=1\n2024-03-10 03:30:00 EDT\nrc=1\n",
      "date: invalid date '2024-03-10 02:30'\ndate: invalid date '2024-02-30'\n",
    ],
  ]);
});

const gzTree = { dirs: ["d"], files: { "d/a": "1\n" } };

it("gzip reads suffixes as GNU gzip 1.12", async () => {
  const out = await shellCases(gzTree, [
    "gzip -c d/a > blob; for n in x.TGZ y.GZ z.taz w-gz v.z u-z t.Z; do cp blob $n; gunzip $n; echo $n:$?; done; ls",
    "gzip -c d/a > blob; cp blob b2; gzip -d b2; echo rc=$?; gzip -dq b2; echo rc=$?; cp blob .gz; gunzip .gz; echo rc=$?; cp blob d/.tgz; gunzip d/.tgz; echo rc=$?; ls -A . d",
    "gzip -c d/a > blob; cp blob s.foo; gunzip -S .foo s.foo; cp blob r.foo; gunzip -S foo r.foo; cp blob q.gz; gunzip -S .foo q.gz; ls",
    "echo x > p.tgz; gzip p.tgz; echo rc=$?; echo x > p2.gz; gzip -q p2.gz; echo rc=$?; gzip -f p2.gz; echo rc=$?; ls",
    "echo x > n.gz; gzip -c n.gz | gzip -dc; echo rc=$?",
    "gzip -S '' d/a; echo rc=$?; gzip -S 0000000000000000000000000000000 d/a; echo rc=$?; ls d",
    "gzip -c d/a > blob; cp blob b.tgz; cp blob c.gz; gzip -l b.tgz c.gz blob | awk '{print $NF}'",
    "gzip -c d/a > blob; mkdir dd ee; cp blob dd/x.tgz; cp blob dd/y; echo q > dd/z; gzip -dr dd; echo rc=$?; cp blob ee/x.tgz; echo q > ee/z; gzip -r ee; echo rc=$?; ls dd ee",
    "gzip -c d/a > blob; cp blob k.tgz; gzip -dk k.tgz; ls k*",
    "gzip -c d/a > blob; cp blob e.gz; gzip -d e.gz blob nosuch.gz; echo rc=$?",
    "gzip -c d/a > blob; zcat -S .foo blob; zcat blob blob; cat blob | zcat",
  ]);
  expect(out).toEqual([
    [
      "gzip -c d/a > blob; for n in x.TGZ y.GZ z.taz w-gz v.z u-z t.Z; do cp blob $n; gunzip $n; echo $n:$?; done; ls",
      // Was: each `unknown suffix -- ignored`, status 1; nothing decompressed.
      "x.TGZ:0\ny.GZ:0\nz.taz:0\nw-gz:0\nv.z:0\nu-z:0\nt.Z:0\nblob\nd\nt\nu\nv\nw\nx.tar\ny\nz.tar\n",
      "",
    ],
    [
      "gzip -c d/a > blob; cp blob b2; gzip -d b2; echo rc=$?; gzip -dq b2; echo rc=$?; cp blob .gz; gunzip .gz; echo rc=$?; cp blob d/.tgz; gunzip d/.tgz; echo rc=$?; ls -A . d",
      "rc=2\nrc=0\nrc=2\nrc=2\n.:\n.gz\nb2\nblob\nd\n\nd:\n.tgz\na\n",
      "gzip: b2: unknown suffix -- ignored\ngunzip: .gz: unknown suffix -- ignored\ngunzip: d/.tgz: unknown suffix -- ignored\n",
    ],
    ["gzip -c d/a > blob; cp blob s.foo; gunzip -S .foo s.foo; cp blob r.foo; gunzip -S foo r.foo; cp blob q.gz; gunzip -S .foo q.gz; ls", "blob\nd\nq\nr.\ns\n", ""],
    [
      "echo x > p.tgz; gzip p.tgz; echo rc=$?; echo x > p2.gz; gzip -q p2.gz; echo rc=$?; gzip -f p2.gz; echo rc=$?; ls",
      // Was: p.tgz.gz made; p2.gz statuses 1, 1, and -f refused.
      "rc=0\nrc=0\nrc=0\nd\np.tgz\np2.gz.gz\n",
      "gzip: p.tgz already has .tgz suffix -- unchanged\n",
    ],
    // Was: "rc=1\n", "gzip: n.gz already has .gz suffix -- unchanged\ngzip: stdin: not in gzip format\n".
    ["echo x > n.gz; gzip -c n.gz | gzip -dc; echo rc=$?", "x\nrc=0\n", ""],
    [
      "gzip -S '' d/a; echo rc=$?; gzip -S 0000000000000000000000000000000 d/a; echo rc=$?; ls d",
      "rc=1\nrc=1\na\n",
      "gzip: invalid suffix ''\ngzip: invalid suffix '0000000000000000000000000000000'\n",
    ],
    ["gzip -c d/a > blob; cp blob b.tgz; cp blob c.gz; gzip -l b.tgz c.gz blob | awk '{print $NF}'", "uncompressed_name\nb.tar\nc\nblob\n", ""],
    [
      "gzip -c d/a > blob; mkdir dd ee; cp blob dd/x.tgz; cp blob dd/y; echo q > dd/z; gzip -dr dd; echo rc=$?; cp blob ee/x.tgz; echo q > ee/z; gzip -r ee; echo rc=$?; ls dd ee",
      "rc=0\nrc=0\ndd:\nx.tar\ny\nz\n\nee:\nx.tgz\nz.gz\n",
      "",
    ],
    ["gzip -c d/a > blob; cp blob k.tgz; gzip -dk k.tgz; ls k*", "k.tar\nk.tgz\n", ""],
    // An error (1) wins over a warning (2), as GNU.
    ["gzip -c d/a > blob; cp blob e.gz; gzip -d e.gz blob nosuch.gz; echo rc=$?", "rc=1\n", "gzip: blob: unknown suffix -- ignored\ngzip: nosuch.gz: No such file or directory\n"],
    ["gzip -c d/a > blob; zcat -S .foo blob; zcat blob blob; cat blob | zcat", "1\n1\n1\n1\n", ""],
  ]);
});

it("gunzip d.tgz leaves d.tar with the archive's bytes and removes d.tgz", async () => {
  const out = await inShellWorkspace(async (ws) => {
    await ws.fs.mkdir("/workspace/d", { recursive: true });
    await ws.fs.writeFile("/workspace/d/a", "1\n");
    const r = await sh(ws, "tar czf d.tgz d && tar cf ref.tar d && gunzip d.tgz && cmp d.tar ref.tar && echo same");
    const tgz = await ws.fs.stat("/workspace/d.tgz").then(() => true, () => false);
    const size = (await ws.fs.stat("/workspace/d.tar")).size;
    return [r.exitCode, r.stdout, r.stderr, tgz, size > 0 && size === (await ws.fs.stat("/workspace/ref.tar")).size];
  });
  expect(out).toEqual([0, "same\n", "", false, true]);
});
