/**
 * The bench Worker, bundled and run in workerd by `bench/run.mjs`.
 *
 * `POST /run/<suite>` runs one suite on a fresh {@link BenchObject} (a Durable
 * Object with SQLite storage) and answers `{ rows }` or `{ error }` as JSON.
 * `GET /suites` lists the suite names. Suites come from `bench/suites/*.ts`
 * through the virtual module `virtual:bench-suites`, which `run.mjs` generates
 * (default export: the suites; named exports: every suite module's named exports).
 *
 * @module
 */
import { DurableObject } from "cloudflare:workers";
import suites from "virtual:bench-suites";
import { createContext, evaluate, type BenchEnv, type BenchResult } from "./harness.js";

// Named exports of suite modules (e.g. a WorkerEntrypoint a runtime suite calls back into) become
// top-level exports of this Worker, reachable from a suite as `ctx.exports.<Name>`.
export * from "virtual:bench-suites";

/** What a suite run answers. */
export type SuiteOutcome = { rows: BenchResult[] } | { error: string };

/** One fresh instance per suite; its storage starts empty. */
export class BenchObject extends DurableObject<BenchEnv> {
  async runSuite(name: string): Promise<SuiteOutcome> {
    const suite = suites.find((s) => s.name === name);
    if (!suite) return { error: `no suite named "${name}"; have: ${suites.map((s) => s.name).join(", ")}` };
    const ctx = createContext(this.ctx, this.env, (message) => console.log(`[bench:${name}] ${message}`));
    try {
      const rows = await suite.run(ctx);
      return { rows: rows.map((row) => evaluate(name, row)) };
    } catch (error) {
      const err = error as Error;
      return { error: `${err?.name ?? "Error"}: ${err?.message ?? String(error)}\n${err?.stack ?? ""}` };
    }
  }
}

export default {
  async fetch(request, env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/suites") return Response.json(suites.map((s) => s.name));
    const match = /^\/run\/([\w.-]+)$/.exec(url.pathname);
    if (request.method === "POST" && match) {
      const stub = env.BENCH.get(env.BENCH.newUniqueId()) as DurableObjectStub<BenchObject>;
      const outcome = (await stub.runSuite(match[1])) as SuiteOutcome;
      return Response.json(outcome);
    }
    return new Response("bench worker: GET /suites, POST /run/<suite>", { status: 404 });
  },
} satisfies ExportedHandler<BenchEnv>;
