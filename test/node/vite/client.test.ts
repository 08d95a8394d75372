/**
 * `<pkg>/vite/client` (src/vite/client.d.ts, shipped as dist/vite/client.d.ts):
 * an ambient declaration, not a module, under which user code importing
 * `computer:bundle/<dir>` type-checks and passes the default export to
 * WorkerBundle as a WorkerBundleSource. Compiled with the TypeScript API.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const CLIENT = resolve(import.meta.dirname, "../../../src/vite/client.d.ts");
const MOUNTS = resolve(import.meta.dirname, "../../../src/mounts/index.js");
const dir = mkdtempSync(join(tmpdir(), "vite-client-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Type-checks `code` as a user's module, with or without the client declaration; returns the diagnostics as "TS<code>: <text>". */
function check(code: string, withClient = true): string[] {
  const file = join(dir, `usage-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, code);
  const program = ts.createProgram(withClient ? [CLIENT, file] : [file], {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts"],
    types: ["@cloudflare/workers-types"],
    typeRoots: [resolve(import.meta.dirname, "../../../node_modules/@types"), resolve(import.meta.dirname, "../../../node_modules")],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

const USAGE = `
import bundle from "computer:bundle/skills";
import nested from "computer:bundle/docs/guides";
import { WorkerBundle, type WorkerBundleSource } from ${JSON.stringify(MOUNTS)};
const source: WorkerBundleSource = bundle;
const version: string = nested.version;
const text: Promise<string> | undefined = bundle.files["./README.md"]?.();
export const mount = WorkerBundle(bundle);
export { source, version, text };
`;

/**
 * A package laid out as the build ships it (the file copied to dist/vite/client.d.ts, a types-only
 * "./vite/client" export), compiled with `types: ["agent-computer/vite/client"]` as docs/vite.md says.
 */
function checkPackaged(code: string): string[] {
  const project = mkdtempSync(join(dir, "project-"));
  const pkg = join(project, "node_modules/agent-computer");
  mkdirSync(join(pkg, "dist/vite"), { recursive: true });
  writeFileSync(
    join(pkg, "package.json"),
    JSON.stringify({ name: "agent-computer", type: "module", exports: { "./vite/client": { types: "./dist/vite/client.d.ts" } } }),
  );
  copyFileSync(CLIENT, join(pkg, "dist/vite/client.d.ts"));
  const file = join(project, "usage.ts");
  writeFileSync(file, code);
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts"],
    types: ["agent-computer/vite/client"],
    strict: true,
    noEmit: true,
  };
  // "types" entries resolve from the project's directory, as with a tsconfig.json there.
  const host = ts.createCompilerHost(options);
  host.getCurrentDirectory = () => project;
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

describe("<pkg>/vite/client", () => {
  it('ships as a types-only export: tsconfig "types": ["agent-computer/vite/client"] declares the modules', () => {
    expect(checkPackaged('import bundle from "computer:bundle/skills";\nexport const version: string = bundle.version;\n')).toEqual([]);
    expect(checkPackaged('/// <reference types="agent-computer/vite/client" />\nimport b from "computer:bundle/a";\nexport const n: number = b.version;\n')).toEqual([
      "TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
  });


  it("is an ambient declaration, not a module", () => {
    const source = ts.createSourceFile(CLIENT, ts.sys.readFile(CLIENT)!, ts.ScriptTarget.ES2023, true);
    expect(ts.isExternalModule(source)).toBe(false);
    const declared = source.statements.filter(ts.isModuleDeclaration).map((m) => m.name.getText(source));
    expect(declared).toEqual(['"computer:bundle/*"']);
  });

  it("types computer:bundle/<dir> as a WorkerBundleSource of lazy text files and a version", () => {
    expect(check(USAGE)).toEqual([]);
  });

  it("without it the import does not resolve; with it, wrong uses are type errors", () => {
    expect(check(USAGE, false)).toEqual([
      "TS2307: Cannot find module 'computer:bundle/skills' or its corresponding type declarations.",
      "TS2307: Cannot find module 'computer:bundle/docs/guides' or its corresponding type declarations.",
    ]);
    expect(check('import bundle from "computer:bundle/skills";\nexport const n: number = bundle.version;\n')).toEqual([
      "TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
    expect(check('import bundle from "computer:bundle/skills";\nbundle.version = "x";\n')).toEqual([
      "TS2540: Cannot assign to 'version' because it is a read-only property.",
    ]);
  });
});
