/**
 * Issue 20, fifteenth attack run: MAX_REMOTE_EXEC_BYTES measures the request in UTF-16 code units, but it
 * travels as UTF-8 — a command of 23,000,000 `€` passes the check (23,000,019 "characters", under
 * 31,457,280) and is a 69 MB message that drops the daemon connection with every live run (the attack13c
 * defect, non-ASCII).
 *
 * Tried: on the container backend (real local computerd, TestBackend "box"), a live run waiting for a
 * file, then `exec(": " + "€".repeat(n) + "; echo ran")`. (Held: the ASCII forms — 40,000,000 `x` — are
 * refused E2BIG before sending, attack13c; with n = 12,000,000 and 14,000,000 (36 and 42 MB of UTF-8) the
 * message still got through locally and the daemon refused it E2BIG (spawn), the live run unharmed.)
 *
 * Found (medium): `checkRemoteExec` (src/runtime/index.ts) counts `JSON.stringify(value).length`, "UTF-16
 * code units … one per character for ASCII"; U+0800–U+FFFF characters are one unit but three bytes on the
 * WebSocket, so a request "within" 30 MiB can be 90 MiB on the wire — past the daemon's 64 MiB maxPayload
 * (container/lib/server.mjs) and any 32 MiB platform limit. Here the big exec is not refused E2BIG: the
 * message drops the session ("refused Error undefined") and the live run rejects ("the connection to
 * backend "box" was lost while run "live" was running; …") instead of ending "one two". Reproduction:
 *
 *   const live = exec(`echo one; <wait for .go>; echo two`, { backend: "box", id: "live" });
 *   await exec(": " + "€".repeat(23_000_000) + "; echo ran", { backend: "box" });   // not refused E2BIG
 *   put .go; await live.result()   // rejects: connection lost
 *
 * Suggested fix: measure the UTF-8 byte length of the JSON text (TextEncoder, or a code-point count with
 * 3 bytes for U+0800–U+FFFF and 4 for a pair) against MAX_REMOTE_EXEC_BYTES, and say "bytes".
 *
 * Fixed: `checkRemoteExec` counts the bytes of UTF-8 of each field's JSON text in one pass (escapes included,
 * no copy built) against MAX_REMOTE_EXEC_BYTES: the `€` command is 69,000,014 bytes and refused E2BIG before
 * anything is sent ("the request is 69000019 bytes of UTF-8 as sent (command 69000014, other fields 5) …");
 * the live run ends normally.
 */
import { describe, expect, it } from "vitest";
import { MAX_REMOTE_EXEC_BYTES } from "../../../src/runtime/index.js";
import { inWorkspace, startContainer, waitFor } from "../container/helpers.js";

describe("attack15c: a non-ASCII command past 32 MiB of UTF-8 on the container backend", () => {
  it("is refused E2BIG before sending, and a live run on the backend is not disturbed", { timeout: 120_000 }, async () => {
    const c = await startContainer();
    await inWorkspace(c, async (ws) => {
      const live = await ws.runtime.exec(`echo one; ${waitFor(".go")}; echo two`, { backend: "box", encoding: "utf8", timeoutMs: 60_000, id: "live" });
      const big = await ws.runtime
        .exec(`: ${"€".repeat(23_000_000)}; echo ran`, { backend: "box", encoding: "utf8", timeoutMs: 60_000, id: "big" })
        .then((h) => h.result())
        .then(
          (r) => `ran ${r.exitCode} ${r.stdout}${r.stderr.slice(0, 200)}`,
          (e: Error & { code?: string }) => `refused ${e.name} ${e.code}: ${e.message}`,
        );
      await c.put(".go", "");
      const r = await live.result().then(
        (r) => ({ exitCode: r.exitCode, stdout: r.stdout }),
        (e: Error) => ({ rejected: e.message.slice(0, 80) }),
      );
      // Found: big = "refused Error undefined" (the session dropped), live rejects: the connection to backend "box" was lost …
      // The command is ": " 2 + 23,000,000 × 3 bytes + "; echo ran" 10 + quotes 2 = 69,000,014 bytes; the id "big" 5.
      expect({ big, r }).toEqual({
        big: `refused RangeError E2BIG: exec: the request is 69000019 bytes of UTF-8 as sent (command 69000014, other fields 5), over the ${MAX_REMOTE_EXEC_BYTES} bytes (30 MiB) backend "box" accepts; nothing was sent. Put long text in a Workspace file and have the command read it (sh /workspace/script.sh, cmd < /workspace/input) instead.`,
        r: { exitCode: 0, stdout: "one\ntwo\n" },
      });
    });
  });
});
