/**
 * Shared by the typings tests: where the built package is, its entry points
 * (package.json "exports"), and a clear failure when dist is missing.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** One public subpath: `"."`, `"./tools/ai-sdk"`, … with its built `.d.ts` and `.js` (none for a types-only entry such as `"./vite/client"`). */
export interface Entry {
  subpath: string;
  types: string;
  js?: string;
}

type ExportsField = Record<string, { types: string; import?: string }>;

/** Every entry point of package.json "exports", with absolute paths. */
export function entries(): Entry[] {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: ExportsField };
  return Object.entries(pkg.exports).map(([subpath, target]) => ({
    subpath,
    types: join(root, target.types),
    ...(target.import !== undefined ? { js: join(root, target.import) } : {}),
  }));
}

/** Throws (failing the test) when an entry's built files are missing. */
export function requireDist(list: Entry[]): void {
  const missing = list.flatMap((e) => (e.js === undefined ? [e.types] : [e.types, e.js])).filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(`The built package is missing ${missing.map((f) => f.slice(root.length + 1)).join(", ")}: run \`npm run build\` first (these tests check dist, not src).`);
  }
}

/** Compiles the given `.d.ts` files as a user would see them (Bundler resolution, Workers types in scope). */
export function compileTypings(files: string[]): ts.Program {
  return ts.createProgram(files, {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ["@cloudflare/workers-types"],
    skipLibCheck: true,
    noEmit: true,
  });
}
