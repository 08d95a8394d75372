/**
 * The published typings tell the truth about the published JavaScript.
 *
 * For every entry point in package.json "exports", the TypeScript compiler
 * lists what the built `.d.ts` exports, each name flagged value or type-only
 * (following re-export chains through the rolled-up chunks), and the test
 * imports the built `.js` and compares:
 *
 * - a name the typings export as a value exists at runtime, and every
 *   runtime export is typed as a value (`export type { SomeClass }` in a
 *   source file becomes a value `export { SomeClass }` once the d.ts is
 *   rolled up: `import { SomeClass }` would type-check, then fail);
 * - no entry exports a bundler alias: a one-letter name, or a name that is
 *   not the declared name of what it exports (`DeleteToolOptions as D`);
 * - against @cloudflare/computer 0.8.0's export lists
 *   (test/typings/exports-0.8.0.json): every 0.8.0 name of an entry we ship
 *   that we export somewhere is exported by that entry, as a value when it
 *   was a value and as a type-only name when it was one. Names we do not
 *   export anywhere are listed, not failed.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { compileTypings, entries, requireDist, root, type Entry } from "./dist.js";

interface ExportedName {
  name: string;
  value: boolean;
  /** The name it is declared under, at the end of the re-export chain. */
  declaredAs: string;
}

const ENTRIES = entries();
const typed = new Map<string, ExportedName[]>();
const runtime = new Map<string, string[]>();

/** Whether an alias declaration (`export { type X }`, `import type …`, …) is type-only. */
function isTypeOnlyDeclaration(decl: ts.Declaration): boolean {
  if (ts.isExportSpecifier(decl) || ts.isImportSpecifier(decl)) return decl.isTypeOnly || decl.parent.parent.isTypeOnly;
  if (ts.isImportClause(decl)) return decl.isTypeOnly;
  if (ts.isNamespaceImport(decl)) return decl.parent.isTypeOnly;
  if (ts.isNamespaceExport(decl)) return decl.parent.isTypeOnly;
  if (ts.isImportEqualsDeclaration(decl)) return decl.isTypeOnly;
  return false;
}

function describeExport(checker: ts.TypeChecker, symbol: ts.Symbol): ExportedName {
  let typeOnly = false;
  let current: ts.Symbol | undefined = symbol;
  // Walk the chain entry → chunk → declaration; any type-only link makes the export type-only.
  while (current && current.flags & ts.SymbolFlags.Alias) {
    if ((current.declarations ?? []).some(isTypeOnlyDeclaration)) typeOnly = true;
    current = checker.getImmediateAliasedSymbol(current);
  }
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return {
    name: symbol.getName(),
    value: !typeOnly && (target.flags & ts.SymbolFlags.Value) !== 0,
    declaredAs: target.getName(),
  };
}

/** What each entry's `.d.ts` exports, listed by the compiler. */
function listTypedExports(list: Entry[]): Map<string, ExportedName[]> {
  const program = compileTypings(list.map((e) => e.types));
  const checker = program.getTypeChecker();
  const out = new Map<string, ExportedName[]>();
  for (const entry of list) {
    const source = program.getSourceFile(entry.types);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${entry.subpath}: the compiler found no module in ${entry.types}`);
    out.set(
      entry.subpath,
      checker
        .getExportsOfModule(moduleSymbol)
        .map((symbol) => describeExport(checker, symbol))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
  }
  return out;
}

beforeAll(async () => {
  requireDist(ENTRIES);
  for (const [subpath, names] of listTypedExports(ENTRIES)) typed.set(subpath, names);
  for (const entry of ENTRIES) runtime.set(entry.subpath, Object.keys(await import(pathToFileURL(entry.js).href)).sort());
}, 60_000);

describe("the typings of each entry point match its JavaScript", () => {
  for (const entry of ENTRIES) {
    describe(entry.subpath, () => {
      it("types as values exactly the names the .js exports", () => {
        const values = typed.get(entry.subpath)!.filter((e) => e.value).map((e) => e.name);
        const actual = runtime.get(entry.subpath)!;
        expect({
          typedAsValueButMissingAtRuntime: values.filter((n) => !actual.includes(n)),
          atRuntimeButNotTypedAsValue: actual.filter((n) => !values.includes(n)),
        }).toEqual({ typedAsValueButMissingAtRuntime: [], atRuntimeButNotTypedAsValue: [] });
      });

      it("exports no bundler aliases", () => {
        const names = typed.get(entry.subpath)!;
        expect(names.length).toBeGreaterThan(0);
        expect(names.filter((e) => /^[A-Za-z]$/.test(e.name)).map((e) => `${e.declaredAs} as ${e.name}`)).toEqual([]);
        expect(names.filter((e) => e.name !== "default" && e.name !== e.declaredAs).map((e) => `${e.declaredAs} as ${e.name}`)).toEqual([]);
      });
    });
  }
});

describe("every entry loads on plain Node (cloudflare:workers is loaded only under workerd)", () => {
  it("imports each built entry in a child node process, without vitest's alias", () => {
    const script = ENTRIES.map((e) => `await import(${JSON.stringify(pathToFileURL(e.js).href)});`)
      .join("\n");
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", `${script}\nconsole.log("loaded");`], { encoding: "utf8" });
    expect(out.trim().split("\n").at(-1)).toBe("loaded");
  });
});

describe("exports of @cloudflare/computer 0.8.0", () => {
  const reference = JSON.parse(readFileSync(join(root, "test/typings/exports-0.8.0.json"), "utf8")) as {
    subpaths: Record<string, { values: string[]; types: string[] }>;
  };

  it("each shipped entry exports the 0.8.0 names we implement, with the same value/type kind", () => {
    const ours = new Set([...typed.values()].flat().map((e) => e.name));
    const wrongEntry: string[] = [];
    const wrongKind: string[] = [];
    const unimplemented: string[] = [];
    for (const entry of ENTRIES) {
      const expected = reference.subpaths[entry.subpath];
      if (!expected) continue;
      const exported = new Map(typed.get(entry.subpath)!.map((e) => [e.name, e]));
      for (const [name, value] of [...expected.values.map((n) => [n, true] as const), ...expected.types.map((n) => [n, false] as const)]) {
        const ourName = exported.get(name);
        if (!ourName) {
          if (ours.has(name)) wrongEntry.push(`${entry.subpath}: ${name} (exported by another entry)`);
          else unimplemented.push(`${entry.subpath}: ${name}`);
        } else if (ourName.value !== value) {
          wrongKind.push(`${entry.subpath}: ${name} is a ${value ? "value" : "type"} in 0.8.0, a ${ourName.value ? "value" : "type"} here`);
        }
      }
    }
    const notShipped = Object.keys(reference.subpaths).filter((s) => !ENTRIES.some((e) => e.subpath === s));
    console.info(
      `0.8.0 names not implemented in the entries we ship (${unimplemented.length}):\n  ${unimplemented.join("\n  ")}\n` +
        `0.8.0 entry points not shipped (${notShipped.length}): ${notShipped.join(", ")}`,
    );
    expect({ wrongEntry, wrongKind }).toEqual({ wrongEntry: [], wrongKind: [] });
  });
});
