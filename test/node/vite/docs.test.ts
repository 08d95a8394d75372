/**
 * The example of docs/vite.md runs: its `vite.config.ts`, `src/worker.ts` and
 * `wrangler.toml` blocks are written into a temp project (with
 * `agent-computer` and `agent-computer/vite` mapped to src/, and the
 * repository's node_modules linked in), built with Vite's build() from that
 * config file, and the built Worker is started in local workerd with
 * wrangler's startWorker from that wrangler.toml. Its response must equal the
 * page's ```text block.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { build } from "vite";
import { afterAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../../..");
const PAGE = readFileSync(join(REPO, "docs/vite.md"), "utf8");

/** The fenced blocks of the page: language and body. */
const BLOCKS = [...PAGE.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], body: m[2] }));

/** The block whose first line is `// <name>` or `# <name>`. */
function file(name: string): string {
  const block = BLOCKS.find((b) => b.body.startsWith(`// ${name}\n`) || b.body.startsWith(`# ${name}\n`));
  if (!block) throw new Error(`docs/vite.md has no block starting with a "${name}" comment`);
  return block.body;
}

/** The ```text block of the example's output (the first one after the wrangler.toml block). */
function output(): string {
  const at = BLOCKS.findIndex((b) => b.body.startsWith("# wrangler.toml\n"));
  const block = BLOCKS.slice(at).find((b) => b.lang === "text");
  if (!block) throw new Error("docs/vite.md has no ```text block after the example");
  return block.body;
}

const SKILLS: Record<string, string> = {
  "README.md": "# Skills\n",
  "pdf/SKILL.md": "# PDF\nUse pdftotext.\n",
  "pdf/scripts/extract.sh": '#!/bin/sh\npdftotext "$1" -\n',
};

const dir = mkdtempSync(join(tmpdir(), "vite-docs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const toSrc = (code: string) =>
  code
    .replaceAll('"agent-computer/vite"', JSON.stringify(join(REPO, "src/vite/index.ts")))
    .replaceAll('"agent-computer"', JSON.stringify(join(REPO, "src/index.ts")));

describe("docs/vite.md", () => {
  it("the example builds with Vite and answers in workerd as the page shows", { timeout: 180_000 }, async () => {
    write("package.json", '{ "type": "module", "private": true }\n');
    symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
    write("vite.config.ts", toSrc(file("vite.config.ts")));
    write("src/worker.ts", toSrc(file("src/worker.ts")));
    write("wrangler.toml", file("wrangler.toml"));
    for (const [path, text] of Object.entries(SKILLS)) write(`skills/${path}`, text);
    write("skills/.DS_Store", "not shipped");

    await build({ root: dir, configFile: join(dir, "vite.config.ts"), logLevel: "silent" });

    process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
    const { unstable_startWorker } = await import("wrangler");
    const persist = join(dir, ".state");
    const worker = await unstable_startWorker({
      config: join(dir, "wrangler.toml"),
      dev: { server: { port: 0 }, inspector: false, logLevel: "error", persist },
    });
    try {
      await worker.ready;
      const response = (await worker.fetch("http://example/")) as unknown as Response;
      expect(await response.text()).toBe(output());
    } finally {
      await worker.dispose();
    }
  });
});
