/**
 * The Artifacts client of a Workspace without an Artifacts binding (spec 04
 * §3.3): `workspace.artifacts` always exists; unconfigured, its methods throw.
 *
 * @module
 */
import { runArtifactsCLI } from "./cli.js";
import { artifactsNotConfigured } from "./errors.js";
import type { ArtifactClient } from "./types.js";

/**
 * A client whose `sessionId` is `undefined` and whose ten data methods
 * **throw synchronously** (not a rejected promise) `ArtifactError` `ENOCONFIG`
 * `Workspace Artifacts binding is not configured`; `cli(input)` runs
 * `runArtifactsCLI(client, input, false)` (help explains how to configure the
 * binding, other commands exit 1 with that message).
 *
 * @example
 * ```ts
 * const artifacts = options.artifacts ? createArtifact(options.artifacts.binding, session) : unconfiguredArtifacts();
 * ```
 */
export function unconfiguredArtifacts(): ArtifactClient {
  const fail = (): never => {
    throw artifactsNotConfigured();
  };
  const client: ArtifactClient = {
    sessionId: undefined,
    create: fail,
    get: fail,
    list: fail,
    import: fail,
    delete: fail,
    createToken: fail,
    listTokens: fail,
    revokeToken: fail,
    getToken: fail,
    cli: (input) => runArtifactsCLI(client, input, false),
  };
  return Object.freeze(client);
}
