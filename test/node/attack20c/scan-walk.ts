/**
 * The host's walk of a daemon's tree (`scan({ cursor, limit: 5000 })`, SCAN_PAGE in src/runtime/sync.ts, until the
 * cursor is null) with the names the daemon's `fs.readdir` returned meanwhile counted (node:fs/promises' `readdir`
 * wrapped for the walk, as attack19c container-scan-wide-directory-quadratic did).
 */
import fsp from "node:fs/promises";
import type { DaemonApi } from "../../../src/backends/daemon/handle.js";

export interface CountedWalk {
  /** Names `readdir` returned during the walk. */
  names: number;
  /** Entries the pages returned. */
  listed: number;
  /** The cursor each page but the last ended at. */
  cursors: string[];
}

export async function countedWalk(daemon: DaemonApi): Promise<CountedWalk> {
  const readdir = fsp.readdir;
  let names = 0;
  (fsp as { readdir: unknown }).readdir = async (...args: unknown[]) => {
    const listed = await (readdir as (...a: unknown[]) => Promise<unknown[]>)(...args);
    names += listed.length;
    return listed;
  };
  try {
    let cursor: string | null = null;
    let listed = 0;
    const cursors: string[] = [];
    do {
      const page = (await daemon.scan({ cursor, limit: 5000 } as never)) as { cursor: string | null; entries: unknown[] };
      listed += page.entries.length;
      cursor = page.cursor;
      if (cursor !== null) cursors.push(cursor);
    } while (cursor !== null);
    return { names, listed, cursors };
  } finally {
    (fsp as { readdir: unknown }).readdir = readdir;
  }
}
