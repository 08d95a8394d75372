/**
 * User code compiles against the built typings: test/typings/fixtures/*.ts
 * (a `withWorkspace` Durable Object whose methods return exec and fs results
 * to another Worker through `DurableObjectNamespace<Agent>`, and `ws:tools`
 * built from `createAITools` / `createPiTools`) must type-check with
 * test/typings/tsconfig.json, where `agent-computer` resolves to dist
 * through package.json "exports", `@cloudflare/workers-types` is in scope,
 * and `ai`, `zod` are the installed versions.
 */
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { entries, requireDist, root } from "./dist.js";

function compile(configPath: string): { files: string[]; diagnostics: readonly ts.Diagnostic[] } {
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  });
  if (!parsed) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  return { files: parsed.fileNames, diagnostics: [...parsed.errors, ...ts.getPreEmitDiagnostics(program)] };
}

describe("type-level fixtures against dist", () => {
  it("compile with zero diagnostics", () => {
    requireDist(entries());
    const { files, diagnostics } = compile(join(root, "test/typings/tsconfig.json"));
    expect(files.filter((f) => f.startsWith(join(root, "test/typings/fixtures/"))).length).toBeGreaterThan(0);
    const text = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => root,
      getNewLine: () => "\n",
    });
    expect(text, text).toBe("");
  }, 120_000);
});
