import { describe, expect, it } from "vitest";
import { CliUsageError, parseArgs, splitGlobal, type ArgsSpec } from "../../../src/git/cli/parse.js";
import { parseAuthor, parseGitDate, repoRelative } from "../../../src/git/cli/context.js";

const commit: ArgsSpec = {
  flags: [
    { name: "message", short: "m", value: "required", multiple: true },
    { name: "all", short: "a" },
    { name: "amend" },
    { name: "author", value: "required" },
  ],
};
const clone: ArgsSpec = {
  flags: [
    { name: "depth", value: "required" },
    { name: "branch", short: "b", value: "required" },
    { name: "single-branch", negatable: true },
    { name: "porcelain", value: "optional" },
  ],
};
const clean: ArgsSpec = { flags: [{ name: "force", short: "f" }, { name: "dry-run", short: "n" }, { name: "d" }] };
const log: ArgsSpec = { flags: [{ name: "max-count", short: "n", value: "required" }, { name: "oneline" }], numericFlag: "max-count" };

function flags(argv: string[], spec: ArgsSpec) {
  return Object.fromEntries(parseArgs(argv, spec).flags);
}
function usage(argv: string[], spec: ArgsSpec): string {
  try {
    parseArgs(argv, spec);
  } catch (error) {
    expect(error).toBeInstanceOf(CliUsageError);
    return (error as Error).message;
  }
  throw new Error("expected a usage error");
}

describe("parseArgs", () => {
  it("reads --f, --f=v, --f v and single-letter aliases", () => {
    expect(flags(["--depth=3", "-b", "dev", "--single-branch"], clone)).toEqual({ depth: "3", branch: "dev", "single-branch": true });
    expect(flags(["--depth", "4", "-bmain"], clone)).toEqual({ depth: "4", branch: "main" });
    expect(flags(["--no-single-branch"], clone)).toEqual({ "single-branch": false });
  });

  it("optional values only take the = form", () => {
    const parsed = parseArgs(["--porcelain", "x"], clone);
    expect(parsed.flags.get("porcelain")).toBe(true);
    expect(parsed.positionals).toEqual(["x"]);
    expect(flags(["--porcelain=v1"], clone)).toEqual({ porcelain: "v1" });
  });

  it("keeps positionals in order and -- ends flags", () => {
    const parsed = parseArgs(["a", "--depth", "1", "b", "--", "--depth", "-x"], clone);
    expect(parsed.positionals).toEqual(["a", "b"]);
    expect(parsed.afterDashDash).toEqual(["--depth", "-x"]);
    expect(parseArgs(["a"], clone).afterDashDash).toBeUndefined();
  });

  it("clusters -am for commit, the value of -m from the next argument or the rest of the cluster", () => {
    expect(flags(["-am", "msg"], commit)).toEqual({ all: true, message: "msg" });
    expect(flags(["-amfix"], commit)).toEqual({ all: true, message: "fix" });
    const twice = parseArgs(["-m", "one", "-m", "two"], commit);
    expect(twice.lists.get("message")).toEqual(["one", "two"]);
  });

  it("clusters single letters in every command, as git's parse-options", () => {
    expect(flags(["-fd"], clean)).toEqual({ force: true, d: true });
    expect(flags(["-nd"], clean)).toEqual({ "dry-run": true, d: true });
    expect(usage(["-fx"], clean)).toBe("unknown option '-x'");
    const branchLike: ArgsSpec = { flags: [{ name: "force", short: "f" }, { name: "delete", short: "d" }, { name: "untracked", short: "u", value: "optional" }] };
    expect(flags(["-fd"], branchLike)).toEqual({ force: true, delete: true });
    expect(flags(["-funo"], branchLike)).toEqual({ force: true, untracked: "no" });
    expect(flags(["-fu"], branchLike)).toEqual({ force: true, untracked: true });
    expect(flags(["-bmain"], clone)).toEqual({ branch: "main" });
  });

  it("-N numbers for log", () => {
    expect(flags(["-3", "--oneline"], log)).toEqual({ "max-count": "3", oneline: true });
    expect(flags(["-n5"], log)).toEqual({ "max-count": "5" });
    expect(usage(["-3"], clone)).toBe("unknown option '-3'");
  });

  it("usage errors: unknown, missing value, value given to a switch", () => {
    expect(usage(["--x"], clone)).toBe("unknown option '--x'");
    expect(usage(["-z"], clone)).toBe("unknown option '-z'");
    expect(usage(["--depth"], clone)).toBe("option '--depth' requires a value");
    expect(usage(["-b"], clone)).toBe("option '-b' requires a value");
    expect(usage(["--single-branch=1"], clone)).toBe("option '--single-branch' takes no value");
    expect(usage(["--no-depth"], clone)).toBe("unknown option '--no-depth'");
    expect(usage(["-am"], commit)).toBe("option '-m' requires a value");
  });
});

describe("splitGlobal", () => {
  it("takes one leading -C", () => {
    expect(splitGlobal(["-C", "sub", "status", "-C"])).toEqual({ chdir: "sub", rest: ["status", "-C"] });
    expect(splitGlobal(["-Csub", "log"])).toEqual({ chdir: "sub", rest: ["log"] });
    expect(splitGlobal(["status"])).toEqual({ chdir: undefined, rest: ["status"] });
  });
  it("refuses a second -C and a missing value", () => {
    expect(() => splitGlobal(["-C", "a", "-C", "b", "status"])).toThrow("option '-C' given more than once");
    expect(() => splitGlobal(["-C"])).toThrow("option '-C' requires a value");
  });
});

describe("dates, authors, paths", () => {
  it("reads GIT_*_DATE forms (isomorphic-git offset sign)", () => {
    expect(parseGitDate("2024-01-02T03:04:05+0200")).toEqual({ timestamp: 1704157445, timezoneOffset: -120 });
    expect(parseGitDate("2024-01-02 03:04:05 -05:30")).toEqual({ timestamp: 1704164645 + 3600 * 3 - 1800 + 3600 * 3, timezoneOffset: 330 });
    expect(parseGitDate("@1700000000 +0000")).toEqual({ timestamp: 1700000000, timezoneOffset: 0 });
    expect(parseGitDate("1700000000 -0100")).toEqual({ timestamp: 1700000000, timezoneOffset: 60 });
    expect(parseGitDate("2024-01-02T03:04:05Z")).toEqual({ timestamp: 1704164645, timezoneOffset: 0 });
    expect(parseGitDate("yesterday")).toBeUndefined();
  });
  it("reads --author", () => {
    expect(parseAuthor("Ada Lovelace <ada@example.com>")).toEqual({ name: "Ada Lovelace", email: "ada@example.com" });
    expect(() => parseAuthor("ada")).toThrow("--author 'ada' is not 'Name <email>'");
  });
  it("repoRelative", () => {
    expect(repoRelative("/r/a/b", "/r")).toBe("a/b");
    expect(repoRelative("/r", "/r")).toBe("");
    expect(repoRelative("/rx", "/r")).toBeUndefined();
    expect(repoRelative("/a", "/")).toBe("a");
  });
});

describe("the CLI works only through the public GitClient", () => {
  it("imports no op, no isomorphic-git, no GitContext", async () => {
    const { readFileSync, readdirSync } = await import("node:fs");
    const { join } = await import("node:path");
    const dir = join(import.meta.dirname, "../../../src/git");
    const files = ["cli.ts", ...readdirSync(join(dir, "cli")).map((f) => `cli/${f}`)];
    const imports = files.flatMap((f) =>
      [...readFileSync(join(dir, f), "utf8").matchAll(/from "([^"]+)"/g)].map((m) => `${f} → ${m[1]}`),
    );
    expect(imports.length).toBeGreaterThan(5);
    for (const line of imports) {
      // ../limits.js: the documented bounds (constants and their messages), no operation; util/path and util/bytes:
      // pure helpers (paths; the BOM-keeping UTF-8 decoder); ../wildmatch.js: git's pathspec glob matching, pure, shared
      // with the typed API's `paths`; ../refname.js: git's check-ref-format rule, pure, shared with the typed API;
      // util/utf8-escape: the surrogate-escape decoder a blob's bytes are printed with (issue 20, run 25); ../quote.js:
      // git's path quoting and boolean config reading, pure (issue 20, run 31); ../url.js: git's transport_anonymize_url,
      // pure (issue 20, run 32); ../push-default.js: git's push.default choice, pure, shared with the typed API (issue 20, run 34, fixer GN).
      expect(line).toMatch(/→ (\.\/(cli\/)?(parse|format|context|commands)\.js|\.\.?\/(errors|types|limits|wildmatch|refname|quote|url|push-default)\.js|\.\.\/(\.\.\/)?util\/(path|bytes|utf8-escape)\.js)$/);
    }
  });
});
