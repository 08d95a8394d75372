/**
 * `<pkg>/vite` (spec 01 §6.6): the Vite plugin that turns
 * `import bundle from "computer:bundle/<dir>"` into a `WorkerBundleSource`
 * for `WorkerBundle(bundle)`. Declare the module for TypeScript with
 * `<pkg>/vite/client`. See docs/vite.md.
 *
 * @module
 */
export { computerBundle, type ComputerBundleOptions } from "./plugin.js";
