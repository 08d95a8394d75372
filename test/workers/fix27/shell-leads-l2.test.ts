/**
 * Issue 20, twenty-seventh run, fixer L2: leads the lead found (no attack test), each expectation taken from GNU bash
 * 5.2.15 (and mawk 1.3.4 / gawk 5.2.1 for awk) run side by side. Helpers in
 * src/backends/worker-shell/isolate/leads-l2.ts, patched into just-bash by scripts/gen-shell.mjs (entries `// L2`).
 */
import { describe, expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

type Result = { stdout: string; stderr: string; exitCode: number };
const withStatus = { collect: (_ws: unknown, c: string, r: Result) => [c, r.stdout, r.stderr, r.exitCode] as const };
const TREE = { dirs: ["d"], files: { "a.md": "", "b.txt": "", "c.txt": "", ".hid": "", ".x.md": "", "d/e.md": "", "d/f.sh": "" } };

describe("extglob !(…) without a lookahead (leads-l2.ts globMatch)", () => {
  it("[[ == ]], case and nested groups as bash", async () => {
    const t = (word: string, pattern: string) => `[[ ${word} == ${pattern} ]] && echo y || echo n`;
    const cases: [string, string][] = [
      ["shopt -s extglob; [[ foo.txt == !(*.md) ]] && echo yes || echo no", "yes\n"],
      [t("foo.md", "!(*.md)"), "n\n"],
      [t("foo.txt", "!(foo).txt"), "n\n"],
      [t("bar.txt", "!(foo).txt"), "y\n"],
      [t(".txt", "!(foo).txt"), "y\n"],
      [t("foo.txt", "!(f*)"), "n\n"],
      [t("abc", "a!(b)c"), "n\n"],
      [t("abbc", "a!(b)c"), "y\n"],
      [t("ac", "a!(b)c"), "y\n"],
      [t('""', "!(x)"), "y\n"],
      [t("x", "!(x)"), "n\n"],
      [t("a/b", "!(x)"), "y\n"],
      [t(".hid", "!(x)"), "y\n"],
      [t("abc", "!(!(abc))"), "y\n"],
      [t("ab", "!(@(a|b))"), "y\n"],
      [t("ab", "!(a|b|ab)"), "n\n"],
      [t("foo", "*(f|o)"), "y\n"],
      [t("foo", "+(fo)"), "n\n"],
      [t("x.c", "!([ab]).c"), "y\n"],
      [t("a.c", "!([ab]).c"), "n\n"],
      [t("a.txt", '!("*.md")'), "y\n"],
      [t("'*.md'", '!("*.md")'), "n\n"],
      ["shopt -s nocasematch; [[ FOO.MD == !(*.md) ]] && echo y || echo n", "n\n"],
      ["p='!(*.md)'; [[ a.txt == $p ]] && echo y || echo n; [[ a.txt == \"$p\" ]] && echo y || echo n", "y\nn\n"],
      ["shopt -s extglob\ncase foo.txt in !(*.md)) echo yes;; *) echo no;; esac", "yes\n"],
      ["shopt -s extglob nocasematch\ncase FOO.MD in !(*.md)) echo yes;; *) echo no;; esac", "no\n"],
      ["shopt -s extglob\ncase x.c in @(*.c|*.h)) echo ch;; esac", "ch\n"],
    ];
    const out = await shellCases({}, cases.map(([command]) => command), withStatus);
    expect(out).toEqual(cases.map(([command, stdout]) => [command, stdout, "", 0]));
  });

  it("pathname expansion: hidden names, dotglob, directories, quoting, rm", async () => {
    const out = await shellCases(TREE, [
      "shopt -s extglob\necho 1 !(*.md)\necho 2 !(*.txt|*.md)\necho 3 .!(md)\necho 4 d/!(*.md)\necho 5 !(a).md\necho 6 x!(*.md) \"!(*.md)\"\necho 7 !(zzz)",
      "shopt -s extglob\necho @(a|b).* +(a|b|c).txt ?(a).md *(c).txt",
      "shopt -s extglob dotglob\necho !(*.md)",
      "shopt -s extglob\nfor f in !(d); do echo \"[$f]\"; done",
    ], withStatus);
    expect(out).toEqual([
      [expect.any(String), "1 b.txt c.txt d\n2 d\n3 .hid .x.md\n4 d/f.sh\n5 !(a).md\n6 x!(*.md) !(*.md)\n7 a.md b.txt c.txt d\n", "", 0],
      [expect.any(String), "a.md b.txt b.txt c.txt a.md c.txt\n", "", 0],
      [expect.any(String), ".hid b.txt c.txt d\n", "", 0],
      [expect.any(String), "[a.md]\n[b.txt]\n[c.txt]\n", "", 0],
    ]);
    const left = await shellCases(TREE, ["shopt -s extglob\nrm -f !(*.txt|d)\necho $?"], {
      collect: async (ws, _c, r) => [r.stdout, r.stderr, (await ws.fs.readdir("/workspace")).map((e) => (typeof e === "string" ? e : e.name)).sort()],
    });
    expect(left).toEqual([["0\n", "", [".hid", ".x.md", "b.txt", "c.txt", "d"]]]);
  });

  it("!( is a word only where extglob is on when the line is parsed, as bash", async () => {
    const out = await shellCases({}, [
      "case x in !(y)) echo m;; esac",
      "shopt -s extglob\nshopt -u extglob\ncase x in !(y)) echo m;; esac",
      "! (exit 1); echo $?",
      "shopt -s extglob\n! (exit 1); echo $?",
    ], { collect: (_ws, c, r) => [c, r.stdout, r.stderr === "" ? "" : "error", r.exitCode] });
    expect(out).toEqual([
      ["case x in !(y)) echo m;; esac", "", "error", 2],
      ["shopt -s extglob\nshopt -u extglob\ncase x in !(y)) echo m;; esac", "", "error", 2],
      ["! (exit 1); echo $?", "0\n", "", 0],
      ["shopt -s extglob\n! (exit 1); echo $?", "0\n", "", 0],
    ]);
  });
});

describe("test/[ of four or more arguments checks integer operands", () => {
  it("prints bash's error and exits 2 through -a, -o, ! and ( )", async () => {
    const cases: [string, string, string][] = [
      ["[ a -eq 1 -o b = b ]; echo $?", "2\n", "bash: [: a: integer expression expected\n"],
      ["[ 1 -eq 2 -a x -eq 1 ]; echo $?", "2\n", "bash: [: x: integer expression expected\n"],
      ["[ ! a -eq 1 ]; echo $?", "2\n", "bash: [: a: integer expression expected\n"],
      ["[ \\( a -eq 1 \\) ]; echo $?", "2\n", "bash: [: a: integer expression expected\n"],
      ["test a -eq 1 -o 1 = 1; echo $?", "2\n", "bash: test: a: integer expression expected\n"],
      ['test 1 -eq 1 -a "" -lt 2; echo $?', "2\n", "bash: test: : integer expression expected\n"],
      ["[ a b c d e ]; echo $?", "2\n", "bash: [: too many arguments\n"],
      ["[ 1 -eq 1 -o 2 -gt 1 ]; echo $?; [ 1 -eq 2 -o 2 -gt 3 ]; echo $?", "0\n1\n", ""],
      ["[ ! -z a ]; echo $?; [ ! a ]; echo $?", "0\n1\n", ""],
    ];
    const out = await shellCases({}, cases.map(([command]) => command), withStatus);
    expect(out).toEqual(cases.map(([command, stdout, stderr]) => [command, stdout, stderr, 0]));
  });
});

describe("an arithmetic expansion error discards the rest of the line, as bash", () => {
  it("prints bash's text, runs the next line with $? 1", async () => {
    const cases: [string, string, string][] = [
      ["echo $((5/0)) more; echo next $?\necho line2 $?", "line2 1\n", 'bash: line 1: 5/0: division by 0 (error token is "0")\n'],
      ["echo a\necho $((5/0))\necho b", "a\nb\n", 'bash: line 2: 5/0: division by 0 (error token is "0")\n'],
      ["x=$((5/0)); echo after $?\necho line2", "line2\n", 'bash: line 1: 5/0: division by 0 (error token is "0")\n'],
      ["if true; then echo $((1/0)); echo in; fi; echo after\necho l2", "l2\n", 'bash: line 1: 1/0: division by 0 (error token is "0")\n'],
      ["if true; then\necho $((1/0)); echo in\nfi; echo after\necho l2 $?", "l2 1\n", 'bash: line 2: 1/0: division by 0 (error token is "0")\n'],
      ["echo $((1/0)) && echo and || echo or\necho l2", "l2\n", 'bash: line 1: 1/0: division by 0 (error token is "0")\n'],
      ["for i in 1 2; do echo $((i/0)); echo in; done; echo after\necho l2", "l2\n", 'bash: line 1: i/0: division by 0 (error token is "0")\n'],
      ["( echo $((1/0)) ); echo after $?", "after 1\n", 'bash: line 1: 1/0: division by 0 (error token is "0")\n'],
      [
        "echo $(( 5 / 0 )); echo x\necho $((2**-1))\necho $((5/(1-1)))\necho $((5/0+1))\necho $((08))\necho $((1+))\necho end",
        "end\n",
        [
          'bash: line 1: 5 / 0 : division by 0 (error token is "0 ")',
          'bash: line 2: 2**-1: exponent less than 0 (error token is "1")',
          'bash: line 3: 5/(1-1): division by 0 (error token is "(1-1)")',
          'bash: line 4: 5/0+1: division by 0 (error token is "0+1")',
          'bash: line 5: 08: value too great for base (error token is "08")',
          'bash: line 6: 1+: syntax error: operand expected (error token is "+")',
          "",
        ].join("\n"),
      ],
    ];
    const out = await shellCases({}, cases.map(([command]) => command), withStatus);
    expect(out).toEqual(cases.map(([command, stdout, stderr]) => [command, stdout, stderr, 0]));
  });
});

describe("exec COMMAND replaces the shell", () => {
  it("ends the shell with the command's status and runs no EXIT trap", async () => {
    const cases: [string, string, number][] = [
      ["trap 'echo bye' EXIT; exec echo hi", "hi\n", 0],
      ["trap 'echo bye' EXIT; exec echo hi; echo after", "hi\n", 0],
      ["exec sh -c 'exit 3'; echo after", "", 3],
      ["exec false; echo after", "", 1],
      ["( exec echo in ); echo after $?", "in\nafter 0\n", 0],
      ["trap 'echo bye' EXIT; exec 2>/dev/null; echo still", "still\nbye\n", 0],
    ];
    const out = await shellCases({}, cases.map(([command]) => command), withStatus);
    expect(out).toEqual(cases.map(([command, stdout, status]) => [command, stdout, "", status]));
  });
});

describe("awk: FILENAME of standard input, a file that cannot be opened", () => {
  it("names standard input - and exits 2 on a missing file, as gawk 5.2 and mawk", async () => {
    const out = await shellCases({ files: { f: "a\n" } }, [
      "echo hi | awk '{print FILENAME \"|\"}'; echo x | awk '{print FILENAME}' -; awk 'BEGIN{print FILENAME \"|\"}'",
      "awk '{print}' nope; echo $?",
      "awk '{print}' nope f; echo $?",
    ], withStatus);
    expect(out).toEqual([
      [expect.any(String), "-|\n-\n|\n", "", 0],
      // gawk's message is `awk: fatal: cannot open file `nope' for reading: No such file or directory`.
      ["awk '{print}' nope; echo $?", "2\n", "awk: nope: No such file or directory\n", 0],
      ["awk '{print}' nope f; echo $?", "2\n", "awk: nope: No such file or directory\n", 0],
    ]);
  });
});

describe("export NAME without a value", () => {
  it("marks the name exported and leaves it unset until it gets a value", async () => {
    const cases: [string, string, number][] = [
      ["export v; echo \"${v-unset}\"; env | grep -c '^v='; echo $?", "unset\n0\n1\n", 0],
      ["export v; declare -p v; export -p | grep ' v'; v=1; env | grep '^v='; declare -p v", "declare -x v\ndeclare -x v\nv=1\ndeclare -x v=\"1\"\n", 0],
      ["export v; bash -c 'echo \"${v-unset}\"'; v=2; bash -c 'echo \"${v-unset}\"'", "unset\n2\n", 0],
      ["v=x; export v; env | grep '^v='; export -n v; env | grep -c '^v='", "v=x\n0\n", 1],
      ["export v; printenv v; echo $?; unset v; export -p | grep -c ' v'", "1\n0\n", 1],
    ];
    const out = await shellCases({}, cases.map(([command]) => command), withStatus);
    expect(out).toEqual(cases.map(([command, stdout, status]) => [command, stdout, "", status]));
  });
});
