/**
 * Issue 20, thirtieth attack run: date's GNU conversion flags and widths are not understood and are copied into the
 * output as written, exit 0: `+%s%3N` (milliseconds, the usual timing stamp) prints `1700000000%3N`, `+%-d/%-m`
 * prints `%-d/%-m`, `%_d`, `%^a`, `%#b`, `%4Y` likewise — GNU date 9.1 applies them (`-` no padding, `_` space
 * padding, `^` upper case, `#` swap case, a width; `%3N` is the first 3 digits of the nanoseconds).
 * Tried: side by side with GNU coreutils 9.1 date in a temp dir, TZ=UTC, `date -u -d @1700000000 '+…'`.
 * Held: every plain conversion tried (%Y %m %d %H %M %S %j %U %V %G %g %u %w %W %C %y %s %N %F %T %D %r %R %p %I %l %k
 * %Z %a %b %e).
 * Found (medium — scripts that time steps with `$(date +%s%3N)` and do arithmetic on it, or build `%-d` dates, get
 * a string with `%3N` in it; 2 of 2 runs).
 * Suggested fix: the strftime of the shell's date command (scripts/gen-shell.mjs date chunk): parse `%[-_0^#]*[0-9]*X`
 * as GNU's fprintftime does — flags, then a width, then the conversion — and apply them; refuse an unknown
 * conversion rather than copy it.
 * Fixed: strftime's directives (date and printf's `%(…)T`) go through isolate/date-sort-h.ts (directive; fixer DH):
 * GNU fprintftime's `%[-_0^#+]*[width][E|O]X` with its pad rules per conversion, `%N` keeping `width` digits (the
 * time's milliseconds, no longer always 0), `%:z`/`%::z`/`%:::z`; an unknown directive is copied as written (GNU
 * `date +%Q` prints `%Q`).
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("date applies GNU flags and widths (%3N, %-d, %_d, %^a, %#b, %4Y)", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const r = await sh(ws, "date -u -d @1700000000 '+%s%3N'; date -u -d @1700000000 '+%-d %-m %_d %e %4Y %^a %#b'", {
      cwd: "/workspace",
    });
    return [r.exitCode, r.stdout, r.stderr];
  });
  // Was: [0, "1700000000%3N\n%-d %-m %_d 14 %4Y %^a %#b\n", ""]
  expect(out).toEqual([0, "1700000000000\n14 11 14 14 2023 TUE NOV\n", ""]);
});
