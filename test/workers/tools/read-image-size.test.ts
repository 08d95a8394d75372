/**
 * read's image size check runs inside workerd: image-size reads the header
 * from bytes in Durable Object storage (no node: modules needed).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { Workspace } from "../../../src/index.js";
import { readDefinition } from "../../../src/tools/core/read.js";
import { WorkspaceFileStore } from "../../../src/tools/core/store.js";

/** PNG signature + an IHDR chunk (CRC not checked by a header read) + IEND. */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(8 + 25 + 12);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer);
  view.setUint32(8, 13);
  bytes.set([0x49, 0x48, 0x44, 0x52], 12);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 2, 0, 0, 0], 24);
  view.setUint32(37, 0);
  bytes.set([0x49, 0x45, 0x4e, 0x44], 41);
  return bytes;
}

it("a 9600×1200 PNG is not attached; an 8000×1200 PNG is", async () => {
  await runInDurableObject(env.TEST_DO.get(env.TEST_DO.newUniqueId()), async (_instance, state) => {
    const workspace = new Workspace({ storage: state.storage });
    await workspace.fs.mkdir("/workspace", { recursive: true });
    await workspace.fs.writeFile("/workspace/wide.png", pngHeader(9600, 1200));
    await workspace.fs.writeFile("/workspace/edge.png", pngHeader(8000, 1200));
    const read = readDefinition({ store: new WorkspaceFileStore(workspace) });
    const wide = await read.execute({ path: "/workspace/wide.png" });
    expect(wide).toEqual({ kind: "image", path: "/workspace/wide.png", name: "wide.png", mediaType: "image/png", sizeBytes: 45, width: 9600, height: 1200 });
    expect(read.toModelOutput({ path: "/workspace/wide.png" }, wide)).toMatchObject({ type: "error-text", value: expect.stringMatching(/^\/workspace\/wide\.png is 9600×1200 px, larger than the 8000 px per side/) });
    expect(await read.execute({ path: "/workspace/edge.png" })).toMatchObject({ kind: "image", sizeBytes: 45, data: expect.any(String) });
  });
});
