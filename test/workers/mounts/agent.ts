/**
 * A Durable Object whose Workspace has a read-only bundle mount and an R2
 * mount, reached over real Workers RPC by the client test.
 */
import { DurableObject } from "cloudflare:workers";
import { R2Bucket, WorkerBundle, withWorkspace } from "../../../src/index.js";

class MountBase extends DurableObject<Cloudflare.Env> {
  get storage(): DurableObjectStorage {
    return this.ctx.storage;
  }
  get bucket(): R2Bucket {
    return this.env.MOUNT_BUCKET;
  }
}

export class MountAgent extends withWorkspace(MountBase, (self) => ({
  storage: self.storage,
  mounts: {
    "/workspace/skills": WorkerBundle({ "pdf/SKILL.md": "# PDF skill\n" }),
    "/workspace/r2": R2Bucket(self.bucket, { prefix: "agent-mount" }),
  },
})) {}
