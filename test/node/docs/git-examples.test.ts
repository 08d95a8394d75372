/**
 * The examples of docs/git.md run (issue 15): every ```ts block that is not
 * marked `<!-- workerd -->` runs on Node against a Workspace on node:sqlite
 * and the loopback smart-HTTP git server (test/shared/git-server.ts), and
 * what it prints must equal the ```text block that follows it (40- and
 * 7-hex object ids, which depend on the time of a commit, compared as
 * `<oid>`). The workerd blocks (Durable Object, RPC, `ws:git`, the shell)
 * run in test/workers/docs/git-examples.test.ts.
 *
 * How a page becomes modules: the blocks of one `##` section run in order as
 * one module (so a later block sees an earlier block's variables), with
 * their imports merged at the top and `agent-computer/*` mapped to src/.
 * A section that does not make its own `workspace` gets one with
 * `git: createGitClient()` and `defaultGitIdentity` Agent <agent@example.com>.
 * `https://git.example.com/team/project.git` is a fresh copy, per section,
 * of a small repository on the loopback server; `./workspace.db` a
 * temporary file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { format } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeSqliteStorage, Workspace } from "../../../src/index.js";
import { createGitClient } from "../../../src/git/index.js";
import { forkRepo, serverGit } from "../../shared/git-remote.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const DOC = join(ROOT, "docs/git.md");
const PLACEHOLDER_URL = "https://git.example.com/team/project.git";

/** Where `agent-computer` subpaths live in this repository. */
const ENTRY: Record<string, string> = {
  "agent-computer": "src/index.ts",
  "agent-computer/git": "src/git/index.ts",
  "agent-computer/modules/git": "src/modules/git.ts",
};

interface Block {
  lang: string;
  code: string;
  /** Marked `<!-- workerd -->` on the line before the fence. */
  workerd: boolean;
  /** The ```text block right after it (only blank lines between), if any. */
  output?: string;
}

interface Section {
  title: string;
  blocks: Block[];
}

/** The fenced blocks of docs/git.md, by `##` section. */
export function parseDoc(text: string): Section[] {
  const sections: Section[] = [{ title: "(top)", blocks: [] }];
  const lines = text.split("\n");
  let lastBlockEnd = -2;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("## ")) {
      sections.push({ title: line.slice(3), blocks: [] });
      continue;
    }
    const fence = /^```(\w*)\s*$/.exec(line);
    if (!fence) continue;
    const lang = fence[1]!;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i]!);
    const code = body.length ? `${body.join("\n")}\n` : "";
    const section = sections[sections.length - 1]!;
    const prev = section.blocks[section.blocks.length - 1];
    const onlyBlankBetween = lines.slice(lastBlockEnd + 1, start).every((l) => l.trim() === "");
    if (lang === "text" && prev && prev.lang === "ts" && onlyBlankBetween) {
      prev.output = code;
    } else {
      let before = start - 1;
      while (before >= 0 && lines[before]!.trim() === "") before--;
      section.blocks.push({ lang, code, workerd: before >= 0 && lines[before]!.trim() === "<!-- workerd -->" });
    }
    lastBlockEnd = i;
  }
  return sections;
}

/** Object ids (7 to 40 hex digits, at least one a digit) as `<oid>`. */
function maskOids(text: string): string {
  return text.replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/g, "<oid>");
}

/** `import { a, b } from "m";` lines merged per module; `agent-computer*` mapped to src/. */
function hoistImports(codes: string[]): { imports: string; bodies: string[] } {
  const named = new Map<string, Set<string>>();
  const bodies = codes.map((code) =>
    code.replace(/^import\s+(type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)";[^\n]*\n/gm, (_m, type: string | undefined, names: string, from: string) => {
      const set = named.get(from) ?? new Set<string>();
      for (const n of names.split(",").map((s) => s.trim()).filter(Boolean)) set.add(type ? `type ${n}` : n);
      named.set(from, set);
      return "";
    }),
  );
  for (const body of bodies) {
    if (/^import\s/m.test(body)) throw new Error(`docs/git.md: an import this harness does not read:\n${body}`);
  }
  const imports = [...named]
    .map(([from, names]) => {
      const target = ENTRY[from] ? pathToFileURL(join(ROOT, ENTRY[from]!)).href : from;
      if (from.startsWith("agent-computer") && !ENTRY[from]) throw new Error(`docs/git.md imports ${from}: add it to ENTRY`);
      return `import { ${[...names].join(", ")} } from ${JSON.stringify(target)};`;
    })
    .join("\n");
  return { imports, bodies };
}

const sections = parseDoc(readFileSync(DOC, "utf8"));
const scratch = mkdtempSync(join(tmpdir(), "ac-git-docs-"));
let seedCommit = "";

/**
 * A small repository on the loopback server for the examples: two commits
 * (README.md, src/app.js) on `main`, nothing else. Made in a Workspace and
 * pushed over a copy of the fixture, whose other refs are deleted.
 */
async function seedRepo(): Promise<string> {
  const { name } = await forkRepo();
  const ws = new Workspace({ storage: nodeSqliteStorage(":memory:") });
  const git = createGitClient()({ ws, defaultIdentity: { name: "Team", email: "team@example.com" } });
  const at = (s: number) => ({ name: "Team", email: "team@example.com", timestamp: 1_750_000_000 + s, timezoneOffset: 0 });
  await git.init({ dir: "/seed" });
  await ws.fs.writeFile("/seed/README.md", "# Project\n");
  await git.add({ dir: "/seed", paths: ["."] });
  await git.commit({ dir: "/seed", message: "Start the project", author: at(0), committer: at(0) });
  await ws.fs.mkdir("/seed/src");
  await ws.fs.writeFile("/seed/src/app.js", "export const answer = 42;\n");
  await git.add({ dir: "/seed", paths: ["."] });
  const { oid } = await git.commit({ dir: "/seed", message: "Add the app", author: at(60), committer: at(60) });
  seedCommit = oid;
  const pushed = await git.push({ dir: "/seed", url: (await forkUrl(name)), ref: "main", force: true });
  if (!pushed.ok) throw new Error(`seed push: ${pushed.error}`);
  for (const args of [["update-ref", "-d", "refs/heads/feature"], ["tag", "-d", "v0.1"], ["tag", "-d", "v1.0"]]) {
    const r = await serverGit(name, args);
    if (r.code !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  }
  await ws.close();
  return name;
}

async function forkUrl(name: string): Promise<string> {
  const { gitServer } = await import("../../shared/git-remote.js");
  return `${gitServer().baseUrl}/git/${name}.git`;
}

let seedName = "";
beforeAll(async () => {
  seedName = await seedRepo();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("docs/git.md", () => {
  it("has runnable examples for every surface, and marks the workerd ones", () => {
    const node = sections.flatMap((s) => s.blocks.filter((b) => b.lang === "ts" && !b.workerd));
    const workerd = sections.flatMap((s) => s.blocks.filter((b) => b.workerd));
    expect(node.length).toBeGreaterThanOrEqual(8);
    // The Durable Object class, the RPC client, ws:git (js) and the shell (sh).
    expect(workerd.map((b) => b.lang)).toEqual(["ts", "ts", "js", "sh"]);
    // Every Node block that prints has its output shown.
    for (const b of node) if (b.code.includes("console.log(")) expect(b.output, b.code).toBeDefined();
    // The local-development notes name nodejs_compat and link porting.md's Git section.
    const text = readFileSync(DOC, "utf8");
    expect(text).toContain('compatibility_flags = ["nodejs_compat"]');
    expect(text).toContain("(porting.md#git)");
    // README.md lists the page.
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("(docs/git.md)");
  });

  it("the Durable Object of the Setup section is the one the workerd examples run against (test/workers/git/agent.ts)", () => {
    const options = (text: string, base: string) => {
      const start = text.indexOf(`withWorkspace(${base}, (self) => ({`);
      const end = text.indexOf("})) {}", start);
      expect(start, base).toBeGreaterThan(-1);
      return text.slice(text.indexOf("\n", start), end).replace(/\s+/g, " ").trim();
    };
    const setup = sections.find((s) => s.title === "Setup")!.blocks.find((b) => b.workerd)!.code;
    const agent = readFileSync(join(ROOT, "test/workers/git/agent.ts"), "utf8");
    expect(options(setup, "Base")).toBe(options(agent, "GitAgentBase"));
  });

  it("the command-line table lists exactly the subcommands `git help` has, and `version` prints what it says", async () => {
    const text = readFileSync(DOC, "utf8");
    const table = text.slice(text.indexOf("| subcommand | flags and forms | prints |"), text.indexOf("`git help` lists exactly"));
    const names = table
      .split("\n")
      .slice(2)
      .filter((l) => l.startsWith("| `"))
      .flatMap((l) => l.split("|")[1]!.split(" / ").map((cell) => /`([a-z-]+)/.exec(cell)![1]!));
    const { COMMANDS, CLI_VERSION } = await import("../../../src/git/cli/commands.js");
    expect([...names].sort()).toEqual(Object.keys(COMMANDS).sort());
    expect(table).toContain(`| \`${CLI_VERSION}\` |`);
  });

  it("the error table's codes and messages are the classes' own", async () => {
    const errors = await import("../../../src/git/errors.js");
    const text = readFileSync(DOC, "utf8");
    const made = [
      new errors.NotARepositoryError("<dir>"),
      new errors.AlreadyInitializedError("<dir>"),
      new errors.PathspecNotFoundError("<p>"),
      new errors.PathOutsideRepoError("<p>", "<dir>"),
    ];
    for (const e of made) expect(text).toContain(`| \`${e.name}\` | \`${e.code}\` | \`${e.message}\` |`);
    const identity = new errors.MissingIdentityError();
    const shown = /\| `MissingIdentityError` \| `EIDENTITY` \| `([^`]*)…` \|/.exec(text);
    expect(shown).not.toBeNull();
    expect(identity.message.startsWith(shown![1]!)).toBe(true);
  });

  for (const [index, section] of sections.entries()) {
    const blocks = section.blocks.filter((b) => b.lang === "ts" && !b.workerd);
    if (blocks.length === 0) continue;
    it(`§ ${section.title}: ${blocks.length} example(s) run and print what the page shows`, async () => {
      // Each section clones its own copy of the seed repository.
      const { name } = await forkRepo(seedName);
      const url = await forkUrl(name);
      const db = join(scratch, `workspace-${index}.db`);
      const codes = blocks.map((b) => b.code.replaceAll(PLACEHOLDER_URL, url).replaceAll('"./workspace.db"', JSON.stringify(db)));
      const ownWorkspace = codes.some((c) => /\bconst workspace\s*=/.test(c));
      const prelude = ownWorkspace
        ? []
        : [
            'import { Workspace, nodeSqliteStorage } from "agent-computer";\nimport { createGitClient } from "agent-computer/git";\n' +
              'const workspace = new Workspace({ storage: nodeSqliteStorage(":memory:"), git: createGitClient(), defaultGitIdentity: { name: "Agent", email: "agent@example.com" } });\n',
          ];
      const { imports, bodies } = hoistImports([...prelude, ...codes]);
      const marks = bodies.map((body, i) => (i < prelude.length ? body : `${body}\n__mark(${i - prelude.length});\n`));
      const source = `${imports}\nexport default async function (console, __mark) {\n${marks.join("\n")}\nreturn workspace;\n}\n`;
      const file = join(scratch, `section-${index}.ts`);
      writeFileSync(file, source);
      const printed: string[] = blocks.map(() => "");
      let current = 0;
      const fakeConsole = { log: (...args: unknown[]) => (printed[current] += `${format(...args)}\n`) };
      const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
        default: (c: typeof fakeConsole, mark: (i: number) => void) => Promise<Workspace>;
      };
      const workspace = await mod.default(fakeConsole, (i) => (current = i + 1));
      try {
        for (const [i, block] of blocks.entries()) {
          if (block.output === undefined) continue;
          const shown = maskOids(printed[i]!.replaceAll(url, PLACEHOLDER_URL));
          expect(shown, `output of:\n${block.code}`).toBe(maskOids(block.output));
        }
      } finally {
        await workspace.close();
      }
    });
  }

  it("the seed repository is what the examples clone", async () => {
    const r = await serverGit(seedName, ["log", "--format=%H %s", "main"]);
    expect(r.stdout.split("\n")[0]).toBe(`${seedCommit} Add the app`);
  });
});
