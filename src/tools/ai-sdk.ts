/**
 * `<pkg>/tools/ai-sdk` (spec 03 §7.1): the core tools as an AI SDK
 * `ToolSet` (`createAITools`), the individual `create*Tool` factories, and
 * `forAISDKTools` for `ws:tools`. Imports only types from `ai`, so loading
 * this module loads no agent library.
 *
 * A barrel only: the adapter lives in `./ai-sdk-tools.ts`, shared with
 * `<pkg>/tools`.
 *
 * @module
 */
// createAITools, the nine create*Tool factories and CreateAIToolsOptions: exactly what ai-sdk-tools.ts exports.
export * from "./ai-sdk-tools.js";
export { forAISDKTools } from "../modules/tools.js";
