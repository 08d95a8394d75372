/**
 * The JavaScript that runs inside each Dynamic Worker lives in
 * src/backends/worker-javascript/isolate/**\/*.js (type-checked as JS by
 * `npm run typecheck`); the backend loads it as text from
 * isolate-source.generated.ts, which scripts/gen-isolate.mjs writes (`npm run
 * build` runs it first). This fails when that file is stale: an isolate file
 * was edited and the generator was not run.
 */
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../../..");

describe("isolate-source.generated.ts", () => {
  it("matches isolate/**/*.js (run `node scripts/gen-isolate.mjs` after editing them)", () => {
    let failure = "";
    try {
      execFileSync(process.execPath, [join(root, "scripts/gen-isolate.mjs"), "--check"], { cwd: root, stdio: "pipe" });
    } catch (error) {
      failure = String((error as { stderr?: Buffer }).stderr ?? error);
    }
    expect(failure).toBe("");
  });
});
