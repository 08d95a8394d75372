/**
 * The UTF-8 size of awk's standard output, kept as it grows (issue 20, run 32, fixer AP).
 *
 * just-bash's awk limits what `printf` may format to the room left under its output limit, and it measured that
 * room by counting the UTF-8 bytes of everything printed so far on every `printf` (`maxOutputSize - byteLength(
 * output)`). The count walks the whole text — and first flattens the string the appends built — so a program printing
 * with `printf` took time quadratic in its output: 20,000 `printf "var a%d=oldName(%d);"` (450 KB) ran past 20 s
 * (gawk: 0.05 s). {@link noteOutput} adds each text's bytes where it is appended to the output, and
 * {@link outputBytes} returns the sum; the whole text is counted only when the output changed in a way not noted
 * (never in just-bash's awk as patched; a safety net).
 *
 * scripts/gen-shell.mjs patches just-bash's awk to call these (entries marked `// AP`), imported as the namespace
 * `__awkOb`. Pure: bundled into the shell's Dynamic Worker.
 *
 * @module
 */

/** The awk runtime context fields these read and write (just-bash's, with the count). */
interface AwkContext {
  output: string;
  /** The output's length (UTF-16 units) and UTF-8 size when last counted. */
  awkOutputCount?: { length: number; bytes: number };
}

/** The UTF-8 size of `text` (a lone surrogate counts 3 bytes, as just-bash's byte counter and TextEncoder's U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x7f) bytes++;
    else if (code <= 0x7ff) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Called after `text` may have been appended to `ctx.output` (it was when the output grew by its length; a write to
 * standard error leaves it as it was): adds its bytes to the count, in time linear in `text`.
 */
export function noteOutput(ctx: AwkContext, text: string): void {
  const count = ctx.awkOutputCount;
  if (count === undefined) return;
  const length = ctx.output.length;
  if (length === count.length) return;
  if (length === count.length + text.length) {
    count.length = length;
    count.bytes += utf8Length(text);
  } else ctx.awkOutputCount = undefined;
}

/** The UTF-8 size of `ctx.output`: the kept count, or the whole text counted once when there is none. */
export function outputBytes(ctx: AwkContext): number {
  let count = ctx.awkOutputCount;
  if (count === undefined || count.length !== ctx.output.length) {
    count = { length: ctx.output.length, bytes: utf8Length(ctx.output) };
    ctx.awkOutputCount = count;
  }
  return count.bytes;
}
