/**
 * TypeScript Workspace modules of the JavaScript backend (spec 02 §3.3, used
 * by TOOL.md tool directories, spec 03 §9): a Workspace file ending `.ts`,
 * `.mts` or `.cts` (not `.d.ts`) has its types stripped with
 * [sucrase](https://github.com/alangpierce/sucrase) (`transforms:
 * ["typescript"]`, ES syntax left as it is) before the graph scans it; and an
 * import of `./x.js` (`./x.mjs`, `./x.cjs`) that does not exist finds
 * `./x.ts` (`.mts`, `.cts`), as Node ESM TypeScript writes imports.
 *
 * sucrase is loaded on first use, so runs without TypeScript never evaluate it.
 *
 * @module
 */

/** `true` for a path the graph strips types from: `.ts`, `.mts`, `.cts`, but not a `.d.ts` declaration file. */
export function isTypeScriptPath(path: string): boolean {
  return /\.(?:ts|mts|cts)$/.test(path) && !/\.d\.(?:ts|mts|cts)$/.test(path);
}

/** The TypeScript twin of a `.js`/`.mjs`/`.cjs` path (`a/b.js` → `a/b.ts`); `undefined` for other paths. */
export function typeScriptTwin(path: string): string | undefined {
  const m = /\.(js|mjs|cjs)$/.exec(path);
  if (!m) return undefined;
  return path.slice(0, -m[1]!.length) + { js: "ts", mjs: "mts", cjs: "cts" }[m[1] as "js" | "mjs" | "cjs"];
}

let sucrase: Promise<typeof import("sucrase")> | undefined;

/**
 * Strips the types of TypeScript module `source` (read from `path`), keeping
 * its ES module syntax, imports that are only used as types removed.
 *
 * @throws SyntaxError `<path>: <sucrase's message>` for source sucrase cannot parse.
 */
export async function stripTypes(source: string, path: string): Promise<string> {
  sucrase ??= import("sucrase");
  const { transform } = await sucrase;
  try {
    return transform(source, { transforms: ["typescript"], disableESTransforms: true, filePath: path }).code;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new SyntaxError(`${path}: ${message}`);
  }
}
