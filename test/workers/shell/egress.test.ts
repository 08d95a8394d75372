/**
 * Egress (spec 02 §6): `http-gateway` sends every request of the shell's
 * Worker to the gateway Fetcher — here the test Worker's `EgressGateway`
 * entrypoint (`ctx.exports`), which answers every request itself — and
 * `none` makes curl say the network is disabled.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { WorkerShellBackend } from "../../../src/backends/worker-shell/index.js";
import curl from "../../../src/shell/curl.js";
import { inShellWorkspace, sh } from "./helpers.js";

it("curl goes through the http-gateway Fetcher", async () => {
  const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
  const r = await runInDurableObject(stub, async (_instance, state) => {
    const gateway = (state as unknown as { exports: Record<string, Fetcher> }).exports.EgressGateway!;
    const backend = new WorkerShellBackend({ loader: env.LOADER, commands: [curl], egress: { mode: "http-gateway", gateway, revision: "r1" } });
    const ws = new Workspace({ storage: state.storage, backends: [backend] });
    try {
      return await sh(ws, "curl -s -X POST http://example.com/anything; echo; echo rc=$?");
    } finally {
      await ws.close();
    }
  });
  expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, "gateway saw POST http://example.com/anything\nrc=0\n", ""]);
});

it("egress none: curl says network access is disabled", async () => {
  const r = await inShellWorkspace((ws) => sh(ws, "curl http://example.com/"), { shell: { commands: [curl] } });
  expect(r.exitCode).not.toBe(0);
  expect(r.stderr).toContain('network access is disabled for this shell (egress mode "none")');
});
