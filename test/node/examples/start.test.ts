/**
 * `npm start` on the default input: local workerd, the ai-sdk-agent example,
 * the `diff` package loaded into the Workspace, the scripted model (no keys),
 * and a verified change.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REPO } from "./harness.js";

const MODEL_KEYS = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AI_GATEWAY_API_KEY", "AGENT_MODEL"];

it("npm start explores (tools and the shell), reads with continuation, edits, writes a file with sed, execs the check and ends VERIFIED", { timeout: 240_000 }, async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
  for (const key of MODEL_KEYS) delete env[key];
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [join(REPO, "scripts/start.mjs")], { cwd: REPO, env, maxBuffer: 16 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
  const lines = stdout.split("\n");
  const calls = lines.filter((line) => /^\[\d+\] /.test(line)).map((line) => line.replace(/^\[\d+\] (\w+).*$/, "$1"));
  expect({ code, calls, stderr: stderr.trim() }).toEqual({
    code: 0,
    calls: ["ls", "find", "exec", "grep", "read", "read", "edit", "exec", "exec"],
    stderr: "",
  });
  expect(stdout).toContain("project  diff@9.0.0 (node_modules/diff) → /workspace/diff");
  expect(stdout).toContain("model    SCRIPTED (no model credentials set)");
  expect(stdout).toMatch(/\[6\] read \{"path":"\/workspace\/diff\/libesm\/diff\/line\.js","offset":41,"byteOffset":\d+/);
  // The shell: grep -rn and wc -l over the project, then sed writes check-name.js, which the JavaScript check imports.
  expect(stdout).toContain('[3] exec worker-shell cwd=/workspace/diff');
  expect(stdout).toContain('"backend":"worker-shell","exitCode":0,"stdout":"libesm/diff/line.js:36:export function diffLines(oldStr, newStr, options) {\\n21\\n753\\n"');
  expect(stdout).toContain('"backend":"worker-shell","exitCode":0,"stdout":"export const name = \\"diffLineStats\\";\\n"');
  expect(stdout).toContain("[9] exec worker-javascript cwd=/workspace/diff");
  expect(stdout).toContain('check    passed: diffLineStats(a b c → a B c d) = {"added":2,"removed":1} → {"verified":true,"stats":{"added":2,"removed":1}} (check-name.js: export const name = "diffLineStats";)');
  expect(lines.filter((line) => line.trim() !== "").at(-1)).toMatch(
    /^VERIFIED: diffLineStats\(\) added to \/workspace\/diff\/libesm\/diff\/line\.js with edit, 2 shell steps on worker-shell, checked by the agent's exec and again by the host on worker-javascript/,
  );
});
