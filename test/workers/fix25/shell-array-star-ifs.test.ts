/**
 * Issue 20, run 25, fixer SZ: siblings of test/workers/attack25b/shell-array-star-in-assignment-ignores-ifs.test.ts.
 * `${a[*]}` joins with IFS's first character wherever it is not split — unquoted assignment values, `export`,
 * `local`, `case`, `[[ ]]`, here-strings, `${a[*]^^}`, `${a[*]/x/y}` — with none when IFS is empty and a space when
 * it is unset, and `${a[*]:n}`/`${*:n}` likewise; `${a[@]}` in an assignment still joins with a space and
 * `"${a[@]:1}"` as an argument stays separate words. Expected stdout is bash 5.2.15's on this machine.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("${a[*]} joins with IFS's first character wherever it is not split, as bash", async () => {
  const out = await shellCases({}, [
    "a=(x y z); IFS=,; c=${a[*]}; echo \"$c\"; b=\"${a[@]}\"; echo \"$b\"",
    "a=(x y z); IFS=,; echo \"${a[*]^^}\"; r=\"${a[*]/x/q}\"; echo \"$r\"",
    "a=(x y z); IFS=,; case \"${a[*]}\" in x,y,z) echo case-ok;; *) echo case-no;; esac; [[ \"${a[*]}\" == x,y,z ]] && echo cond-ok; cat <<< \"${a[*]}\"",
    "a=(x y z); IFS=,; export E=\"${a[*]}\"; echo \"$E\"; f() { local L=${a[*]}; echo \"$L\"; }; f",
    "a=(x y z); IFS=; k=\"${a[*]}\"; echo \"$k\"; unset IFS; l=\"${a[*]}\"; echo \"$l\"",
    "a=(x y z); IFS=:; set -- 1 2 3; o=\"${*:2}\"; n=\"${a[*]:1:1}${a[*]:0:2}\"; echo \"$o $n\"; printf '<%s>' \"${a[*]:1}\" ${a[*]:1} \"${a[@]:1}\"; echo",
  ]);
  expect(out).toEqual([
    ["a=(x y z); IFS=,; c=${a[*]}; echo \"$c\"; b=\"${a[@]}\"; echo \"$b\"", "x,y,z\nx y z\n", ""],
    ["a=(x y z); IFS=,; echo \"${a[*]^^}\"; r=\"${a[*]/x/q}\"; echo \"$r\"", "X,Y,Z\nq,y,z\n", ""],
    ["a=(x y z); IFS=,; case \"${a[*]}\" in x,y,z) echo case-ok;; *) echo case-no;; esac; [[ \"${a[*]}\" == x,y,z ]] && echo cond-ok; cat <<< \"${a[*]}\"", "case-ok\ncond-ok\nx,y,z\n", ""],
    ["a=(x y z); IFS=,; export E=\"${a[*]}\"; echo \"$E\"; f() { local L=${a[*]}; echo \"$L\"; }; f", "x,y,z\nx,y,z\n", ""],
    ["a=(x y z); IFS=; k=\"${a[*]}\"; echo \"$k\"; unset IFS; l=\"${a[*]}\"; echo \"$l\"", "xyz\nx y z\n", ""],
    ["a=(x y z); IFS=:; set -- 1 2 3; o=\"${*:2}\"; n=\"${a[*]:1:1}${a[*]:0:2}\"; echo \"$o $n\"; printf '<%s>' \"${a[*]:1}\" ${a[*]:1} \"${a[@]:1}\"; echo", "2:3 yx:y\n<y:z><y><z><y><z>\n", ""],
  ]);
});
