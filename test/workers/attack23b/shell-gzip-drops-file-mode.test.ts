/**
 * Issue 20, twenty-third attack run: `gzip` and `gzip -d` write their output 0644 whatever the input's mode: a
 * private 0600 file compressed becomes a world-readable 0644 `.gz` (and decompressed again, a 0644 file), an
 * executable 0755 loses its x bits. GNU gzip 1.12 gives the output the input's mode (and mtime).
 * Tried: side by side with GNU gzip 1.12: 0700 and 0600 files through gzip and gzip -d, `gzip -k` (same), `gzip -c >
 * f` (held: the redirect's file, 0644 in both).
 * Held: contents and names; the input removed after success.
 * Found (low-medium — a private file's compressed copy is opened up, executables lose +x; 2 of 2 runs): see the
 * expectations.
 * Suggested fix: in just-bash's gzip (compression chunk), stat the input and write the output with its mode (and
 * chmod when the adapter's writeFile cannot take one).
 * Fixed: the output is given the input's mode after it is written (gzipOutput in
 * src/backends/worker-shell/isolate/archive.ts; the Workspace keeps no mtime of ours, so that is not copied).
 */
import { expect, it } from "vitest";
import { shellCases } from "../shell/helpers.js";

it("gzip and gzip -d keep the input's mode, as GNU gzip", async () => {
  const out = await shellCases({ files: { a: "A\n" } }, ["chmod 600 a; gzip a; stat -c '%a %n' a.gz; gzip -d a.gz; stat -c '%a %n' a"]);
  // Was: "644 a.gz\n644 a\n".
  expect(out).toEqual([["chmod 600 a; gzip a; stat -c '%a %n' a.gz; gzip -d a.gz; stat -c '%a %n' a", "600 a.gz\n600 a\n", ""]]);
});
