/**
 * Issue 20, twenty-ninth attack run: `date -d` takes a day past the end of its month (`2024-02-30`, `2023-02-29`,
 * `2024-04-31`) and rolls it over into the next month (`2024-03-01`, `2023-03-01`, `2024-05-01`), status 0; GNU date
 * 9.1 refuses it, `date: invalid date '2024-02-30'`, status 1. So the usual validation `date -d "$d" >/dev/null 2>&1
 * || echo invalid` passes an impossible date, and a report keyed by it is silently filed under another day.
 *
 * Tried: side by side with GNU coreutils 9.1 date (LC_ALL=C, TZ=UTC) under bash 5.2.15: `date -d D +%F` for
 * 2024-02-30, 2023-02-29, 2024-04-31, `2024-06-31 12:00`, 2024-13-01, 2024-01-32, 2024-00-10, `2024-01-15 25:00`, and
 * the validate-then-use idiom.
 * Held: month 13, day 32, month 0 and hour 25 are refused as GNU (`invalid date`, status 1); `date -d 2024-01-15 +%F`,
 * `'%Y/%m/%d %H:%M'`, `-u -d @1700000000 +%FT%TZ`, `+%s` of an ISO time with `Z`, `+%a %b %e %j %U %u %w %y %Z %z`.
 * Found (medium — an impossible date is accepted and printed as another real date with status 0; 2 of 2 runs).
 * Suggested fix: in just-bash's date parsing (the `-d` string parser used by date and touch, patched through
 * scripts/gen-shell.mjs): after building the date from year/month/day/hour/minute/second, check that the fields read
 * back unchanged (the day within the month's length, leap years included) and fail `invalid date '<s>'`, status 1,
 * when they do not — JavaScript's Date constructor normalises such overflow silently.
 *
 * Fixed: before just-bash's date parser runs, the fields written in the `-d` string (YYYY-MM-DD, YYYY/MM/DD,
 * MM/DD/YYYY, month names, HH:MM[:SS]) are checked to be in range — day within its month, leap years included, hour
 * 0–23, minute and second 0–59 — and `invalid date`, status 1, when not; with TZ set, a local time a daylight-saving
 * change skips is refused too (scripts/gen-shell.mjs CZ_PATCHES, src/backends/worker-shell/isolate/lookup-date-gzip.ts
 * dateFieldsValid, validTime). Siblings in test/workers/fix29/shell-command-v-date-gzip.test.ts.
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("date -d refuses a day past the end of its month, as GNU date", async () => {
  const out = await shellCases({}, [
    "date -d 2024-02-30 +%F; echo rc=$?",
    "date -d 2023-02-29 +%F; echo rc=$?",
    "date -d '2024-06-31 12:00' +%F; echo rc=$?",
    "d=2024-04-31; date -d \"$d\" >/dev/null 2>&1 && echo valid || echo invalid",
  ]);
  expect(out).toEqual([
    // Was: "2024-03-01\nrc=0\n", "".
    ["date -d 2024-02-30 +%F; echo rc=$?", "rc=1\n", "date: invalid date '2024-02-30'\n"],
    // Was: "2023-03-01\nrc=0\n", "".
    ["date -d 2023-02-29 +%F; echo rc=$?", "rc=1\n", "date: invalid date '2023-02-29'\n"],
    // Was: "2024-07-01\nrc=0\n", "".
    ["date -d '2024-06-31 12:00' +%F; echo rc=$?", "rc=1\n", "date: invalid date '2024-06-31 12:00'\n"],
    // Was: "valid\n".
    ["d=2024-04-31; date -d \"$d\" >/dev/null 2>&1 && echo valid || echo invalid", "invalid\n", ""],
  ]);
});
