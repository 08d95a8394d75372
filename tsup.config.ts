import { defineConfig } from "tsup";

// One entry per public subpath (see package.json "exports"); ESM + .d.ts each.
export const entries = {
  index: "src/index.ts",
  "assets/index": "src/assets/index.ts",
  "git/index": "src/git/index.ts",
  "artifacts/index": "src/artifacts/index.ts",
  "tools/index": "src/tools/index.ts",
  "tools/core": "src/tools/core.ts",
  "tools/ai-sdk": "src/tools/ai-sdk.ts",
  "tools/pi-ai": "src/tools/pi-ai.ts",
  "tools/tanstack-ai": "src/tools/tanstack-ai.ts",
  "tool-dirs/index": "src/tool-dirs/index.ts",
  "backends/worker-javascript": "src/backends/worker-javascript/index.ts",
  "backends/worker-shell": "src/backends/worker-shell/index.ts",
  "backends/container": "src/backends/container/index.ts",
  "backends/container-legacy": "src/backends/container-legacy/index.ts",
  "shell/core": "src/shell/core.ts",
  "shell/curl": "src/shell/curl.ts",
  "shell/html-to-markdown": "src/shell/html-to-markdown.ts",
  "shell/python": "src/shell/python.ts",
  "shell/sqlite": "src/shell/sqlite.ts",
  "shell/js-exec": "src/shell/js-exec.ts",
  "shell/yq": "src/shell/yq.ts",
  "shell/file": "src/shell/file.ts",
  "shell/xan": "src/shell/xan.ts",
  "shell/jq": "src/shell/jq.ts",
  "modules/tools": "src/modules/tools.ts",
  "modules/git": "src/modules/git.ts",
  "modules/container": "src/modules/container.ts",
  "modules/assets": "src/modules/assets.ts",
  "modules/artifacts": "src/modules/artifacts.ts",
  "vite/index": "src/vite/index.ts",
  "observe/cloudflare": "src/observe/cloudflare.ts",
  "observe/opentelemetry": "src/observe/opentelemetry.ts",
} as const;

export default defineConfig({
  entry: entries,
  format: ["esm"],
  dts: true,
  sourcemap: true,
  clean: true,
  target: "es2023",
  // Keep `node:zlib`/`node:buffer` as written: workerd (nodejs_compat) resolves only the prefixed names.
  removeNodeProtocol: false,
  splitting: true,
  treeshake: true,
  external: [/^cloudflare:/, /^node:/, "ai", "@earendil-works/pi-ai", "@tanstack/ai", "just-bash", "@opentelemetry/api", "vite"],
  // edit's line diff and read's image-header reader are bundled, so tool entries load no external module but zod (spec 03 §1).
  noExternal: ["diff", "image-size"],
  // agent-computer/vite/client (types only, an ambient declaration) is copied by the postbuild script.
});
