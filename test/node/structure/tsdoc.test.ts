/**
 * "Hovering any public method shows its shape, units, default and error
 * codes" (DESIGN.md): every public declaration of the built typings carries
 * TSDoc, and every optional option states its default.
 *
 * The check reads the `.d.ts` of every entry point in package.json "exports"
 * (dist/, so run `npm run build` first) with the TypeScript compiler and
 * follows re-exports into the shared chunks (`types-*.d.ts`, …), so each
 * exported symbol is checked once, under the first entry that exports it.
 * It fails, listing `entry: Symbol.member (file)` (the file is the source
 * file declaring the symbol), on:
 *
 * - (a) an exported declaration (function, class, constant, interface, type
 *   alias, enum), or a property, method or getter of an exported class,
 *   interface or type-literal alias (also the members of the type literals
 *   of a union or intersection alias, and of our own interfaces and classes
 *   it extends, which are checked as declarations too), without a TSDoc
 *   comment. Each overload needs its own. A member without its own comment
 *   passes when the member it implements or overrides in one of our own
 *   types has one (that is what an editor shows). Members inherited from
 *   platform types (`ReadableStream`, `RpcTarget`, …) are not ours and not
 *   checked; `[Symbol.dispose]` and other symbol-named members are;
 * - (b) an optional member of an options-like type — a type whose name ends
 *   in `Options`, or the type of a parameter named `options` of a public
 *   function (a function-typed constant too), constructor or method (inline
 *   type literals and `Parameters<…>[n]`-style types included) — whose TSDoc
 *   does not state its default: `@defaultValue`, the word "default" /
 *   "defaults" (so "Default: …", "by default", "no default"), or an explicit
 *   "none" opening a sentence or after a colon.
 *
 * Private members (`private x`, `#private`) and constructors are not
 * checked (constructor `options` parameters are, under (b)).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { compileTypings, entries, requireDist, root } from "../typings/dist.js";

const ENTRIES = entries();
const DIST = join(root, "dist");

/**
 * A stated default: `@defaultValue`, the word "default"/"defaults" ("Default:
 * …", "defaults to", "by default", "no default"), or an explicit "none" at
 * the start of a sentence or after a colon ("None: …", "Absent: none").
 */
const STATES_DEFAULT = /@defaultValue\b|\bdefault(?:s|ed)?\b|(?:^|[.:;(]\s*)none\b/im;

interface Finding {
  entry: string;
  /** `Symbol` or `Symbol.member`. */
  what: string;
  file: string;
}

interface Audit {
  /** Rule (a): declarations and members without TSDoc. */
  undocumented: Finding[];
  /** Rule (b): optional options without a stated default. */
  noDefault: Finding[];
  /** Declarations and members checked under (a); optional options checked under (b). */
  counts: { declarations: number; members: number; options: number };
}

/** The text of a node's own TSDoc comments (summary and tags), or `""`. */
function ownDoc(node: ts.Node): string {
  const host = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  const jsDoc = ts.getJSDocCommentsAndTags(host).filter(ts.isJSDoc);
  return jsDoc
    .map((doc) => doc.getText())
    .join("\n")
    .replace(/^\/\*\*|\*\/$/g, "")
    .replace(/^\s*\*/gm, "")
    .trim();
}

function memberName(member: ts.ClassElement | ts.TypeElement): string {
  const name = member.name;
  if (!name) return "?";
  if (ts.isComputedPropertyName(name)) return `[${name.expression.getText()}]`;
  return name.getText();
}

function isPrivate(member: ts.ClassElement | ts.TypeElement): boolean {
  if (member.name && ts.isPrivateIdentifier(member.name)) return true;
  return ts.canHaveModifiers(member) && (ts.getModifiers(member) ?? []).some((m) => m.kind === ts.SyntaxKind.PrivateKeyword);
}

/** Properties, methods and accessors: what (a) checks. A setter with a getter is covered by the getter. */
function checkedMembers(members: ts.NodeArray<ts.ClassElement | ts.TypeElement>): (ts.ClassElement | ts.TypeElement)[] {
  const getters = new Set(members.filter(ts.isGetAccessor).map(memberName));
  return members.filter((m) => {
    if (isPrivate(m)) return false;
    if (ts.isSetAccessor(m)) return !getters.has(memberName(m));
    return ts.isPropertyDeclaration(m) || ts.isPropertySignature(m) || ts.isMethodDeclaration(m) || ts.isMethodSignature(m) || ts.isGetAccessor(m);
  });
}

/** The name of the top-level declaration `node` is in (`""` when none), for locating it in `src/`. */
function topLevelName(node: ts.Node): string {
  let current = node;
  while (current.parent && !ts.isSourceFile(current.parent)) current = current.parent;
  const name = (current as { name?: ts.Node }).name;
  if (name && ts.isIdentifier(name)) return name.text;
  if (ts.isVariableStatement(current)) return current.declarationList.declarations[0]?.name.getText() ?? "";
  return "";
}

/** ` (overload k)` for the k-th of several methods sharing a name, else `""`. */
function overloadLabel(members: (ts.ClassElement | ts.TypeElement)[], member: ts.ClassElement | ts.TypeElement): string {
  if (!(ts.isMethodDeclaration(member) || ts.isMethodSignature(member))) return "";
  const same = members.filter((m) => (ts.isMethodDeclaration(m) || ts.isMethodSignature(m)) && memberName(m) === memberName(member));
  return same.length > 1 ? ` (overload ${same.indexOf(member) + 1})` : "";
}

/**
 * Names one type literal of a union: `{name: "exit"}` by a literal-typed
 * property every variant has (the discriminant), else `{variant k}`.
 */
function variantLabel(variants: ts.TypeLiteralNode[], variant: ts.TypeLiteralNode): string {
  const literalProperty = (literal: ts.TypeLiteralNode, name: string) =>
    literal.members.find((m): m is ts.PropertySignature => ts.isPropertySignature(m) && memberName(m) === name && !!m.type && (ts.isLiteralTypeNode(m.type) || (ts.isUnionTypeNode(m.type) && m.type.types.every(ts.isLiteralTypeNode))));
  for (const member of variant.members) {
    const name = memberName(member);
    const own = literalProperty(variant, name);
    if (own && variants.every((v) => literalProperty(v, name))) return `{${name}: ${own.type!.getText()}}`;
  }
  return `{variant ${variants.indexOf(variant) + 1}}`;
}

/** Top-level declaration name → the `src/` files declaring it (exported declarations first). */
function sourceIndex(): Map<string, string[]> {
  const index = new Map<string, { file: string; exported: boolean }[]>();
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return walk(path);
      return e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [path] : [];
    });
  for (const path of walk(join(root, "src"))) {
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      const exported = ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      const names = ts.isVariableStatement(statement)
        ? statement.declarationList.declarations.map((d) => d.name.getText(source))
        : (ts.isInterfaceDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name
          ? [statement.name.text]
          : [];
      for (const name of names) {
        const list = index.get(name) ?? [];
        if (!list.some((e) => e.file === path)) list.push({ file: relative(root, path), exported });
        index.set(name, list);
      }
    }
  }
  return new Map([...index].map(([name, list]) => [name, list.sort((a, b) => Number(b.exported) - Number(a.exported)).map((e) => e.file)]));
}

/**
 * Runs rules (a) and (b) over the exports of `modules` (subpath → `.d.ts`),
 * counting as ours every declaration in a file under `ownDir`. `locate` names
 * the file a finding is reported against.
 */
function auditTypings(program: ts.Program, modules: { subpath: string; file: string }[], ownDir: string, locate: (name: string, decl: ts.Node) => string): Audit {
  const checker = program.getTypeChecker();
  const audit: Audit = { undocumented: [], noDefault: [], counts: { declarations: 0, members: 0, options: 0 } };
  const isOurs = (node: ts.Node) => !relative(ownDir, node.getSourceFile().fileName).startsWith("..");
  const visited = new Set<ts.Node>();
  const optionsChecked = new Set<ts.Node>();

  const resolve = (symbol: ts.Symbol | undefined) => (symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  /** Rollup renames clashing declarations `Name$1`; report the declared name. */
  const declaredName = (symbol: ts.Symbol) => symbol.getName().replace(/\$\d+$/, "");

  /** Whether an own type this member implements or overrides documents it. */
  const inheritsDoc = (owner: ts.ClassDeclaration | ts.InterfaceDeclaration, member: ts.ClassElement | ts.TypeElement): boolean => {
    const ownerType = checker.getTypeAtLocation(owner);
    const self = checker.getPropertiesOfType(ownerType).find((p) => p.declarations?.includes(member as ts.Declaration));
    if (!self) return false;
    const bases: ts.Type[] = [];
    for (const clause of owner.heritageClauses ?? []) for (const t of clause.types) bases.push(checker.getTypeAtLocation(t));
    return bases.some((base) => {
      const inherited = checker.getPropertiesOfType(base).find((p) => p.escapedName === self.escapedName);
      return (inherited?.declarations ?? []).some((d) => isOurs(d) && ownDoc(d) !== "");
    });
  };

  const requireDoc = (entry: string, what: string, node: ts.Node, name: string) => {
    audit.counts.declarations++;
    if (ownDoc(node) === "") audit.undocumented.push({ entry, what, file: locate(name, node) });
  };

  /** Rule (b) over one literal or interface body: every optional member states its default. */
  const checkOptionMembers = (entry: string, owner: string, members: readonly (ts.TypeElement | ts.ClassElement)[], name: string) => {
    for (const member of members) {
      if (!(ts.isPropertySignature(member) || ts.isMethodSignature(member) || ts.isPropertyDeclaration(member)) || !member.questionToken) continue;
      if (optionsChecked.has(member)) continue;
      optionsChecked.add(member);
      audit.counts.options++;
      if (!STATES_DEFAULT.test(ownDoc(member))) audit.noDefault.push({ entry, what: `${owner}.${memberName(member)}`, file: locate(name, member) });
    }
  };

  /**
   * Rule (b) by type, for an `options` type that is neither a literal nor a
   * reference (`Parameters<F>[1]`, `typeof x`, a conditional or mapped
   * type): every optional property the compiler finds that we declared, at
   * its declaration.
   */
  const checkOptionsOfType = (entry: string, owner: string, type: ts.Type): void => {
    if (type.isUnionOrIntersection()) {
      for (const t of type.types) checkOptionsOfType(entry, owner, t);
      return;
    }
    for (const property of checker.getPropertiesOfType(type)) {
      for (const decl of (property.declarations ?? []).filter(isOurs)) {
        const parent = decl.parent;
        if (ts.isInterfaceDeclaration(parent) || ts.isTypeAliasDeclaration(parent)) checkOptionsDeclaration(entry, parent);
        else if (ts.isTypeLiteralNode(parent)) checkOptionMembers(entry, owner, [decl as ts.TypeElement], topLevelName(parent));
      }
    }
  };

  /** Rule (b) over a declared options type (interface or alias), once, with the own types it builds on. */
  const checkOptionsDeclaration = (entry: string, decl: ts.Declaration) => {
    if (optionsChecked.has(decl) || !isOurs(decl)) return;
    optionsChecked.add(decl);
    if (ts.isInterfaceDeclaration(decl)) {
      checkOptionMembers(entry, decl.name.text.replace(/\$\d+$/, ""), decl.members, decl.name.text);
      for (const clause of decl.heritageClauses ?? []) for (const t of clause.types) checkOptionsType(entry, decl.name.text, t);
    } else if (ts.isTypeAliasDeclaration(decl)) {
      checkOptionsType(entry, decl.name.text.replace(/\$\d+$/, ""), decl.type, decl.name.text);
    }
  };

  /** Rule (b) over the type of an `options` value: literals directly, references through their declarations. */
  const checkOptionsType = (entry: string, owner: string, node: ts.TypeNode | ts.ExpressionWithTypeArguments, name = owner): void => {
    if (ts.isParenthesizedTypeNode(node)) return checkOptionsType(entry, owner, node.type, name);
    if (ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node)) {
      for (const t of node.types) checkOptionsType(entry, owner, t, name);
      return;
    }
    if (ts.isTypeLiteralNode(node)) return checkOptionMembers(entry, owner, node.members, name);
    if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) {
      const target = resolve(checker.getSymbolAtLocation(ts.isTypeReferenceNode(node) ? node.typeName : node.expression));
      const own = (target?.declarations ?? []).filter(isOurs);
      for (const decl of own) checkOptionsDeclaration(entry, decl);
      // `Partial<FooOptions>`, `Omit<FooOptions, "x">`: the options are in the type arguments.
      if (own.length === 0) for (const arg of node.typeArguments ?? []) checkOptionsType(entry, owner, arg, name);
      return;
    }
    checkOptionsOfType(entry, owner, checker.getTypeFromTypeNode(node));
  };

  /** Rule (b) for every parameter named `options` of a function, constructor or method. */
  const checkOptionsParameters = (entry: string, owner: string, fn: ts.SignatureDeclaration, name: string) => {
    for (const parameter of fn.parameters) {
      if (parameter.name.getText() === "options" && parameter.type) checkOptionsType(entry, `${owner}(options)`, parameter.type, name);
    }
  };

  /** Rule (a) over a class, interface or literal body, and (b) over its methods' `options`. */
  const checkMembers = (entry: string, owner: string, decl: ts.ClassDeclaration | ts.InterfaceDeclaration | ts.TypeLiteralNode, name: string) => {
    const members = checkedMembers(decl.members);
    for (const member of members) {
      audit.counts.members++;
      const what = `${owner}.${memberName(member)}${overloadLabel(members, member)}`;
      if (ownDoc(member) === "" && (ts.isTypeLiteralNode(decl) || !inheritsDoc(decl, member))) {
        audit.undocumented.push({ entry, what, file: locate(name, member) });
      }
      if (ts.isMethodDeclaration(member) || ts.isMethodSignature(member)) checkOptionsParameters(entry, what, member, name);
    }
    if (ts.isClassDeclaration(decl)) {
      for (const ctor of decl.members.filter(ts.isConstructorDeclaration)) checkOptionsParameters(entry, `new ${owner}`, ctor, name);
    }
  };

  /** Our own types a class, interface or alias builds on (their members show on it). */
  const visitBases = (entry: string, types: readonly (ts.TypeNode | ts.ExpressionWithTypeArguments)[]) => {
    for (const t of types) {
      const target = ts.isTypeReferenceNode(t) ? checker.getSymbolAtLocation(t.typeName) : ts.isExpressionWithTypeArguments(t) ? checker.getSymbolAtLocation(t.expression) : undefined;
      const symbol = resolve(target);
      if (symbol) visitSymbol(entry, symbol);
    }
  };

  /** The type literals of an alias (directly or in a union/intersection), and its referenced bases. */
  const visitAliasType = (entry: string, owner: string, node: ts.TypeNode, name: string) => {
    if (ts.isParenthesizedTypeNode(node)) return visitAliasType(entry, owner, node.type, name);
    if (ts.isTypeLiteralNode(node)) return checkMembers(entry, owner, node, name);
    if (ts.isUnionTypeNode(node) || ts.isIntersectionTypeNode(node)) {
      const literals = node.types.filter(ts.isTypeLiteralNode);
      for (const t of node.types) {
        const label = ts.isUnionTypeNode(node) && ts.isTypeLiteralNode(t) && literals.length > 1 ? `${owner}${variantLabel(literals, t)}` : owner;
        visitAliasType(entry, label, t, name);
      }
      if (ts.isIntersectionTypeNode(node)) visitBases(entry, node.types);
    }
  };

  const visitDeclaration = (entry: string, symbol: ts.Symbol, decl: ts.Declaration) => {
    if (visited.has(decl) || !isOurs(decl)) return;
    visited.add(decl);
    const owner = declaredName(symbol);
    const name = symbol.getName();
    if (ts.isFunctionDeclaration(decl)) {
      const overloads = (symbol.declarations ?? []).filter(ts.isFunctionDeclaration);
      const label = overloads.length > 1 ? ` (overload ${overloads.indexOf(decl) + 1})` : "";
      requireDoc(entry, `${owner}${label}`, decl, name);
      checkOptionsParameters(entry, owner, decl, name);
    } else if (ts.isClassDeclaration(decl)) {
      requireDoc(entry, owner, decl, name);
      checkMembers(entry, owner, decl, name);
      for (const clause of decl.heritageClauses ?? []) visitBases(entry, clause.types);
    } else if (ts.isVariableDeclaration(decl)) {
      requireDoc(entry, owner, decl, name);
      if (decl.type && ts.isFunctionTypeNode(decl.type)) checkOptionsParameters(entry, owner, decl.type, name);
    } else if (ts.isEnumDeclaration(decl)) {
      requireDoc(entry, owner, decl, name);
    } else if (ts.isInterfaceDeclaration(decl)) {
      requireDoc(entry, owner, decl, name);
      checkMembers(entry, owner, decl, name);
      for (const clause of decl.heritageClauses ?? []) visitBases(entry, clause.types);
      if (owner.endsWith("Options")) checkOptionsDeclaration(entry, decl);
    } else if (ts.isTypeAliasDeclaration(decl)) {
      requireDoc(entry, owner, decl, name);
      visitAliasType(entry, owner, decl.type, name);
      if (owner.endsWith("Options")) checkOptionsDeclaration(entry, decl);
    }
  };

  const visitSymbol = (entry: string, symbol: ts.Symbol) => {
    for (const decl of symbol.declarations ?? []) visitDeclaration(entry, symbol, decl);
  };

  for (const { subpath, file } of modules) {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${subpath}: the compiler found no module in ${file}`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) visitSymbol(subpath, resolve(exported)!);
  }
  return audit;
}

const format = (findings: Finding[]) => findings.map((f) => `${f.entry}: ${f.what} (${f.file})`);

describe("TSDoc of the public typings (dist)", () => {
  let audit: Audit;

  beforeAll(() => {
    requireDist(ENTRIES);
    const index = sourceIndex();
    const locate = (name: string, decl: ts.Node) => {
      const files = index.get(name.replace(/\$\d+$/, ""));
      return files?.length ? files.join(" | ") : relative(root, decl.getSourceFile().fileName);
    };
    const program = compileTypings(ENTRIES.map((e) => e.types));
    audit = auditTypings(
      program,
      // Module entries; the types-only ./vite/client is an ambient declaration with no exports.
      ENTRIES.filter((e) => e.js !== undefined).map((e) => ({ subpath: e.subpath, file: e.types })),
      DIST,
      locate,
    );
    console.info(
      `tsdoc: ${audit.undocumented.length} of ${audit.counts.declarations} declarations and ${audit.counts.members} members without TSDoc; ` +
        `${audit.noDefault.length} of ${audit.counts.options} optional options without a stated default`,
    );
  }, 60_000);

  it("(a) every exported declaration, and every member of an exported type, has TSDoc", () => {
    const list = format(audit.undocumented);
    expect(list, `${list.length} without TSDoc:\n  ${list.join("\n  ")}`).toEqual([]);
  });

  it("(b) every optional member of an options type states its default", () => {
    const list = format(audit.noDefault);
    expect(list, `${list.length} options without a default:\n  ${list.join("\n  ")}`).toEqual([]);
  });
});

describe("the TSDoc rules themselves (a fixture in place of dist)", () => {
  it("flag what they should, once, and leave platform members alone", () => {
    const dir = mkdtempSync(join(tmpdir(), "tsdoc-"));
    try {
      const files: Record<string, string> = {
        "index.d.ts": `export { f, g, h, k, A, FooOptions, Ev, Bare } from "./types-X.js";`,
        "sub.d.ts": `export { A } from "./types-X.js";`,
        "types-X.d.ts": `
/** Documented. */
declare function f(options?: {
  a?: number;
  /** Default \`1\`. */
  b?: number;
}): void;
declare function g(): void;
declare const h: (options?: {
  x?: number;
}) => void;
interface Bare {
}
interface Host {
  run(id: string, options?: {
    /** Default 1. */
    a?: number;
    b?: number;
  }): void;
}
/** Options through an indexed access type. */
declare function k(options?: Parameters<Host["run"]>[1]): void;
/** Base. */
interface Base {
  /** Documented here, inherited by A. */
  fromBase(): void;
}
/** A stream of bytes. */
declare class A extends ReadableStream<Uint8Array> implements Base {
  #private;
  private hidden;
  /** Documented. */
  x: number;
  y: number;
  fromBase(): void;
  [Symbol.dispose](): void;
  /** First. */
  m(a: string): void;
  m(a: number): void;
}
/** Options. */
interface FooOptions {
  /** Says nothing of the fallback. */
  a?: number;
  /** Default: \`2\`. */
  b?: number;
  /** @defaultValue 3 */
  c?: number;
  /** No default: absent means "all". */
  d?: number;
  /** Required. */
  e: number;
}
/** Events. */
type Ev = {
  /** Kind. */
  name: "a";
  v: number;
} | {
  /** Kind. */
  name: "b";
  /** Code. */
  code: number;
};
export { f, g, h, k, A, type FooOptions, type Ev, type Bare };
`,
      };
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      const program = compileTypings([join(dir, "index.d.ts"), join(dir, "sub.d.ts")]);
      const audit = auditTypings(
        program,
        [
          { subpath: ".", file: join(dir, "index.d.ts") },
          { subpath: "./sub", file: join(dir, "sub.d.ts") },
        ],
        dir,
        (_name, decl) => basename(decl.getSourceFile().fileName),
      );
      expect(format(audit.undocumented)).toEqual([
        ".: g (types-X.d.ts)",
        ".: h (types-X.d.ts)",
        ".: A.y (types-X.d.ts)",
        ".: A.[Symbol.dispose] (types-X.d.ts)",
        ".: A.m (overload 2) (types-X.d.ts)",
        '.: Ev{name: "a"}.v (types-X.d.ts)',
        ".: Bare (types-X.d.ts)",
      ]);
      expect(format(audit.noDefault)).toEqual([".: f(options).a (types-X.d.ts)", ".: h(options).x (types-X.d.ts)", ".: k(options).b (types-X.d.ts)", ".: FooOptions.a (types-X.d.ts)"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
