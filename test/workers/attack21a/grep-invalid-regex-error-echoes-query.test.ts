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
 * Fixed: src/fs/grep-regex.ts quotes a pattern through one helper (`quoted`): up to 200 characters whole, past
 * them its first 200, `…` and its length — `Invalid regular expression: /((((…/ (100000 characters): <reason>`.
 * V8's own syntax error is rebuilt from its reason (flags kept: `/(…/i (…)`), and the parts a refusal names
 * (a construct's raw text, re2js's message) are cut the same way; so is `grep stopped: the regular expression
 * /…/ costs too much …`. Every adapter's grep tool passes the message on, so the result stays ~1 KB.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { createPiTools } from "../../../src/tools/pi-ai.js";

it("an invalid regex's error stays short whatever the query's length", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const out = await runInDurableObject(stub, async (_i, state) => {
    const ws = new Workspace({ storage: state.storage });
    try {
      await ws.fs.mkdir("/workspace", { recursive: true });
      await ws.fs.writeFile("/workspace/a.txt", "hello\n");
      const { execute } = createPiTools({ workspace: ws });
      const queries = { unterminated: "(".repeat(100_000), backreference: `(a)${"b".repeat(100_000)}\\1`, tooLarge: `${"c".repeat(100_000)}(d{1000}){1000}` };
      const sizes: Record<string, { tool: number; error: string; api: string }> = {};
      for (const [name, query] of Object.entries(queries)) {
        const r = await execute({ id: name, name: "grep", arguments: { path: "/workspace", query, regex: true } });
        const error = String((r.details as { error?: string }).error);
        const api = await ws.fs.grep(query, "/workspace", { regex: true }).then(() => "no error", (e: Error) => e.message);
        const quote = `Invalid regular expression: /${query.slice(0, 200)}…/ (${query.length} characters): `;
        sizes[name] = { tool: JSON.stringify(r).length, error: error === api ? "same" : error, api: api.startsWith(quote) ? api.slice(quote.length) : api };
      }
      return sizes;
    } finally {
      await ws.close();
    }
  });
  // Found: tool/api characters — unterminated 200,175/100,049, backreference 200,377/100,148, tooLarge 200,353/100,138.
  // Fixed: the query's first 200 characters and its length, then the reason; the tool's error is the same message.
  expect(out.unterminated!.api).toMatch(/^(Unterminated group|Too many captures)$/);
  expect(out.backreference!.api).toBe("backreference \\1 is not supported (grep uses a linear-time engine: RE2 syntax, no backreferences or lookaround)");
  expect(out.tooLarge!.api).toBe("too large for grep's linear-time engine (nested repeat counts may multiply to at most 1000)");
  for (const name of ["unterminated", "backreference", "tooLarge"]) {
    expect(out[name]!.error).toBe("same");
    expect(out[name]!.tool).toBeLessThan(2048);
  }
}, 60_000);
