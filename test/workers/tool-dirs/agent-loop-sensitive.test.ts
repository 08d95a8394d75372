/**
 * Secrets and directory tools (issue 19) in each library's real loop, in
 * real workerd: a `sensitive` input's value and an `env` token (the host's
 * STATUS_API_TOKEN) never appear in any span (the Workspace's observer
 * records every one), any console output of the host, or any text the model
 * gets back — results, bad-input errors, a tool's thrown error or stderr.
 * The captured output is searched for the values themselves.
 */
import { describe, expect, inject, it } from "vitest";
import { recordingObserver } from "../observe/helpers.js";
import { SECRET, TOKEN, captureConsole, inLoadedTools, loopDrivers, safeJSON } from "./loop-helpers.js";

const base = (): string => inject("httpServer");
/** A secret the model passes as a number (a wrong type for a string input). */
const SECRET_NUMBER = 918273645;

const LEAKY = {
  "leaky/TOOL.md": `---\nname: leaky\ndescription: Logs and throws its secrets.\nenv: [STATUS_API_TOKEN]\ninputs:\n  key:\n    type: string\n    description: A key.\n    sensitive: true\n---\n`,
  "leaky/index.ts": `export async function execute(_id: string, p: { key: string }): Promise<never> {\n  console.log("key", p.key, process.env.STATUS_API_TOKEN);\n  console.error("about to fail with", JSON.stringify(p));\n  throw new Error("login failed for " + p.key + " with " + process.env.STATUS_API_TOKEN);\n}\n`,
  "bash_leaky/TOOL.md": `---\nname: bash_leaky\ndescription: Prints its secrets to stderr and fails.\nlanguage: bash\nenv: [STATUS_API_TOKEN]\ninputs:\n  pw:\n    type: string\n    description: A password.\n    sensitive: true\n---\n`,
  "bash_leaky/index.sh": `echo "out $INPUT_PW"\necho "bad $INPUT_PW $STATUS_API_TOKEN" >&2\ncat "$TOOL_INPUT_FILE" >&2\nexit 3\n`,
};

describe("sensitive inputs and env tokens never reach spans, console output or error texts", () => {
  for (const driver of loopDrivers()) {
    it(`${driver.name}`, async () => {
      const { observer, spans } = recordingObserver();
      const { value: out, lines } = await captureConsole(() =>
        inLoadedTools(
          async ({ ws, loaded }) => {
            console.info("capture check", driver.name);
            return driver.run({ workspace: ws, toolDirectories: { ...loaded, env: { STATUS_API_TOKEN: TOKEN } } }, [
              ["inputs", "all_inputs", { text: "hi", secret: SECRET }],
              ["badtype", "all_inputs", { text: 5, secret: SECRET }],
              ["badenum", "all_inputs", { text: "x", mode: "nope", secret: SECRET }],
              ["badsecret", "all_inputs", { text: "x", secret: SECRET_NUMBER }],
              ["leak", "leaky", { key: SECRET }],
              ["bash", "bash_leaky", { pw: SECRET }],
              ["status", "fetch_status", { url: `${base()}/echo?via=` }],
              ["status_param", "fetch_status", { url: base(), api_token: SECRET }],
            ]);
          },
          { observer, extra: LEAKY },
        ),
      );
      const { seen } = out;
      expect(out.final).toBe("done");
      // The calls ran (or were refused) as expected…
      expect(seen.inputs).toEqual({ text: `hi hi\nsecret=${SECRET.length} chars`, isError: false });
      for (const id of ["badtype", "badenum", "badsecret"]) expect(seen[id]!.isError, id).toBe(true);
      expect(seen.badsecret!.text).toMatch(/\bsecret\b/);
      // …the tool's own error text has both values masked…
      // (its stderr, then the thrown message)
      expect(seen.leak).toEqual({ text: 'Tool "leaky" failed (exit 1): about to fail with {"key":"***"}\nlogin failed for *** with ***', isError: true });
      expect(seen.bash).toEqual({ text: `Tool "bash_leaky" failed (exit 3): bad *** ***\n{"pw":"***"}\nstdout:\nout ***\n`, isError: true });
      expect(seen.status).toEqual({ text: "HTTP 200: GET /echo?via=/status", isError: false });
      expect(seen.status_param).toEqual({ text: "HTTP 404: no route /status", isError: true });
      // …the observer saw the command run (the haystack is real: the shell's spawn span names its run and cwd)…
      const spanText = safeJSON(spans);
      expect(spans.find((s) => s.name === "workspace.runtime.exec.spawn")?.attributes).toEqual({
        "workspace.runtime.cwd": "/workspace/tools/bash_leaky",
        "workspace.runtime.timeout_ms": 60000,
        "workspace.runtime.id": expect.stringMatching(/^tool\.bash_leaky\.[0-9a-f-]{36}$/),
      });
      // …and neither value is anywhere.
      expect(lines).toContain(`capture check ${driver.name}`);
      const haystacks = { spans: spanText, console: lines.join("\n"), model: safeJSON(seen) };
      for (const [where, text] of Object.entries(haystacks)) {
        for (const value of [SECRET, TOKEN, String(SECRET_NUMBER)]) expect(text.includes(value), `${value} in ${where}`).toBe(false);
      }
    });
  }
});
