/**
 * Issue 20 §2: a glob must not freeze the Durable Object. picomatch compiles
 * `*a*a*a*a*a*b` to a backtracking regex whose cost grows with the name
 * (120 `a`s took seconds, 200 over a minute), paid once per walked name, in
 * `find` patterns, `exclude` and grep `include` alike. Each call here walks
 * names built to trigger that and must finish well inside a generous bound —
 * a regression guard, not a benchmark. Before the fix every one of these
 * calls ran past the bound (most past 30 s). Also: the patterns picomatch
 * still matches give the same answers as the linear matcher, and Unicode
 * normalisation does not matter to matching (issue 12 §6).
 */
import { describe, expect, it } from "vitest";
import { Workspace, nodeSqliteStorage } from "../../src/index.js";
import picomatch from "picomatch";
import { compileExclude, compileGlob, globInternals, MAX_GLOB_SIZE } from "../../src/fs/glob.js";

const HOSTILE = "**/**/**/**/*a*a*a*a*a*b";
const A120 = "a".repeat(120);
const A200 = "a".repeat(200);
const HIT = "a".repeat(199) + "b";
/** Whole-call bound: the hostile calls took seconds to minutes before; now a few ms. */
const BOUND_MS = 500;

function workspaceFs() {
  return new Workspace({ storage: nodeSqliteStorage() }).fs;
}

async function hostileTree() {
  const fs = workspaceFs();
  await fs.mkdir("/w/d", { recursive: true });
  for (const name of [A120, A200, HIT, `d/${A120}`, `d/${A200}`, `d/${HIT}`]) await fs.writeFile(`/w/${name}`, "x\n");
  return fs;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await run();
  return { value, ms: performance.now() - start };
}

describe("globs with many stars finish fast (issue 20 §2)", () => {
  it(`find pattern ${HOSTILE}: only the names ending in b, over 120- and 200-character names`, async () => {
    const fs = await hostileTree();
    const { value, ms } = await timed(() => fs.find("/w", HOSTILE));
    expect(value).toEqual([
      { path: `/w/${HIT}`, type: "file" },
      { path: `/w/d/${HIT}`, type: "file" },
    ]);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("the same glob as exclude drops only the names ending in b", async () => {
    const fs = await hostileTree();
    const { value, ms } = await timed(() => fs.find("/w", undefined, { exclude: [HOSTILE] }));
    expect(value.map((entry) => entry.path)).toEqual([`/w/${A120}`, `/w/${A200}`, "/w/d", `/w/d/${A120}`, `/w/d/${A200}`]);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("the same glob as grep include reads only the names ending in b", async () => {
    const fs = await hostileTree();
    const { value, ms } = await timed(() => fs.grep("x", "/w", { include: HOSTILE }));
    expect(value).toEqual([
      { path: `/w/${HIT}`, line: 1, text: "x" },
      { path: `/w/d/${HIT}`, line: 1, text: "x" },
    ]);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  // Each pattern, with a name it must miss and one it must match; before the fix each miss took from 1 s to minutes.
  const shapes: Array<{ pattern: string; miss: string; hit: string; before: string }> = [
    { pattern: "*a".repeat(60) + "*b", miss: "a".repeat(255), hit: "a".repeat(254) + "b", before: "> 1 min" },
    { pattern: "*?".repeat(30) + "b", miss: "a".repeat(100), hit: "a".repeat(99) + "b", before: "> 30 s" },
    { pattern: "?*".repeat(12) + "b", miss: "a".repeat(40), hit: "a".repeat(39) + "b", before: "> 30 s" },
    // picomatch passed parentheses through as a regex group: exponential in the group count.
    { pattern: "(a|aa)".repeat(26) + "b", miss: "a".repeat(52), hit: "(a|aa)".repeat(26) + "b", before: "7 s" },
  ];
  for (const { pattern, miss, hit, before } of shapes) {
    it(`${pattern.slice(0, 24)}… (${pattern.length} characters; before: ${before}) as pattern, exclude and include`, async () => {
      const fs = workspaceFs();
      await fs.mkdir("/s");
      await fs.writeFile(`/s/${miss}`, "x\n");
      await fs.writeFile(`/s/${hit}`, "x\n");
      const found = await timed(() => fs.find("/s", pattern));
      expect(found.value).toEqual([{ path: `/s/${hit}`, type: "file" }]);
      expect(found.ms).toBeLessThan(BOUND_MS);
      const kept = await timed(() => fs.find("/s", undefined, { exclude: [pattern] }));
      expect(kept.value).toEqual([{ path: `/s/${miss}`, type: "file" }]);
      expect(kept.ms).toBeLessThan(BOUND_MS);
      const grepped = await timed(() => fs.grep("x", "/s", { include: pattern }));
      expect(grepped.value.map((match) => match.path)).toEqual([`/s/${hit}`]);
      expect(grepped.ms).toBeLessThan(BOUND_MS);
    });
  }

  it("several ** segments over a 160-deep path (before: > 30 s)", async () => {
    const fs = workspaceFs();
    const deep = "/t/" + Array(160).fill("a").join("/");
    await fs.mkdir(deep, { recursive: true });
    await fs.writeFile(`${deep}/b`, "x\n");
    const { value, ms } = await timed(() => fs.find("/t", "**/a/**/a/**/a/**/a/**/b"));
    expect(value).toEqual([{ path: `${deep}/b`, type: "file" }]);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  it("a ** followed by 100 segments, against every prefix of a 1000-deep path, as a walk tests them (before: about 2 s)", () => {
    const segments = Array(1000).fill("a");
    const paths = segments.map((_, depth) => segments.slice(0, depth + 1).join("/"));
    paths.push(paths[999] + "/b");
    const start = performance.now();
    const match = compileGlob("**/" + "*a/".repeat(100) + "b");
    expect(paths.filter((path) => match(path))).toEqual([paths[1000]]);
    expect(performance.now() - start).toBeLessThan(BOUND_MS);
  });

  it(`a glob that comes to more than ${MAX_GLOB_SIZE} characters, {a,b} expanded, is a TypeError (pattern, exclude, include)`, async () => {
    const fs = workspaceFs();
    await fs.mkdir("/w");
    const long = "*a".repeat(MAX_GLOB_SIZE / 2) + "*";
    const tooLong = `glob too long: ${MAX_GLOB_SIZE + 1} characters, at most ${MAX_GLOB_SIZE}: "${long.slice(0, 40)}"…`;
    await expect(fs.find("/w", long)).rejects.toThrow(new TypeError(tooLong));
    await expect(fs.grep("x", "/w", { include: long })).rejects.toThrow(new TypeError(tooLong));
    const excludes = `exclude globs too long: more than ${MAX_GLOB_SIZE} characters together, {a,b} alternatives expanded`;
    await expect(fs.find("/w", undefined, { exclude: [long] })).rejects.toThrow(new TypeError(excludes));
    await expect(fs.find("/w", undefined, { exclude: [long.slice(0, 3000), long.slice(0, 1100)] })).rejects.toThrow(new TypeError(excludes));
    // 256 alternatives of a star and 900 characters of text took 180 ms per name before this limit.
    const braces = "{a,b}".repeat(8) + "*" + "a".repeat(900) + "b";
    await expect(fs.find("/w", braces)).rejects.toThrow(
      new TypeError(`glob too long: ${256 * 910} characters with its {a,b} alternatives expanded, at most ${MAX_GLOB_SIZE}: "${braces.slice(0, 40)}"…`),
    );
    expect(await fs.find("/w", long.slice(1))).toEqual([]);
    expect(await fs.find("/w", "{a,b}{a,b}*" + "a".repeat(1000) + "b")).toEqual([]);
  });
});

describe("which matcher takes a glob", () => {
  it("picomatch for globs its regex matches in (segments × glob) steps, the linear matcher for the rest", () => {
    const { engines } = globInternals;
    for (const glob of ["**/*.ts", "*.md", "src/**", "src/**/*.test.ts", "**/node_modules", "a/*/b/*.js", "**/**/*.ts", "[x]!@.txt"]) {
      expect(engines(glob), glob).toEqual(["picomatch"]);
    }
    for (const glob of [HOSTILE, "*a*", "**/a/**/b", "file?.ts", "(a|b)", "a{2}", '"a"', "a\\*", "./", "[x]!@+$^|.txt", "a$$b*", "*|x", "a++b*"]) {
      expect(engines(glob), glob).toEqual(["linear"]);
    }
    expect(engines("{**/*.ts,*test*}")).toEqual(["picomatch", "linear"]);
  });

  it("where picomatch is used, it agrees with the linear matcher (seeded random globs and paths)", () => {
    let seed = 20261201;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pick = <T>(list: readonly T[]) => list[random(list.length)];
    const tokens = ["a", "b", ".", "*", "**", "/", "/", "-"];
    const names = ["a", "b", "ab", "a.", ".a", "b.a", "aa", "a-b", "*"];
    let compared = 0;
    for (let k = 0; k < 1500; k++) {
      let glob = "";
      for (let i = 1 + random(8); i > 0; i--) glob += pick(tokens);
      if (!globInternals.engines(glob).includes("picomatch")) continue;
      const match = compileGlob(glob);
      const linear = globInternals.linear(glob);
      for (let q = 0; q < 10; q++) {
        const path = Array.from({ length: 1 + random(4) }, () => pick(names) + (random(2) ? pick(names) : "")).join("/");
        expect(match(path), `${glob} vs ${path}`).toBe(linear(path));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  });

  it("the linear matcher's `?` and `*` pieces (prefix, suffix, Shift-And search) agree with picomatch's regex (seeded, short ASCII paths)", () => {
    let seed = 20261203;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const pick = <T>(list: readonly T[]) => list[random(list.length)];
    // No `**` (its `X/**` rule differs from picomatch's on purpose): `*` runs, `?` and literals in one or two segments.
    const tokens = ["a", "b", "ab", "*", "?", "?", "*a", "b?"];
    let compared = 0;
    for (let k = 0; k < 1500; k++) {
      const segment = () => {
        let text = "";
        for (let i = 1 + random(6); i > 0; i--) text += pick(tokens);
        return text.replace(/\*{2,}/g, "*");
      };
      const glob = random(3) === 0 ? `${segment()}/${segment()}` : segment();
      const oracle = picomatch.makeRe(glob, { dot: true, nobracket: true, noextglob: true, nonegate: true, nobrace: true, windows: false });
      const linear = globInternals.linear(glob);
      for (let q = 0; q < 12; q++) {
        const name = () => Array.from({ length: random(9) }, () => pick(["a", "b", "a", "c"])).join("");
        const path = glob.includes("/") ? `${name()}/${name()}` : name();
        if (path === "" || path.startsWith("/") || path.endsWith("/")) continue;
        expect(linear(path), `${glob} vs ${path}`).toBe(oracle.test(path));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it("a 4,000-character piece of `?` runs is found in a 200,000-character name (Shift-And over many words)", () => {
    const glob = "*a" + "?".repeat(3_000) + "b" + "?".repeat(900) + "c*";
    const match = globInternals.linear(glob);
    const name = "x".repeat(100_000) + "a" + "y".repeat(3_000) + "b" + "z".repeat(900) + "c" + "w".repeat(95_000);
    expect(match(name)).toBe(true);
    expect(match(name.replace("c", "d"))).toBe(false);
    expect(match("a" + "y".repeat(3_000) + "b" + "z".repeat(900) + "c")).toBe(true);
  });
});

describe("glob syntax (spec 01 §3.4) where picomatch read more into a glob", () => {
  it("parentheses, braces without a comma and quotes are literal", async () => {
    const fs = workspaceFs();
    await fs.mkdir("/g");
    for (const name of ["a", "b", "(a|b)", "aa", "a{2}", '"a"', "+(a)", "+a"]) await fs.writeFile(`/g/${name}`, "");
    const names = async (pattern: string) => (await fs.find("/g", pattern)).map((entry) => entry.path.slice(3));
    expect(await names("(a|b)")).toEqual(["(a|b)"]);
    expect(await names("a{2}")).toEqual(["a{2}"]);
    expect(await names('"a"')).toEqual(['"a"']);
    expect(await names("+(a)")).toEqual(["+(a)"]);
    expect(await names("*(a*")).toEqual(["(a|b)", "+(a)"]);
  });

  it("X/** matches below X, never X itself (also when X has a ** or a * run of two); repeated ** segments are one", async () => {
    const fs = workspaceFs();
    await fs.mkdir("/r/a/x/b/c", { recursive: true });
    await fs.mkdir("/r/a/b", { recursive: true });
    const paths = async (pattern: string) => (await fs.find("/r", pattern)).map((entry) => entry.path.slice(3));
    expect(await paths("a/**/**")).toEqual(["a/b", "a/x", "a/x/b", "a/x/b/c"]);
    expect(await paths("a/**/b/**")).toEqual(["a/x/b/c"]);
    expect(await paths("a**/**")).toEqual(["a/b", "a/x", "a/x/b", "a/x/b/c"]);
    expect(await paths("**/**/b")).toEqual(["a/b", "a/x/b"]);
    expect(await fs.find("/r", undefined, { exclude: ["a/**/**"] })).toEqual([{ path: "/r/a", type: "dir" }]);
  });

  it("* matches any run, so *.* finds a name ending in a dot; ** crosses a name holding a line break", async () => {
    const fs = workspaceFs();
    await fs.mkdir("/d/two\nlines", { recursive: true });
    for (const path of ["/d/a.", "/d/a.b", "/d/ab", "/d/two\nlines/c.ts"]) await fs.writeFile(path, "");
    const paths = async (pattern: string) => (await fs.find("/d", pattern)).map((entry) => entry.path.slice(3));
    expect(await paths("*.*")).toEqual(["a.", "a.b"]);
    expect(await paths("**/*.ts")).toEqual(["two\nlines/c.ts"]);
    expect(await paths("two?lines/*")).toEqual(["two\nlines/c.ts"]);
  });

  it("? is one character (code point), also outside the BMP", async () => {
    const fs = workspaceFs();
    await fs.mkdir("/e");
    for (const name of ["x😀y", "xy", "x😀😀y"]) await fs.writeFile(`/e/${name}`, "");
    const paths = async (pattern: string) => (await fs.find("/e", pattern)).map((entry) => entry.path.slice(3));
    expect(await paths("x?y")).toEqual(["x😀y"]);
    expect(await paths("x??y")).toEqual(["x😀😀y"]);
  });
});

describe("globs match whatever the Unicode normalisation (issue 12 §6)", () => {
  const NFD = "Re\u0301sume\u0301.md";
  const NFC = "R\u00e9sum\u00e9.md";
  const CAFE_NFC = "Caf\u00e9";
  const CAFE_NFD = "Cafe\u0301";

  async function tree() {
    const fs = workspaceFs();
    await fs.mkdir(`/u/${CAFE_NFC}`, { recursive: true });
    await fs.writeFile(`/u/${NFD}`, "cv\n");
    await fs.writeFile(`/u/${CAFE_NFC}/note.md`, "cv\n");
    await fs.writeFile("/u/plain.md", "cv\n");
    return fs;
  }

  it("find: an NFC glob finds an NFD name and the other way round; paths are reported as stored", async () => {
    const fs = await tree();
    expect(NFD).not.toBe(NFC);
    expect(await fs.find("/u", "*\u00e9*")).toEqual([
      { path: `/u/${CAFE_NFC}`, type: "dir" },
      { path: `/u/${NFD}`, type: "file" },
    ]);
    expect(await fs.find("/u", "*e\u0301*")).toEqual([
      { path: `/u/${CAFE_NFC}`, type: "dir" },
      { path: `/u/${NFD}`, type: "file" },
    ]);
    for (const pattern of [`*${NFC.slice(0, 6)}*`, `*${NFD.slice(0, 8)}*`, NFC, NFD, "**/R?sum?.md"]) {
      expect(await fs.find("/u", pattern), pattern).toEqual([{ path: `/u/${NFD}`, type: "file" }]);
    }
    expect(await fs.find("/u", `${CAFE_NFD}/*`)).toEqual([{ path: `/u/${CAFE_NFC}/note.md`, type: "file" }]);
    expect(await fs.find("/u", `{${CAFE_NFD},x}/**`)).toEqual([{ path: `/u/${CAFE_NFC}/note.md`, type: "file" }]);
  });

  it("exclude and grep include too", async () => {
    const fs = await tree();
    expect(await fs.find("/u", undefined, { exclude: [CAFE_NFD, `${CAFE_NFD}/**`, "*\u00e9*"] })).toEqual([{ path: "/u/plain.md", type: "file" }]);
    expect(await fs.find("/u", undefined, { exclude: [`${CAFE_NFD}/**`] })).toEqual([
      { path: `/u/${CAFE_NFC}`, type: "dir" },
      { path: `/u/${NFD}`, type: "file" },
      { path: "/u/plain.md", type: "file" },
    ]);
    expect(await fs.grep("cv", "/u", { include: `**/*${"\u00e9"}*` })).toEqual([{ path: `/u/${NFD}`, line: 1, text: "cv" }]);
    expect(await fs.grep("cv", "/u", { include: `${CAFE_NFD}/*.md`, exclude: [NFC] })).toEqual([{ path: `/u/${CAFE_NFC}/note.md`, line: 1, text: "cv" }]);
    expect(await fs.grep("cv", "/u", { exclude: [NFC, CAFE_NFD] })).toEqual([{ path: "/u/plain.md", line: 1, text: "cv" }]);
  });

  it("compiled matchers: both forms of the glob against both forms of the name, in either engine", () => {
    for (const glob of [NFC, NFD, "R*sum*.md", "*\u00e9*", "*e\u0301*", "R?sum?.md"]) {
      const match = compileGlob(glob);
      expect([match(NFC), match(NFD)], glob).toEqual([true, true]);
    }
    const exclude = compileExclude([`${CAFE_NFC}/**`])!;
    expect([exclude.prune(CAFE_NFC), exclude.prune(CAFE_NFD), exclude.drop(`${CAFE_NFD}/x`), exclude.drop(CAFE_NFD)]).toEqual([true, true, true, false]);
  });
});
