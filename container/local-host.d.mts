// Types of local-host.mjs for TypeScript callers (test/shared/container-global-setup.ts, tests).
// Generated from its JSDoc, then trimmed to the exports:
//   npx tsc --allowJs --declaration --emitDeclarationOnly --module NodeNext --moduleResolution NodeNext \
//     --target ES2023 --skipLibCheck --types node --outDir /tmp/lhd container/local-host.mjs

/** Options of {@link startLocalHost}. */
export type LocalHostOptions = {
  /** TCP port of the host API; default 0 (a free port). */
  port?: number;
  /**
   * Interface; default `"127.0.0.1"`. Loopback only (`127.x.x.x`, `::1`, `localhost`), anything
   * else throws: the API runs arbitrary commands.
   */
  host?: string;
  /** Directory holding one subdirectory per container (`<root>/<name>/workspace`); default a new directory under the OS temp dir. */
  root?: string;
  /** How long the first socket of a relay pair waits for its peer before it is closed with code 4408; default 30000 ms. */
  relayWaitMs?: number;
  /** How long `start` waits for a daemon to listen and answer `/health`; default 15000 ms. */
  startTimeoutMs?: number;
};

/** A running local host. */
export type LocalHost = {
  /** Base URL of the API, `http://127.0.0.1:<port>`. */
  url: string;
  /** Its TCP port. */
  port: number;
  /** The containers' directory. */
  root: string;
  /** Stop every daemon (SIGTERM, SIGKILL after 2 s), close every relay socket and the server. */
  close: () => Promise<void>;
};

/**
 * Start the local container host (container/README.md, "Local development without Docker").
 * @throws {Error} when `host` is not a loopback address, or the port cannot be bound
 */
export function startLocalHost(options?: LocalHostOptions): Promise<LocalHost>;

/** WebSocket close code for a relay socket whose peer never came (like HTTP 408). */
export const RELAY_TIMEOUT_CODE: 4408;
