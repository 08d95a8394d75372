/**
 * Issue 20, thirty-first attack run: awk takes the string `"/"` used as a regular expression (`gsub("/", "_")`,
 * `sub("/", …)`, `match($0, "/")`) as the empty regex: `gsub("/", "_")` on `C:/x/y` inserts `_` at every position
 * (`_C_:_/_x_/_y_`, 7 replacements) instead of replacing the two slashes (`C:_x_y`).
 * Tried: side by side with gawk 5.2.1 and mawk 1.3.4 (they agree): gsub/sub/match with the dynamic regex `"/"`,
 * `gsub(".", "-")`.
 * Held: regex literals (`gsub(/o/, …)`), other one-character strings as dynamic regexes (`"."` is any character, as
 * in gawk), `split(s, p, ".")`.
 * Found (high — turning a path into a name with `gsub("/", "_")` is a common awk step and silently yields garbage
 * with status 0; 2 of 2 runs).
 * Suggested fix: the awk interpreter's dynamic regex (just-bash's awk chunk, patched in scripts/gen-shell.mjs, or
 * src/backends/worker-shell/isolate/awk.ts): a string used as a regex is the ERE it holds, never a `/…/` literal to
 * strip — do not remove a leading/trailing `/` from it.
 *
 * Fixed: just-bash's awk dynamic regex (its `ne`, used by sub/gsub/match/gensub) no longer strips a leading and
 * trailing `/` from the string; patched in scripts/gen-shell.mjs (entries marked `// AW2`). Siblings in
 * test/workers/fix31/awk2-io-regex.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("awk's dynamic regex \"/\" matches slashes", async () => {
  const out = await shellCases({}, [
    `echo 'C:/x/y' | awk '{ gsub("/", "_"); print }'`,
    `echo 'C:/x/y' | awk '{ s = $0; sub("/", "-", s); print s, match($0, "/"), RSTART }'`,
  ]);
  expect(out).toEqual([
    // Was: "_C_:_/_x_/_y_\n"
    [`echo 'C:/x/y' | awk '{ gsub("/", "_"); print }'`, "C:_x_y\n", ""],
    // Was: "-C:/x/y 1 1\n"
    [`echo 'C:/x/y' | awk '{ s = $0; sub("/", "-", s); print s, match($0, "/"), RSTART }'`, "C:-x/y 3 3\n", ""],
  ]);
});
