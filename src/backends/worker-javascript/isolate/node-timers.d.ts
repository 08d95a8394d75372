/**
 * workerd's `node:timers` (nodejs_compat), as __modules__/node-timers.js uses it: the types the isolate's check
 * needs (the isolate is checked against the Workers runtime types only, which do not declare Node's modules).
 */
declare module "node:timers" {
  const timers: Record<string, unknown> & { promises?: Record<string, unknown> };
  export default timers;
  export const setTimeout: (...args: unknown[]) => unknown;
  export const setInterval: (...args: unknown[]) => unknown;
  export const setImmediate: (...args: unknown[]) => unknown;
  export const clearTimeout: (...args: unknown[]) => unknown;
  export const clearInterval: (...args: unknown[]) => unknown;
  export const clearImmediate: (...args: unknown[]) => unknown;
}
