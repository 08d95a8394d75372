import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A mounted tmpfs and how to let it go (unmount, then remove its directory). */
export interface TinyDisk {
  dir: string;
  release(): void;
}

/**
 * A tmpfs of `size` (default 64 KiB) mounted at a fresh directory under the system temp dir, or `null` when this
 * process may not mount (not root): tests of a full disk (`ENOSPC`) or a busy mount point (`EBUSY`) skip then.
 */
export function tinyDisk(prefix = "tiny-disk-", size = "64k"): TinyDisk | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    release() {
      try {
        execFileSync("umount", [dir], { stdio: "ignore" });
      } catch {
        /* left mounted */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether this process may mount a tmpfs (it mounts one and lets it go). */
export function canMount(): boolean {
  const disk = tinyDisk("tiny-disk-probe-");
  disk?.release();
  return disk !== null;
}
