/**
 * Issue 20, twenty-seventh attack run: `find -size` with a `k`/`M` unit compares the exact size instead of the size
 * rounded up to the unit, as GNU find does: `-size -1k` lists every file under 1024 bytes (GNU: only empty files,
 * since 1 byte rounds up to 1k), `-size 1k` lists nothing (GNU: every file of 1–1024 bytes) and `-size -2M` includes a
 * 1.5 MB file (GNU: rounds to 2M, not less than 2M).
 * Tried: side by side with GNU findutils 4.9 — `-size N`, `+N`, `-N` with no unit (512-byte blocks), `c`, `k`, `M`.
 * Held: `+1k`, `+1M`, `-size 3` (blocks), `-size 0`, `-empty`, `c` units.
 * Found (medium — a file-selection test silently picks other files (`find -size -1k -delete` deletes non-empty
 * files); 2 of 2 runs).
 * Suggested fix: the find command's -size predicate (just-bash find): compare ceil(size / unit) with N for every unit
 * (b default 512, k, M, G; `c` is bytes), as GNU.
 *
 * Fixed: gen-shell patch "find -size units (SI)" (text-gnu.ts findSizeMatches): ceil(size / unit) compared with N
 * for every unit (`c` bytes, `w` 2, `b` 512, `k`, `M`, `G`); the `w` unit is accepted.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("find -size rounds sizes up to the unit, as GNU find", async () => {
  const make = "printf '%1500s' '' > k; printf '%1500000s' '' > m; : > e; ";
  const out = await shellCases({ files: { "a.txt": "hello\n", "b.txt": "w1\nw2\n" } }, [
    `${make}find . -size -1k -type f | sort`,
    `${make}find . -size 1k -type f | sort`,
    `${make}find . -size -2M -type f | sort`,
  ]);
  expect(out).toEqual([
    // Was: "./a.txt\n./b.txt\n./e\n".
    [`${make}find . -size -1k -type f | sort`, "./e\n", ""],
    // Was: "".
    [`${make}find . -size 1k -type f | sort`, "./a.txt\n./b.txt\n", ""],
    // Was: "./a.txt\n./b.txt\n./e\n./k\n./m\n".
    [`${make}find . -size -2M -type f | sort`, "./a.txt\n./b.txt\n./e\n./k\n", ""],
  ]);
});
