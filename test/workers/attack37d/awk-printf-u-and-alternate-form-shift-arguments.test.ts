/**
 * Issue 20, thirty-seventh attack run: awk's printf leaves `%u` (a POSIX conversion) as literal text without
 * taking its argument, so every later conversion of the same format takes the wrong argument, and ignores the `#`
 * flag (`%#x` → `ff`, not `0xff`; `%#o` → `10`, not `010`); status 0, nothing on stderr.
 * Tried: a differential against gawk 5.2.1 of printf/sprintf conversions and flags (`%c %s %d %i %u %o %x %X %e %f %g
 * %5.2s %-5d %+d %05d % d %*d %.0f`, too few arguments, `%%`).
 * Held: `%c`, `%s` with width/precision, `%d`/`%i` truncation, `%+d`, `%05d`, `% d`, `%*d`, `%e %f %g` rounding,
 * `%%`, too few arguments (gawk's fatal error).
 * Found (medium — a report line an agent prints has its columns shifted silently; 2 of 2 runs): `awk 'BEGIN{printf
 * "%i %u %X %#o %#x %%\n", 10.9, 5, 255, 8, 255}'` prints `10 %u 5 377 8 %` (gawk: `10 5 FF 010 0xff %`).
 * Suggested fix: the awk printf formatter (src/backends/worker-shell/isolate/awk.ts, printfInteger and the
 * conversion scan patched in by scripts/gen-shell.mjs): take `u` as `d` of the truncated value (unsigned for a
 * negative one, as C), and honour `#` for `o` (leading 0), `x`/`X` (0x/0X when non-zero).
 * Fixed: awk printf's `%d %i %u %o %x %X` go through formatIntegerConversion (src/backends/worker-shell/isolate/
 * awk.ts; gawk 5.2.1's format_tree: `%u`, the `#` flag, 64-bit unsigned of negative values, `%g` out of range,
 * precision 0 of 0) patched into the formatter by scripts/gen-shell.mjs (SH37_PATCHES) (issue 20, run 37, fixer SH).
 * Siblings: test/workers/fix37/awk-nf-printf-integers.test.ts.
 */
import { expect, it } from "vitest";
import { inShellWorkspace, sh } from "../shell/helpers.js";

it("awk printf %u converts its argument and # gives the alternate form, as gawk 5.2.1", async () => {
  const r = await inShellWorkspace((ws) =>
    sh(ws, `awk 'BEGIN{printf "%i %u %X %#o %#x %%\\n", 10.9, 5, 255, 8, 255; printf "%s=%u;%s\\n", "n", 42, "end"}'`, { cwd: "/workspace" }),
  );
  // Was: "10 %u 5 377 8 %\nn=%u;42\n"
  expect([r.stdout, r.stderr, r.exitCode]).toEqual(["10 5 FF 010 0xff %\nn=42;end\n", "", 0]);
});
