/**
 * Issue 20, run 39 (lead): console.log/info/debug/warn/error in a JavaScript run apply Node's util.format
 * specifiers (%s %d %i %f %j %o %O %c %%) — sibling of test/workers/attack39b/js-console-format-specifiers-ignored.
 * The expected texts were printed by Node 22.23.3 (util.format, which console uses) for the same calls; objects are
 * left out on purpose (the runner prints objects as JSON, a documented difference).
 */
import { expect, it } from "vitest";
import { inWorkspace } from "../runtime/helpers.js";

const ROWS: [call: string, stdout: string, stderr: string][] = [
  [
    "console.log(\"Processed %d files in %s\", 5, \"src\")",
    "Processed 5 files in src\n",
    ""
  ],
  [
    "console.log(\"%s|%d|%i|%f\", -0, -0, \"0x10\", \"1e3x\")",
    "-0|-0|16|1000\n",
    ""
  ],
  [
    "console.log(\"100%%\")",
    "100%%\n",
    ""
  ],
  [
    "console.log(\"100%%\", 1)",
    "100% 1\n",
    ""
  ],
  [
    "console.log(\"%s:%s\", \"foo\")",
    "foo:%s\n",
    ""
  ],
  [
    "console.log(\"%c x\", \"color:red\", 2)",
    " x 2\n",
    ""
  ],
  [
    "console.log(\"%d\", 5n, \"%s\", 3n)",
    "5n %s 3n\n",
    ""
  ],
  [
    "console.log(\"%s\", Symbol(\"q\"))",
    "Symbol(q)\n",
    ""
  ],
  [
    "console.log(\"%d\", Symbol(\"q\"))",
    "NaN\n",
    ""
  ],
  [
    "console.log(\"%i|%f\", 3n, 3n)",
    "3n|3\n",
    ""
  ],
  [
    "console.log(\"a%\", 1)",
    "a% 1\n",
    ""
  ],
  [
    "console.log(\"%x %s\", 1)",
    "%x 1\n",
    ""
  ],
  [
    "console.log(\"%s\", null, undefined)",
    "null undefined\n",
    ""
  ],
  [
    "console.log(\"%d\", \"abc\", \"%d\")",
    "NaN %d\n",
    ""
  ],
  [
    "console.log(5, \"%s\", 1)",
    "5 %s 1\n",
    ""
  ],
  [
    "console.log(\"%\", 1)",
    "% 1\n",
    ""
  ],
  [
    "console.log(\"%5d\", 1)",
    "%5d 1\n",
    ""
  ],
  [
    "console.log(\"%i\", 2.9)",
    "2\n",
    ""
  ],
  [
    "console.log(\"%d\", \"\")",
    "0\n",
    ""
  ],
  [
    "console.log(\"%s %% %s\", \"a\")",
    "a % %s\n",
    ""
  ],
  [
    "console.log(\"%j|%j|%j\", 1, \"s\", undefined)",
    "1|\"s\"|undefined\n",
    ""
  ],
  [
    "console.log(\"%s=%d\", \"n\", true)",
    "n=1\n",
    ""
  ],
  [
    "console.log(\"%i\", \"abc\")",
    "NaN\n",
    ""
  ],
  [
    "console.log(\"%f\", \"-0\")",
    "-0\n",
    ""
  ],
  [
    "console.log(\"%s\", 1.5e300, 2)",
    "1.5e+300 2\n",
    ""
  ],
  [
    "console.error(\"failed: %s\", \"disk\")",
    "",
    "failed: disk\n"
  ],
  [
    "console.warn(\"%d%%\", 50)",
    "",
    "50%\n"
  ],
  [
    "console.info(\"%s\", \"\")",
    "\n",
    ""
  ],
  [
    "console.log(\"%s%s%s\", \"a\", \"b\")",
    "ab%s\n",
    ""
  ],
  [
    "console.log(\"%%s\", \"a\")",
    "%s a\n",
    ""
  ]
];

it("each console call prints what Node 22 prints", async () => {
  const source = "export default async () => {\n" + ROWS.map(([c]) => c + ";\nconsole.log(\"@@\"); console.error(\"@@\");\n").join("") + "return 0; }";
  const r = await inWorkspace(async (ws) => (await ws.runtime.exec(source, { encoding: "utf8", timeoutMs: 20_000 })).result());
  expect(r.status).toBe("completed");
  const outs = String(r.stdout).split("@@\n");
  const errs = String(r.stderr).split("@@\n");
  expect(ROWS.map(([c], k) => [c, outs[k], errs[k]])).toEqual(ROWS);
}, 60_000);
