/**
 * `ArtifactsCLITarget` (spec 04 §3.3, root entry): an `artifacts` CLI
 * function as an RPC target, so another Worker — a Dynamic Worker, a
 * container's entrypoint — can run `artifacts …` command lines in the
 * Durable Object that holds the binding.
 *
 * @module
 */
import type { ArtifactsCLIInput, ArtifactsCLIResult } from "../artifacts/types.js";
import { answerRemote } from "./remote-error.js";
import { checkArtifactsRpcResult } from "./rpc-size.js";
import { RpcTargetBase } from "./rpc-target.js";

/** What {@link ArtifactsCLITarget} wraps: `workspace.artifacts.cli`, or any function of that shape. */
export type ArtifactsCLIFunction = (input: ArtifactsCLIInput) => ArtifactsCLIResult | Promise<ArtifactsCLIResult>;

/**
 * Wraps a `cli` function as an `RpcTarget` (under workerd; a plain object on
 * Node): pass it over Workers RPC and the receiver calls `target.cli(input)`,
 * which runs the function here. A `remoteAdd` function in `input` is called
 * back over RPC. It holds no resources: workerd's dispose when a receiver
 * lets go of it changes nothing, so one target can be passed many times.
 *
 * @example
 * ```ts
 * // in the Durable Object:
 * const target = new ArtifactsCLITarget((input) => this.workspace.artifacts.cli(input));
 * await env.SANDBOX.run(target);          // an RPC method of another Worker
 * // in that Worker:
 * const { stdout, exitCode } = await target.cli({ argv: ["repo", "list"] });
 * ```
 */
export class ArtifactsCLITarget extends RpcTargetBase {
  readonly #cli: ArtifactsCLIFunction;

  /**
   * @param cli the function `cli(input)` runs.
   * @throws TypeError when `cli` is not a function.
   */
  constructor(cli: ArtifactsCLIFunction) {
    super();
    if (typeof cli !== "function") {
      throw new TypeError(`new ArtifactsCLITarget(cli): cli must be a function such as (input) => workspace.artifacts.cli(input), got ${cli === null ? "null" : typeof cli}`);
    }
    this.#cli = cli;
  }

  /**
   * Runs the wrapped function with `input` (`{ argv, env?, remoteAdd? }`)
   * → `{ stdout, stderr, exitCode }` (spec 04 §3.4).
   * @throws (rejects) TypeError when `input` is not an object with an `argv`
   *   array of strings; what the function throws (with its `code`);
   *   `ArtifactError` `E2BIG` when the result is over 30 MiB (estimated), more
   *   than crosses RPC (e.g. `repo list` of a huge namespace).
   */
  cli(input: ArtifactsCLIInput): Promise<ArtifactsCLIResult> {
    return answerRemote(async () => {
      const argv: unknown = (input as { argv?: unknown } | null | undefined)?.argv;
      if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) {
        throw new TypeError("ArtifactsCLITarget.cli(input): input.argv must be an array of strings (the arguments after `artifacts`)");
      }
      return checkArtifactsRpcResult("cli", await this.#cli(input));
    });
  }
}
