// @ts-check
/**
 * Module `__modules__/node-fs.js` of every run's Dynamic Worker: `node:fs`
 * is the promise API of node-fs-promises.js (no sync or callback
 * functions), plus `promises` (spec 02 §3.4).
 */
import fs from "./node-fs-promises.js";
export * from "./node-fs-promises.js";
export const promises = fs;
export default { ...fs, promises: fs };
