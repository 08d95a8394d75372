import { Workspace } from "../../../src/workspace.js";
import { nodeSqliteStorage } from "../../../src/storage/index.js";

/** One recorded `assets.share` call: the arguments exactly as the tool passed them. */
export interface ShareCall {
  path: string;
  options: Record<string, unknown>;
}

/**
 * A recording assets client over a real Workspace: `share` records its
 * arguments, then stats and reads the file through `workspace.fs` (so a
 * missing file rejects with the filesystem's real ENOENT error) and returns
 * a URL built from its arguments and the bytes it read. It stands in for the
 * signer only; the thing under test is the tool.
 */
export class RecordingAssets {
  readonly calls: ShareCall[] = [];
  constructor(private readonly workspace: Workspace) {}

  async share(path: string, options: { expiresAfter: number; prefix?: string }): Promise<string> {
    this.calls.push({ path, options: { ...options } });
    await this.workspace.fs.stat(path);
    const bytes = new Uint8Array(await new Response(await this.workspace.fs.readFile(path)).arrayBuffer());
    const base = path.slice(path.lastIndexOf("/") + 1);
    const key = options.prefix === undefined ? base : `${options.prefix}/${base}`;
    return `https://assets.test/${key}?expiresAfter=${options.expiresAfter}&bytes=${bytes.byteLength}`;
  }
}

/** A Workspace on in-memory node:sqlite with a {@link RecordingAssets} publisher and the given files. */
export async function publishSetup(options: { sessionId?: string; files?: Record<string, string | Uint8Array> } = {}) {
  let assets!: RecordingAssets;
  const workspace = new Workspace({
    storage: nodeSqliteStorage(":memory:"),
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    assets: (ws: Workspace) => (assets = new RecordingAssets(ws)),
  });
  await workspace.fs.mkdir("/workspace", { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    const slash = path.lastIndexOf("/");
    if (slash > 0) await workspace.fs.mkdir(path.slice(0, slash), { recursive: true });
    await workspace.fs.writeFile(path, content);
  }
  return { workspace, assets };
}

/** The tool order with publish present. */
export const WITH_PUBLISH = ["read", "ls", "find", "grep", "write", "edit", "delete", "publish"];
/** The tool order without exec and publish. */
export const SEVEN = ["read", "ls", "find", "grep", "write", "edit", "delete"];
/** The read-only set. */
export const READONLY = ["read", "ls", "find", "grep"];

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
