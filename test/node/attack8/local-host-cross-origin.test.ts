/**
 * Issue 20 eighth attack run, category 1 (sandbox escapes) on the newest
 * surface's local tooling: the local container host (container/local-host.mjs,
 * shipped in the package; docs/container.md "Local development without
 * Docker" tells developers to run it next to `wrangler dev`). It listens on
 * loopback only — but a web page the developer has open can send requests
 * to loopback, and a `fetch` with a string body (Content-Type text/plain) is
 * a "simple" cross-origin request: sent without a CORS preflight, only its
 * response is hidden from the page. Nothing in the host looks at `Origin`,
 * `Sec-Fetch-Site`, `Host` or the content type.
 *
 * FIXED — container/local-host.mjs answers every request and WebSocket upgrade
 * 403 (before routing, nothing started) when `Host` is not its own loopback
 * `name:port`, when an `Origin` is present and not `http://<its Host>`, or when
 * `Sec-Fetch-Site` is present and not `same-origin`/`none`; local clients
 * (Node/workerd fetch, ws) send none of these. A start's `env` still reaches
 * the daemon (NODE_OPTIONS included: container-hostile-daemon.test.ts uses it).
 *
 * DEFECT (high, local development) — reproduction (what any web page can run):
 *   fetch("http://127.0.0.1:8788/containers/x/start", { method: "POST", mode: "no-cors",
 *     body: JSON.stringify({ env: { NODE_OPTIONS: "--import=data:text/javascript;base64,<code>" } }) });
 *   // the browser sends: Origin: https://evil.example, Content-Type: text/plain;charset=UTF-8,
 *   //                    Sec-Fetch-Site: cross-site, Sec-Fetch-Mode: no-cors
 *   → 200 {"outcome":"launched",…}: the host spawns `node daemon.mjs` with the page's
 *     environment; NODE_OPTIONS runs the page's code as the developer (here: it writes a marker file).
 * (`env` reaches the daemon's process environment by design — the start API is
 * the platform's "launch a container" — so the request alone is remote code
 * execution on the developer's machine.)
 * Expected: the host refuses requests a browser marks as cross-site — any
 * `Origin` header that is not the host's own, `Sec-Fetch-Site` other than
 * `same-origin`/`none`, a `Host` that is not the loopback address and port it
 * listens on (DNS rebinding), and bodies that are not `application/json`
 * (which forces a preflight) — with 403, and starts nothing.
 * Impact: high for anyone using the local container workflow: visiting a
 * malicious page (or an ad, or a page a prompt-injected agent's browser
 * opens) while the host runs executes arbitrary code on the machine; the
 * files API (PUT/DELETE) also writes and deletes files under the host's root.
 * Fix proposal: in `route`, before anything else: 403 when `Origin` is
 * present and not `http://127.0.0.1:<port>`/`http://localhost:<port>`, when
 * `Sec-Fetch-Site` is present and not `same-origin`/`none`, or when `Host` is
 * not `127.0.0.1:<port>`/`localhost:<port>`; require `content-type:
 * application/json` on POST; optionally a per-run token printed at start
 * (like Jupyter's) that clients (LocalWorkspaceContainerAPI) send.
 *
 * Withstood: a container named `..` or `.` (the NAME pattern allows dots):
 * `/containers/%2E%2E/start` is normalised by the URL parser to `/start`
 * (404 "no route"; `%2E` → `/containers/start`, 405), so no mount point lands beside the host's root; the
 * files API refuses `path=../x` (400).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalHost, type LocalHost } from "../../../container/local-host.mjs";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "attack8-local-host-"));
const root = path.join(tmp, "containers");
const marker = path.join(tmp, "pwned.txt");
let host: LocalHost;

beforeAll(async () => {
  host = await startLocalHost({ root });
});

afterAll(async () => {
  await host?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The request a browser sends for a page's no-cors fetch with a string body. */
const crossSite = (url: string, body: string) =>
  fetch(url, {
    method: "POST",
    headers: {
      Origin: "https://evil.example",
      "Content-Type": "text/plain;charset=UTF-8",
      "Sec-Fetch-Site": "cross-site",
      "Sec-Fetch-Mode": "no-cors",
      "Sec-Fetch-Dest": "empty",
    },
    body,
  });

describe("attack8: local container host and cross-site requests", () => {
  it("a cross-site POST /containers/<name>/start is refused and runs nothing", async () => {
    const code = `import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(marker)}, "code from a web page");`;
    const body = JSON.stringify({ env: { NODE_OPTIONS: `--import=data:text/javascript;base64,${Buffer.from(code).toString("base64")}` } });
    const response = await crossSite(`${host.url}/containers/evil/start`, body);
    await response.body?.cancel();
    expect(fs.existsSync(marker)).toBe(false);
    expect(response.status).toBe(403);
  });

  it("a container named .. or . cannot be reached (the URL is normalised: 404/405); files path=../x is 400", async () => {
    for (const name of ["%2E%2E", "%2E", ".."]) {
      const response = await fetch(`${host.url}/containers/${name}/start`, { method: "POST", body: "{}" });
      // %2E%2E and .. → /start (404 "no route POST /start"); %2E → /containers/start, a GET-only route (405).
      expect(response.status).toBe(name === "%2E" ? 405 : 404);
      await response.body?.cancel();
    }
    expect(fs.existsSync(path.join(root, "..", "workspace"))).toBe(false);
    const started = await fetch(`${host.url}/containers/good/start`, { method: "POST", body: "{}" });
    expect(started.status).toBe(200);
    await started.body?.cancel();
    const put = await fetch(`${host.url}/containers/good/files?path=${encodeURIComponent("../x")}`, { method: "PUT", body: "x" });
    expect(put.status).toBe(400);
    await put.body?.cancel();
    expect(fs.existsSync(path.join(root, "good", "x"))).toBe(false);
    await (await fetch(`${host.url}/containers/good/stop`, { method: "POST", body: JSON.stringify({ signal: "SIGKILL" }) })).body?.cancel();
  });
});
