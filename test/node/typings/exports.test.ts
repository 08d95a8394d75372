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
 * - the export map against @cloudflare/computer 0.8.0's export lists
 *   (test/typings/exports-0.8.0.json) and our documented additions
 *   (test/typings/additions.json): every 0.8.0 subpath is shipped; each
 *   entry exports every 0.8.0 name of its subpath, as a value when it was a
 *   value and as a type-only name when it was one; every other name it
 *   exports is a listed addition of that kind; and the additions list holds
 *   nothing stale. Each failure lists exactly the names at fault.
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
    if (!source) throw new Error(`${entry.subpath}: the compiler found no file ${entry.types}`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    if (!moduleSymbol) {
      // A script of ambient declarations (`declare module "virtual:…"`, as ./vite/client is): it exports no name.
      out.set(entry.subpath, []);
      continue;
    }
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
  // A types-only entry (no "import" condition, e.g. ./vite/client) has no runtime exports.
  for (const entry of ENTRIES) runtime.set(entry.subpath, entry.js === undefined ? [] : Object.keys(await import(pathToFileURL(entry.js).href)).sort());
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
        if (entry.js !== undefined) expect(names.length).toBeGreaterThan(0); // a types-only entry may be a side-effect module (ambient types)
        expect(names.filter((e) => /^[A-Za-z]$/.test(e.name)).map((e) => `${e.declaredAs} as ${e.name}`)).toEqual([]);
        expect(names.filter((e) => e.name !== "default" && e.name !== e.declaredAs).map((e) => `${e.declaredAs} as ${e.name}`)).toEqual([]);
      });
    });
  }
});

describe("every entry loads on plain Node (cloudflare:workers is loaded only under workerd)", () => {
  it("imports each built entry in a child node process, without vitest's alias", () => {
    const script = ENTRIES.flatMap((e) => (e.js === undefined ? [] : [`await import(${JSON.stringify(pathToFileURL(e.js).href)});`]))
      .join("\n");
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", `${script}\nconsole.log("loaded");`], { encoding: "utf8" });
    expect(out.trim().split("\n").at(-1)).toBe("loaded");
  });
});

describe("the export map: every 0.8.0 subpath and name, plus our listed additions, and nothing else", () => {
  type NameLists = Record<string, { values: string[]; types: string[] }>;
  const reference = (JSON.parse(readFileSync(join(root, "test/typings/exports-0.8.0.json"), "utf8")) as { subpaths: NameLists }).subpaths;
  const additions = (JSON.parse(readFileSync(join(root, "test/typings/additions.json"), "utf8")) as { subpaths: NameLists }).subpaths;
  /** `kind` of `name` in `lists[subpath]`: "value", "type", or undefined. */
  const kindIn = (lists: NameLists, subpath: string, name: string): "value" | "type" | undefined =>
    lists[subpath]?.values.includes(name) ? "value" : lists[subpath]?.types.includes(name) ? "type" : undefined;

  it("package.json exports every 0.8.0 subpath", () => {
    const shipped = new Set(ENTRIES.map((e) => e.subpath));
    expect({ missingSubpaths: Object.keys(reference).filter((s) => !shipped.has(s)) }).toEqual({ missingSubpaths: [] });
  });

  it("each entry exports every 0.8.0 name of its subpath, with the same value/type kind", () => {
    const everywhere = new Map<string, string[]>();
    for (const [subpath, names] of typed) for (const n of names) everywhere.set(n.name, [...(everywhere.get(n.name) ?? []), subpath]);
    const missing: string[] = [];
    const wrongKind: string[] = [];
    for (const entry of ENTRIES) {
      const expected = reference[entry.subpath];
      if (!expected) continue;
      const exported = new Map(typed.get(entry.subpath)!.map((e) => [e.name, e]));
      for (const [name, value] of [...expected.values.map((n) => [n, true] as const), ...expected.types.map((n) => [n, false] as const)]) {
        const ours = exported.get(name);
        if (!ours) {
          const elsewhere = (everywhere.get(name) ?? []).filter((s) => s !== entry.subpath);
          missing.push(`${entry.subpath}: ${value ? "value" : "type"} ${name}${elsewhere.length > 0 ? ` (exported by ${elsewhere.join(", ")} instead)` : ""}`);
        } else if (ours.value !== value) {
          wrongKind.push(`${entry.subpath}: ${name} is a ${value ? "value" : "type"} in 0.8.0, a ${ours.value ? "value" : "type"} here`);
        }
      }
    }
    expect({ missing, wrongKind }).toEqual({ missing: [], wrongKind: [] });
  });

  it("every other exported name is a documented addition (test/typings/additions.json), of the listed kind", () => {
    const unlisted: string[] = [];
    const wrongKind: string[] = [];
    for (const entry of ENTRIES) {
      for (const e of typed.get(entry.subpath)!) {
        if (kindIn(reference, entry.subpath, e.name)) continue;
        const listed = kindIn(additions, entry.subpath, e.name);
        const kind = e.value ? "value" : "type";
        if (!listed) unlisted.push(`${entry.subpath}: ${kind} ${e.name}`);
        else if (listed !== kind) wrongKind.push(`${entry.subpath}: ${e.name} is listed as a ${listed}, exported as a ${kind}`);
      }
    }
    expect({ unlisted, wrongKind }).toEqual({ unlisted: [], wrongKind: [] });
  });

  it("additions.json lists only names we export that 0.8.0 does not have", () => {
    const stale: string[] = [];
    for (const [subpath, lists] of Object.entries(additions)) {
      const exported = new Set((typed.get(subpath) ?? []).map((e) => e.name));
      for (const name of [...lists.values, ...lists.types]) {
        if (kindIn(reference, subpath, name)) stale.push(`${subpath}: ${name} is a 0.8.0 name, not an addition`);
        else if (!exported.has(name)) stale.push(`${subpath}: ${name} is listed but not exported${typed.has(subpath) ? "" : " (no such entry)"}`);
      }
    }
    expect(stale).toEqual([]);
  });
});
