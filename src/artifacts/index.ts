/**
 * `agent-computer/artifacts`: git repositories on Cloudflare Artifacts for an
 * agent's work (spec 04 §3) — a client over the Artifacts binding with
 * optional per-session naming, and the `artifacts` CLI the shell runs.
 * See docs/artifacts.md.
 *
 * @example
 * ```ts
 * import { createArtifact } from "agent-computer/artifacts";
 *
 * const artifacts = createArtifact(env.ARTIFACTS, "session-1");
 * const { stdout } = await artifacts.cli({ argv: ["create", "notes"] });
 * ```
 *
 * @module
 */
export { createArtifact } from "./client.js";
export { runArtifactsCLI } from "./cli.js";
export { ArtifactError, InvalidRepoNameError, InvalidSessionIdError, NotFoundError } from "./errors.js";
export { parseDuration } from "./duration.js";
export type {
  ArtifactClient,
  ArtifactCreateOptions,
  ArtifactImportOptions,
  ArtifactImportSource,
  ArtifactRepoSummary,
  ArtifactScope,
  Artifacts,
  ArtifactsCLIInput,
  ArtifactsCLIResult,
  ArtifactsCreateRepoResult,
  ArtifactsCreateTokenResult,
  ArtifactsRepo,
  ArtifactsRepoInfo,
  ArtifactsRepoListResult,
  ArtifactsTokenInfo,
  ArtifactsTokenListResult,
  RemoteAddFn,
} from "./types.js";
