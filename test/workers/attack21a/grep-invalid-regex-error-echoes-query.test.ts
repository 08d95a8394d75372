/**
 * Issue 20, twenty-first attack run: grep's invalid-regex error quotes the whole query.
 * Tried: the grep tool (pi tool set → workspace.fs.grep → compileGrepRegex, src/fs/grep-regex.ts) and `ws.fs.grep`
 * itself on a Workspace over the Durable Object's storage, with regex queries of ~100,000 characters that fail
 * three ways: V8's syntax error (an unterminated group), an unsupported construct (a backreference), and a program
 * too large for RE2 (repeat counts).
 * Held: a too-long glob is quoted at 40 characters (`glob too long: 500000 characters, at most 4096: "yyy…"…`);
 * a too-long path at its start (ENAMETOOLONG, ~400 characters of result); an over-long oldText is not echoed.
 * Found (low–medium — the conversation pays, ~2× the query per call, every adapter; 3 of 3 runs): each message
 * embeds `/${source}/` whole — `Invalid regular expression: /((((…(/: Unterminated group` for "(" × 100,000 is
 * 100,049 characters, and the pi result carries it twice (content and details: 200,175 characters); the same for
 * `… /aaaa…\1/: backreference \1 is not supported …` and `… too large for grep's linear-time engine …`. Other
 * invalid-input messages are cut (INVALID_ARGUMENTS_MAX_CHARS 4,096; artifacts' 64-character quotes).
 * Suggested fix: quote the source in these TypeErrors through one helper that keeps its first ~200 characters and
 * states the length (`/((((…/ (100000 characters)`), also for V8's message, which repeats the source.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

it.fails("an invalid regex's error stays short whatever the query's length", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/a.txt", "hello\n");
      const { execute } = createPiTools({ workspace: ws });
      const queries = { unterminated: "(".repeat(100_000), backreference: `(a)${"b".repeat(100_000)}\\1`, tooLarge: `${"c".repeat(100_000)}(d{1000}){1000}` };
      const sizes: Record<string, { tool: number; error: string; api: number }> = {};
      for (const [name, query] of Object.entries(queries)) {
        const r = await execute({ id: name, name: "grep", arguments: { path: "/workspace", query, regex: true } });
        const error = String((r.details as { error?: string }).error);
        const api = await ws.fs.grep(query, "/workspace", { regex: true }).then(() => "no error", (e: Error) => e.message);
        sizes[name] = { tool: JSON.stringify(r).length, error: error.slice(0, 28), api: api.length };
      }
      return sizes;
    } finally {
      await ws.close();
    }
  });
  // Found: tool/api characters — unterminated 200,175/100,049, backreference 200,377/100,148, tooLarge 200,353/100,138.
  for (const name of ["unterminated", "backreference", "tooLarge"]) {
    expect(out[name]!.error).toBe("Invalid regular expression: ");
    expect(out[name]!.api).toBeLessThan(4096);
    expect(out[name]!.tool).toBeLessThan(2 * 4096);
  }
}, 60_000);
