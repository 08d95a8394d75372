/**
 * A Durable Object whose Workspace (session "remote-s1") publishes to the
 * local R2 bucket env.ASSETS_BUCKET with the real createAssets, for the
 * publish-through-a-remote-client test.
 */
import { DurableObject } from "cloudflare:workers";
import { withWorkspace } from "../../../src/index.js";
import { createAssets } from "../../../src/assets/index.js";

/** Fixed clock for signing (2024-01-02T03:04:05Z). */
export const ASSETS_AGENT_NOW = Date.UTC(2024, 0, 2, 3, 4, 5);
/** Account id used for the R2 endpoint in presigned URLs. */
export const ASSETS_AGENT_ACCOUNT = "0123456789abcdef0123456789abcdef";

class AssetsBase extends DurableObject<Cloudflare.Env> {
  get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }
  get bucket(): R2Bucket {
    return this.env.ASSETS_BUCKET;
  }
}

/** withWorkspace host with an assets publisher. */
export class ClientAssetsAgent extends withWorkspace(AssetsBase, (self) => ({
  storage: self.storage,
  sessionId: "remote-s1",
  assets: (ws) =>
    createAssets({
      ws,
      bucket: self.bucket,
      s3: { bucket: "agent-assets", accountId: ASSETS_AGENT_ACCOUNT, accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
      now: () => ASSETS_AGENT_NOW,
    }),
})) {}
