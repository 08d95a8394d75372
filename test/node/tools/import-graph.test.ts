/**
 * Builds the package with the real tsup config (JS only) and walks the
 * import graph of each tool entry point: an entry, with every chunk it pulls
 * in, may load no external module outside its allowed list (spec 03 §1).
 */
import { init, parse } from "es-module-lexer";
import { readFile, rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "tsup";
import { beforeAll, describe, expect, it } from "vitest";
import config, { entries } from "../../../tsup.config.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const outDir = join(root, "node_modules/.cache/tools-import-graph");

async function externalsOf(entry: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const externals = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const [imports] = parse(await readFile(file, "utf8"));
    for (const imp of imports) {
      const spec = "specifier" in imp ? imp.specifier : undefined;
      if (spec === undefined || spec === null) continue;
      if (spec.startsWith(".")) await visit(resolve(dirname(file), spec));
      else externals.add(spec);
    }
  };
  await visit(join(outDir, `${entry}.js`));
  return externals;
}

beforeAll(async () => {
  await init;
  await rm(outDir, { recursive: true, force: true });
  const base = Array.isArray(config) ? config[0] : config;
  await build({ ...(base as object), entry: entries, outDir, dts: false, sourcemap: false, silent: true, config: false });
}, 120_000);

describe("import isolation of the built tool entries", () => {
  const allowed: Record<string, string[]> = {
    "tools/core": ["zod"],
    "tool-dirs/index": ["zod", "yaml"],
    "tools/pi-ai": ["zod"],
    "tools/tanstack-ai": ["zod"],
    "tools/ai-sdk": ["zod", "ai"],
    "tools/index": ["zod", "ai"],
  };
  for (const [entry, list] of Object.entries(allowed)) {
    it(`${entry} loads only ${list.join(", ")}`, async () => {
      const externals = [...(await externalsOf(entry))].sort();
      expect(externals.filter((name) => !list.includes(name))).toEqual([]);
      expect(externals).toContain("zod"); // the walk really reached the shared chunk
      expect(externals).not.toContain("@earendil-works/pi-ai");
      expect(externals).not.toContain("@tanstack/ai");
      expect(externals).not.toContain("diff");
    });
  }

  it("exports exactly the documented runtime names", async () => {
    const load = async (entry: string) => Object.keys(await import(pathToFileURL(join(outDir, `${entry}.js`)).href)).sort();
    // Spec 03 §1: the runtime export lists are exact.
    expect(await load("tools/pi-ai")).toEqual(["createPiTools", "forPiTools"]);
    expect(await load("tools/tanstack-ai")).toEqual(["createTanStackTools"]);
    expect(await load("tools/ai-sdk")).toEqual([
      "createAITools", "createDeleteTool", "createEditTool", "createExecTool", "createFindTool", "createGrepTool",
      "createListTool", "createPublishTool", "createReadTool", "createWriteTool", "forAISDKTools",
    ]);
    expect(await load("tools/index")).toEqual([
      "WorkspaceFileStore", "createDeleteTool", "createEditTool", "createExecTool", "createFindTool", "createGrepTool",
      "createListTool", "createPublishTool", "createReadTool", "createWriteTool",
    ]);
  });
});
