/**
 * How deep the shell's tree walks go (issue 20, twenty-ninth attack run, fixer DP).
 *
 * just-bash bounds its walks by depth: `grep -r`/`-R` and its `**` operands stopped 256 directories down and `rg`
 * (`maxDepth: 256` by default) too, without a word; `find` left out everything below `maxTraversalDepth` (1000) and
 * exited 0; `du`, `ls -R`, `cp -r`, `chmod -R` and `rg` past 1000 failed (`du: filesystem traversal depth limit
 * exceeded (1000)`, 126). GNU grep, find, du, ls, cp, chmod (fts) and ripgrep have no depth bound.
 *
 * A Workspace tree cannot be deeper than {@link MAX_WALK_DEPTH}: each directory along a path has its own full path
 * key and the ancestors' paths of one path hold at most `MAX_PATH_PREFIX_BYTES` (32 MiB) together, so a path `k`
 * directories below `/` (at least `2k` bytes: `/a/a/…/a`) has ancestors holding at least `k(k-1)` bytes. The shell sets
 * just-bash's `maxTraversalDepth` to it (src/backends/worker-shell/worker.ts), and scripts/gen-shell.mjs (entries marked
 * `// DP`) makes grep, rg and find walk to that bound, past which just-bash's traversal budget fails loudly as `du`
 * did (`bash: find: filesystem traversal depth limit exceeded (5793)`, status 126) — only a walk that goes round a loop of
 * symbolic links could get there. The walks stay bounded by their work, entry and output limits.
 *
 * @module
 */
import { MAX_PATH_PREFIX_BYTES } from "../../../fs/path.js";

/**
 * The most directories a path of the Workspace can lie below `/`: the largest `k` with `k(k-1)` ≤
 * `MAX_PATH_PREFIX_BYTES` (5,793). The shell's walks go this deep (just-bash's `maxTraversalDepth`).
 */
export const MAX_WALK_DEPTH = Math.floor((1 + Math.sqrt(1 + 4 * MAX_PATH_PREFIX_BYTES)) / 2);

/** just-bash's ExecutionLimitError as a walk throws it (`new E(message, kind)`): the shell reports it, status 126. */
type LimitError = new (message: string, kind: string) => Error;

/**
 * The error `site`'s walk throws when it would go below `limit` directories (just-bash's `maxTraversalDepth`), worded
 * as just-bash's traversal budget words it for du (`grep: filesystem traversal depth limit exceeded (5793)`).
 */
export function depthExceeded(site: string, limit: number, error: LimitError): Error {
  return new error(`${site}: filesystem traversal depth limit exceeded (${limit})`, "recursion");
}
