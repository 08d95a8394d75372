#!/usr/bin/env node
// `node scripts/gen-git.mjs [--force]`
//
// Bundles isomorphic-git for the git entry (spec 04 §2.1: "bundled here,
// imported lazily on first use, `pako` swapped for `node:zlib` → needs
// `nodejs_compat`") and writes, under src/git/generated/ (git-ignored; this
// script makes them):
//
//   - isomorphic-git.js (+ .d.ts): isomorphic-git and its dependencies in one
//     ES module, with `pako` replaced by src/git/zlib-pako.ts (node:zlib) and
//     Node's `Buffer` taken from `node:buffer`. Its only imports are
//     `node:zlib` and `node:buffer`.
//   - http-web.js (+ .d.ts): `isomorphic-git/http/web` (fetch-based HTTP
//     client), which imports nothing.
//
// The .d.ts files re-export isomorphic-git's own types, so src/git/load.ts is
// typed as `typeof import("isomorphic-git")`.
//
// It is quick (well under a second) and skips work when its inputs
// (isomorphic-git's version, package-lock.json, this script, zlib-pako.ts) are unchanged;
// scripts/gen-shell.mjs runs it, so every caller of gen-shell (pretest,
// prebuild, pretypecheck, prestart, prebench, vitest.config.ts) gets it.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const outDir = join(root, "src/git/generated");
const pakoShim = join(root, "src/git/zlib-pako.ts");
const igitDir = join(root, "node_modules/isomorphic-git");

/** Imports the bundle may keep; anything else left unresolved is a build error. */
const ALLOWED_IMPORTS = ["node:zlib", "node:buffer"];

function inputsHash() {
  const h = createHash("sha256");
  h.update(readFileSync(join(igitDir, "package.json")));
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  h.update(readFileSync(pakoShim));
  // The exact versions of isomorphic-git's dependencies and of esbuild.
  const lock = join(root, "package-lock.json");
  if (existsSync(lock)) h.update(readFileSync(lock));
  return h.digest("hex").slice(0, 16);
}

/**
 * esbuild plugin: `pako` → the node:zlib shim; `buffer` (safe-buffer's
 * `require("buffer")`) and the injected global `Buffer` → `node:buffer`.
 */
const shims = {
  name: "git-shims",
  setup(b) {
    b.onResolve({ filter: /^pako(\/.*)?$/ }, (args) => {
      if (args.path !== "pako") throw new Error(`gen-git: isomorphic-git imports ${args.path}; only "pako" is shimmed`);
      return { path: pakoShim };
    });
    b.onResolve({ filter: /^buffer\/?$/ }, () => ({ path: "buffer", namespace: "git-shim" }));
    b.onResolve({ filter: /^git-shim:global-buffer$/ }, () => ({ path: "global-buffer", namespace: "git-shim" }));
    b.onLoad({ filter: /.*/, namespace: "git-shim" }, (args) => ({
      contents:
        args.path === "buffer"
          ? 'import { Buffer } from "node:buffer";\nexport { Buffer };\nexport default { Buffer };\n'
          : 'export { Buffer } from "node:buffer";\n',
      loader: "js",
    }));
  },
};

async function bundle(entry, { injectBuffer }) {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    format: "esm",
    write: false,
    outfile: "/out/bundle.js",
    // "browser": isomorphic-git's "." export picks index.cjs under the "node"
    // condition, and small dependencies (inherits) name a browser main that
    // does not require Node built-ins. Node built-ins are reached only as node:*.
    platform: "browser",
    conditions: ["workerd", "worker", "import"],
    external: ALLOWED_IMPORTS,
    // isomorphic-git uses the global `Buffer`; it comes from node:buffer (a global only with nodejs_compat_v2).
    inject: injectBuffer ? ["git-shim:global-buffer"] : [],
    plugins: [shims],
    // isomorphic-git deflates through CompressionStream whenever it exists (Node, workerd), a
    // stream round trip per object: 1,000 files took 8.2 s to add that way, 2.4 s through
    // node:zlib. Hiding it sends deflate to the pako shim (node:zlib deflateSync).
    define: { CompressionStream: "undefined" },
    target: "es2022",
    legalComments: "none",
    metafile: true,
    logLevel: "error",
  });
  const text = result.outputFiles[0].text;
  const inputs = Object.keys(result.metafile.inputs);
  if (inputs.some((p) => /node_modules\/pako\//.test(p))) throw new Error("gen-git: pako is still in the bundle");
  const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
  const unexpected = imports.filter((p) => !ALLOWED_IMPORTS.includes(p));
  if (unexpected.length) throw new Error(`gen-git: the bundle imports ${unexpected.join(", ")}`);
  return text;
}

/** `text` with its one occurrence of `from` replaced by `to`; throws (naming `what`) when isomorphic-git's code changed. */
function patch(text, what, from, to) {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`gen-git: isomorphic-git's ${what} changed; update the patch in scripts/gen-git.mjs`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

/** Writes by rename, so a test or build reading the file meanwhile never sees half of it. */
function writeAtomic(path, text) {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

const header = (hash) => `// Generated by scripts/gen-git.mjs (inputs ${hash}): do not edit, not committed.\n`;

const force = process.argv.includes("--force");
const hash = inputsHash();
const stamp = join(outDir, ".inputs");
if (force || !existsSync(stamp) || readFileSync(stamp, "utf8") !== hash) {
  const [bundled, web] = await Promise.all([
    bundle("isomorphic-git", { injectBuffer: true }),
    bundle("isomorphic-git/http/web", { injectBuffer: false }),
  ]);
  // isomorphic-git serialises ref and index writes with ONE module-level lock keyed by the ref
  // name ("refs/heads/main") or the index path — shared by every repository, Workspace and
  // Durable Object in the isolate. A ctx.abort() while a write held it left it held forever:
  // every later commit of that ref in the isolate, restarted object included, never answered
  // (issue 20, fifth attack run, O1). The client serialises the operations on each repository
  // itself (src/git/client.ts, one queue per Workspace), so the module lock goes.
  const LOCK = "function acquireLock(key, callback) {\n  return getLock().acquire(key, callback);\n}";
  if (!bundled.includes(LOCK)) throw new Error("gen-git: isomorphic-git's acquireLock changed; update the patch in scripts/gen-git.mjs");
  let igit = bundled.replace(LOCK, "function acquireLock(key, callback) {\n  return callback();\n}");
  // A deep tree froze the object (issue 20, fifth attack run, O3): cloning one file under N nested
  // directories cost about N^2.5. The checkout checks every directory it makes and every file it
  // writes with assertNoSymlinkInLeadingPath, which lstat'ed EVERY leading prefix even past the
  // first missing one (an lstat of a missing path walks the whole path again), and made each
  // directory with mkdirp, which on ENOENT recurses to the parent and retries, one level at a time.
  // Two patches make that linear in the depth with the same outcome:
  //   - the leading-path check stops at the first missing prefix: nothing below a missing
  //     directory exists, so no deeper prefix can be a link;
  //   - FileSystem.mkdir asks the fs for `{ recursive: true }` first (one call makes the missing
  //     chain, as `mkdir -p`), and falls back to mkdirp when the fs does not take that option
  //     (it answers ENOENT) — the Workspace bridge does take it.
  igit = patch(
    igit,
    "assertNoSymlinkInLeadingPath",
    "    const stats = await fs.lstat(current);\n    if (stats && stats.isSymbolicLink()) {\n      throw new UnsafeFilepathError(fullpath);\n    }",
    "    const stats = await fs.lstat(current);\n    if (!stats) return;\n    if (stats.isSymbolicLink()) {\n      throw new UnsafeFilepathError(fullpath);\n    }",
  );
  //   - the checkout makes only the deepest directories of its tree (those that hold no other
  //     directory it makes): `mkdir -p` of those makes their parents, whose own mkdir was one
  //     more walk of a path as long; the leading-path check of the deepest covers every parent.
  igit = patch(
    igit,
    "checkout's mkdir step",
    '    await Promise.all(\n      ops.filter(([method]) => method === "mkdir" || method === "mkdir-index").map(async function([_, fullpath]) {\n        const filepath = `${dir}/${fullpath}`;\n        await assertNoSymlinkInLeadingPath(fs, dir, fullpath);\n        await fs.mkdir(filepath);\n',
    '    const mkdirOps = ops.filter(([method]) => method === "mkdir" || method === "mkdir-index");\n    const mkdirParents = new Set(mkdirOps.map(([, fullpath]) => dirname(fullpath)));\n    await Promise.all(\n      mkdirOps.map(async function([_, fullpath]) {\n        const filepath = `${dir}/${fullpath}`;\n        if (!mkdirParents.has(fullpath)) {\n          await assertNoSymlinkInLeadingPath(fs, dir, fullpath);\n          await fs.mkdir(filepath);\n        }\n',
  );
  igit = patch(
    igit,
    "FileSystem.mkdir",
    "  async mkdir(filepath) {\n    await mkdirp(this._mkdir, filepath);\n  }",
    "  async mkdir(filepath) {\n    try {\n      await this._mkdir(filepath, { recursive: true });\n      return;\n    } catch (err) {\n      if (err && err.code === \"EEXIST\") return;\n      if (!err || err.code !== \"ENOENT\") throw err;\n    }\n    await mkdirp(this._mkdir, filepath);\n  }",
  );
  // A ref is a file under the gitdir, read as `${gitdir}/${ref}`: `GitRefManager.resolve` and
  // `expand` read whatever path a ref name (or a symbolic ref's target, read from a file the
  // repository's user may write) spells. `.git/HEAD` = `ref: ../../../host-secret.txt` made
  // `git status` read a file outside the repository — outside a confined run's root — and quote
  // it in its error (issue 20, seventh attack run). Both now refuse, before any read, a name that
  // is not a valid ref name (git's check_refname_format, one level allowed: no `..`, no leading
  // `/` or `.`, no control characters, …) as not found; the name is clipped in the message.
  const REFUSE_BAD_NAME =
    '    if (!isValidRef(ref, true)) {\n      throw new NotFoundError(ref.length > 200 ? `${ref.slice(0, 200)}\u2026` : ref);\n    }\n';
  igit = patch(
    igit,
    "GitRefManager.resolve",
    "      return _GitRefManager.resolve({ fs, gitdir, ref, depth, visited });\n    }\n    if (ref.length === 40 && /[0-9a-f]{40}/.test(ref)) {\n      return ref;\n    }\n",
    "      return _GitRefManager.resolve({ fs, gitdir, ref, depth, visited });\n    }\n    if (ref.length === 40 && /[0-9a-f]{40}/.test(ref)) {\n      return ref;\n    }\n" + REFUSE_BAD_NAME,
  );
  igit = patch(
    igit,
    "GitRefManager.expand",
    "  static async expand({ fs, gitdir, ref }) {\n    if (ref.length === 40 && /[0-9a-f]{40}/.test(ref)) {\n      return ref;\n    }\n",
    "  static async expand({ fs, gitdir, ref }) {\n    if (ref.length === 40 && /[0-9a-f]{40}/.test(ref)) {\n      return ref;\n    }\n" + REFUSE_BAD_NAME,
  );
  // A backslash is an ordinary name character on POSIX (and in git there): `x\y.txt` is one file. isomorphic-git's
  // path helpers took it for a separator as on Windows — normalize/join turned `\` into `/` (and took `c:/…`
  // for an absolute path), dirname/basename split at it, hasExactCasePath too — so a file named
  // `..\..\host-secret.txt` made `git add -A` stage, and `reset --hard` delete, a file two directories ABOVE the
  // repository (outside a confined run's root), and an untracked `new\n.txt` failed `add` with `lstat
  // 'new/n.txt'`; its tree and index checks refused any `\` (a tracked `x\y.txt` failed status, stash and
  // checkout with "unsafe character sequences"), and the index reader refused `..\` anywhere in a path (issue 20,
  // twenty-first attack run). Now, as git on Linux: `/` is the only separator; the index reader refuses a path
  // with an empty, `.` or `..` SEGMENT (`a../b` is a name, `../b` is not); a tree entry may hold `\`, and is
  // refused as `.git` when its part before the first `\` is `.git`/`git~N` (git's is_ntfs_dotgit, on by default:
  // core.protectNTFS). Every path isomorphic-git then hands the fs is also checked to stay under the repository
  // (src/git/confine.ts, containedGitFs), so no other quirk can lead out.
  igit = patch(
    igit,
    "path normalize",
    '  path = path.replace(/\\\\/g, "/");\n  const drivePrefix = getWindowsDrivePrefix(path);\n',
    "  const drivePrefix = null;\n",
  );
  igit = patch(
    igit,
    "path join",
    '    const arg = args[i].replace(/\\\\/g, "/");\n    if (arg.length === 0) continue;\n    if (/^[a-zA-Z]:\\//.test(arg)) {\n      joined = arg;\n    } else if (joined === void 0) {\n',
    "    const arg = args[i];\n    if (arg.length === 0) continue;\n    if (joined === void 0) {\n",
  );
  igit = patch(
    igit,
    "path basename",
    'function basename(path) {\n  const last = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\\\"));\n',
    'function basename(path) {\n  const last = path.lastIndexOf("/");\n',
  );
  igit = patch(
    igit,
    "path dirname",
    'function dirname(path) {\n  const last = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\\\"));\n',
    'function dirname(path) {\n  const last = path.lastIndexOf("/");\n',
  );
  igit = patch(
    igit,
    "isAbsolute",
    'function isAbsolute(filepath) {\n  return filepath.startsWith("/") || /^[a-zA-Z]:[\\\\/]/.test(filepath);\n}\n',
    'function isAbsolute(filepath) {\n  return filepath.startsWith("/");\n}\n',
  );
  igit = patch(
    igit,
    "hasExactCasePath",
    '  const segments = filepath.replace(/\\\\/g, "/").split("/")',
    '  const segments = filepath.split("/")',
  );
  igit = patch(
    igit,
    "GitIndex entry path check",
    '      if (entry.path.includes("..\\\\") || entry.path.includes("../")) {\n',
    '      if (entry.path.split("/").some((part) => part === "" || part === "." || part === "..")) {\n',
  );
  // The index's directory/file rule (git's add_index_entry with ADD_CACHE_OK_TO_REPLACE: has_dir_name and
  // has_file_name): an entry `p/keep` and an entry `p` never stand together at the same stage. isomorphic-git's
  // GitIndex.insert added `p/keep` next to a file or link `p`, so `checkout <ref> -- p/keep`, `reset <ref> -- p/keep`
  // and `add p/x` (after `p` became a directory) left both, status hid the staged path and the next commit dropped
  // it (issue 20, run 39, fixer GT). Now every stage-0 insert — add, updateIndexMany (checkout/reset/restore paths,
  // branch switches, merges, stash, commit -a), isomorphic-git's own checkout and merge — first removes the
  // stage-0 entries at its leading directories and under it (unmerged entries stay, as git keeps other stages).
  // Bounded: leading directories are map lookups; entries under the path are found by a count of entries per
  // directory (`_dirs`, built on the first insert, kept by _addEntry/delete/clear), scanned only on a conflict.
  igit = patch(
    igit,
    "GitIndex._addEntry",
    "  _addEntry(entry) {\n    if (entry.flags.stage === 0) {\n",
    "  _addEntry(entry) {\n    if (this._dirs && !this._entries.has(entry.path)) this._countDirs(entry.path, 1);\n    if (entry.flags.stage === 0) {\n",
  );
  igit = patch(
    igit,
    "GitIndex.insert (directory/file rule)",
    "      stages: []\n    };\n    this._addEntry(entry);\n    this._dirty = true;\n  }\n",
    "      stages: []\n    };\n    if (stage === 0) this._replaceConflicts(filepath);\n    this._addEntry(entry);\n    this._dirty = true;\n  }\n" +
      "  _countDirs(path, delta) {\n" +
      "    for (let at = path.indexOf(\"/\"); at > 0; at = path.indexOf(\"/\", at + 1)) {\n" +
      "      const lead = path.slice(0, at);\n" +
      "      const count = (this._dirs.get(lead) || 0) + delta;\n" +
      "      if (count > 0) this._dirs.set(lead, count);\n" +
      "      else this._dirs.delete(lead);\n" +
      "    }\n" +
      "  }\n" +
      "  _replaceConflicts(filepath) {\n" +
      "    for (let at = filepath.indexOf(\"/\"); at > 0; at = filepath.indexOf(\"/\", at + 1)) {\n" +
      "      const lead = filepath.slice(0, at);\n" +
      "      if (this._entries.has(lead) && !this._unmergedPaths.has(lead)) this.delete({ filepath: lead });\n" +
      "    }\n" +
      "    if (!this._dirs) {\n" +
      "      this._dirs = /* @__PURE__ */ new Map();\n" +
      "      for (const key of this._entries.keys()) this._countDirs(key, 1);\n" +
      "    }\n" +
      "    if (!this._dirs.has(filepath)) return;\n" +
      "    const under = filepath + \"/\";\n" +
      "    for (const key of [...this._entries.keys()]) {\n" +
      "      if (key.startsWith(under) && !this._unmergedPaths.has(key)) this.delete({ filepath: key });\n" +
      "    }\n" +
      "  }\n",
  );
  igit = patch(
    igit,
    "GitIndex.delete",
    "    if (this._entries.has(filepath)) {\n      this._entries.delete(filepath);\n    } else {\n      for (const key of this._entries.keys()) {\n        if (key.startsWith(filepath + \"/\")) {\n          this._entries.delete(key);\n        }\n      }\n    }\n",
    "    if (this._entries.has(filepath)) {\n      this._entries.delete(filepath);\n      if (this._dirs) this._countDirs(filepath, -1);\n    } else {\n      for (const key of [...this._entries.keys()]) {\n        if (key.startsWith(filepath + \"/\")) {\n          this._entries.delete(key);\n          if (this._dirs) this._countDirs(key, -1);\n        }\n      }\n    }\n",
  );
  igit = patch(igit, "GitIndex.clear", "  clear() {\n    this._entries.clear();\n", "  clear() {\n    this._entries.clear();\n    this._dirs = void 0;\n");
  igit = patch(
    igit,
    "assertSafeEntryPath",
    '  const ntfsClean = hfsClean.split(":")[0];\n  const normalized = stripTrailingDotsAndSpaces(ntfsClean.toLowerCase());\n  if (path.includes("\\\\") || path.includes("/") || normalized === "" && ntfsClean !== "" || normalized === ".git" || /^\\.?git~[1-9]$/.test(normalized)) {\n',
    '  const ntfsClean = hfsClean.split(":")[0];\n  const normalized = stripTrailingDotsAndSpaces(ntfsClean.toLowerCase());\n  const ntfsFirst = stripTrailingDotsAndSpaces(ntfsClean.split("\\\\")[0].toLowerCase());\n  if (path.includes("/") || normalized === "" && ntfsClean !== "" || normalized === ".git" || /^\\.?git~[1-9]$/.test(normalized) || ntfsFirst === ".git" || /^\\.?git~[1-9]$/.test(ntfsFirst)) {\n',
  );
  // A tree entry's name is bytes; isomorphic-git decoded it as UTF-8 with U+FFFD for every byte
  // that is not, so `x\xFE`, `x\xFF` and `x\uFFFD` became one Workspace file and a checkout
  // "succeeded" with files lost (issue 20, seventh attack run). Workspace names are UTF-8 text, so
  // a tree holding a name that is not valid UTF-8 is refused when it is parsed — before a checkout,
  // reset, merge or clone writes anything — with an error naming the entry as real git quotes it
  // (bytes past ASCII and control bytes in octal, `"x\376"`). Only names that decode with a U+FFFD
  // are re-checked, so valid trees cost nothing more.
  igit = patch(
    igit,
    "GitTree parseBuffer",
    '    const path = buffer.slice(space + 1, nullchar).toString("utf8");\n    assertSafeEntryPath(path);\n',
    '    const nameBytes = buffer.slice(space + 1, nullchar);\n    const path = nameBytes.toString("utf8");\n' +
      '    if (path.includes("\\uFFFD") && !isUtf8Name(nameBytes)) {\n' +
      '      const quoted = Array.from(nameBytes, (b) => b === 34 || b === 92 ? "\\\\" + String.fromCharCode(b) : b < 32 || b >= 127 ? "\\\\" + b.toString(8).padStart(3, "0") : String.fromCharCode(b)).join("");\n' +
      '      const err = new Error(`tree entry "${quoted}" has a name that is not valid UTF-8; Workspace file names are UTF-8 text, so this tree cannot be read (rename the entry in a clone on disk)`);\n' +
      '      err.code = "NonUtf8EntryNameError";\n      err.data = { bytes: Array.from(nameBytes) };\n      throw err;\n    }\n' +
      '    assertSafeEntryPath(path);\n',
  );
  igit = patch(
    igit,
    "GitTree parseBuffer (declaration)",
    "function parseBuffer(buffer) {\n",
    'function isUtf8Name(bytes) {\n  try {\n    new TextDecoder("utf-8", { fatal: true }).decode(bytes);\n    return true;\n  } catch {\n    return false;\n  }\n}\nfunction parseBuffer(buffer) {\n',
  );
  // A tree entry's mode is read as git reads it (tree-walk.c get_mode + canon_mode): octal digits, then the // GM
  // file type decides — a regular file is 100755 when the owner-execute bit is set and 100644 otherwise, 120xxx is // GM
  // 120000, 040xxx is 040000, anything else 160000. Git before mid-2005 and some importers wrote 100664 (also // GM
  // 100600, 100775, …): isomorphic-git knew only the five canonical spellings and every read of such a tree — // GM
  // ls-tree, show, diff, checkout, reset, merge, clone — failed with its "internal error … file an issue" (issue // GM
  // 20, twenty-ninth attack run). Trees written back (commit, merge, stash) hold the canonical modes, as git's do; // GM
  // limitModeToAllowed (trees built from entries) maps modes the same way. A mode that is not octal digits is // GM
  // refused naming the entry, as git refuses it ("malformed mode in tree entry"). // GM
  igit = patch( // GM
    igit, // GM
    "GitTree parseBuffer (mode)", // GM
    '    let mode = buffer.slice(cursor, space).toString("utf8");\n    if (mode === "40000") mode = "040000";\n    const type = mode2type$1(mode);\n', // GM
    "    const mode = canonTreeEntryMode(buffer, cursor, space, nullchar);\n    const type = mode2type$1(mode);\n", // GM
  ); // GM
  igit = patch( // GM
    igit, // GM
    "limitModeToAllowed", // GM
    '  if (mode.match(/^0?4.*/)) return "040000";\n  if (mode.match(/^1006.*/)) return "100644";\n  if (mode.match(/^1007.*/)) return "100755";\n  if (mode.match(/^120.*/)) return "120000";\n  if (mode.match(/^160.*/)) return "160000";\n  throw new InternalError(`Could not understand file mode: ${mode}`);\n', // GM
    '  const bits = parseOctalMode(Buffer2.from(String(mode)), 0, String(mode).length);\n  if (bits === null) throw new Error(`could not understand file mode "${mode}": a git mode is octal digits`);\n  return canonModeString(bits);\n', // GM
  ); // GM
  igit += // GM
    "\nfunction parseOctalMode(bytes, start, end) {\n  if (end <= start) return null;\n  let mode = 0;\n" + // GM
    "  for (let i = start; i < end; i++) {\n    const c = bytes[i];\n    if (c < 48 || c > 55) return null;\n    mode = (mode * 8 + (c - 48)) >>> 0;\n  }\n  return mode;\n}\n" + // GM
    "function canonModeString(mode) {\n  switch (mode & 61440) {\n    case 32768:\n      return mode & 64 ? \"100755\" : \"100644\";\n" + // GM
    "    case 40960:\n      return \"120000\";\n    case 16384:\n      return \"040000\";\n    default:\n      return \"160000\";\n  }\n}\n" + // GM
    "function quoteTreeBytes(bytes) {\n" + // GM
    '  return Array.from(bytes, (b) => b === 34 || b === 92 ? "\\\\" + String.fromCharCode(b) : b < 32 || b >= 127 ? "\\\\" + b.toString(8).padStart(3, "0") : String.fromCharCode(b)).join("");\n}\n' + // GM
    "function canonTreeEntryMode(buffer, start, space, nullchar) {\n  const bits = parseOctalMode(buffer, start, space);\n  if (bits !== null) return canonModeString(bits);\n" + // GM
    "  const modeEnd = nullchar < space ? nullchar : space;\n" + // GM
    "  const name = nullchar > space ? `tree entry \"${quoteTreeBytes(buffer.slice(space + 1, nullchar))}\"` : \"a tree entry\";\n" + // GM
    "  const err = new Error(`${name} has a malformed mode \"${quoteTreeBytes(buffer.slice(start, modeEnd))}\" (a git mode is octal digits), so this tree cannot be read`);\n" + // GM
    '  err.code = "MalformedTreeModeError";\n  throw err;\n}\n'; // GM
  // isomorphic-git's InternalError put its message after three lines asking the user to file an issue at // GM
  // isomorphic-git's tracker; every caller here (the client's `git <op> failed: …`, the CLI's `git <cmd>: …`) // GM
  // quoted that whole text. Its message is now only what went wrong (`Unexpected GitTree entry mode: …`, // GM
  // `Invalid packfile version: …`); `code` and `data` stay. // GM
  igit = patch( // GM
    igit, // GM
    "InternalError message", // GM
    "    super(\n      `An internal error caused this command to fail.\n\nIf you're using an application that depends on isomorphic-git, please report this error to that application's developers.\n\nIf you're a developer and you believe this is a bug in isomorphic-git, please file an issue at https://github.com/isomorphic-git/isomorphic-git/issues with a minimal reproduction, version and environment details, and this error message: ${message}`\n    );\n    this.code = this.name = _InternalError.code;\n", // GM
    "    super(message);\n    this.code = this.name = _InternalError.code;\n", // GM
  ); // GM
  // `.gitignore` patterns are compiled by the `ignore` package to backtracking regexes and tested
  // against every untracked path a status (add, diff, clean, stash) meets: `**` + `/**` x 13 + `/x`
  // over a 40-deep tree froze `git status` for minutes, and `*a` x 12 + `*b` cost seconds per name
  // (issue 20, ninth attack run). isIgnored now hands `ignore` each .gitignore / info/exclude text
  // through boundIgnoreRules:
  //   - consecutive `**` segments collapse into one (`a/**/**/b` is `a/**/b` in git's wildmatch),
  //     which changes no match;
  //   - a pattern that still holds more than IGNORE_MAX_WILDCARD_RUNS runs of `*` (a `**` segment is
  //     one run) is skipped, as a comment: each run multiplies the backtracking by the length of a
  //     name or the depth of a path. Documented in docs/git.md and docs/porting.md.
  // The `ignore` package caches the regex source of every pattern it ever compiled, in a module-level
  // object that never shrinks: distinct hostile .gitignore files, one operation after another, grew it
  // for the isolate's life. Past IGNORE_REGEX_CACHE_MAX entries it starts over (issue 20, thirteenth
  // attack run; a compile is cheap next to the walk it serves).
  igit = patch(
    igit,
    "ignore regexCache",
    "        regexCache[pattern] = source;\n",
    "        if (++regexCacheSize > 4096) {\n          regexCache = /* @__PURE__ */ Object.create(null);\n          regexCacheSize = 1;\n        }\n        regexCache[pattern] = source;\n",
  );
  // A bracket expression negated with `!` or `^` (`[!d]*`, `[^d]*`; git's wildmatch takes both) was copied into the
  // RegExp as is, a class holding `!` (or the escaped `^`) and the letters: `[!d]*/` ignored docs/ instead of every
  // other directory (issue 20, twenty-second attack run). A leading `!` or `^` of the class now negates it; `[!]`
  // (nothing after the negation) matches nothing, as git's wildmatch (an unclosed class) does.
  igit = patch(
    igit,
    "ignore range replacer",
    "close === \"]\" ? endEscape.length % 2 === 0 ? `[${sanitizeRange(range)}${endEscape}]` : \"[]\" : \"[]\"",
    "close === \"]\" ? endEscape.length % 2 === 0 ? negatedRange(`[${sanitizeRange(range)}${endEscape}]`) : \"[]\" : \"[]\"",
  );
  igit = patch(
    igit,
    "ignore sanitizeRange (declaration)",
    "    var cleanRangeBackSlash = (slashes) => {\n",
    "    var negatedRange = (klass) => {\n      const negation = klass.startsWith(\"[!\") ? 2 : klass.startsWith(\"[\\\\^\") ? 3 : 0;\n      if (negation === 0) return klass;\n      return klass.length === negation + 1 ? \"[]\" : `[^${klass.slice(negation)}`;\n    };\n    var cleanRangeBackSlash = (slashes) => {\n",
  );
  // `match(path)`: the last rule of the matcher that matches `path` itself (`{ ignored, unignored }`), without
  // `test`'s walk over the directories above it — src/git/ops/ignores.ts asks each directory above a path
  // itself, as a directory (`dir/`), against the rules of every ignore file that applies to it.
  igit = patch(
    igit,
    "ignore test",
    "      test(path) {\n        return this._test(path, this._testCache, true);\n      }\n",
    "      test(path) {\n        return this._test(path, this._testCache, true);\n      }\n      match(path) {\n        return this._testOne(path, true);\n      }\n",
  );
  // isomorphic-git keeps the parsed index in the client's cache and reads the file again only when its stats
  // changed — but took a MISSING index for an unchanged one: after `rm .git/index` (or `rm -rf .git; git init`)
  // the next command answered from, and the next commit recorded, the entries of the deleted index — blobs of
  // another repository (issue 20, twenty-second attack run). An index that appeared or disappeared since it was
  // read is now stale: a missing one is read again, as empty.
  igit = patch(
    igit,
    "isIndexStale",
    "  if (savedStats === null) return false;\n  const currStats = await fs.lstat(filepath);\n  if (currStats === null) return false;\n",
    "  const currStats = await fs.lstat(filepath);\n  if (savedStats === null || currStats === null) return savedStats !== currStats;\n",
  );
  igit = patch(igit, "ignore regexCache (declaration)", "    var regexCache = /* @__PURE__ */ Object.create(null);\n", "    var regexCache = /* @__PURE__ */ Object.create(null);\n    var regexCacheSize = 0;\n");
  igit = patch(
    igit,
    "GitIgnoreManager.isIgnored",
    "      if (index2 === 0) ign.add(excludes);\n      ign.add(file);\n",
    "      if (index2 === 0) ign.add(boundIgnoreRules(excludes));\n      ign.add(boundIgnoreRules(file));\n",
  );
  igit +=
    "\nvar IGNORE_MAX_WILDCARD_RUNS = 3;\n" +
    "function boundIgnoreRules(text) {\n" +
    "  if (typeof text !== \"string\") return text;\n" +
    "  return text.split(/\\r?\\n/).map(boundIgnoreRule).join(\"\\n\");\n" +
    "}\n" +
    "function boundIgnoreRule(line) {\n" +
    "  if (line.startsWith(\"#\") || !line.includes(\"*\")) return line;\n" +
    "  const rule = line.replace(/(^!?|\\/)\\*\\*(?:\\/\\*\\*)+(?=\\/|\\s*$)/g, \"$1**\");\n" +
    "  let runs = 0;\n" +
    "  let star = false;\n" +
    "  for (let i = 0; i < rule.length; i++) {\n" +
    "    const c = rule[i];\n" +
    "    if (c === \"*\" && !star && ++runs > IGNORE_MAX_WILDCARD_RUNS) return \"\";\n" +
    "    star = c === \"*\";\n" +
    "    if (c === \"\\\\\") i++;\n" +
    "  }\n" +
    "  return rule;\n" +
    "}\n";
  // The walk of status, add, diff, clean and stash (src/git/ops/walk.ts, WorktreeIgnores) decides
  // ignores itself with each ignore file parsed ONCE per operation — isIgnored re-read and re-parsed
  // every ancestor's .gitignore for every path (issue 20, thirteenth attack run: a 250-deep untracked
  // chain took 24 s, 20,000 rules × 100 files 5.9 s) — with the same `ignore` package and bounds.
  igit += "var createIgnore = import_ignore.default;\nexport { createIgnore, boundIgnoreRules };\n";
  // A fetch stored the remote-tracking refs (and .git/shallow) BEFORE the pack holding the objects
  // they name: `_fetch` updated the refs, then wrote objects/pack/pack-*.pack and its .idx. A crash
  // between (ctx.abort(), eviction) left refs/remotes/origin/main naming a commit the repository
  // did not have — log/diff/merge of origin/main failed until the next fetch (issue 20, ninth attack
  // run, part B). Real git indexes the pack first and updates refs last; so does this: the pack,
  // then its .idx (a pack without its .idx is never read), then shallow and the refs.
  const FETCH_RESPONSE = "  const response = await parseUploadPackResponse(raw.body);\n  if (raw.headers) {\n    response.headers = raw.headers;\n  }\n  for (const oid2 of response.shallows) {\n";
  const FETCH_PACK_READ = '  const packfile = Buffer2.from(await collect(response.packfile));\n  if (raw.body.error) throw raw.body.error;\n  const packfileSha = packfile.slice(-20).toString("hex");\n';
  const FETCH_PACK_WRITE =
    '  if (packfileSha !== "" && !emptyPackfile(packfile)) {\n    res.packfile = `objects/pack/pack-${packfileSha}.pack`;\n    const fullpath = join(gitdir, res.packfile);\n    await fs.write(fullpath, packfile);\n' +
    "    const getExternalRefDelta = (oid2) => _readObject({ fs, cache, gitdir, oid: oid2 });\n    const idx = await GitPackIndex.fromPack({\n      pack: packfile,\n      getExternalRefDelta,\n      onProgress\n    });\n" +
    '    await fs.write(fullpath.replace(/\\.pack$/, ".idx"), await idx.toBuffer());\n  }\n  return res;\n}\n';
  igit = patch(igit, "_fetch (pack after the refs)", FETCH_PACK_WRITE, "  if (packfilePath) res.packfile = packfilePath;\n  return res;\n}\n");
  igit = patch(igit, "_fetch (pack read)", FETCH_PACK_READ + "  const res = {\n", "  const res = {\n");
  igit = patch(
    igit,
    "_fetch (response)",
    FETCH_RESPONSE,
    FETCH_RESPONSE.replace(/  for \(const oid2 of response\.shallows\) \{\n$/, "") +
      FETCH_PACK_READ +
      "  let packfilePath;\n" +
      FETCH_PACK_WRITE.replace("  return res;\n}\n", "").replaceAll("res.packfile", "packfilePath") +
      "  for (const oid2 of response.shallows) {\n",
  );
  // A path one side made a file (or link) and the other a directory, both changed from the base (or both
  // added), is a file/directory conflict, as git's CONFLICT (file/directory): isomorphic-git had no case
  // for it and failed with a raw ObjectTypeError (`Object … was anticipated to be a blob but it is a
  // tree`) or MergeNotSupportedError, naming no path (issue 20, run 31, attacker c's odd list).
  igit = patch(
    igit,
    "mergeTree (file/directory conflict)",
    "      const ourChange = await modified(ours, base);\n      const theirChange = await modified(theirs, base);\n      switch (`${ourChange}-${theirChange}`) {\n",
    "      const ourChange = await modified(ours, base);\n      const theirChange = await modified(theirs, base);\n" +
      "      if (ours && theirs && (await ours.type() === \"tree\") !== (await theirs.type() === \"tree\")) {\n" +
      "        const same = async (e) => base !== null && base !== void 0 && await e.type() === await base.type() && await e.oid() === await base.oid();\n" +
      "        if (!await same(ours) && !await same(theirs)) {\n          unmergedFiles.push(filepath);\n          bothModified.push(filepath);\n" +
      "          return { mode: await ours.mode(), path, oid: await ours.oid(), type: await ours.type() };\n        }\n      }\n" +
      "      switch (`${ourChange}-${theirChange}`) {\n",
  );
  // A three-way merge of a file both sides changed read each side as UTF-8 and wrote the result back as
  // UTF-8: a byte that is not UTF-8 on a line neither side touched became U+FFFD's three bytes, silently,
  // and a file with a NUL (binary to git) was merged as text (issue 20, run 31, lead, from fixer ST's
  // report). The driver now gets one code unit per byte (a CR as U+E000: isomorphic-git's mergeFile
  // splits lines at a lone CR and drops it; git's xdiff keeps it in its line) — as stash pop reads them —
  // the result is written back byte for byte, and a binary side (git's buffer_is_binary: a NUL in the
  // first 8,000 bytes) is a conflict.
  igit = patch(
    igit,
    "mergeBlobs (base bytes)",
    '    baseContent = Buffer2.from(await base.content()).toString("utf8");\n',
    '    baseContent = await base.content();\n',
  );
  igit = patch(
    igit,
    "mergeBlobs (sides' bytes)",
    '  const ourContent = Buffer2.from(await ours.content()).toString("utf8");\n  const theirContent = Buffer2.from(await theirs.content()).toString("utf8");\n',
    '  const ourBytes = await ours.content();\n  const theirBytes = await theirs.content();\n' +
      '  if ([baseContent, ourBytes, theirBytes].some((b) => typeof b !== "string" && __mergeIsBinary(b))) {\n' +
      '    return { cleanMerge: false, mergeResult: { mode, path, oid: await ours.oid(), type } };\n  }\n' +
      '  baseContent = typeof baseContent === "string" ? baseContent : __mergeByteText(baseContent);\n' +
      '  const ourContent = __mergeByteText(ourBytes);\n  const theirContent = __mergeByteText(theirBytes);\n',
  );
  igit = patch(igit, "mergeBlobs (result bytes)", '    object: Buffer2.from(mergedText, "utf8"),\n', "    object: __mergeTextBytes(mergedText),\n");
  igit +=
    "function __mergeIsBinary(bytes) {\n  const end = Math.min(bytes.length, 8000);\n  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;\n  return false;\n}\n" +
    "function __mergeByteText(bytes) {\n  let out = \"\";\n  for (let i = 0; i < bytes.length; i += 32768) out += String.fromCharCode(...bytes.subarray(i, i + 32768));\n  return out.replaceAll(\"\\r\", \"\\ue000\");\n}\n" +
    // A code unit past 255 comes only from the driver's own text (a conflict marker's branch name): UTF-8.
    "function __mergeTextBytes(text) {\n  if (!/[^\\x00-\\xff\\ue000]/.test(text)) {\n    const out = Buffer2.alloc(text.length);\n    for (let i = 0; i < text.length; i++) {\n      const code = text.charCodeAt(i);\n      out[i] = code === 57344 ? 13 : code;\n    }\n    return out;\n  }\n" +
    "  const parts = [];\n  for (const ch of text) parts.push(ch === \"\\ue000\" ? Buffer2.from([13]) : ch.charCodeAt(0) <= 255 ? Buffer2.from([ch.charCodeAt(0)]) : Buffer2.from(ch, \"utf8\"));\n  return Buffer2.concat(parts);\n}\n";
  // A receive-pack report-status is read as git's send-pack reads it: after `unpack <error>` every ref
  // failed ("unpacker error"), and a ref the report does not name failed ("remote failed to report
  // status"). isomorphic-git read `result.refs[ref].ok` of a ref missing from the report (a push
  // answered `unpack ok` alone failed "Cannot read properties of undefined (reading 'ok')"), and
  // listed a ref `ok` under a failed unpack (issue 20, thirtieth attack run, left alone; run 31).
  igit = patch(
    igit,
    "_push (report-status)",
    "  const result = await parseReceivePackResponse(packfile);\n",
    "  const result = await parseReceivePackResponse(packfile);\n" +
      '  if (!result.ok) for (const name of Object.keys(result.refs)) result.refs[name] = { ok: false, error: "unpacker error" };\n' +
      '  if (!Object.prototype.hasOwnProperty.call(result.refs, fullRemoteRef)) result.refs[fullRemoteRef] = { ok: false, error: result.ok ? "remote failed to report status" : "unpacker error" };\n',
  );
  // isomorphic-git stages one path per call (`updateIndex`), and each call writes the whole index
  // again: a checkout of N files wrote it N times (N^2 bytes), and a crash in the middle of one left
  // the index half moved — staged changes real git never shows after a crashed checkout, whose
  // index is written once, at the end (issue 20: a ctx.abort() mid checkout left `M. f0.txt`).
  // `updateIndexMany` applies many updates under one acquisition of the index, written once:
  //   { filepath, remove: true }         — the entry goes (if there is one);
  //   { filepath, oid, mode }            — the entry, with zero stats (as updateIndex with an oid:
  //                                        status compares the file's content);
  //   { filepath, oid, mode, stats }     — the entry, with `stats` (an lstat of the file the caller
  //                                        took when it knew the file held `oid`: right after writing
  //                                        it, or before hashing it — so a later write by anyone
  //                                        else changes the file's stats and status sees it).
  igit +=
    "\nasync function updateIndexMany({ fs: _fs, dir, gitdir = join(dir, \".git\"), cache = {}, updates }) {\n" +
    "  const fs = new FileSystem(_fs);\n" +
    "  const updatedGitdir = await discoverGitdir({ fsp: fs, dotgit: gitdir });\n" +
    "  await GitIndexManager.acquire({ fs, gitdir: updatedGitdir, cache }, async function(index2) {\n" +
    "    for (const { filepath, remove, oid, mode, stats: given } of updates) {\n" +
    "      if (remove) {\n" +
    "        if (index2.has({ filepath })) index2.delete({ filepath });\n" +
    "        continue;\n" +
    "      }\n" +
    "      const stats = given || { ctime: new Date(0), mtime: new Date(0), dev: 0, ino: 0, mode, uid: 0, gid: 0, size: 0 };\n" +
    "      index2.insert({ filepath, oid, stats });\n" +
    "    }\n" +
    "  });\n" +
    "}\n" +
    "export { updateIndexMany };\n";
  // Indexing a downloaded pack (GitPackIndex.fromPack: clone, fetch, pull) inflated and resolved every delta
  // with no bound on the bytes it made and kept, and never looked at the operation's signal: a 9 KB pack of
  // 40 one-byte deltas on an 8 MiB blob grew memory by 397 MiB, and a clone aborted while indexing settled
  // 10–31 s later (issue 20, seventeenth attack run). Now:
  //   - fromPack takes `bounds` (the operation's, found in its cache under `PackIndexBounds`; see
  //     src/git/operation.ts): `bounds.charge(bytes)` is called with every object it inflates and every
  //     delta it resolves, and throws once the sum passes GIT_MAX_INDEX_INFLATE_BYTES or the signal aborted;
  //     the resolve loop no longer swallows that error (`bounds.stopped`);
  //   - readSlice's offsetCache (resolved objects, kept for the index's life) is an LRU of at most
  //     `packLimits.offsetCacheBytes` (GIT_PACK_DELTA_CACHE_BYTES, set by src/git/load.ts); while indexing it
  //     keeps every object it resolves (within that bound), so a chain of deltas is resolved once per link,
  //     not once per link per object; an object larger than the bound is kept too while indexing, the last
  //     one alone (`large`, at most GIT_MAX_OBJECT_BYTES), so a chain on a blob over 16 MiB is resolved once
  //     per link as well (dropped, each link was rebuilt from the base and charged again: a 6 MiB pack of
  //     nine versions of a 17.5 MiB file passed GIT_MAX_INDEX_INFLATE_BYTES — issue 20, eighteenth attack run);
  //   - a pack an operation let go of (its `pack` set back to null, src/git/operation.ts) is read again by
  //     readSlice when a read needs it (`reloadPack`, set by readObjectPacked).
  igit = patch(igit, "GitPackIndex constructor", "    Object.assign(this, stuff);\n    this.offsetCache = {};\n", "    Object.assign(this, stuff);\n    this.offsetCache = new OffsetCache(packLimits.offsetCacheBytes);\n");
  igit = patch(
    igit,
    "GitPackIndex.readSlice (cache read)",
    "    if (this.offsetCache[start]) {\n      return Object.assign({}, this.offsetCache[start]);\n    }\n",
    "    const cached = this.offsetCache.get(start);\n    if (cached) {\n      return Object.assign({}, cached);\n    }\n",
  );
  igit = patch(
    igit,
    "GitPackIndex.readSlice (pack)",
    "    const pack = await this.pack;\n    if (!pack) {\n",
    "    let pack = await this.pack;\n    if (!pack && this.reloadPack) pack = await (this.pack = this.reloadPack());\n    if (!pack) {\n",
  );
  igit = patch(
    igit,
    "GitPackIndex.readSlice (inflate)",
    "    const buffer = raw.slice(reader.tell());\n    object = Buffer2.from(await inflate2(buffer));\n",
    "    const buffer = raw.slice(reader.tell());\n    if (this.bounds) this.bounds.charge(length);\n    object = Buffer2.from(await inflate2(buffer));\n",
  );
  igit = patch(
    igit,
    "GitPackIndex.readSlice (resolve)",
    "    if (base) {\n      object = Buffer2.from(applyDelta(object, base));\n    }\n    if (this.readDepth > 3) {\n      this.offsetCache[start] = { type, object };\n    }\n",
    "    if (base) {\n      object = Buffer2.from(applyDelta(object, base));\n      if (this.bounds) this.bounds.charge(object.byteLength);\n    }\n    if (this.readDepth > 3 || this.indexing) {\n      this.offsetCache.set(start, { type, object });\n    }\n",
  );
  igit = patch(igit, "GitPackIndex.fromPack (signature)", "  static async fromPack({ pack, getExternalRefDelta, onProgress }) {\n", "  static async fromPack({ pack, getExternalRefDelta, onProgress, bounds }) {\n");
  igit = patch(
    igit,
    "GitPackIndex.fromPack (listpack)",
    "      const resolved = resolveInflated(\n        { type, data, reference, offset },\n        cache,\n        offsetByOid\n      );\n      if (!resolved) return;\n",
    "      if (bounds) bounds.charge(data.byteLength);\n      const resolved = resolveInflated(\n        { type, data, reference, offset },\n        cache,\n        offsetByOid\n      );\n      if (!resolved) return;\n      if (bounds && (type === \"ofs-delta\" || type === \"ref-delta\")) bounds.charge(resolved.object.byteLength);\n",
  );
  igit = patch(
    igit,
    "GitPackIndex.fromPack (resolve loop)",
    "    lastPercent = null;\n    let count = 0;\n    const objectsByDepth = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];\n    for (let offset in offsetToObject) {\n      offset = Number(offset);\n",
    "    cache.map.clear();\n    cache.bytes = 0;\n    p.bounds = bounds;\n    p.indexing = true;\n    p.offsetCache.keepLarge = true;\n    lastPercent = null;\n    let count = 0;\n    const objectsByDepth = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];\n    for (let offset in offsetToObject) {\n      offset = Number(offset);\n      if (bounds) bounds.charge(0);\n",
  );
  igit = patch(
    igit,
    "GitPackIndex.fromPack (resolve errors)",
    "          o.oid = await shasum(GitObject.wrap({ type, object }));\n        } catch (err) {\n          continue;\n        }\n",
    "          o.oid = await shasum(GitObject.wrap({ type, object }));\n        } catch (err) {\n          if (bounds && bounds.stopped) throw bounds.stopped;\n          continue;\n        }\n",
  );
  igit = patch(
    igit,
    "GitPackIndex.fromPack (end)",
    "    hashes.sort();\n    return p;\n  }\n",
    "    hashes.sort();\n    delete p.bounds;\n    p.indexing = false;\n    p.offsetCache.keepLarge = false;\n    p.offsetCache.clear();\n    return p;\n  }\n",
  );
  // FileSystem.read copied every file it read (`Buffer.from(uint8array)`): a 12 MiB pack was held twice
  // while read; the Buffer now views the bytes the fs gave (a fresh array per read), so it is made once.
  igit = patch(
    igit,
    "FileSystem.read (copy)",
    '    if (typeof buffer !== "string") {\n      buffer = Buffer2.from(buffer);\n    }\n    return buffer;\n',
    '    if (typeof buffer !== "string") {\n      buffer = buffer instanceof Uint8Array ? Buffer2.from(buffer.buffer, buffer.byteOffset, buffer.byteLength) : Buffer2.from(buffer);\n    }\n    return buffer;\n',
  );
  const FROM_PACK_CALL = "      getExternalRefDelta,\n      onProgress\n    });\n";
  if (igit.split(FROM_PACK_CALL).length !== 3) throw new Error("gen-git: isomorphic-git's calls of GitPackIndex.fromPack changed; update the patch in scripts/gen-git.mjs");
  igit = igit.replaceAll(FROM_PACK_CALL, "      getExternalRefDelta,\n      onProgress,\n      bounds: cache ? cache[PackIndexBounds] : void 0\n    });\n");
  igit = patch(
    igit,
    "readObjectPacked (pack read)",
    '      const packFile = indexFile.replace(/idx$/, "pack");\n      if (!p.pack) {\n',
    '      const packFile = indexFile.replace(/idx$/, "pack");\n      p.reloadPack = () => fs.read(packFile);\n      if (!p.pack) {\n',
  );
  // `add` of many paths read, hashed and deflated every one at once: addToIndex mapped its list of
  // paths with Promise.all whatever `parallel` said (the option only covered a directory's
  // children), so `git add .` of 8 new 12 MiB files grew memory by ~190 MiB (issue 20, nineteenth
  // attack run). With `parallel: false` (src/git/ops/repo.ts add) the paths are now added one after
  // another too — one file held at a time — with the same outcome: every path is tried, the errors
  // collected as before (one rethrown, several as a MultipleGitError), the index written once.
  igit = patch(
    igit,
    "addToIndex (paths)",
    "  filepath = Array.isArray(filepath) ? filepath : [filepath];\n  const promises = filepath.map(async (currentFilepath) => {\n",
    "  filepath = Array.isArray(filepath) ? filepath : [filepath];\n  const addOne = async (currentFilepath) => {\n",
  );
  igit = patch(
    igit,
    "addToIndex (settle)",
    "      index2.insert({ filepath: currentFilepath, stats, oid });\n    }\n  });\n  const settledPromises = await Promise.allSettled(promises);\n",
    "      index2.insert({ filepath: currentFilepath, stats, oid });\n    }\n  };\n" +
      "  const settledPromises = parallel ? await Promise.allSettled(filepath.map(addOne)) : [];\n" +
      "  if (!parallel) {\n    for (const currentFilepath of filepath) {\n" +
      '      settledPromises.push(await addOne(currentFilepath).then((value) => ({ status: "fulfilled", value }), (reason) => ({ status: "rejected", reason })));\n' +
      "    }\n  }\n",
  );
  // With core.autocrlf=true, FileSystem.read decoded a file with a default TextDecoder, which drops a
  // leading U+FEFF: `git add` stored a BOM file without its BOM (issue 20, scout after the twentieth run).
  igit = patch(
    igit,
    "FileSystem.read (autocrlf)",
    '        buffer = new TextDecoder("utf8", { fatal: true }).decode(buffer);\n',
    '        buffer = new TextDecoder("utf8", { fatal: true, ignoreBOM: true }).decode(buffer);\n',
  );
  // A clone's checkout read and wrote every file of the tree at once (one Promise.allSettled over all
  // of them), so 10 files of 12 MiB held ~95 MiB together (issue 20, nineteenth attack run's leads).
  // They are now written one after another, with the same outcome: every file tried, the errors
  // collected and thrown as before.
  igit = patch(
    igit,
    "checkout (settle)",
    "          const settled = await Promise.allSettled(\n            ops.filter(\n",
    "          const settled = await settleInOrder(\n            ops.filter(\n",
  );
  igit = patch(
    igit,
    "checkout (each)",
    "            ).map(async function([method, fullpath, oid2, mode, chmod]) {\n              const filepath = `${dir}/${fullpath}`;",
    "            ),\n            async function([method, fullpath, oid2, mode, chmod]) {\n              const filepath = `${dir}/${fullpath}`;",
  );
  igit = patch(
    igit,
    "checkout (end)",
    "                  loaded: ++count,\n                  total\n                });\n              }\n            })\n          );\n          const rejections = [];\n",
    "                  loaded: ++count,\n                  total\n                });\n              }\n            }\n          );\n          const rejections = [];\n",
  );
  igit +=
    "\nasync function settleInOrder(items, run) {\n  const settled = [];\n" +
    '  for (const item of items) settled.push(await run(item).then((value) => ({ status: "fulfilled", value }), (reason) => ({ status: "rejected", reason })));\n' +
    "  return settled;\n}\n";
  // push counts toward maxPushBytes only the objects it packs (src/git/operation.ts pushBoundedFs):
  // listObjects also reads the trees of the merge base and of the remote's HEAD, which are not sent.
  // _pack tells the operation's cache when packing starts.
  igit = patch(
    igit,
    "_pack (start)",
    '  write("PACK");\n  write("00000002", "hex");\n',
    '  if (cache && typeof cache[PushPackStart] === "function") cache[PushPackStart]();\n  write("PACK");\n  write("00000002", "hex");\n',
  );
  igit +=
    '\nvar PushPackStart = /* @__PURE__ */ Symbol("PushPackStart");\n' +
    '\nvar PackIndexBounds = /* @__PURE__ */ Symbol("PackIndexBounds");\n' +
    "var packLimits = { offsetCacheBytes: 16 * 1024 * 1024 };\n" +
    "var OffsetCache = class {\n" +
    "  constructor(maxBytes) {\n    this.maxBytes = maxBytes;\n    this.bytes = 0;\n    this.map = /* @__PURE__ */ new Map();\n  }\n" +
    "  get(key) {\n    const value = this.map.get(key);\n    if (value !== void 0) {\n      this.map.delete(key);\n      this.map.set(key, value);\n    }\n    if (value === void 0 && this.large && this.large.key === key) return this.large.value;\n    return value;\n  }\n" +
    "  set(key, value) {\n    const old = this.map.get(key);\n    if (old !== void 0) {\n      this.map.delete(key);\n      this.bytes -= old.object.byteLength;\n    }\n" +
    "    const size = value.object.byteLength;\n    if (size > this.maxBytes) {\n      if (this.keepLarge) this.large = { key, value };\n      return;\n    }\n    this.map.set(key, value);\n    this.bytes += size;\n" +
    "    for (const [oldKey, entry] of this.map) {\n      if (this.bytes <= this.maxBytes) break;\n      this.map.delete(oldKey);\n      this.bytes -= entry.object.byteLength;\n    }\n  }\n" +
    "  clear() {\n    this.map.clear();\n    this.bytes = 0;\n    this.large = void 0;\n  }\n" +
    "};\n" +
    "export { packLimits };\n";
  // isomorphic-git's own merge driver (diff3 of the three versions), exported so the merge in
  // src/git/ops/worktree.ts can bound its cost first: diff3's search is O(N·D) with no limit, and
  // a file both branches rewrote (4,000 lines) took 15.6 s of one synchronous call (issue 20,
  // ninth attack run). The caller runs it only when both changes are within GIT_DIFF_MAX_EDIT_LENGTH.
  // Pack deltas are read as git reads them (issue 20, thirtieth attack run): an ofs-delta whose base offset was 0 // GP
  // (itself) sent readSlice into an endless async recursion — a clone never settled, its timeoutMs and signal unseen, // GP
  // the isolate's event loop starved — and a delta's result was never held to GIT_MAX_OBJECT_BYTES: a 300-byte delta // GP
  // on a 1 MiB blob made a 100 MiB object that cat-file and checkout built whole. Now: // GP
  //   - applyDelta is git's patch_delta: it reads the declared base and result sizes (exact varints), refuses a // GP
  //     result over GIT_MAX_OBJECT_BYTES (objectTooLarge) before it allocates, a base whose size is not the declared // GP
  //     one, a copy past the base's end, an insert past the delta's end, opcode 0, and a result not exactly the // GP
  //     declared size ("delta replay has gone wild"); // GP
  //   - an ofs-delta's base must lie strictly before it and after the pack header (git: "delta base offset is out // GP
  //     of bound"); an object's offset must lie inside the pack's objects; // GP
  //   - each read of a delta chain carries the chain (a set of pack + offset, passed through ref-deltas and through // GP
  //     reads of other packs): a base met twice is refused as a cycle, a chain deeper than GIT_MAX_DELTA_DEPTH // GP
  //     (10,000) is refused, and while a download is indexed each step charges the operation's bounds (its signal); // GP
  //   - indexing a download (fromPack) fails on an object it cannot resolve, as git's index-pack does, instead of // GP
  //     leaving it out of the index; a pack that ends before its objects do is refused ("pack is truncated"). // GP
  igit = patch( // GP
    igit, // GP
    "applyDelta", // GP
    igit.slice(igit.indexOf("function applyDelta(delta, source) {\n"), igit.indexOf("function readVarIntLE(reader) {\n")), // GP
    "function applyDelta(delta, source) {\n  return patchDelta(delta, source);\n}\n", // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "resolveInflated (ofs base)", // GP
    '  const baseOffset = type === "ofs-delta" ? offset - decodeVarInt(new BufferCursor(reference)) : offsetByOid.get(reference.toString("hex"));\n', // GP
    '  const baseOffset = type === "ofs-delta" ? ofsDeltaBaseOrNull(reference, offset) : offsetByOid.get(reference.toString("hex"));\n', // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "GitPackIndex.read (chain)", // GP
    "  async read({ oid }) {\n    if (!this.offsets.get(oid)) {\n      if (this.getExternalRefDelta) {\n        this.externalReadDepth++;\n        return this.getExternalRefDelta(oid);\n", // GP
    "  async read({ oid, chain }) {\n    if (!this.offsets.get(oid)) {\n      if (this.getExternalRefDelta) {\n        this.externalReadDepth++;\n        return this.getExternalRefDelta(oid, chain);\n", // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "GitPackIndex.read (slice)", // GP
    "    const start = this.offsets.get(oid);\n    return this.readSlice({ start });\n  }\n  async readSlice({ start }) {\n", // GP
    "    const start = this.offsets.get(oid);\n    return this.readSlice({ start, chain });\n  }\n  async readSlice({ start, chain }) {\n    chain = enterDeltaChain(this, start, chain);\n", // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "GitPackIndex.readSlice (offset)", // GP
    "    const raw = pack.slice(start);\n    const reader = new BufferCursor(raw);\n", // GP
    "    if (!(Number.isInteger(start) && start >= 12 && start < pack.byteLength - 20)) throw badPackObject(start, \"the offset is outside the pack's objects\");\n    const raw = pack.slice(start);\n    const reader = new BufferCursor(raw);\n", // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "GitPackIndex.readSlice (bases)", // GP
    '      const offset = decodeVarInt(reader);\n      const baseOffset = start - offset;\n      ({ object: base, type } = await this.readSlice({ start: baseOffset }));\n    }\n    if (type === "ref_delta") {\n      const oid = reader.slice(20).toString("hex");\n      ({ object: base, type } = await this.read({ oid }));\n', // GP
    '      const baseOffset = readOfsDeltaBase(reader, start);\n      ({ object: base, type } = await this.readSlice({ start: baseOffset, chain }));\n    }\n    if (type === "ref_delta") {\n      const oid = reader.slice(20).toString("hex");\n      ({ object: base, type } = await this.read({ oid, chain }));\n', // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "GitPackIndex.readSlice (apply)", // GP
    "      object = Buffer2.from(applyDelta(object, base));\n      if (this.bounds) this.bounds.charge(object.byteLength);\n", // GP
    "      try {\n        object = applyDelta(object, base);\n      } catch (err) {\n        throw err instanceof InternalError ? badPackObject(start, err.message) : err;\n      }\n      if (this.bounds) this.bounds.charge(object.byteLength);\n", // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "GitPackIndex.fromPack (unresolved)", // GP
    "        } catch (err) {\n          if (bounds && bounds.stopped) throw bounds.stopped;\n          continue;\n        }\n", // GP
    "        } catch (err) {\n          if (bounds && bounds.stopped) throw bounds.stopped;\n          throw unresolvedPackObject(err, offset);\n        }\n", // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "listpack (objects left)", // GP
    "  while (!reader.eof() && numObjects--) {\n    const offset = reader.tell();\n", // GP
    "  const packBytes = Array.isArray(stream) ? stream.reduce((sum, b) => sum + b.byteLength, 0) : Infinity;\n  while (!reader.eof() && numObjects--) {\n    const offset = reader.tell();\n" + // GP
      "    if (offset + 20 >= packBytes) throw new InternalError(`pack is truncated: ${numObjects + 1} of its objects are missing`);\n", // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "listpack (truncated object)", // GP
    "      const chunk = await reader.chunk();\n      if (!chunk) break;\n", // GP
    "      const chunk = await reader.chunk();\n      if (!chunk) throw new InternalError(`pack is truncated: it ends inside the object at offset ${offset}`);\n", // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "listpack (truncated pack)", // GP
    "        await onData({\n          data: inflator.result,\n          type,\n          num: numObjects,\n          offset,\n          end,\n          reference,\n          ofs\n        });\n      }\n    }\n  }\n}\n", // GP
    "        await onData({\n          data: inflator.result,\n          type,\n          num: numObjects,\n          offset,\n          end,\n          reference,\n          ofs\n        });\n      }\n    }\n  }\n  if (numObjects > 0) throw new InternalError(`pack is truncated: ${numObjects} of its objects are missing`);\n}\n", // GP
  ); // GP
  { // GP
    const EXTERNAL = ["(oid2) => _readObject({ fs, cache, gitdir, oid: oid2 })", "(oid) => _readObject({ fs, cache, gitdir, oid })"]; // GP
    const found = EXTERNAL.map((text) => igit.split(text).length - 1); // GP
    if (found[0] !== 3 || found[1] !== 2) throw new Error("gen-git: isomorphic-git's getExternalRefDelta closures changed; update the GP patch in scripts/gen-git.mjs"); // GP
    igit = igit.replaceAll(EXTERNAL[0], "(oid2, chain) => _readObject({ fs, cache, gitdir, oid: oid2, deltaChain: chain })"); // GP
    igit = igit.replaceAll(EXTERNAL[1], "(oid, chain) => _readObject({ fs, cache, gitdir, oid, deltaChain: chain })"); // GP
  } // GP
  igit = patch( // GP
    igit, // GP
    "_readObject (chain)", // GP
    '  oid,\n  format = "content"\n}) {\n  if (!["deflated", "wrapped", "content"].includes(format)) {\n', // GP
    '  oid,\n  format = "content",\n  deltaChain\n}) {\n  if (!["deflated", "wrapped", "content"].includes(format)) {\n', // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "_readObject (packed)", // GP
    "    result = await readObjectPacked({\n      fs,\n      cache,\n      gitdir,\n      oid,\n      getExternalRefDelta\n    });\n", // GP
    "    result = await readObjectPacked({\n      fs,\n      cache,\n      gitdir,\n      oid,\n      getExternalRefDelta,\n      deltaChain\n    });\n", // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "readObjectPacked (chain)", // GP
    '  format = "content",\n  getExternalRefDelta\n}) {\n  let list = await fs.readdir(join(gitdir, "objects/pack"));\n', // GP
    '  format = "content",\n  getExternalRefDelta,\n  deltaChain\n}) {\n  let list = await fs.readdir(join(gitdir, "objects/pack"));\n', // GP
  ); // GP
  igit = patch( // GP
    igit, // GP
    "readObjectPacked (read)", // GP
    "      const result = await p.read({ oid, getExternalRefDelta });\n", // GP
    "      const result = await p.read({ oid, getExternalRefDelta, chain: deltaChain });\n", // GP
  ); // GP
  igit += // GP
    "\nvar deltaLimits = {\n  maxObjectBytes: 64 * 1024 * 1024,\n  maxDepth: 1e4,\n" + // GP
    "  objectTooLarge: (size) => `object too large: it inflates to ${size} bytes, over the limit of ${deltaLimits.maxObjectBytes} bytes`\n};\n" + // GP
    "function badPackObject(start, why) {\n  return new InternalError(`pack has bad object at offset ${start}: ${why}`);\n}\n" + // GP
    "function enterDeltaChain(index, start, chain) {\n  if (index.bounds) index.bounds.charge(0);\n" + // GP
    "  if (!chain) {\n    chain = /* @__PURE__ */ new Set();\n    chain.top = start;\n  }\n  const key = `${index.packfileSha}:${start}`;\n" + // GP
    '  if (chain.has(key)) throw badPackObject(start, "delta base cycle: the object is a delta on itself");\n' + // GP
    "  if (chain.size > deltaLimits.maxDepth) throw badPackObject(chain.top, `delta chain deeper than ${deltaLimits.maxDepth} deltas (GIT_MAX_DELTA_DEPTH)`);\n" + // GP
    "  chain.add(key);\n  return chain;\n}\n" + // GP
    "function readOfsDeltaBase(reader, start) {\n  let c = reader.readUInt8();\n  let distance = c & 127;\n" + // GP
    "  while (c & 128) {\n    c = reader.readUInt8();\n    distance = (distance + 1) * 128 + (c & 127);\n  }\n" + // GP
    "  const base = start - distance;\n" + // GP
    '  if (!(distance > 0 && base >= 12)) throw badPackObject(start, "delta base offset is out of bound");\n  return base;\n}\n' + // GP
    "function ofsDeltaBaseOrNull(reference, start) {\n  try {\n    return readOfsDeltaBase(new BufferCursor(reference), start);\n  } catch {\n    return null;\n  }\n}\n" + // GP
    "function unresolvedPackObject(err, offset) {\n" + // GP
    '  if (err && typeof err.message === "string" && /^(pack has bad object|object too large)/.test(err.message)) return err;\n' + // GP
    '  if (err && err.code === "NotFoundError") return badPackObject(offset, `its delta base ${err.data && err.data.what} is neither in the pack nor in the repository`);\n' + // GP
    "  return badPackObject(offset, err && err.message ? err.message : String(err));\n}\n" + // GP
    "function readDeltaSize(delta, pos) {\n  let size = 0;\n  let scale = 1;\n  let c;\n  do {\n" + // GP
    '    if (pos.at >= delta.byteLength) throw new InternalError("failed to apply delta: its header is cut short");\n' + // GP
    "    c = delta[pos.at++];\n    size += (c & 127) * scale;\n    scale *= 128;\n  } while (c & 128);\n  return size;\n}\n" + // GP
    "function patchDelta(delta, source) {\n" + // GP
    '  const wild = () => new InternalError("failed to apply delta: delta replay has gone wild");\n' + // GP
    "  const top = delta.byteLength;\n  const pos = { at: 0 };\n" + // GP
    '  if (top < 4) throw new InternalError("failed to apply delta: the delta is shorter than 4 bytes");\n' + // GP
    "  const sourceSize = readDeltaSize(delta, pos);\n" + // GP
    "  if (sourceSize !== source.byteLength) throw new InternalError(`failed to apply delta: it is based on ${sourceSize} bytes but its base has ${source.byteLength}`);\n" + // GP
    "  const size = readDeltaSize(delta, pos);\n" + // GP
    "  if (size > deltaLimits.maxObjectBytes) throw new Error(deltaLimits.objectTooLarge(size));\n" + // GP
    "  const target = Buffer2.allocUnsafe(size);\n  let out = 0;\n" + // GP
    "  while (pos.at < top) {\n    const cmd = delta[pos.at++];\n    if (cmd & 128) {\n      let off = 0;\n      let len = 0;\n" + // GP
    "      for (let i = 0; i < 4; i++) {\n        if (!(cmd & 1 << i)) continue;\n        if (pos.at >= top) throw wild();\n        off += delta[pos.at++] * 2 ** (8 * i);\n      }\n" + // GP
    "      for (let i = 0; i < 3; i++) {\n        if (!(cmd & 16 << i)) continue;\n        if (pos.at >= top) throw wild();\n        len += delta[pos.at++] * 2 ** (8 * i);\n      }\n" + // GP
    "      if (len === 0) len = 65536;\n      if (off + len > source.byteLength || len > size - out) throw wild();\n" + // GP
    "      target.set(source.subarray(off, off + len), out);\n      out += len;\n" + // GP
    "    } else if (cmd) {\n      if (cmd > size - out || cmd > top - pos.at) throw wild();\n" + // GP
    "      target.set(delta.subarray(pos.at, pos.at + cmd), out);\n      pos.at += cmd;\n      out += cmd;\n" + // GP
    '    } else {\n      throw new InternalError("failed to apply delta: unexpected delta opcode 0");\n    }\n  }\n' + // GP
    "  if (out !== size) throw wild();\n  return target;\n}\n" + // GP
    "export { deltaLimits };\n"; // GP
  if (!/\nfunction mergeFile\(\{ branches, contents \}\) \{\n/.test(igit)) throw new Error("gen-git: isomorphic-git's mergeFile changed; update scripts/gen-git.mjs");
  igit += "export { mergeFile };\n";
  mkdirSync(outDir, { recursive: true });
  writeAtomic(join(outDir, "isomorphic-git.js"), header(hash) + igit);
  writeAtomic(
    join(outDir, "isomorphic-git.d.ts"),
    header(hash) +
      'export * from "isomorphic-git";\nexport { default } from "isomorphic-git";\n' +
      "/** Many index updates under one acquisition of the index, written once (scripts/gen-git.mjs). */\n" +
      "export declare function updateIndexMany(args: {\n" +
      '  fs: import("isomorphic-git").PromiseFsClient;\n' +
      "  dir: string;\n  gitdir?: string;\n  cache?: object;\n" +
      "  updates: readonly ({ filepath: string; remove: true } | { filepath: string; oid: string; mode: number; stats?: object; remove?: false })[];\n" +
      "}): Promise<void>;\n" +
      "/** A matcher of the `ignore` package (the one isomorphic-git's isIgnored uses), exported by scripts/gen-git.mjs. */\n" +
      "export declare function createIgnore(): { add(rules: string): unknown; ignores(path: string): boolean; test(path: string): { ignored: boolean; unignored: boolean }; match(path: string): { ignored: boolean; unignored: boolean } };\n" +
      "/** The rules of one ignore file with the bounds of scripts/gen-git.mjs applied (IGNORE_MAX_WILDCARD_RUNS). */\n" +
      "export declare function boundIgnoreRules(text: string): string;\n" +
      "/** Bounds of pack indexes, set by src/git/load.ts (scripts/gen-git.mjs): `offsetCacheBytes`, most bytes of resolved objects one pack index keeps. */\n" +
      "export declare const packLimits: { offsetCacheBytes: number };\n" +
      "/** Bounds of pack deltas, set by src/git/load.ts (scripts/gen-git.mjs, GP): the largest object a delta may make, its message, the deepest delta chain. */\n" + // GP
      "export declare const deltaLimits: { maxObjectBytes: number; objectTooLarge(size: number): string; maxDepth: number };\n" + // GP
      "/** isomorphic-git's default merge driver (diff3), exported by scripts/gen-git.mjs. */\n" +
      'export declare const mergeFile: import("isomorphic-git").MergeDriverCallback;\n',
  );
  writeAtomic(join(outDir, "http-web.js"), header(hash) + web);
  writeAtomic(
    join(outDir, "http-web.d.ts"),
    header(hash) + 'export * from "isomorphic-git/http/web";\nexport { default } from "isomorphic-git/http/web";\n',
  );
  writeAtomic(stamp, hash);
  console.error(`gen-git: isomorphic-git.js ${Math.round(igit.length / 1024)} KiB, http-web.js ${Math.round(web.length / 1024)} KiB`);
}
