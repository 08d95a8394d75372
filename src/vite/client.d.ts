/**
 * `<pkg>/vite/client` (spec 01 §6.6): declares the virtual modules of the
 * `computerBundle()` Vite plugin for TypeScript. Not a module (no exports):
 * add it to `compilerOptions.types` in tsconfig.json,
 *
 * ```json
 * { "compilerOptions": { "types": ["agent-computer/vite/client"] } }
 * ```
 *
 * or reference it from a `.d.ts` of the project:
 * `/// <reference types="agent-computer/vite/client" />`.
 *
 * Shipped as is (copied to `dist/vite/client.d.ts` by the build), so it
 * imports nothing: the type is written out here, and is assignable to
 * `WorkerBundleSource`.
 */

/**
 * `import bundle from "computer:bundle/<dir>"`: the files of `<dir>` (relative
 * to the Vite root) as a `WorkerBundleSource` for `WorkerBundle(bundle)`.
 */
declare module "computer:bundle/*" {
  /** The bundle: lazy text loaders keyed `./<path>`, and the content version. */
  const bundle: {
    /**
     * `./<path>` → a loader of the file's text (`import.meta.glob` with
     * `query: "?raw"`): files only, dot-files, dot-directories and
     * `node_modules` skipped.
     */
    readonly files: Readonly<Record<string, () => Promise<string>>>;
    /** `sha256:<hex>` over the files' relative paths and bytes; changes when a file does (also under `vite dev`). */
    readonly version: string;
  };
  export default bundle;
}
