/**
 * Issue 20, thirty-first attack run: `tar -tv` prints a member's time as `ls -l` does (`Dec  5 19:20`, three fields)
 * where GNU tar 1.34 always prints `2026-12-05 19:20` (two fields), so a listing parsed by column
 * (`tar tzvf x.tgz | awk '{print $3, $6}'`, size and name) silently yields the time where the name belongs.
 * Tried: side by side with GNU tar 1.34 in a temp dir — `tar czf -C dir .`, `tar tzf`, `tar xzf -C dest
 * --strip-components=1/2`, `--exclude` (glob, dir name, `./node_modules`), `-O`, `--to-stdout`, `-xzvf`, member
 * operands, `--wildcards`, links in archives, extraction over a planted symlink, `tar cf - | tar xf - -C`, long options,
 * gzip -k/-c/-d/-f/-l/-t, gunzip -c/-k, zcat, compressed stdin round trips.
 * Held: every member name, byte and mode extracted, every `tar t` name list, gzip/gunzip bytes and statuses (the gzip
 * header omits FNAME/MTIME, not a defect), `--exclude` matching, strip-components.
 * Found (medium — column-based parsing of `tar -tv` output, a common way to get sizes and names of an archive's
 * members, reads the clock time as the name; 1 of 1 runs).
 * Suggested fix: the tar chunk of scripts/gen-shell.mjs (src/shell/generated/core.ts, just-bash's list function
 * `er` and its date helper `Yt`, which prints `Mon DD HH:MM`): format the mtime as GNU's `%Y-%m-%d %H:%M` (UTC here),
 * e.g. a `tarListTime` next to tarModeColumn in src/backends/worker-shell/isolate/archive.ts.
 * Fixed: the tar chunk's `-tv` line is now built by `tarListColumns` (with `tarListTime`) in
 * src/backends/worker-shell/isolate/archive.ts, patched in by scripts/gen-shell.mjs (TC_PATCHES): GNU tar 1.34's
 * simple_print_header — the header's user/group names (uid/gid without them), owner, group and size filling 19
 * columns (growing for the rest of the listing), `%Y-%m-%d %H:%M` (UTC), then the name and ` -> target`. Siblings
 * (`tar -C` of a missing directory, cp/mkdir options) in test/workers/fix31/tar-cp-mkdir-gnu.test.ts (fixer TC).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("tar -tv lists size and name in the columns GNU tar uses (date as YYYY-MM-DD HH:MM)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const r = await sh(
      ws,
      "mkdir src; printf 'hello\\n' > src/a.txt; tar czf o.tgz src; tar tzvf o.tgz | awk '{print $3, $6}'; tar tzvf o.tgz | awk '{print $4}' | grep -c '^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$'",
      { cwd: "/workspace" },
    );
    return [r.exitCode, r.stdout, r.stderr];
  });
  // Was: [1, "0 19:20\n6 19:20\n0\n", ""] (lines `drwxr-xr-x 0/0               0 Dec  5 19:20 src/`)
  expect(out).toEqual([0, "0 src/\n6 src/a.txt\n2\n", ""]);
});
