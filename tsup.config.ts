import { defineConfig } from "tsup";

// One entry per public subpath (see package.json "exports"); ESM + .d.ts each.
export const entries = {
  index: "src/index.ts",
} as const;

export default defineConfig({
  entry: entries,
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "es2023",
  splitting: true,
  treeshake: true,
  external: [/^cloudflare:/, /^node:/, "ai", "@earendil-works/pi-ai", "@tanstack/ai"],
});
