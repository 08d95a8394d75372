/**
 * Issue 20, thirty-first attack run: awk's `close(file)` does not rewind a file read with `getline < file`: the next
 * `getline < file` goes on where the last left off (at end of file: nothing), so the lookup idiom — for each record,
 * read a second file through, then `close()` it — sees that file only the first time.
 * Tried: side by side with gawk 5.2.1 and mawk 1.3.4 (they agree): `getline l < f; close(f); getline l < f`, two full
 * `while ((getline l < f) > 0)` loops with a close between, the loop once per input file.
 * Held: a single read through a file with getline (`while ((getline l < "ids.txt") > 0)`), `getline` from the main
 * input, `"cmd" | getline`.
 * Found (medium — a documented awk idiom silently computes a different result (counts, joins) with status 0; 2 of 2
 * runs).
 * Suggested fix: the awk interpreter's close() (just-bash's awk chunk / src/backends/worker-shell/isolate/awk.ts):
 * drop the reader kept for that file name so the next `getline < name` opens it again from the start.
 * Fixed: close() (a no-op returning 0 in just-bash) forgets the getline file (the next `getline < f` opens it again
 * at the top) and the `cmd | getline` command (run again next time), ends a `>` output opening, and returns 0, the
 * command's exit status or -1 when nothing is open by that name, as gawk/mawk (isolate/awk-streams.ts `close`, the
 * "awk close() of getline files and commands (AW)" and "awk getline command keeps its status (AW)" patches).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("awk close() makes the next getline < file start again at the top", async () => {
  const out = await shellCases({ files: { "ids.txt": "alice\ncarol\n" } }, [
    `awk 'BEGIN { getline l < "ids.txt"; close("ids.txt"); getline l < "ids.txt"; print l }'`,
    `awk 'BEGIN { while ((getline l < "ids.txt") > 0) n++; close("ids.txt"); while ((getline l < "ids.txt") > 0) n++; print n }'`,
    `awk 'FNR==1 { while ((getline l < "ids.txt") > 0) m++; close("ids.txt") } END { print m }' ids.txt ids.txt ids.txt`,
  ]);
  expect(out).toEqual([
    // Was: "carol\n"
    [`awk 'BEGIN { getline l < "ids.txt"; close("ids.txt"); getline l < "ids.txt"; print l }'`, "alice\n", ""],
    // Was: "2\n"
    [`awk 'BEGIN { while ((getline l < "ids.txt") > 0) n++; close("ids.txt"); while ((getline l < "ids.txt") > 0) n++; print n }'`, "4\n", ""],
    // Was: "2\n"
    [`awk 'FNR==1 { while ((getline l < "ids.txt") > 0) m++; close("ids.txt") } END { print m }' ids.txt ids.txt ids.txt`, "6\n", ""],
  ]);
});
