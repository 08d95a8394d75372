/**
 * Issue 20, thirtieth attack run: `date -I` and `date --iso-8601` (no argument, i.e. `=date`) print a whole timestamp
 * (`2023-11-14T22:13:20+0000`) where GNU date prints the date alone (`2023-11-14`), exit 0 — so `backup-$(date -I).tar`
 * or `mkdir logs/$(date -I)` silently names things differently (with colons in them). The other precisions
 * (`-Iseconds`, `--iso-8601=minutes`, `-Ihours`) and `--rfc-3339=…` are refused as options.
 * Tried: side by side with GNU coreutils 9.1 date (TZ=UTC) — `date -u -d @1700000000` with -I, --iso-8601,
 * --iso-8601=seconds|minutes, -Ihours, --rfc-3339=seconds|date, -R, and +formats %j %U %V %G %u %s %N %F %T %D %r.
 * Held: -R, `+%j %U %V %G %g %u %w %W %C %y %s %N %F %T %D %r %R %p %I %l %k %Z %a %b %e`, `-d @N`, `-d 'ISO'`.
 * Found (medium — a common way to stamp a file name silently computes another string; 2 of 2 runs).
 * Suggested fix: date's option parsing in the shell's date command (scripts/gen-shell.mjs date chunk): `-I`/`--iso-8601`
 * without TIMESPEC means `date` (`%Y-%m-%d`); accept `-I`/`--iso-8601=` hours|minutes|seconds|ns (`%Y-%m-%dT%H%:z`,
 * …`%H:%M%:z`, …`%H:%M:%S%:z`, …`%H:%M:%S,%N%:z`) and `--rfc-3339=date|seconds|ns`, or refuse them all loudly.
 * Fixed: date's options are read by isolate/date-sort-h.ts (dateOption; fixer DH, patches DH_PATCHES in
 * scripts/gen-shell.mjs): `-I`/`--iso-8601` alone is `%Y-%m-%d`, `=hours|minutes|seconds|ns` (abbreviated too, `-Iseconds`,
 * `-uIs`) GNU's formats, `--rfc-3339=date|seconds|ns`; an invalid or missing argument and a second output format
 * (`-I -R`, `-I +%s`) are GNU's refusals, status 1.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("date -I and --iso-8601 print the date alone, as GNU date", async () => {
  const out = await inShellWorkspace(async (ws) => {
    const r = await sh(ws, "date -u -d @1700000000 -I; date -u -d @1700000000 --iso-8601; echo rc=$?", {
      cwd: "/workspace",
    });
    return [r.exitCode, r.stdout, r.stderr];
  });
  // Was: [0, "2023-11-14T22:13:20+0000\n2023-11-14T22:13:20+0000\nrc=0\n", ""]
  expect(out).toEqual([0, "2023-11-14\n2023-11-14\nrc=0\n", ""]);
});
