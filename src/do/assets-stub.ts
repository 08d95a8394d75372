/**
 * `WorkspaceAssetsStub`: the Workspace's assets publisher as an RPC target
 * (spec 01 §5.3, spec 04 §1).
 *
 * @module
 */
import type { ShareOptions } from "../assets/types.js";
import { answerRemote } from "./remote-error.js";
import { withSpan } from "./spans.js";
import { liveHost, SubStub } from "./sub-stub.js";

/**
 * Options of `publish` (spec 04 §1): `assets.share`'s options —
 * `expiresAfter` (ms, required), `prefix`, `contentType`, `filename`,
 * `disposition` — passed through unchanged, other keys included.
 */
export type PublishOptions = ShareOptions & { [option: string]: unknown };

/** The Workspace's assets publisher over RPC: `publish(path, { expiresAfter })` → URL. */
export class WorkspaceAssetsStub extends SubStub {
  /**
   * `assets.share(path, options)` in span `workspace.assets.publish`
   * (attributes `workspace.fs.path` and `workspace.assets.expires_after_ms`, spec 04 §4):
   * uploads the file and resolves to a presigned URL valid for
   * `options.expiresAfter` ms.
   * @throws (rejects) Error when the Workspace has no assets publisher or the stub is disposed; the publisher's errors (a `WorkspaceFsError` such as `ENOENT` or `EISDIR` for the path).
   */
  publish(path: string, options: PublishOptions): Promise<string> {
    return answerRemote(() => {
      const host = liveHost(this, "WorkspaceAssetsStub");
      const expiresAfter: unknown = (options as { expiresAfter?: unknown } | null | undefined)?.expiresAfter;
      const attributes = { "workspace.fs.path": path, "workspace.assets.expires_after_ms": typeof expiresAfter === "number" ? expiresAfter : undefined };
      return withSpan(host.observer, "workspace.assets.publish", attributes, async () => {
        const assets = host.assets;
        if (!assets || typeof assets.share !== "function") throw new Error("this Workspace has no assets publisher: pass assets to new Workspace()");
        return assets.share(path, options);
      });
    });
  }
}
