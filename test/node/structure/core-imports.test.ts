/**
 * "workspace.ts … never imports do/" (DESIGN.md): the core — the Workspace,
 * the VFS, the runtime, storage, util and the observer — loads nothing from
 * the Durable Object layer. `do/` works over a narrow host interface
 * (`do/host.ts`) and installs what `workspace.stub()` builds.
 *
 * Imports are read with the TypeScript compiler. One type-only import is
 * allowed: `workspace.ts` names `WorkspaceStub` as the return type of
 * `stub()` (spec 01 §1.2); it is erased from the JavaScript.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../../..");
const CORE = ["src/workspace.ts", "src/observer.ts", "src/fs", "src/runtime", "src/storage", "src/util"];
const ALLOWED_TYPE_IMPORTS = new Set(["src/workspace.ts -> src/do/stub.ts"]);

function files(path: string): string[] {
  const full = join(root, path);
  if (path.endsWith(".ts")) return [full];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(path, entry.name)) : entry.name.endsWith(".ts") ? [join(full, entry.name)] : [],
  );
}

/** `from → to` for each import or re-export of a relative module, with whether it is type-only. */
function imports(file: string): { to: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: { to: string; typeOnly: boolean }[] = [];
  for (const statement of source.statements) {
    const specifier = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith(".")) continue;
    const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
    const typeOnly = ts.isImportDeclaration(statement)
      ? !!clause && (clause.isTypeOnly || (!clause.name && !!clause.namedBindings && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((e) => e.isTypeOnly)))
      : statement.isTypeOnly;
    out.push({ to: relative(root, resolve(dirname(file), specifier.text.replace(/\.js$/, ".ts"))), typeOnly });
  }
  return out;
}

describe("the core never imports the Durable Object layer", () => {
  it("has no import of src/do/ but the one type-only name", () => {
    const found: string[] = [];
    for (const file of CORE.flatMap(files)) {
      for (const { to, typeOnly } of imports(file)) {
        if (!to.startsWith("src/do/")) continue;
        const edge = `${relative(root, file)} -> ${to}`;
        if (!(typeOnly && ALLOWED_TYPE_IMPORTS.has(edge))) found.push(`${edge}${typeOnly ? " (type)" : ""}`);
      }
    }
    expect(found).toEqual([]);
  });
});
