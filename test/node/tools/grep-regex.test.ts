/**
 * Issue 12 §1 through the grep tool: the hostile pattern returns an empty
 * page at once, and a pattern the linear-time engine cannot run comes back
 * as an error result naming the construct — in the core tool and in the AI
 * SDK, pi (0.74 and 1.x) and TanStack loops.
 */
import { describe, expect, it } from "vitest";
import { grepDefinition, grepInputSchema } from "../../../src/tools/core/grep.js";
import { drivers } from "./adapter-drivers.js";
import { setup } from "./helpers.js";

const HOSTILE = "x".repeat(40) + "!";
const FILES = { "/workspace/x.txt": HOSTILE + "\n", "/workspace/q.ts": 'const a = "one";\nconst b = \'two\';\n' };
const HOSTILE_CALL = { path: "/workspace/x.txt", query: "(x+x+)+y", regex: true };
const HOSTILE_RESULT = { path: "/workspace/x.txt", query: "(x+x+)+y", count: 0, matches: [] };
const SUFFIX = "is not supported (grep uses a linear-time engine: RE2 syntax, no backreferences or lookaround)";
const BACKREF_CALL = { path: "/workspace", query: "(['\"]).*\\1", regex: true };
const BACKREF_ERROR = `Invalid regular expression: /(['"]).*\\1/: backreference \\1 ${SUFFIX}`;
const LOOKAHEAD_CALL = { path: "/workspace", query: "const (?=b)", regex: true };
const LOOKAHEAD_ERROR = `Invalid regular expression: /const (?=b)/: lookahead (?=…) ${SUFFIX}`;
/** What the model can write instead of the backreference: both quote kinds, spelt out. */
const INSTEAD_CALL = { path: "/workspace", query: "\"[^\"]*\"|'[^']*'", regex: true };
const INSTEAD_RESULT = {
  path: "/workspace",
  query: "\"[^\"]*\"|'[^']*'",
  count: 2,
  matches: [
    { path: "/workspace/q.ts", line: 1, text: 'const a = "one";' },
    { path: "/workspace/q.ts", line: 2, text: "const b = 'two';" },
  ],
};

describe("grep tool, regex in linear time (issue 12 §1)", () => {
  it("core tool: the reproduction returns an empty page quickly; unsupported constructs are error results", async () => {
    const { workspace } = await setup(FILES);
    const grep = grepDefinition({ workspace });
    const started = performance.now();
    expect(await grep.execute(HOSTILE_CALL as never)).toEqual(HOSTILE_RESULT);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await grep.execute(BACKREF_CALL as never)).toEqual({ error: BACKREF_ERROR });
    expect(await grep.execute(LOOKAHEAD_CALL as never)).toEqual({ error: LOOKAHEAD_ERROR });
    expect(await grep.execute(INSTEAD_CALL as never)).toEqual(INSTEAD_RESULT);
    // ignoreCase still works on both engines.
    expect(await grep.execute({ path: "/workspace/x.txt", query: "(X+X+)+!", regex: true, ignoreCase: true } as never)).toMatchObject({ count: 1 });
    expect(await grep.execute({ path: "/workspace/q.ts", query: "CONST \\w", regex: true, ignoreCase: true } as never)).toMatchObject({ count: 2 });
  });

  it("the regex field tells the model the syntax", () => {
    expect(grepInputSchema.shape.regex.description).toBe(
      "Treat query as a regular expression (default false: literal). RE2 syntax, written as in JavaScript: no backreferences or lookaround.",
    );
  });

  for (const driver of drivers()) {
    it(`${driver.name}: the model sees the empty page and the error texts`, async () => {
      const { workspace } = await setup(FILES);
      const tools = driver.build({ workspace });
      const started = performance.now();
      expect(await driver.call(tools, "grep", HOSTILE_CALL)).toEqual({ isError: false, text: JSON.stringify(HOSTILE_RESULT) });
      expect(performance.now() - started).toBeLessThan(5000);
      expect(await driver.call(tools, "grep", BACKREF_CALL)).toEqual({ isError: true, text: BACKREF_ERROR });
      expect(await driver.call(tools, "grep", LOOKAHEAD_CALL)).toEqual({ isError: true, text: LOOKAHEAD_ERROR });
      expect(await driver.call(tools, "grep", INSTEAD_CALL)).toEqual({ isError: false, text: JSON.stringify(INSTEAD_RESULT) });
    });
  }
});
