/**
 * The Worker the simulator tests run in workerd (bundled by esbuild in
 * simulator.test.ts): `POST { session, argv }` runs the artifacts CLI over
 * the real `env.ARTIFACTS` binding (Miniflare's local Artifacts simulator)
 * and answers its `{ stdout, stderr, exitCode }` as JSON.
 */
import { createArtifact, type Artifacts } from "../../../src/artifacts/index.js";

export default {
  async fetch(request: Request, env: { ARTIFACTS: Artifacts }): Promise<Response> {
    const { session, argv } = (await request.json()) as { session: string | null; argv: string[] };
    const client = createArtifact(env.ARTIFACTS, session);
    return Response.json(await client.cli({ argv }));
  },
};
