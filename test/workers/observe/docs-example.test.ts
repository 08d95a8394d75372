/**
 * docs/observability.md's example runs: the page's `<!-- workerd -->` block
 * is test/workers/observe/docs-example.ts with the package's import paths,
 * and its `demo` returns the lines the page shows.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a vite `?raw` import (the page's text); the test tsconfig has no vite/client types.
import page from "../../../docs/observability.md?raw";
// @ts-expect-error -- a vite `?raw` import (the example's source).
import source from "./docs-example.ts?raw";
import { demo, tracedWorkspaces } from "./docs-example.js";

const block = (text: string, marker: string, lang: string): string => {
  const start = text.indexOf(`${marker}\`\`\`${lang}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const body = start + marker.length + lang.length + 4;
  return text.slice(body, text.indexOf("\n```\n", body) + 1);
};

describe("docs/observability.md", () => {
  it("the page's example is docs-example.ts with the package's import paths", () => {
    const asPackage = (source as string)
      .replace('"../../../src/index.js"', '"agent-computer"')
      .replace('"../../../src/observe/cloudflare.js"', '"agent-computer/observe/cloudflare"')
      .replace('"../../../src/observe/opentelemetry.js"', '"agent-computer/observe/opentelemetry"');
    expect(block(page as string, "<!-- workerd -->\n", "ts")).toBe(asPackage);
  });

  it("demo() returns the lines the page shows", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    const lines = await runInDurableObject(stub, (_i, state) => demo(state.storage));
    const shown = block(page as string, "", "text").trimEnd().split("\n");
    expect(lines).toEqual(shown);
  });

  it("the ready-made observers run stub calls unchanged", async () => {
    const stub = env.TEST_DO.get(env.TEST_DO.newUniqueId());
    await runInDurableObject(stub, async (_i, state) => {
      for (const ws of tracedWorkspaces(state.storage)) {
        const fs = ws.stub().fs;
        await fs.writeFile("/t.txt", "traced");
        expect(await fs.readFile("/t.txt", "utf8")).toBe("traced");
        await ws.close();
      }
    });
  });
});
