#!/usr/bin/env node
// `node scripts/gen-shell.mjs [--force]`
//
// Builds what the shell backend's Dynamic Worker loads (spec 02 §6) and
// writes it as plain TypeScript modules of strings under
// src/shell/generated/ (git-ignored; this script makes them):
//
//   - <group>.ts for each command group (core, curl, html-to-markdown,
//     python, sqlite, js-exec, yq, file, xan, jq): `{ name, commands,
//     modules }`, the modules that group adds to the Worker's module map.
//   - runtime.ts: SHELL_RUNTIME_MODULES (stubs for optional native
//     packages just-bash names but a Worker cannot load).
//
// How: esbuild bundles src/backends/worker-shell/isolate/shell.ts (the
// ShellWorker entrypoint, which imports just-bash) with code splitting, so
// each just-bash command that just-bash loads lazily (`import("./chunks/
// jq-….js")`) stays its own chunk. A command belongs to the group named in
// GROUPS (else core); a group's modules are the static-import closure of its
// commands' chunks, less what core already has. The entry and everything it
// imports statically is core.
//
// just-bash's text encoder and stdin decoder are patched on the way in to
// keep bytes that are not UTF-8 (see justBashPatches; src/util/utf8-escape.ts).
//
// It is quick (~1 s) and skips work when its inputs (just-bash's version, this
// script, src/backends/worker-shell/**, src/fs/**, src/util/**) are unchanged;
// prepare, prebuild, pretest, prestart and prebench run it.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { init, parse } from "es-module-lexer";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const isolateDir = join(root, "src/backends/worker-shell/isolate");
const backendDir = join(root, "src/backends/worker-shell");
const outDir = join(root, "src/shell/generated");
const justBashDir = join(root, "node_modules/just-bash");
/** The surrogateescape UTF-8 codec just-bash's text encoder and stdin decoder are patched to call (see justBashPatches). */
const utf8EscapeModule = join(root, "src/util/utf8-escape.ts");

/** Commands outside core, by group (spec 02 §6). Every other just-bash command is core. */
export const GROUPS = {
  curl: ["curl"],
  "html-to-markdown": ["html-to-markdown"],
  python: ["python3", "python"],
  sqlite: ["sqlite3"],
  "js-exec": ["js-exec", "node"],
  yq: ["yq"],
  file: ["file"],
  xan: ["xan"],
  jq: ["jq"],
};
/**
 * Groups whose commands just-bash runs in a Node worker thread (Pyodide,
 * sql.js, QuickJS), which a Dynamic Worker does not have: they ship no
 * modules, and their commands print this reason and exit 127.
 */
const UNAVAILABLE = {
  python: "python3 is not available in the Worker shell: just-bash runs Python in a Node worker thread, which a Dynamic Worker does not have. Use a container backend for Python.",
  sqlite: "sqlite3 is not available in the Worker shell: just-bash runs SQLite in a Node worker thread, which a Dynamic Worker does not have. Use a container backend, or query from the worker-javascript backend.",
  "js-exec": "js-exec is not available in the Worker shell: just-bash runs it in a Node worker thread, which a Dynamic Worker does not have. Run JavaScript with the worker-javascript backend.",
};
/** Packages just-bash imports that a Worker cannot load (native or optional); each gets a stub that throws when used. */
const STUBBED = ["seek-bzip", "@mongodb-js/zstd", "node-liblzma"];
/**
 * just-bash chunks loaded by import() that the shell never needs, left out of
 * every group: flag-coverage (a fuzzing aid that imports every command) and
 * undici (Node's fetch; in a Worker, curl gets the isolate's fetch).
 */
const LEFT_OUT = [/^flag-coverage-/, /^undici-/];

function inputsHash() {
  const h = createHash("sha256");
  h.update(readFileSync(join(justBashDir, "package.json")));
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  // Everything esbuild may bundle from this repository: the backend's directory, recursively.
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else h.update(relative(root, path)).update(readFileSync(path));
    }
  };
  walk(backendDir);
  // What the backend's isolate side imports from elsewhere in src (the fs adapter's append and error
  // helpers, byte and UTF-8 utilities): those folders whole, so a change there rebuilds too.
  for (const dir of ["src/fs", "src/util"]) walk(join(root, dir));
  h.update(relative(root, utf8EscapeModule)).update(readFileSync(utf8EscapeModule));
  return h.digest("hex").slice(0, 16);
}

/** just-bash's command registry: command name → the chunk file it loads lazily. */
function commandChunks() {
  const index = readFileSync(join(justBashDir, "dist/bundle/index.js"), "utf8");
  const out = new Map();
  for (const m of index.matchAll(/\{name:"([a-z0-9-]+)",load:async\(\)=>\(await import\("\.\/chunks\/([^"]+)"\)/g)) out.set(m[1], m[2]);
  if (out.size < 50) throw new Error(`gen-shell: found only ${out.size} commands in just-bash's registry; its bundle layout changed`);
  return out;
}

/** `text` with its one match of `re` replaced by `to` (a replacement string or function); throws, naming `what`, when just-bash's code changed. */
function patchOnce(text, what, re, to) {
  const all = [...text.matchAll(new RegExp(re.source, `${re.flags.replace("g", "")}g`))];
  if (all.length !== 1) {
    throw new Error(`gen-shell: just-bash's ${what} changed (${all.length} matches of ${re}); update the patch in scripts/gen-shell.mjs`);
  }
  return text.replace(re, to);
}

/**
 * just-bash 3.4.2 keeps bytes in a "ByteString" (one char per byte) and
 * converts at the text/byte boundary with two functions of its encoding
 * chunk (dist/bundle/chunks/chunk-<hash>.js; source names
 * `encodeUtf8ToBytes` and `decodeBytesToUtf8`):
 *   - the encoder (text a command prints → bytes for a pipe or a redirect)
 *     is `TextEncoder.encode`, which writes every lone surrogate as U+FFFD;
 *   - the decoder (stdin bytes → text for sed, grep, awk, tr, sort, …)
 *     decodes UTF-8 strictly and, when that fails, keeps the byte string as
 *     Latin-1 text, which the encoder then re-encodes (e9 → c3 a9).
 * So a byte that is not UTF-8 was lost through any text command. The
 * Workspace fs adapter decodes such bytes as U+DC80…U+DCFF and encodes them
 * back (src/util/utf8-escape.ts); these patches make just-bash's encoder and
 * its decoder's fallback use the same codec, so the shell has one
 * byte-preserving string form. Valid UTF-8 takes just-bash's own path, byte
 * for byte. The chunk is found by its error-message strings ("UTF-8 encode",
 * "UTF-8 decode"), and each patch by the code around them; anything
 * unexpected (another just-bash version) fails the generator.
 */
let justBashPatched = 0;
const justBashPatches = {
  name: "just-bash-utf8-escape",
  setup(b) {
    let patched = 0;
    b.onStart(() => {
      patched = 0;
    });
    b.onLoad({ filter: /[\\/]node_modules[\\/]just-bash[\\/]dist[\\/]bundle[\\/]chunks[\\/][^\\/]+\.js$/ }, (args) => {
      const source = readJustBash(args.path);
      if (!source.includes('"UTF-8 encode"') && !source.includes('"UTF-8 decode"')) return undefined;
      let text = source;
      // encodeUtf8ToBytes: `…,"UTF-8 encode");let e=y.encode(t),o="";for(…)o+=String.fromCharCode(e[r]);return o}`, y a TextEncoder.
      text = patchOnce(text, "encodeUtf8ToBytes (text → bytes)", /"UTF-8 encode"\);let (\w+)=(\w+)\.encode\((\w+)\),/, (all, bytes, encoder, input) => {
        if (!new RegExp(`(?:^|[,;\\s])${encoder}=new TextEncoder(?:[,;]|$)`, "m").test(source)) {
          throw new Error(`gen-shell: just-bash's encodeUtf8ToBytes no longer calls a TextEncoder (${encoder}); update the patch in scripts/gen-shell.mjs`);
        }
        return `"UTF-8 encode");let ${bytes}=__utf8EscapeEncode(${input}),`;
      });
      // decodeBytesToUtf8: `…,"UTF-8 decode");…;try{return u.decode(r)}catch{return e}}`, u a fatal UTF-8 TextDecoder:
      // the fallback (not UTF-8) returned the Latin-1 view; now each byte that is not UTF-8 becomes U+DC80+byte.
      text = patchOnce(
        text,
        "decodeBytesToUtf8 (bytes → text)",
        /("UTF-8 decode"\);[^"]*?)try\{return (\w+)\.decode\((\w+)\)\}catch\{return \w+\}\}/,
        (all, head, decoder, bytes) => {
          if (head.includes("function ")) throw new Error("gen-shell: just-bash's decodeBytesToUtf8 changed shape; update the patch in scripts/gen-shell.mjs");
          if (!new RegExp(`(?:^|[,;\\s])${decoder}=new TextDecoder\\("utf-8",\\{fatal:!0\\}\\)`, "m").test(source)) {
            throw new Error(`gen-shell: just-bash's decodeBytesToUtf8 no longer tries a fatal UTF-8 TextDecoder (${decoder}); update the patch in scripts/gen-shell.mjs`);
          }
          return `${head}try{return ${decoder}.decode(${bytes})}catch{return __utf8EscapeDecode(${bytes})}}`;
        },
      );
      // Its decoder dropped a leading U+FEFF (TextDecoder's default): `cat` of a file starting EF BB BF gave the
      // run's stdout without those bytes (issue 20, scout after the twentieth run). A BOM is content.
      text = patchOnce(text, "decodeBytesToUtf8 (decoder)", /(\w+)=new TextDecoder\("utf-8",\{fatal:!0\}\)/, '$1=new TextDecoder("utf-8",{fatal:!0,ignoreBOM:!0})');
      patched++;
      const codec = JSON.stringify(utf8EscapeModule);
      return { contents: `import{utf8EscapeEncode as __utf8EscapeEncode,utf8EscapeDecode as __utf8EscapeDecode}from${codec};\n${text}`, loader: "js" };
    });
    b.onEnd(() => {
      justBashPatched = patched;
    });
  },
};

/**
 * just-bash 3.4.2 writes a command's redirected output after the command ran
 * (`applyRedirections` in dist/bundle/index.js), with no catch: a target it
 * cannot write (`echo hi > missing-dir/f`, a file under a file, a read-only
 * mount) made the whole script end there, with the adapter's error as its
 * last line. The patch catches the failure of that write and, as bash,
 * prints `bash: <path>: <strerror>` on the command's stderr and sets its
 * status to 1 (src/backends/worker-shell/isolate/redirect-failure.ts); the
 * script goes on.
 */
const redirectModule = join(isolateDir, "redirect-failure.ts");
let redirectPatched = 0;
const justBashRedirectPatch = {
  name: "just-bash-redirect-failure",
  setup(b) {
    b.onStart(() => {
      redirectPatched = 0;
    });
    b.onLoad({ filter: /[\\/]node_modules[\\/]just-bash[\\/]dist[\\/]bundle[\\/]index\.js$/ }, (args) => {
      let text = readJustBash(args.path);
      text = patchOnce(
        text,
        "applyRedirections (output write)",
        /let\{stdout:(\w+),stderr:(\w+),exitCode:(\w+)\}=\w+,([^;]*;(?:(?!function )[^])*?)let (\w+)=async\((\w+),(\w+),(\w+)\)=>\{\6\.append\?await (\w+)\.fs\.appendFile\(\6\.path,\7,\8\):await \9\.fs\.writeFile\(\6\.path,\7,\8\)\};/,
        (all, out, err, code, middle, k, target, content, encoding, ctx) =>
          `let{stdout:${out},stderr:${err},exitCode:${code}}=${all.slice(all.indexOf("}=") + 2, all.indexOf(",", all.indexOf("}=")))},${middle}` +
          `let ${k}=async(${target},${content},${encoding})=>{try{${target}.append?await ${ctx}.fs.appendFile(${target}.path,${content},${encoding}):await ${ctx}.fs.writeFile(${target}.path,${content},${encoding})}catch(__redirectError){${err}+=__redirectFailure(${target}.path,__redirectError);${code}=1}};`,
      );
      // openRedirectTarget: a failed open of `>`/`>>`/`&>` rethrew the error (ending the script) for a plain command.
      text = patchOnce(
        text,
        "openRedirectTarget (open failure)",
        /catch\((\w+)\)\{if\(!(\w+)\)throw \1;return\{error:(\w+)\("",`bash: \$\{(\w+)\}: cannot open redirect target\n`,1\)\}\}/,
        (all, error, catchAll, result, target) =>
          `catch(${error}){if(!${catchAll}&&!__isFsFailure(${error}))throw ${error};return{error:${result}("",__isFsFailure(${error})?__redirectFailure(${target},${error}):\`bash: \${${target}}: cannot open redirect target\n\`,1)}}`,
      );
      // openRedirectTarget: an empty target, or one ending in `/`, is refused as bash does before anything is opened.
      text = patchOnce(
        text,
        "openRedirectTarget (target check)",
        /(async function \w+\((\w+),(\w+),\w+,\w+,\w+=!0\)\{)(let \w+=\2\.fs\.resolvePath\(\2\.state\.cwd,\3\),(\w+)=await \w+\([^;]*\);if\(\5\)return\{error:(\w+)\("",\5,1\)\};)/,
        (all, head, ctx, target, rest, early, result) =>
          `${head}{let __early=__redirectTargetError(${target});if(__early!==null)return{error:${result}("",__early,1)}}${rest}`,
      );
      // openReadWriteTarget (`<>`): creating a target it could not read failed with `No such file or directory`
      // whatever the reason; as bash, the reason is the create's (`1<> f.txt/`: `Is a directory`).
      text = patchOnce(
        text,
        "openReadWriteTarget (create failure)",
        /(await (\w+)\.fs\.writeFile\((\w+),"","binary"\),\{entry:\{kind:"readwrite",path:\3,position:0,content:""\}\}\})catch\{return\{error:(\w+)\("",`bash: \$\{(\w+)\}: No such file or directory\n`,1\)\}\}/,
        (all, head, ctx, path, result, target) =>
          `${head}catch(__rwError){return{error:${result}("",__isFsFailure(__rwError)?__redirectFailure(${target},__rwError):\`bash: \${${target}}: No such file or directory\n\`,1)}}`,
      );
      // The decoder of a command's output (bytes kept as a byte string → text) dropped a leading U+FEFF:
      // `cat` of a file starting EF BB BF gave the run's stdout without those bytes (issue 20, scout after the
      // twentieth run). A BOM is content.
      text = patchOnce(text, "output decoder (BOM)", /(\w+)=new TextDecoder\("utf-8",\{fatal:!0\}\)/, '$1=new TextDecoder("utf-8",{fatal:!0,ignoreBOM:!0})');
      redirectPatched++;
      return { contents: `import{redirectFailure as __redirectFailure,isFsFailure as __isFsFailure,redirectTargetError as __redirectTargetError}from${JSON.stringify(redirectModule)};\n${text}`, loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

/**
 * just-bash 3.4.2 resolves every operand to the directory it names before
 * anything looks at it, so an operand whose last segment is `.` or `..`
 * reached the Workspace as that directory: `rm -rf .` removed the working
 * directory, `rmdir e/.` and `mv d/. x` acted on e and d, `find . -delete`
 * removed its starting point, and `ln -sf t e/.` removed e (issue 20,
 * twentieth attack run). These patches make those commands ask
 * src/backends/worker-shell/isolate/dot-operands.ts first, on the operand as
 * written, and answer as GNU coreutils/findutils do. (The adapter itself
 * refuses `rm` and `rename` of a path still ending in `/.`, and an empty
 * operand is `ENOENT` in every adapter method.)
 */
const dotOperandsModule = join(isolateDir, "dot-operands.ts");
const DOT_PATCHES = {
  rm: [
    "rm (operand ending in . or ..)",
    /for\(let (\w+) of (\w+)\)try\{(let \w+=\w+\.fs\.resolvePath\(\w+\.cwd,\1\);if\(\(await \w+\.fs\.stat\(\w+\)\)\.isDirectory&&!(\w+)\)\{(\w+)\+=`rm: cannot remove '\$\{\1\}': Is a directory\n`,(\w+)=1;continue\})/,
    (all, operand, list, rest, recursive, stderr, code) =>
      `for(let ${operand} of ${list})try{{let __refusal=__rmDotRefusal(${operand},${recursive});if(__refusal!==null){${stderr}+=__refusal,${code}=1;continue}}${rest}`,
  ],
  rmdir: [
    "rmdir (operand ending in . or ..)",
    /(async function \w+\((\w+),(\w+),(\w+),(\w+)\)\{)(try\{if\(!await \2\.fs\.exists\(\3\)\)return\{stdout:"",stderr:`rmdir: failed to remove '\$\{\4\}': No such file or directory\n`,exitCode:1\};)/,
    (all, head, ctx, path, operand, verbose, rest) =>
      `${head}{let __refusal=__rmdirDotRefusal(${operand});if(__refusal!==null)return{stdout:"",stderr:__refusal,exitCode:1}}${rest}`,
  ],
  mv: [
    "mv (source ending in . or ..)",
    /for\(let (\w+) of (\w+)\)try\{(let \w+=(\w+)\.fs\.resolvePath\(\4\.cwd,\1\),)/,
    (all, source, list, rest) => ({ source, list, rest }),
  ],
  find: [
    "find -delete (path ending in . or ..)",
    /case"delete":\{let (\w+)=(\w+)\.fs\.resolvePath\(\2\.cwd,(\w+)\);try\{await \2\.fs\.rm\(\1,\{recursive:!1\}\)\}catch\((\w+)\)\{let (\w+)=\4 instanceof Error\?\4\.message:String\(\4\)\;(\w+)\(`find: cannot delete '\$\{\3\}': \$\{\5\}\n`\),(\w+)=1\}break\}/,
    (all, resolved, ctx, path, error, message, emit, code) =>
      `case"delete":{{let __refusal=__findDeleteDotRefusal(${path});if(__refusal!==null){if(__refusal!==""){${emit}(__refusal),${code}=1}break}}` + all.slice('case"delete":{'.length),
  ],
  ln: [
    "ln (link name in directory form)",
    /let (\w+)=(\w+)\[0\],(\w+)=\2\[1\],(\w+)=(\w+)\.fs\.resolvePath\(\5\.cwd,\3\);/,
    (all, target, operands, linkName, resolved, ctx) =>
      `let ${target}=${operands}[0],${linkName}=__linkNameInDirectory(${operands}[1],${operands}[0]),${resolved}=${ctx}.fs.resolvePath(${ctx}.cwd,${linkName});`,
  ],
};
let dotPatched = new Set();
const justBashDotOperandPatch = {
  name: "just-bash-dot-operands",
  setup(b) {
    b.onStart(() => {
      dotPatched = new Set();
    });
    b.onLoad({ filter: /[\\/]node_modules[\\/]just-bash[\\/]dist[\\/]bundle[\\/]chunks[\\/][^\\/]+\.js$/ }, (args) => {
      const source = readJustBash(args.path);
      const command = Object.keys(DOT_PATCHES).find((name) => source.includes(`name:"${name}",async execute(`));
      if (command === undefined) return undefined;
      const [what, re, to] = DOT_PATCHES[command];
      let text;
      if (command === "mv") {
        // The refusal needs the destination operand and whether it is a directory, named before the loop.
        const head = /let (\w+)=(\w+)\.pop\(\)\?\?"",(\w+)=\2,(\w+)=(\w+)\.fs\.resolvePath\(\5\.cwd,\1\)/.exec(source);
        const isDir = head && new RegExp(`if\\(${head[3]}\\.length>1&&!(\\w+)\\)return\\{stdout:"",stderr:\`mv: target`).exec(source);
        if (!head || !isDir) throw new Error("gen-shell: just-bash's mv changed shape; update the dot-operand patch in scripts/gen-shell.mjs");
        const [, dest] = head;
        const [, destIsDir] = isDir;
        const errVar = /(\w+)\+=`mv: cannot move '\$\{\w+\}' into itself/.exec(source);
        const codeVar = /into itself, '\$\{\w+\}'\n`,(\w+)=1;continue/.exec(source);
        if (!errVar || !codeVar) throw new Error("gen-shell: just-bash's mv changed shape; update the dot-operand patch in scripts/gen-shell.mjs");
        text = patchOnce(source, what, re, (all, src, list, rest) =>
          `for(let ${src} of ${list})try{{let __refusal=__mvDotRefusal(${src},${dest},${destIsDir});if(__refusal!==null){${errVar[1]}+=__refusal,${codeVar[1]}=1;continue}}${rest}`);
      } else {
        text = patchOnce(source, what, re, to);
      }
      dotPatched.add(command);
      const helpers = "isDotOperand as __isDotOperand,rmDotRefusal as __rmDotRefusal,rmdirDotRefusal as __rmdirDotRefusal,mvDotRefusal as __mvDotRefusal,findDeleteDotRefusal as __findDeleteDotRefusal,linkNameInDirectory as __linkNameInDirectory";
      return { contents: `import{${helpers}}from${JSON.stringify(dotOperandsModule)};\n${linkOperandPatches(command, text)}`, loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

/**
 * just-bash 3.4.2 looked at symbolic-link operands through `stat`, which
 * follows the link: `ln -sf a.txt a.txt` replaced the file by a link to
 * itself, `ln -s T DIR` replaced or refused DIR, `mv a.txt la` (la -> a.txt)
 * did nothing, `mv ld d` and `cp -r ld d/sub` (ld -> d) were "into itself",
 * `find -type l` was refused and `stat` described a link's target (issue 20,
 * twenty-first attack run). These patches hand those decisions to
 * src/backends/worker-shell/isolate/link-operands.ts, which reads operands
 * as GNU does. Each entry maps a chunk's text to its patched text; ln, mv
 * and find are applied by the dot-operand plugin (it loads their chunks).
 */
const linkOperandsModule = join(isolateDir, "link-operands.ts");
const LINK_HELPERS =
  "lnCommand as __lnCommand,mvSameFile as __mvSameFile,destOperand as __destOperand,statOperand as __statOperand,fileTypeName as __fileTypeName,quotedName as __quotedName,modeString as __modeString,isFindType as __isFindType,findTypeMatches as __findTypeMatches,lsStat as __lsStat,lsModeColumn as __lsModeColumn,lsNameSuffix as __lsNameSuffix,followedSource as __followedSource";
/** `text` with every match of `re` replaced by `to`; throws unless there are exactly `count`. */
function patchCount(text, what, re, count, to) {
  const all = [...text.matchAll(new RegExp(re.source, `${re.flags.replace("g", "")}g`))];
  if (all.length !== count) throw new Error(`gen-shell: just-bash's ${what} changed (${all.length} matches of ${re}, expected ${count}); update LINK_PATCHES in scripts/gen-shell.mjs`);
  return text.replace(new RegExp(re.source, `${re.flags.replace("g", "")}g`), to);
}
/** The name of the variable just-bash's parsed flag `flag` is read into (`let d=s.result.flags.recursive…`). */
function flagVariable(text, command, re) {
  const m = re.exec(text);
  if (!m) throw new Error(`gen-shell: just-bash's ${command} changed shape; update LINK_PATCHES in scripts/gen-shell.mjs`);
  return m[1];
}
const LINK_PATCHES = {
  // ln: everything after option parsing is lnCommand (the old code stays, unreachable).
  ln: (text) =>
    patchOnce(
      text,
      "ln (operands)",
      /(async execute\((\w+),(\w+)\)\{if\(\w+\(\2\)\)return \w+\(\w+\);let (\w+)=!1,(\w+)=!1,(\w+)=!1,(\w+)=0;for\(;\7<\2\.length&&\2\[\7\]\.startsWith\("-"\);\)\{let (\w+)=\2\[\7\];if\(\8==="-s"\|\|\8==="--symbolic"\)\4=!0,\7\+\+;else if\(\8==="-f"\|\|\8==="--force"\)\5=!0,\7\+\+;else if\(\8==="-v"\|\|\8==="--verbose"\)\6=!0,\7\+\+;(?:(?!let )[^])*?)(let \w+=\2\.slice\(\7\);)/,
      (all, head, args, ctx, symbolic, force, verbose, index, arg, rest) =>
        `${head}return __lnCommand(${args}.slice(0,${index}),${args}.slice(${index}),{symbolic:${symbolic},force:${force},verbose:${verbose}},${ctx});${rest}`,
    ),
  // mv: the source is the entry itself (lstat); same file as GNU (`are the same file`, $? 1); -n sees a dangling link.
  mv: (text) => {
    const dest = flagVariable(text, "mv", /let (\w+)=\w+\.pop\(\)\?\?"",\w+=\w+,\w+=\w+\.fs\.resolvePath\(/);
    const destIsDir = flagVariable(text, "mv", /if\(\w+\.length>1&&!(\w+)\)return\{stdout:"",stderr:`mv: target/);
    const err = flagVariable(text, "mv", /(\w+)\+=`mv: cannot move '\$\{\w+\}' into itself/);
    const code = flagVariable(text, "mv", /into itself, '\$\{\w+\}'\n`,(\w+)=1;continue/);
    text = patchOnce(text, "mv (source stat)", /(let (\w+)=(\w+)\.fs\.resolvePath\(\3\.cwd,(\w+)\),\w+=await \3\.fs\.)stat(\(\2\),\w+=\w+;if\(\w+\)\{let \w+=\4\.split\("\/"\)\.pop\(\)\|\|\4;)/, "$1lstat$5");
    text = patchOnce(text, "mv (no-clobber)", /if\((\w+)\)try\{await (\w+)\.fs\.stat\((\w+)\);continue\}catch\{\}/, "if($1)try{await $2.fs.lstat($3);continue}catch{}");
    return patchOnce(text, "mv (same file)", /let (\w+)=await \w+\((\w+)\.fs,(\w+),(\w+)\);if\(\1==="same"\)continue;/, (all, result, ctx, from, to) => {
      const source = /for\(let (\w+) of \w+\)try\{/.exec(text);
      if (!source) throw new Error("gen-shell: just-bash's mv changed shape; update LINK_PATCHES in scripts/gen-shell.mjs");
      return `let ${result}=await __mvSameFile(${ctx}.fs,${from},${to});if(${result}==="same"){${err}+=\`mv: '\${${source[1]}}' and '\${__destOperand(${source[1]},${dest},${destIsDir})}' are the same file\n\`,${code}=1;continue}`;
    });
  },
  // cp -r: the source is the entry itself (lstat), as GNU cp -r (-P); without -r, what it leads to.
  cp: (text) => {
    const recursive = flagVariable(text, "cp", /let (\w+)=\w+\.result\.flags\.recursive\|\|\w+\.result\.flags\.recursiveUpper/);
    // Without -r a link source is followed (GNU cp): its target's bytes are copied, not the link.
    text = patchOnce(text, "cp (copy)", /await (\w+)\.fs\.cp\((\w+),(\w+),\{recursive:(\w+)\}\)/, "await $1.fs.cp($4?$2:await __followedSource($1.fs,$2),$3,{recursive:$4})");
    return patchOnce(text, "cp (source stat)", /(let (\w+)=(\w+)\.fs\.resolvePath\(\3\.cwd,(\w+)\),\w+=await )\3\.fs\.stat\(\2\)(,\w+=\w+;if\(\w+\)\{let \w+=\4\.split\("\/"\)\.pop\(\)\|\|\4;)/, (all, head, path, ctx, operand, rest) =>
      `${head}(${recursive}?${ctx}.fs.lstat(${path}):${ctx}.fs.stat(${path}))${rest}`);
  },
  // find: -type accepts GNU's letters (l: a link, the entry itself).
  find: (text) => {
    text = patchOnce(text, "find (-type argument)", /if\((\w+)==="f"\|\|\1==="d"\)(\w+\.push\(\{type:"expr",expr:\{type:"type",fileType:\1\}\}\))/, "if(__isFindType($1))$2");
    return patchCount(text, "find (-type test)", /(\w+)\.fileType==="f"\?\{matches:([\w.]+),pruned:!1,printed:!1\}:\1\.fileType==="d"\?\{matches:([\w.]+),pruned:!1,printed:!1\}:\{matches:!1,pruned:!1,printed:!1\}/, 2, "{matches:__findTypeMatches($1.fileType,$2,$3),pruned:!1,printed:!1}");
  },
  // stat: operands are the entries themselves unless -L; %F, %N, %s and %A describe a link as a link.
  stat: (text) => {
    text = patchOnce(text, "stat (options)", /(\w+)=\{format:\{short:"c",type:"string"\}\}/, '$1={format:{short:"c",type:"string"},dereference:{short:"L",long:"dereference",type:"boolean"}}');
    text = patchOnce(text, "stat (operand stat)", /(let (\w+)=\w+\("stat",\w+,\w+\);if\(!\2\.ok\)return \2\.error;(?:(?!function )[^])*?let (\w+)=(\w+)\.fs\.resolvePath\(\4\.cwd,\w+\);try\{let \w+=await )\4\.fs\.stat\(\3\)/, (all, head, parsed, path, ctx) =>
      `${head}__statOperand(${ctx}.fs,${path},${parsed}.result.flags.dereference)`);
    return patchOnce(text, "stat (format)", /(\w+)=(\w+)\((\w+)\.mode,\3\.isDirectory\),(\w+)=new Map\(\[\["%n",(\w+)\],\["%N",`'\$\{\5\}'`\],\["%s",String\(\3\.size\)\],\["%F",\3\.isDirectory\?"directory":"regular file"\]/, (all, mode, format, stat, map, operand) =>
      `${mode}=__modeString(${format},${stat}),${map}=new Map([["%n",${operand}],["%N",__quotedName(${operand},${stat})],["%s",String(${stat}.size)],["%F",__fileTypeName(${stat})]`);
  },
  // ls: -l, -d and -F show a link operand itself (l…, ` -> target`), as do -l's entries; a dangling link is listed.
  ls: (text) => {
    text = patchOnce(text, "ls -d (operand)", /let ([\w$]+)=await ([\w$]+)\.fs\.stat\(([\w$]+)\);if\(([\w$]+)\)\{let ([\w$]+)=\1\.isDirectory\?"drwxr-xr-x":"-rw-r--r--",([\w$]+)=((?:(?!function |`)[^])*?)`\$\{\5\} 1 user user \$\{([\w$]+)\} \$\{([\w$]+)\} \$\{([\w$]+)\}\$\{\6\}\n`/, (all, stat, ctx, path, long, mode, suffix, mid, size, date, name) =>
      `let ${stat}=await __lsStat(${ctx}.fs,${path},!1);if(${long}){let ${mode}=__lsModeColumn(${stat}),${suffix}=${mid}\`\${${mode}} 1 user user \${${size}} \${${date}} \${${name}}\${__lsNameSuffix(${stat},${suffix})}\n\``);
    text = patchOnce(text, "ls (operand)", /let ([\w$]+)=await ([\w$]+)\.fs\.stat\(([\w$]+)\);if\(!\1\.isDirectory\)\{let ([\w$]+)=([\w$]+)\?([\w$]+)\(await \2\.fs\.lstat\(\3\)\):"";if\(([\w$]+)\)\{((?:(?!function |`)[^])*?)return\{stdout:`-rw-r--r-- 1 user user \$\{([\w$]+)\} \$\{([\w$]+)\} \$\{([\w$]+)\}\$\{\4\}\n`/, (all, stat, ctx, path, suffix, classify, classifier, long, mid, size, date, name) =>
      `let ${stat}=await __lsStat(${ctx}.fs,${path},!(${long}||${classify}));if(!${stat}.isDirectory){let ${suffix}=${classify}?${classifier}(await ${ctx}.fs.lstat(${path})):"";if(${long}){${mid}return{stdout:\`\${__lsModeColumn(${stat})} 1 user user \${${size}} \${${date}} \${${name}}\${__lsNameSuffix(${stat},${suffix})}\n\``);
    text = /* fixer FS */ patchOnce(text, "ls -l (entry)", /let ([\w$]+)=await ([\w$]+)\.fs\.stat\(([\w$]+)\),([\w$]+)=\1\.isDirectory\?"drwxr-xr-x":"-rw-r--r--",([\w$]+)=((?:(?!function |`)[^])*?)return\{name:([\w$]+),line:`\$\{\4\} 1 user user \$\{([\w$]+)\} \$\{([\w$]+)\} \$\{\7\}\$\{\5\}\n`/, (all, stat, ctx, path, mode, suffix, mid, name, size, date) =>
      `let ${stat}=await __lsStat(${ctx}.fs,${path},!1),${mode}=__lsModeColumn(${stat}),${suffix}=${mid}return{name:${name},line:\`\${${mode}} 1 user user \${${size}} \${${date}} \${${name}}\${__lsNameSuffix(${stat},${suffix})}\n\``);
    // fixer FS (issue 20, run 36): `total` is the listed entries' 1 KiB blocks, as GNU ls (ST_NBLOCKS of each, `.` and
    // `..` too, 512-byte blocks summed and rounded up to KiB): a block is 512 bytes of st_size in the shell (as `stat
    // -c %b`), a directory 4096 bytes (8 blocks). just-bash printed the number of entries; `.`/`..` showed size 0.
    text = patchOnce(text, "ls -l (entry blocks, fixer FS)", /(let ([\w$]+)=await __lsStat\([\w$]+\.fs,[\w$]+,!1\),[\w$]+=__lsModeColumn\(\2\),(?:(?!function |`)[^])*?)return\{name:([\w$]+),line:/, (all, head, stat, name) => `${head}return{name:${name},blocks:Math.ceil((${stat}.size??0)/512),line:`); // fixer FS
    let dots; // fixer FS
    text = patchOnce(text, "ls -l (total line, fixer FS)", /([\w$]+)=([\w$]+)\(([\w$]+),\1,`total \$\{([\w$]+)\.length\}\n`\);(let ([\w$]+)=\4\.filter\(([\w$]+)=>\7==="\."\|\|\7==="\.\."\),[\w$]+=\4\.filter\([^;]*?\);)for\(let ([\w$]+) of \6\)\1=\2\(\3,\1,`drwxr-xr-x 1 user user     0 Jan  1 00:00 \$\{\8\}\n`\);/, (all, out, add, ctx, list, lets, dot) => { dots = dot; return lets; }); // fixer FS
    text = patchOnce(text, "ls -l (total before the rows, fixer FS)", /for\(let\{line:([\w$]+)\}of ([\w$]+)\)([\w$]+)=([\w$]+)\(([\w$]+),\3,\1\)/, (all, line, rows, out, add, ctx) =>
      `${out}=${add}(${ctx},${out},\`total \${Math.ceil((${rows}.reduce((__s,__r)=>__s+(__r.blocks??0),0)+8*${dots}.length)/2)}\\n\`);for(let __d of ${dots})${out}=${add}(${ctx},${out},\`drwxr-xr-x 1 user user  4096 Jan  1 00:00 \${__d}\\n\`);${all}`); // fixer FS
    return text; // fixer FS
  },
};
let linkPatched = new Set();
/** `text` of `command`'s chunk with its LINK_PATCHES applied and their helpers imported; as given for other commands. */
function linkOperandPatches(command, text) {
  if (!(command in LINK_PATCHES)) return text;
  linkPatched.add(command);
  return `import{${LINK_HELPERS}}from${JSON.stringify(linkOperandsModule)};\n${LINK_PATCHES[command](text)}`;
}
const justBashLinkOperandPatch = {
  name: "just-bash-link-operands",
  setup(b) {
    b.onStart(() => {
      linkPatched = new Set();
    });
    b.onLoad({ filter: /[\\/]node_modules[\\/]just-bash[\\/]dist[\\/]bundle[\\/]chunks[\\/][^\\/]+\.js$/ }, (args) => {
      const source = readJustBash(args.path);
      const command = Object.keys(LINK_PATCHES).find((name) => !(name in DOT_PATCHES) && source.includes(`name:"${name}",async execute(`));
      if (command === undefined) return undefined;
      return { contents: linkOperandPatches(command, source), loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

/**
 * Source patches applied to just-bash's bundle files before any plugin above
 * patches them further (each plugin reads a file through readJustBash, and
 * justBashSourcePatch, last, returns the files no other plugin claims), so
 * several fixes can patch one chunk. Each patch must match exactly `count`
 * times over the whole build. Issue 20, twenty-first attack run: `*` and `?`
 * match a newline in a file name (bash pathname expansion, `${a[@]/pat/}`,
 * find -name/-path and grep --include, as GNU), and coreutils answers as GNU
 * coreutils 9.1 (src/backends/worker-shell/isolate/coreutils.ts).
 */
const coreutilsModule = join(isolateDir, "coreutils.ts");
/**
 * Further helper modules, each imported whole into every patched chunk as a
 * namespace (`__pathErrors.fn(…)` in a patch's `to`), so fixes in different
 * areas add their helpers without sharing one import list.
 */
const HELPER_NAMESPACES = [
  ["__pathErrors", join(isolateDir, "path-errors.ts")],
  ["__textOutput", join(isolateDir, "text-output.ts")],
  ["__archive", join(isolateDir, "archive.ts")], // SB1: tar and gzip
  ["__od", join(isolateDir, "od.ts")],
  ["__escapes", join(isolateDir, "escapes.ts")], // SP: bytes written by escapes
  ["__shellOptions", join(isolateDir, "shell-options.ts")], // SF: failglob in eval/source/&, new shells, declaration arrays
  ["__awk", join(isolateDir, "awk.ts")], // SA: awk's numbers, strings and comparisons as POSIX awk
  ["__sortSed", join(isolateDir, "sort-sed.ts")], // SS: sort/comm byte order, sed s///Ng and H
  ["__readInput", join(isolateDir, "read-input.ts")], // SR: read/mapfile decode their input
  ["__arith64", join(isolateDir, "arith64.ts")], // SZ: 64-bit shell arithmetic, test and printf integers
];
const ID = "[\\w$]+";
/** SF2: `body` with its `count` array lines `declare -a NAME=`/`declare -A NAME=` given the variable's other attributes. */
function arrayDeclarations(body, name, flags, count) { // SF2
  const re = new RegExp(String.raw`declare -([aA]) \$\{${name.replace(/\$/g, "\\$")}\}=`, "g"); // SF2
  if ((body.match(re) ?? []).length !== count) throw new Error("gen-shell: just-bash's declare -p array lines changed (SF2)"); // SF2
  return body.replace(re, (all, kind) => `declare -${kind}\${__shellOptions.arrayAttributes(${flags})} \${${name}}=`); // SF2
} // SF2
const SOURCE_PATCHES = [
  // Issue 20, twenty-third attack run (fixer SB1; helpers in src/backends/worker-shell/isolate/archive.ts): tar -x
  // replaces what is at a member's path (never writing through a link there), makes hard-link members as copies,
  // reports -k and failed links as GNU tar 1.34 (status 2) and gives members their modes (umask 022 unless -p,
  // directories last); tar -tv shows `l`/`h` and `link to`. gzip/gunzip refuse a link operand without -f/-c, never
  // write through a link at the output name (-f removes it), keep the input's mode, and say `already exists` as GNU.
  { what: "tar -x members (SB1)", when: '{name:"tar",summary:', re: new RegExp(String.raw`(${ID})="",(${ID})="",(${ID})=\[\];(if\((${ID})\.directory&&!\5\.toStdout\)(?:(?!function )[^])*?)let (${ID})=(${ID})\.fs\.resolvePath\((${ID}),(${ID})\);try\{if\((${ID})\.type==="directory"\)(?:(?!function )[^])*?\}catch\((${ID})\)\{if\((${ID})\(\7\)\)return (${ID})\(\);let ${ID}=\11 instanceof Error\?\11\.message:"unknown error";\3\.push\(\`tar: \$\{\9\}: \$\{${ID}\}\`\)\}\}let (${ID})=\1;`, "g"), to: (all, u, h, y, mid, t, z, e, l, w, m, C, B, N, d) =>
    `${u}="",${h}="",${y}=[],__tar=__archive.tarState();${mid}let ${z}=${e}.fs.resolvePath(${l},${w});{let __x=await __archive.tarExtractMember(${e},${t},${m},${z},${w},${l},__tar,()=>${B}(${e}));if(__x===null)return ${N}();${u}+=__x.log;${h}+=__x.stdout;${y}.push(...__x.errors)}}await __archive.tarExtractEnd(${e},__tar,${y});let ${d}=${u};`, count: 1 }, // SB1
  { what: "tar -tv type letter (SB1)", when: '{name:"tar",summary:', re: new RegExp(String.raw`if\((${ID})\.verbose\)\{let (${ID})=(${ID})\.type==="directory",(${ID})=${ID}\(\3\.mode,\2\),((?:(?!function )[^])*?)\3\.type==="symlink"&&\3\.linkTarget&&\((${ID})\+=\` -> \$\{\3\.linkTarget\}\`\)`, "g"), to: (all, t, y, f, d, mid, w) => `if(${t}.verbose){let ${y}=${f}.type==="directory",${d}=__archive.tarModeColumn(${f}),${mid}${w}+=__archive.tarListSuffix(${f},${t})`, count: 1 }, // SB1
  { what: "gzip link operand (SB1)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),(${ID}),(${ID}),${ID},(${ID})\)\{let ${ID}=\4\.suffix,(?:(?!function )[^])*?(${ID})=\2\.fs\.resolvePath\(\2\.cwd,\3\);)(try\{let ${ID}=await \2\.fs\.stat\(\7\);)`, "g"), to: (all, head, e, t, o, r, n, a, tail) => `${head}{let __gz=await __archive.gzipLinkOperand(${e}.fs,${r},${t},${a},${o},${n});if(__gz!==null)return __gz}${tail}`, count: 1 }, // SB1
  { what: "gzip output (SB1)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`if\(((?:${ID}=${ID}\+${ID},)?)!(${ID})\.force\)try\{return await (${ID})\.fs\.stat\((${ID})\),\{stdout:"",stderr:\`\$\{(${ID})\}: \$\{\4\} already exists; not overwritten\n\`,exitCode:1\}\}catch\{\}if\(await \3\.fs\.writeFile\(\4,(${ID})\),(!\2\.keep&&!${ID}&&await \3\.fs\.rm\((${ID})\),\2\.verbose\)\{(?:(?!function )[^])*?stderr:\`\$\{(${ID})\}:\t)`, "g"), to: (all, pre, o, e, u, r, data, rest, a, t) =>
    `if(${pre}!0){let __gz=await __archive.gzipOutput(${e}.fs,${r},${t},${a},${u},${data},${o});if(__gz!==null)return __gz}if(${rest}`, count: 2 }, // SB1
  { what: "gzip -r links (SB1)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`if\((${ID})\.depth===0\|\|\1\.phase!=="enter"\|\|!\1\.stat\.isFile\)return;`, "g"), to: (all, g) => `if(${g}.depth===0||${g}.phase!=="enter"||!(${g}.stat.isFile||${g}.stat.isSymbolicLink))return;`, count: 1 }, // SB1
  { what: "glob expansion matches a newline", re: new RegExp(`(patternToRegex\\((${ID})\\)\\{let (${ID})=this\\.patternToRegexStr\\(\\2\\);return ${ID}\\(\`\\^\\$\\{\\3\\}\\$\`)\\)`, "g"), to: (all, head) => `${head},"s")`, count: 1 },
  { what: "array pattern substitution matches a newline", re: new RegExp(`\\b(${ID})\\((${ID}),(${ID})\\.all\\?"g":""\\)`, "g"), to: (all, f, re, op) => `${f}(${re},${op}.all?"gs":"s")`, count: 4 },
  { what: "find/grep glob matches a newline", re: new RegExp(`return (${ID})\\+="\\$",(${ID})\\(\\1,(${ID})\\?"i":""\\)\\}`, "g"), to: (all, re, f, ic) => `return ${re}+="$",${f}(${re},${ic}?"is":"s")}`, count: 1 },
  { what: "find/grep glob [!x]", re: new RegExp(`else if\\((${ID})==="\\["\\)\\{let (${ID})=(${ID})\\+1;for\\(;\\2<(${ID})\\.length&&\\4\\[\\2\\]!=="\\]";\\)\\2\\+\\+;(${ID})\\+=\\4\\.slice\\(\\3,\\2\\+1\\)`, "g"), to: (all) => `${all}.replace(/^\\[!/,"[^")`, count: 1 },
  { what: "dirname operands", when: 'name:"dirname",async execute(', re: new RegExp(`let (${ID})=(${ID})\\.filter\\((${ID})=>!\\3\\.startsWith\\("-"\\)\\);`, "g"), to: (all, ops, args) => `let ${ops}=__operandsAfterOptions(${args});`, count: 1 },
  { what: "dirname of a name", when: 'name:"dirname",async execute(', re: new RegExp(`for\\(let (${ID}) of (${ID})\\)\\{let (${ID})=\\1\\.replace\\(/\\\\/\\+\\$/,""\\),(${ID})=\\3\\.lastIndexOf\\("/"\\);\\4===-1\\?(${ID})\\.push\\("\\."\\):\\4===0\\?\\5\\.push\\("/"\\):\\5\\.push\\(\\3\\.slice\\(0,\\4\\)\\)\\}`, "g"), to: (all, op, ops, a, b, out) => `for(let ${op} of ${ops}){${out}.push(__dirnameOf(${op}))}`, count: 1 },
  { what: "basename --", when: 'name:"basename",async execute(', re: new RegExp(`let (${ID})=(${ID})\\[(${ID})\\];(\\1==="-a"\\|\\|[^{}]*?\\1\\.startsWith\\("-"\\)\\|\\|(${ID})\\.push\\(\\1\\))\\}`, "g"), to: (all, arg, args, i, rest, ops) => `let ${arg}=${args}[${i}];if(${arg}==="--"){${ops}.push(...${args}.slice(${i}+1));break}if(${arg}==="-"){${ops}.push(${arg});continue}${rest}}`, count: 1 },
  { what: "basename of a name", when: 'name:"basename",async execute(', re: new RegExp(`let (${ID})=(${ID})\\.replace\\(/\\\\/\\+\\$/,""\\),(${ID})=\\1\\.split\\("/"\\)\\.pop\\(\\)\\|\\|\\1;(${ID})&&\\3\\.endsWith\\(\\4\\)&&\\(\\3=\\3\\.slice\\(0,-\\4\\.length\\)\\),(${ID})\\.push\\(\\3\\)`, "g"), to: (all, a, name, b, suffix, out) => `${out}.push(__basenameOf(${name},${suffix}))`, count: 1 },
  { what: "rmdir -p parent failure", when: 'name:"rmdir",async execute(', re: new RegExp(`(\\{let (${ID})="",(${ID})="",${ID}=${ID}\\.fs\\.resolvePath(?:(?!function )[^])*?)let (${ID})=await (${ID})\\((${ID}),(${ID}),(${ID}),(${ID})\\);if\\(\\2\\+=\\4\\.stdout,\\4\\.exitCode!==0\\)break;`, "g"), to: (all, head, out, err, r, f, a, b, c, d) => `${head}let ${r}=await ${f}(${a},${b},${c},${d});if(${out}+=${r}.stdout,${r}.exitCode!==0){${err}+=__rmdirParentFailure(${r}.stderr,${c});return{stdout:${out},stderr:${err},exitCode:1}}`, count: 1 },
  { what: "read failure reason", re: new RegExp(`catch\\{return\\{filename:(${ID}),content:(${ID}),error:\`\\$\\{(${ID})\\}: \\$\\{\\1\\}: No such file or directory\\n\`\\}\\}`, "g"), to: (all, name, content, cmd) => `catch(__readError){return{filename:${name},content:${content},error:\`\${${cmd}}: \${${name}}: \${__readFailureReason(__readError)}\\n\`}}`, count: 1 },
  { what: "wc of a directory", re: new RegExp(`=await (${ID})\\((${ID}),(${ID}),\\{cmdName:"wc",stopOnError:!1\\}\\)`, "g"), to: (all, read, ctx, names) => `=await __wcReadFiles(${read},${ctx},${names},{cmdName:"wc",stopOnError:!1})`, count: 1 },
  // od: GNU coreutils 9.1's od (types a c d f o u x with sizes and z, -A -j -N -v -w, the short forms, cells lined
  // up across types, going on past an unreadable operand) in isolate/od.ts; just-bash's reader and abort check kept.
  { what: "od as GNU od", when: '{name:"od",execute:', re: new RegExp(String.raw`async function (${ID})\((${ID}),(${ID})\)\{let ${ID}="octal",[^]*?let ${ID}=await (${ID})\(\3\.fs,${ID}\);[^]*?catch\((${ID})\)\{return (${ID})\(\5\),[^]*?\}var (${ID})=\{name:"od",execute:\1\}`, "g"), to: (all, f, a, n, read, e, check, command) => `async function ${f}(${a},${n}){return __od.odCommand(${a},${n},{read:(p)=>${read}(${n}.fs,p),check:${check}})}var ${command}={name:"od",execute:${f}}`, count: 1 },
  { what: "tac as GNU tac (SI)", when: 'name:"tac",execute:', re: new RegExp(String.raw`async function (${ID})\((${ID}),(${ID})\)\{if\(\2\.length>0&&\2\[0\]!=="-"\)[^]*?\}var (${ID})=\{name:"tac",execute:\1\}`, "g"), to: (all, f, a, n, command) => `async function ${f}(${a},${n}){return __textGnu.tacCommand(${a},${n})}var ${command}={name:"tac",execute:${f}}`, count: 1 }, // SI: every operand, -s/-b/-r
  // Issue 20, twenty-fourth attack run (fixer SA; helpers in src/backends/worker-shell/isolate/awk.ts): awk's numbers // SA
  // and strings as POSIX awk (mawk 1.3.4, gawk): number → string by CONVFMT/OFMT (%.6g; integers whole), printf // SA
  // %e/%f/%g as C (two exponent digits, exact rounding, flags), string constants compare as strings, -v and NAME=value // SA
  // operands set OFS/FS/… (`-` is stdin), bare `length`, split("") is 0, a one-character FS stands for itself. // SA
  // L25: a condition's truth as POSIX awk (a string constant "0" true, an input field "0.0" false; isolate/awk.ts truthOf).
  { what: "awk condition truth (L25)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`\b${ID}\((await (?:this\.)?${ID}\((?:((?:this\.)?${ID}),)?"(?:ternary condition evaluation|logical-or left evaluation|logical-or right evaluation|logical-and left evaluation|logical-and right evaluation|if condition evaluation|while condition evaluation|do-while condition evaluation|for condition evaluation|expression pattern evaluation|nested expression pattern)",\(\)=>${ID}\(((?:this\.)?${ID}),([\w$.]+)\)\))\)`, "g"), to: (all, call, ctx, ctx2, node) => `__awk.truthOf(${ctx2},${node},${call})`, count: 11 }, // L25
  { what: "awk ! truth (L25)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(let (${ID})=await ${ID}\((${ID}),"unary operand evaluation",\(\)=>${ID}\(\3,(${ID})\.operand\)\);switch\(\4\.operator\)\{case"!":return )${ID}\(\2\)\?0:1;`, "g"), to: (all, head, n, e, t) => `${head}__awk.truthOf(${e},${t}.operand,${n})?0:1;`, count: 1 }, // L25
  { what: "awk CONVFMT variable (SA)", when: 'OFMT:"%.6g"', re: /OFMT:"%\.6g",/g, to: 'OFMT:"%.6g",CONVFMT:"%.6g",', count: 1 }, // SA
  { what: "awk CONVFMT read (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`case"OFMT":return (${ID})\.OFMT;`, "g"), to: (all, e) => `${all}case"CONVFMT":return ${e}.CONVFMT;`, count: 1 }, // SA
  { what: "awk CONVFMT write (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`case"OFMT":(${ID})\.OFMT=(${ID})\((${ID})\);return;`, "g"), to: (all, e, v, n) => `${all}case"CONVFMT":${e}.CONVFMT=${v}(${n});return;`, count: 1 }, // SA
  { what: "awk variable read (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`return (${ID})\.vars\[(${ID})\]\?\?""\}(?=function ${ID}\(${ID},${ID},${ID}\)\{switch\(${ID}\)\{case"FS":)`, "g"), to: (all, e, t) => `return __awk.load(${e},${e}.vars[${t}])}`, count: 1 }, // SA
  { what: "awk variable setter (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{switch\(\3\)\{case"FS":`, "g"), to: (all, j) => `var __awkSetVar=${j};${all}`, count: 1 }, // SA
  { what: "awk -v escapes (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`function (${ID})\((${ID})\)\{return \2\.replace\(/\\\\t/g,`, "g"), to: (all, f) => `var __awkEscapes=${f};${all}`, count: 1 }, // SA
  { what: "awk array element read (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`return (${ID})\.arrays\[(${ID})\]\?\.\[(${ID})\]\?\?""\}`, "g"), to: (all, e, r, n) => `return __awk.load(${e},${e}.arrays[${r}]?.[${n}])}`, count: 1 }, // SA
  { what: "awk assignment value kind (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=await (${ID})\((${ID}),"assignment value evaluation",\(\)=>(${ID})\(\3,(${ID})\.value\)\),`, "g"), to: (all, n, R, e, E, t) => `${all}__vk=__awk.kind(${e},${t}.value,${n}),`, count: 1 }, // SA
  { what: "awk assignment keeps strings (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`else if\((${ID})\.type==="variable"\)(${ID})\((${ID}),\1\.name,(${ID})\);else\{let (${ID})=(${ID})\(await (${ID})\(\3,"assignment target array key",\(\)=>(${ID})\(\3,\1\.key\)\)\);(${ID})\(\3,\1\.array,\5,\4\)\}return \4\}`, "g"), to: (all, r, j, e, a, o, v, R, E, ye) => // SA
    `else if(${r}.type==="variable")${j}(${e},${r}.name,__awk.keep(${a},__vk));else{let ${o}=${v}(await ${R}(${e},"assignment target array key",()=>${E}(${e},${r}.key)));${ye}(${e},${r}.array,${o},__awk.keep(${a},__vk))}return __awk.result(${e},${a},__vk)}`, count: 1 }, // SA
  { what: "awk function arguments keep strings (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=await (${ID})\((${ID}),"user function argument evaluation",\(\)=>(${ID})\(\3,(${ID})\)\);\3\.vars\[(${ID})\]=\1`, "g"), to: (all, f, R, e, E, u, c) => `let ${f}=await ${R}(${e},"user function argument evaluation",()=>${E}(${e},${u}));${e}.vars[${c}]=__awk.keepOf(${e},${u},${f})`, count: 1 }, // SA
  { what: "awk return keeps strings (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(${ID})\.returnValue=(${ID})\?(await (${ID})\(\1,"return expression",\(\)=>(${ID})\(\1,\2\)\)):""`, "g"), to: (all, e, n, value) => `${e}.returnValue=${n}?__awk.keepOf(${e},${n},${value}):""`, count: 1 }, // SA
  { what: "awk function value (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=(${ID})\.returnValue\?\?"";`, "g"), to: (all, o, e) => `let ${o}=__awk.load(${e},${e}.returnValue);`, count: 1 }, // SA
  { what: "awk comparison operand kinds (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=(await (${ID})\((${ID}),"binary left evaluation",\(\)=>(${ID})\(\4,(${ID})\.left\)\)),(${ID})=(await \3\(\4,"binary right evaluation",\(\)=>\5\(\4,\6\.right\)\));`, "g"), to: (all, r, left, R, e, E, t, s, right) => `let ${r}=${left},__lk=__awk.kind(${e},${t}.left,${r}),${s}=${right},__rk=__awk.kind(${e},${t}.right,${s});`, count: 1 }, // SA
  { what: "awk comparison (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(if\((${ID})\.maxOutputSize>0&&(${ID})\.length>\2\.maxOutputSize\)throw new ${ID}\(\`awk: string concatenation size limit exceeded[^\`]*\`,"string_length",\2\.output\);return \3\})if\((${ID})\((${ID})\)\)return ${ID}\((${ID}),(${ID}),\5\);`, "g"), to: (all, head, e, l, vt, n, r, s) => `${head}if(${vt}(${n}))return __awk.compare(${e},${n},${r},__lk,${s},__rk);`, count: 1 }, // SA
  { what: "awk print (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`typeof (${ID})=="number"\?Number\.isInteger\(\1\)&&Math\.abs\(\1\)<Number\.MAX_SAFE_INTEGER\?(${ID})\.push\(String\(\1\)\):\2\.push\(${ID}\((${ID})\.OFMT,\[\1\],\3\.maxOutputSize\|\|void 0\)\):\2\.push\(${ID}\(\1\)\)`, "g"), to: (all, o, r, e) => `${r}.push(__awk.output(${e},${o}))`, count: 1 }, // SA
  { what: "awk printf state (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})=(${ID})\)\{let (${ID})=0,`, "g"), to: (all, ie, e, t, n, be, r) => `function ${ie}(${e},${t},${n}=${be},__st){let ${r}=0,`, count: 1 }, // SA
  { what: "awk printf state of printf (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(${ID})=(${ID})\((${ID}),(${ID}),(${ID})\);(${ID})\?await (${ID})\((${ID}),"printf redirection write"`, "g"), to: (all, l, ie, s, a, o, r, S, e) => `${l}=${ie}(${s},${a},${o},${e});${r}?await ${S}(${e},"printf redirection write"`, count: 1 }, // SA
  { what: "awk printf state of sprintf (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(${ID}\.push\(await (${ID})\.evalExpr\(${ID}\[${ID}\]\)\);return (${ID})\((${ID}),(${ID}),(${ID})\((${ID})\))\)\}`, "g"), to: (all, head, n, ie, r, s, _, t) => `${head},${t})}`, count: 1 }, // SA
  { what: "awk printf %s of a number (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=(${ID})!==void 0\?String\(\2\):"";`, "g"), to: (all, p, y) => `let ${p}=${y}!==void 0?__awk.str(__st,${y}):"";`, count: 1 }, // SA
  { what: "awk printf %d truncates (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`Math\.floor\(Number\((${ID})\)\)(?=:0;Number\.isNaN)`, "g"), to: (all, y) => `__awk.toInteger(${y})`, count: 3 }, // SA
  { what: "awk printf %d digits (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=(${ID})<0,(${ID})=Math\.abs\(\2\)\.toString\(\);`, "g"), to: (all, N, p, g) => `let ${N}=${p}<0,${g}=__awk.integerDigits(${p});`, count: 1 }, // SA
  { what: "awk printf %e %f %g (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`case"f":\{let (${ID})=(${ID})!==void 0\?Number\(\2\):0;Number\.isNaN\(\1\)&&\(\1=0\);let (${ID})=(${ID})\?parseInt\(\4,10\):6;if\(\3>100\)throw new (${ID})\(("printf floating-point precision limit exceeded \(100 digits\)","string_length")\);(?:(?!case"x":)[^])*?let (${ID})=\1\.toExponential\(\3\);if\((${ID})==="E"&&\(\7=\7\.toUpperCase\(\)\),(${ID})\)\{let (${ID})=parseInt\(\9,10\);(${ID})\.includes\("-"\)\?\7=\7\.padEnd\(\10\):\7=\7\.padStart\(\10\)\}(${ID})\(\7\),(${ID})===void 0&&(${ID})\+\+;break\}(?:(?!case"x":)[^])*?(?=case"x":)`, "g"), to: (all, p, y, N, C, w, msg, g, W, k, d, f, c, A, r) => // SA
    `case"f":case"F":case"e":case"E":case"g":case"G":{if((${C}?parseInt(${C},10):6)>100)throw new ${w}(${msg});${c}(__awk.formatFloat(${W},${f},${k},${C},${y})),${A}===void 0&&${r}++;break}`, count: 1 }, // SA
  { what: "awk int truncates (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`return (${ID})\.length===0\?0:Math\.floor\((${ID})\(await (${ID})\.evalExpr\(\1\[0\]\)\)\)\}`, "g"), to: (all, e, F, n) => `return ${e}.length===0?0:Math.trunc(${F}(await ${n}.evalExpr(${e}[0])))}`, count: 1 }, // SA
  { what: "awk split separators (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(${ID})=(${ID})===" "\?(${ID})\("\\\\s\+"\):\2\}\}else (${ID})\.FS===" "&&\(\1=\3\("\\\\s\+"\)\);((?:(?!function )[^])*?)(${ID})=typeof \1=="string"\?(${ID})\.split\(\1,(${ID})\+1\):\1\.split\(\7,\8\+1\);`, "g"), to: (all, o, k, O, t, mid, u, r, c) => `${o}=${k}}};${mid}${u}=__awk.split(${r},${o},${c}+1,${O});`, count: 1 }, // SA
  { what: "awk field separator of one character (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`try\{(${ID})\.fieldSep=(${ID})\((${ID})\)\}catch\{`, "g"), to: (all, e, O, t) => `try{${e}.fieldSep=${O}(__awk.fieldPattern(${t}))}catch{`, count: 1 }, // SA
  { what: "awk -F of one character (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`\.test\((${ID})\)\)try\{return (${ID})\(\1\)\}`, "g"), to: (all, e, O) => `.test(${e}))try{return ${O}(__awk.fieldPattern(${e}))}`, count: 1 }, // SA
  { what: "awk bare length (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`return\{type:"variable",name:(${ID})\}\}(?=throw new Error\(\`Unexpected token)`, "g"), to: (all, t) => `return ${t}==="length"?{type:"call",name:"length",args:[]}:{type:"variable",name:${t}}}`, count: 2 }, // SA
  { what: "awk concatenation above comparison (SA)", when: 'OFMT:"%.6g"', re: /parseIn\(\)\{let t=this\.parseConcatenation\(\);|parseConcatenation\(\)\{let t=this\.parseMatch\(\);(for\(;this\.canStartExpression\(\)&&!this\.isConcatTerminator\(\);\)\{let n=)this\.parseMatch\(\);|parseComparison\(\)\{let t=this\.parseAddSub\(\);(for\(;this\.match\([^)]*\);\)\{let n=this\.advance\(\),r=)this\.parseAddSub\(\);/g, to: (all, concat, compare) => // SA
    all.startsWith("parseIn") ? "parseIn(){let t=this.parseMatch();" : concat !== undefined ? `parseConcatenation(){let t=this.parseAddSub();${concat}this.parseAddSub();` : `parseComparison(){let t=this.parseConcatenation();${compare}this.parseConcatenation();`, count: 3 }, // SA
  { what: "awk print: concatenation above comparison (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`function (${ID})\((${ID})\)\{let (${ID})=(${ID})\(\2\);for\(;(${ID})\(\2\)&&!(${ID})\(\2\);\)\{let (${ID})=\4\(\2\);\3=\{type:"binary",operator:" ",left:\3,right:\7\}\}return \3\}`, "g"), to: (all, jt, e, t, ve, en, tn, n) => // SA
    `function ${jt}(${e}){return ${ve}(${e})}function __awkPrintConcat(${e}){let ${t}=${e}.parseAddSub();for(;${en}(${e})&&!${tn}(${e});){let ${n}=${e}.parseAddSub();${t}={type:"binary",operator:" ",left:${t},right:${n}}}return ${t}}`, count: 1 }, // SA
  { what: "awk print: comparison of concatenations (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`function (${ID})\((${ID})\)\{let (${ID})=\2\.parseAddSub\(\);(for\(;\2\.match\((${ID})\.LT,\5\.LE,\5\.GE,\5\.EQ,\5\.NE\);\)\{let ${ID}=\2\.advance\(\),${ID}=)\2\.parseAddSub\(\);`, "g"), to: (all, ze, e, t, loop) => `function ${ze}(${e}){let ${t}=__awkPrintConcat(${e});${loop}__awkPrintConcat(${e});`, count: 1 }, // SA
  { what: "awk -v special variables (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(${ID})\.vars=Object\.assign\(Object\.create\(null\),(${ID})\)`, "g"), to: (all, A, a) => `${A}.vars=Object.create(null),Object.keys(${a}).forEach(__k=>__awkSetVar(${A},__k,${a}[__k]))`, count: 1 }, // SA
  { what: "awk operand assignments (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`if\((${ID})\.length>0\)for\(let (${ID}) of \1\)\{let (${ID});try\{((?:(?!function )[^])*?if\(await (${ID})\("input processing",\(\)=>${ID}\(\2,\3\)\),(${ID})\.shouldExit\)break\})else (await \5\("stdin processing",[^;]*);`, "g"), to: (all, c, g, d, body, n, A, stdin) => // SA
    `if(__awk.hasInputFile(${c}))for(let ${g} of ${c}){if(__awk.operandAssignment(${A},${g},__awkSetVar,__awkEscapes))continue;if(${g}==="-"){${stdin};if(${A}.shouldExit)break;continue}let ${d};try{${body}else{for(let __o of ${c})__awk.operandAssignment(${A},__o,__awkSetVar,__awkEscapes);${stdin}}`, count: 1 }, // SA
  { what: "awk built-ins convert by CONVFMT (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(?<![\w$.])L\(await (${ID})\.evalExpr\(`, "g"), to: (all, n) => `${n}.str(await ${n}.evalExpr(`, count: 16 }, // SA
  { what: "awk built-in context (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`\{evalExpr:(${ID})=>(${ID})\((${ID}),\1\)\}`, "g"), to: (all, a, E, e) => `{evalExpr:${a}=>${E}(${e},${a}),str:${a}=>__awk.str(${e},${a})}`, count: 1 }, // SA
  { what: "awk sub/gsub target (SA)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`return ${ID}\((${ID})\.vars\[(${ID})\]\?\?""\)\}`, "g"), to: (all, t, e) => `return __awk.str(${t},${t}.vars[${e}]??"")}`, count: 1 }, // SA
  { what: "awk conversions by CONVFMT (SA)", when: 'OFMT:"%.6g"', re: /(?<![\w$.])v\((?!e\)\{return typeof)/g, to: "__awk.str(e,", count: 28 }, // SA
  // SE (issue 20, run 26; helpers in isolate/awk.ts, SA's, extended): awk reads records by RS (one character, "" // SE
  // paragraph mode, an ERE), plain getline (also in BEGIN) takes records from the main loop's reader, `-f progfile`, // SE
  // `print > "out_" $1` names the concatenation, gsub skips an empty match right after a match, as gawk/mawk. // SE
  { what: "awk RS variable (SE)", when: 'OFMT:"%.6g"', re: /OFMT:"%\.6g",CONVFMT:"%\.6g",/g, to: 'OFMT:"%.6g",CONVFMT:"%.6g",RS:"\\n",', count: 1 }, // SE
  { what: "awk RS read (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`case"CONVFMT":return (${ID})\.CONVFMT;`, "g"), to: (all, e) => `${all}case"RS":return ${e}.RS;`, count: 1 }, // SE
  { what: "awk RS write (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`case"CONVFMT":(${ID})\.CONVFMT=__awk\.str\(\1,(${ID})\);return;`, "g"), to: (all, e, n) => `${all}case"RS":${e}.RS=__awk.str(${e},${n});return;`, count: 1 }, // SE
  { what: "awk fields (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{return \3===""\?\[\]:\2\.FS===" "\?\3\.trim\(\)\.split\(/\\s\+/\)\.filter\(Boolean\):\2\.fieldSep\.split\(\3\)\}`, "g"), to: (all, f, e, t) => `function ${f}(${e},${t}){return __awk.fields(${e},${t})}`, count: 1 }, // SE
  { what: "awk sub/gsub $0 fields (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(${ID})\.fields=\1\.FS===" "\?(${ID})\.trim\(\)\.split\(/\\s\+/\)\.filter\(Boolean\):\1\.fieldSep\.split\(\2\)`, "g"), to: (all, n, t) => `${n}.fields=__awk.fields(${n},${t})`, count: 1 }, // SE
  { what: "awk plain getline (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`if\(!(${ID})\.lines\|\|\1\.lineIndex===void 0\)return-1;let (${ID})=\1\.lineIndex\+1;if\(\2>=\1\.lines\.length\)return 0;let (${ID})=\1\.lines\[\2\];return (${ID})\?(${ID})\(\1,\4,\3\):(${ID})\(\1,\3\),\1\.NR\+\+,\1\.lineIndex=\2,1\}`, "g"), to: (all, e, s, a, t, j, K) => // SE
    `if(!${e}.awkInput)return-1;let ${a}=await ${e}.awkInput.record(${e});if(${a}===void 0)return 0;return ${t}?${j}(${e},${t},${a}):${K}(${e},${a}),${e}.NR++,${e}.FNR++,1}`, count: 1 }, // SE
  { what: "awk gsub empty match after a match (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(function ${ID}\(${ID},${ID},${ID},${ID},${ID}\)\{let ${ID}=${ID}\(${ID}\),${ID}=0,${ID}=0,${ID}=0)(;for\(let (${ID}) of (${ID})\.matchAll\((${ID})\)\)\{let (${ID})=\3\.index\?\?0;)`, "g"), to: (all, head, loop, u, t, e, f) => // SE
    `${head},__pe=-1${loop}if(${u}[0]===""&&${f}===__pe)continue;__pe=${f}+${u}[0].length;`, count: 1 }, // SE
  { what: "awk print > concatenation (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`file:(${ID})\.parsePrimary\(\)`, "g"), to: (all, e) => `file:__awkPrintConcat(${e})`, count: 4 }, // SE
  { what: "awk options and -f progfile (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(async execute\((${ID}),(${ID})\)\{(?:(?!for\()[^])*?)let (${ID})=new (${ID})\(/\\s\+/\),(${ID})=" ",(${ID})=Object\.create\(null\),(${ID})=0;for\(let ${ID}=0;${ID}<\2\.length;${ID}\+\+\)\{((?:(?!missing program)[^])*?)if\(\8>=\2\.length\)(return\{stdout:"",stderr:\`awk: missing program\n\`,exitCode:1\});let (${ID})=\2\[\8\],(${ID})=\2\.slice\(\8\+1\),`, "g"), to: (all, head, e, t, r, X, s, a, o, loop, missing, l, c, offset, text) => { // SE
    const esc = (x) => x.replace(/\$/g, "\\$"), name = (re, where = loop) => { const m = new RegExp(re).exec(where); if (!m) throw new Error(`gen-shell: just-bash's awk options changed (SE): ${re}`); return m[1]; }; // SE
    const pe = name(String.raw`return (${ID})\("awk",\`-\$\{${ID}\}\`\)`), Se = name(String.raw`=(${ID})\(${ID}\.slice\(2\)\),`), je = name(String.raw`,${esc(r)}=(${ID})\(${esc(s)}\)`); // SE
    const ee = name(String.raw`\(\)=>${ID}\("",(${ID})\(${esc(t)}\.stdin\)\)`, text), fatal = name(String.raw`catch\(${ID}\)\{if\(${ID} instanceof (${ID})\)throw ${ID};await`, text); // SE
    return `${head}let ${r}=new ${X}(/\\s+/),${s}=" ",${a}=Object.create(null),${o}=0,__awkProgramFiles=[],__awkStdinUsed=!1,__awkStdin=()=>__awkStdinUsed?"":(__awkStdinUsed=!0,${ee}(${t}.stdin));{let __opt=__awk.parseOptions(${e});` + // SE
      `if(__opt.unknown!==void 0)return ${pe}("awk",__opt.unknown);if(__opt.missing!==void 0)return{stdout:"",stderr:\`awk: option requires an argument -- '\${__opt.missing}'\\n\`,exitCode:2};` + // SE
      `__opt.fs!==void 0&&(${s}=${Se}(__opt.fs),${r}=${je}(${s}));for(let[__k,__v]of __opt.assignments)${a}[__k]=${Se}(__v);${o}=__opt.index;__awkProgramFiles=__opt.programFiles}` + // SE
      `if(!__awkProgramFiles.length&&${o}>=${e}.length)${missing};let __awkSource=__awkProgramFiles.length?await __awk.programText(__awkProgramFiles,{resolvePath:(__c,__p)=>${t}.fs.resolvePath(__c,__p),stat:__p=>${t}.fs.stat(__p),readFile:__p=>${t}.fs.readFile(__p)},${t}.cwd,__awkStdin,__x=>__x instanceof ${fatal}):${e}[${o}];` + // SE
      `if(typeof __awkSource!="string")return __awkSource;let ${l}=__awkSource,${c}=${e}.slice(__awkProgramFiles.length?${o}:${o}+1),`; // SE
  }, count: 1 }, // SE
  { what: "awk input reader (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(${ID})\.ENVIRON=(${ID})\((${ID})\.env\);((?:(?!"END execution")[^])*?)let ${ID}=Math\.min\(\3\.limits\.maxInputBytes,\3\.limits\.maxStringLength\),((?:(?!"END execution")[^])*?)return await (${ID})\("END execution"`, "g"), to: (all, A, Ie, t, mid, body, n, offset, text) => { // SE
    const esc = (x) => x.replace(/\$/g, "\\$"), name = (re, where = body) => { const m = new RegExp(re).exec(where); if (!m) throw new Error(`gen-shell: just-bash's awk input changed (SE): ${re}`); return m[1]; }; // SE
    const V = name(String.raw`=>\{let ${ID}=(${ID})\(${ID}\);if\(`), w = name(String.raw`throw new (${ID})\(\`aggregate input size`), fatal = name(String.raw`if\(${ID} instanceof (${ID})\|\|${ID} instanceof ${esc(w)}\)throw`); // SE
    const T = name(String.raw`\(\)=>(${ID})\.executeLine\(`), c = name(String.raw`${esc(A)}\.ARGC=(${ID})\.length\+1`, text), O = name(String.raw`if\(${ID}===" "\)return (${ID})\("\\\\s\+"\)`, text); // SE
    return `${A}.ENVIRON=${Ie}(${t}.env);${A}.awkInput=new __awk.AwkInput({operands:${c},assign:__o=>__awk.operandAssignment(${A},__o,__awkSetVar,__awkEscapes),stdin:__awkStdin,` + // SE
      `files:{resolvePath:(__c,__p)=>${t}.fs.resolvePath(__c,__p),stat:__p=>${n}("input file stat",()=>${t}.fs.stat(__p)),readFile:__p=>${n}("input file read",()=>${t}.fs.readFile(__p))},cwd:${t}.cwd,` + // SE
      `maxBytes:Math.min(${t}.limits.maxInputBytes,${t}.limits.maxStringLength),byteLength:${V},limitError:__m=>new ${w}(__m,"string_length"),isFatal:__x=>__x instanceof ${fatal}||__x instanceof ${w},compile:(__p,__f)=>${O}(__p,__f)});` + // SE
      `${mid}for(let __in=${A}.awkInput;;){let __rec=await __in.record(${A});if(__rec===void 0)break;if(await ${n}("line execution",()=>${T}.executeLine(__rec)),${A}.shouldExit)break;${A}.shouldNextFile&&(__in.endFile(),${A}.shouldNextFile=!1)}return await ${n}("END execution"`; // SE
  }, count: 1 }, // SE
  { what: "awk input that cannot be opened (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`\}catch\((${ID})\)\{if\(\1 instanceof (${ID})\)throw \1;(let ${ID}=\1 instanceof Error\?\1\.message:String\(\1\),${ID}=\1 instanceof ${ID}\?${ID}\.EXIT_CODE:2;)`, "g"), to: (all, m, $, rest) => // SE
    `}catch(${m}){if(${m} instanceof ${$})throw ${m};if(${m} instanceof __awk.OpenError)return{stdout:"",stderr:${m}.message,exitCode:1};${rest}`, count: 1 }, // SE
  { what: "awk division by zero (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`case"/":return (${ID})!==0\?(${ID})/\1:0;case"%":return \1!==0\?\2%\1:0;`, "g"), to: (all, t, e) => `case"/":return __awk.divide(${e},${t},"/");case"%":return __awk.divide(${e},${t},"%");`, count: 1 }, // SE
  { what: "awk /= %= by zero (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(${ID})=(${ID})!==0\?(${ID})/\2:0;break;case"%=":\1=\2!==0\?\3%\2:0;`, "g"), to: (all, a, c, l) => `${a}=__awk.divide(${l},${c},"/=");break;case"%=":${a}=__awk.divide(${l},${c},"%=");`, count: 1 }, // SE
  { what: "awk negative field read (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{return \3===0\?\2\.line:\3<0\|\|`, "g"), to: (all, f, e, t) => `function ${f}(${e},${t}){return __awk.fieldIndex(${t})===0?${e}.line:${t}<0||`, count: 1 }, // SE
  { what: "awk negative field write (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{if\(\3===0\)\2\.line=`, "g"), to: (all, f, e, t, n) => `function ${f}(${e},${t},${n}){if(__awk.fieldIndex(${t})===0)${e}.line=`, count: 1 }, // SE
  { what: "awk printf arguments run out (SE)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=(${ID})\[(${ID})\],(${ID})=(${ID})\[(${ID})!==void 0\?\6:(${ID})\];switch\(\1\)`, "g"), to: (all, W, e, u, y) => all.replace(";switch(", () => `;__awk.printfArgument(${y},${W});switch(`), count: 1 }, // SE
  { what: "ls -d operands", when: 'name:"ls",async execute(', re: new RegExp(`let (${ID})=(${ID})\\.result\\.positional;\\1\\.length===0&&\\1\\.push\\("\\."\\);`, "g"), to: (all, ops, parsed) => `${all}${parsed}.result.flags.directoryOnly&&__lsDirectoryOperands(${ops},${parsed}.result.flags.reverse);`, count: 1 },
  { what: "ls -d no blank lines", when: 'name:"ls",async execute(', re: new RegExp(`if\\((${ID})>0&&(${ID})&&!\\2\\.endsWith\\(\`\\n\\n\`\\)&&\\((${ID})=${ID}\\(${ID},\\2,\`\\n\`\\)\\),(${ID})\\)\\{`, "g"), to: (all, i, out, o2, dirOnly) => all.replace(`${i}>0&&`, `${i}>0&&!${dirOnly}&&`), count: 1 },
  // Issue 20, twenty-first attack run (scout): start points of find, du and grep -r as GNU names and walks them
  // (src/backends/worker-shell/isolate/walk-operands.ts). find kept `ld/` as `ld` (the link, not walked).
  { what: "find start point", when: 'name:"find",async execute(', re: new RegExp(`(${ID})\\.length>1&&\\1\\.endsWith\\("/"\\)&&\\(\\1=\\1\\.slice\\(0,-1\\)\\);let (${ID})=(${ID})\\.fs\\.resolvePath\\(\\3\\.cwd,\\1\\);try\\{await \\3\\.fs\\.stat\\(\\2\\)\\}catch\\{(${ID})\\(\`find: \\$\\{\\1\\}: No such file or directory\\n\`\\),(${ID})=1;continue\\}`, "g"), to: (all, c, f, t, err, code) => `let ${f}=${t}.fs.resolvePath(${t}.cwd,${c});try{await ${t}.fs.stat(${f})}catch(__startError){${err}(\`find: \${${c}}: \${__readFailureReason(__startError)}\\n\`),${code}=1;continue}let __followStart=__followsStart(${c});${f}=__walkRoot(${f});let __startPath=${f};`, count: 1 },
  { what: "find start point stat", when: 'name:"find",async execute(', re: new RegExp(`(${ID})=await (${ID})\\.fs\\.lstat\\((${ID})\\),(${ID})\\.statCalls\\+\\+`, "g"), to: (all, m, t, w, d) => `${m}=await(${w}===__startPath&&__followStart?${t}.fs.stat(${w}):${t}.fs.lstat(${w})),${d}.statCalls++`, count: 1 },
  { what: "find start point name", when: 'name:"find",async execute(', re: new RegExp(`(${ID})===(${ID})\\?(${ID})=(${ID})\\.split\\("/"\\)\\.pop\\(\\)\\|\\|\\4:\\3=\\1\\.split\\("/"\\)\\.pop\\(\\)\\|\\|""`, "g"), to: (all, w, f, g, c) => `${w}===${f}?${g}=__findStartName(${c}):${g}=${w}.split("/").pop()||""`, count: 1 },
  { what: "find path below a start point", when: 'name:"find",async execute(', re: new RegExp(`let (${ID})=(${ID})===(${ID})\\?(${ID}):\\4==="\\."\\?\`\\./\\$\\{\\2\\.slice\\(\\3==="/"\\?\\3\\.length:\\3\\.length\\+1\\)\\}\`:\\4\\+\\2\\.slice\\(\\3\\.length\\)`, "g"), to: (all, b, w, f, c) => `let ${b}=${w}===${f}?${c}:__findJoin(${c},${w}.slice(${f}==="/"?1:${f}.length+1))`, count: 1 },
  { what: "find -printf %P", when: 'name:"find",async execute(', re: new RegExp(`case"P":\\{let (${ID})=(${ID})\\.startingPoint;\\2\\.path===\\1\\?(${ID})=""(?:(?!break\\})[^])*?,(${ID})\\+\\+;break\\}`, "g"), to: (all, p, t, l, a) => `case"P":{let ${p}=${t}.startingPoint;${l}=__findBelowStart(${t}.path,${p}),${a}++;break}`, count: 1 },
  // du: a line for every operand (a file, a link as itself), `ld/` walked through the link, children joined as GNU.
  { what: "du operand check", when: 'name:"du",async execute(', re: new RegExp(`try\\{await (${ID})\\.fs\\.stat\\((${ID})\\);(let (${ID})=await (?:(?!catch)[^])*?)catch\\((${ID})\\)\\{if\\(\\5 instanceof (${ID})\\|\\|\\5 instanceof (${ID})\\)throw \\5;(${ID})\\+=\`du: cannot access '\\$\\{(${ID})\\}': No such file or directory\\n\`\\}`, "g"), to: (all, s, f, body, r, e, x, y, o, u) => `try{await(__followsStart(${u})?${s}.fs.stat(${f}):${s}.fs.lstat(${f}));${body}catch(${e}){if(${e} instanceof ${x}||${e} instanceof ${y})throw ${e};${o}+=\`du: cannot access '\${${u}}': \${__readFailureReason(${e})}\\n\`}`, count: 1 },
  { what: "du walk root", when: 'name:"du",async execute(', re: new RegExp(`(async function (${ID})\\((${ID}),(${ID}),(${ID}),(${ID}),(${ID})\\)\\{(?:(?!function )[^])*?symlinks:"never",)(includeLeave:!0\\})`, "g"), to: (all, head, fn, t, s, a, l, i, tail) => `${head}followRoot:__followsStart(${a}),${tail}`, count: 1 },
  { what: "du names", when: 'name:"du",async execute(', re: new RegExp(`let (${ID})=(${ID})\\.path\\.slice\\((${ID})\\.length\\)\\.replace\\(/\\^\\\\//,""\\),(${ID})=\\1\\?(${ID})==="\\."\\?\\1:\`\\$\\{\\5\\}/\\$\\{\\1\\}\`:\\5,`, "g"), to: (all, u, e, s, f, a) => `let ${u}=__belowRoot(${e}.path,${s}),${f}=${u}?__childName(${a},${u}):__duName(${a}),`, count: 1 },
  { what: "du -s of a file", when: 'name:"du",async execute(', re: new RegExp(`\\((${ID})\\.allFiles\\|\\|(${ID})\\.depth===(${ID})\\)&&!\\1\\.summarize&&`, "g"), to: (all, l, e, i) => `(${l}.allFiles&&!${l}.summarize||${e}.depth===${i})&&`, count: 1 },
  // A directory counts its own size (4096 in the shell, fs-adapter.ts SHELL_DIRECTORY_SIZE), as GNU du counts a
  // directory's own block; an empty file is 0, not 1 (GNU `du -a` prints 0) (issue 20, run 36, fixer FS).
  { what: "du directory's own size (fixer FS)", when: 'name:"du",async execute(', re: new RegExp(`if\\((${ID})\\.phase==="enter"\\)\\{if\\(\\1\\.stat\\.isDirectory\\)\\{(${ID})\\.set\\(\\1\\.path,0\\);return\\}`, "g"), to: (all, e, o) => all.replace(`${o}.set(${e}.path,0)`, `${o}.set(${e}.path,${e}.stat.size)`), count: 1 }, // fixer FS
  { what: "du size of an empty file (fixer FS)", when: 'name:"du",async execute(', re: /String\(Math\.ceil\(([\w$]+)\/1024\)\|\|1\)/g, to: (all, t) => `String(Math.ceil(${t}/1024))`, count: 1 }, // fixer FS
  { what: "walk root followed", when: '"symbolic-link directory cycle detected"', re: new RegExp(`let (${ID})=await (${ID})\\.fs\\.lstat\\((${ID})\\.path\\),`, "g"), to: (all, o, e, i) => `let ${o}=await(${i}.depth===0&&${e}.followRoot===!0?${e}.fs.stat(${i}.path):${e}.fs.lstat(${i}.path)),`, count: 1 },
  // Issue 20, twenty-second attack run (fixer SH1; helpers in src/backends/worker-shell/isolate/path-errors.ts).
  // A glob ending in `/` matches directories only, following links, and keeps the slash (bash: `rm -rf */`
  // removed every file too); a middle segment descends through a link to a directory (`*/*` lists `le/g.md`).
  { what: "glob trailing slash", re: new RegExp(String.raw`async expandSimple\((${ID})\)\{`, "g"), to: (all, t) => `${all}{let __dirs=__pathErrors.globDirectoryPattern(${t});if(__dirs!==null&&this.hasGlobChars(__dirs.prefix))return __pathErrors.globDirectories(this.fs,this.cwd,await this.expandSimple(__dirs.prefix),__dirs.suffix,this.hasGlobignore||this.globskipdots)}`, count: 1 },
  { what: "glob through a link", re: new RegExp(String.raw`(${ID})\.length===0\?(${ID})\.push\(Promise\.resolve\(\[(${ID})\]\)\):(${ID})\.isDirectory&&\2\.push\(this\.expandSegments\(`, "g"), to: (all, rest, list, h, d) => all.replace(`${d}.isDirectory&&`, `(${d}.isDirectory||${d}.isSymbolicLink)&&`), count: 1 },
  // find -path / -ipath: no `/<segment>/` pre-filter (it rejected `find d -path 'd/e*'`); the glob alone decides.
  { what: "find -path segment pre-filter", when: 'name:"find",async execute(', re: new RegExp(String.raw`for\(let (${ID})=0;\1<(${ID})\.length-1;\1\+\+\)\{let (${ID})=\2\[\1\];if\(\3&&\3!=="\."&&\3!=="\.\."&&!\3\.includes\("\*"\)&&!\3\.includes\("\?"\)&&!\3\.includes\("\["\)\)\{let (${ID})=\`/\$\{\3\}/\`;if\((${ID})\.ignoreCase\)\{if\(!(${ID})\.toLowerCase\(\)\.includes\(\4\.toLowerCase\(\)\)\)return\{matches:!1,pruned:!1,printed:!1\}\}else if\(!\6\.includes\(\4\)\)return\{matches:!1,pruned:!1,printed:!1\}\}\}`, "g"), to: () => "", count: 2 },
  // rm -f ignores only a missing operand (GNU): a read-only mount's EROFS is reported (`Read-only file system`), $? 1.
  { what: "rm -f ignores only a missing operand", when: 'name:"rm",async execute(', re: new RegExp(String.raw`catch\((${ID})\)\{if\(!(${ID})\)\{(let (${ID})=${ID}\(\1\);${ID}\.includes\("ENOENT"\)(?:(?!catch)[^])*?)\$\{(${ID})\(\4\)\}\n\``, "g"), to: (all, e, force, body, o, clean) => `catch(${e}){if(!${force}||!__pathErrors.rmForceIgnores(${e})){${body}\${__pathErrors.reason(${e},${clean}(${o}))}\n\``, count: 1 },
  // The error's own reason (strerror of its code) where just-bash said `No such file or directory` for every failure:
  // chmod (GNU's `changing permissions of` for a refused change), sed -i, cat, ls, stat, head/tail, grep, cd, pushd, `<`.
  { what: "chmod failure reason", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`catch\((${ID})\)\{(${ID})\(\1\),(${ID})\+=\`chmod: cannot access '\$\{(${ID})\}': No such file or directory\n\``, "g"), to: (all, e, check, err, op) => `catch(${e}){${check}(${e}),${err}+=__pathErrors.chmodFailure(${op},${e})`, count: 1 },
  { what: "sed -i failure reason", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(await ${ID}\("in-place output write",(?:(?!catch)[^])*?catch\((${ID})\)\{(?:(?!\}\}\})[^])*?stderr:\`sed: \$\{${ID}\}: )No such file or directory(\n\`,exitCode:1\}\}\})`, "g"), to: (all, head, e, tail) => `${head}\${__pathErrors.reason(${e})}${tail}`, count: 1 },
  { what: "cat/stat failure reason", re: new RegExp(String.raw`catch\((${ID})\)\{(${ID})\(\1\),(${ID})\+=\`(cat: \$\{${ID}\}|stat: cannot stat '\$\{${ID}\}'): No such file or directory\n\``, "g"), to: (all, e, check, err, head) => `catch(${e}){${check}(${e}),${err}+=\`${head}: \${__pathErrors.reason(${e})}\n\``, count: 2 },
  { what: "ls failure reason", when: 'name:"ls",async execute(', re: new RegExp(String.raw`catch\{((${ID})=(${ID})\(${ID},\2,\`ls: cannot access '\$\{${ID}\}': )No such file or directory(\n\`\))`, "g"), to: (all, head, f, g, tail) => `catch(__lsError){${head}\${__pathErrors.reason(__lsError)}${tail}`, count: 1 },
  { what: "ls directory failure reason", when: 'name:"ls",async execute(', re: new RegExp(String.raw`catch\((${ID})\)\{(if\(\1 instanceof ${ID}\|\|\1 instanceof ${ID}\)throw \1;return\{stdout:"",stderr:\`ls: \$\{${ID}\}: )No such file or directory(\n\`,exitCode:2\}\})`, "g"), to: (all, e, head, tail) => `catch(${e}){${head}\${__pathErrors.reason(${e})}${tail}`, count: 1 },
  { what: "head/tail failure reason", re: new RegExp(String.raw`catch\((${ID})\)\{(${ID})\(\1\),(${ID})\.append\(\`(\$\{${ID}\}: \$\{${ID}\}: )No such file or directory\n\`\)`, "g"), to: (all, e, check, err, head) => `catch(${e}){${check}(${e}),${err}.append(\`${head}\${__pathErrors.reason(${e})}\n\`)`, count: 1 },
  { what: "grep failure reason", when: 'name:"grep",async execute(', re: new RegExp(String.raw`catch\((${ID})\)\{return (${ID})\(\1\),\{(stdout:"",stderr:|error:)\`grep: \$\{(${ID})\}: No such file or directory\n\``, "g"), to: (all, e, check, head, name) => `catch(${e}){return ${check}(${e}),{${head}\`grep: \${${name}}: \${__grepGnu.failure(${e},__pathErrors.reason)}\n\``, count: 2 }, // SG: a failure that is no fs error keeps its text
  { what: "cd/pushd failure reason", re: new RegExp(String.raw`catch\{return (${ID})\(\`bash: (cd|pushd): \$\{(${ID})\}: No such file or directory\n\``, "g"), to: (all, d, cmd, name) => `catch(__cdError){return ${d}(\`bash: ${cmd}: \${${name}}: \${__pathErrors.reason(__cdError)}\n\``, count: 2 },
  { what: "input redirection failure reason", re: new RegExp(String.raw`(${ID}=await ${ID}\(${ID}\.fs,${ID}\),${ID}=-1,${ID}\(${ID},\{kind:"input",content:${ID}\}\)\})catch\{return (${ID})\((${ID})\("",\`bash: \$\{(${ID})\}: No such file or directory\n\``, "g"), to: (all, head, p, l, v) => `${head}catch(__inError){return ${p}(${l}("",\`bash: \${${v}}: \${__pathErrors.reason(__inError)}\n\``, count: 1 },
  // grep -r as GNU grep 3.8 walks (issue 20, twenty-second attack run): no file operand searches the working
  // directory (names without a `./`), an explicit `.` names its files `./a.txt`, hidden names are searched like any
  // other (only --exclude/--exclude-dir skip), and a start point that cannot be read is reported (`grep: nosuch: No
  // such file or directory`, status 2) instead of searched as empty.
  { what: "grep -r operands", when: 'name:"grep",async execute(', re: new RegExp(`(else if\\((${ID})==="r"\\|\\|\\2==="R"\\|\\|\\2==="--recursive"\\)(${ID})=!0;(?:(?!function )[^])*?)if\\((${ID})\\.length===0&&(${ID})\\.stdin!==void 0\\)\\{`, "g"), to: (all, head, n, a, files, ctx) => `${head}if(${a}){for(let __i=0;__i<${files}.length;__i++)${files}[__i]==="."&&(${files}[__i]="./");${files}.length===0&&${files}.push(".")}if(${files}.length===0&&${ctx}.stdin!==void 0){`, count: 1 },
  { what: "grep -r hidden names", when: 'name:"grep",async execute(', re: new RegExp(`if\\((${ID})\\((${ID})\\),(${ID})(?:\\.name)?\\.startsWith\\("\\."\\)\\)continue;(?=let ${ID}=(${ID})==="\\."\\?\\3)`, "g"), to: (all, check, state) => `${check}(${state});`, count: 2 },
  { what: "grep -r start point unreadable", when: 'name:"grep",async execute(', re: new RegExp(`(async function (${ID})\\((${ID}),(${ID}),(${ID})=\\[\\],(${ID})=\\[\\],(${ID})=\\[\\],(${ID}),(${ID})=\\{operations:0,(?:(?!function )[^])*?\\},(${ID})=\\[\\],(${ID})=0\\)\\{(?:(?!function )[^])*?catch\\((${ID})\\)\\{(${ID})\\(\\12\\)\\})return \\10\\}`, "g"), to: (all, head, fn, start, ctx, inc, exc, excDir, isFile, budget, out, depth) => `${head}${depth}===0&&${out}.length===0&&${out}.push({path:${start}});return ${out}}`, count: 1 },
  // grep -r: a child of `d/` is `d/f.txt`, not `d//f.txt`.
  { what: "grep -r child names", when: 'name:"grep",async execute(', re: new RegExp(`let (${ID})=(${ID})==="\\."\\?(${ID}(?:\\.name)?):\`\\$\\{\\2\\}/\\$\\{\\3\\}\``, "g"), to: (all, m, t, x) => `let ${m}=${t}==="."?${x}:__childName(${t},${x})`, count: 3 },
  // Issue 20, twenty-second attack run (fixer SH3; helpers in path-errors.ts). grep -e: every pattern counts, as GNU
  // grep 3.8 (just-bash kept only the last `-e`): `-e`, `--regexp PAT`, `--regexp=PAT`, `-ePAT` and `-ie PAT` each
  // add one, beside `-f FILE`'s; `-e`/`-f` without an argument is GNU's complaint, status 2.
  { what: "grep -e patterns", when: 'name:"grep",async execute(', re: new RegExp(String.raw`if\((${ID})==="-e"&&(${ID})\+1<(${ID})\.length\)\{(${ID})=\3\[\+\+\2\];continue\}((?:(?!function )[^])*?for\(let (${ID})=0;\6<(${ID})\.length;\6\+\+\)\{let (${ID})=\7\[\6\];)(if\(\8==="f"\|\|\8==="--file"\)\{(?:(?!function )[^])*?else return\{stdout:"",stderr:)\8==="f"\?\`grep: option requires an argument -- 'f'\n\`:\`grep: option '--file' requires an argument\n\`,`, "g"), to: (all, r, s, t, pats, head, p, d, n, f) =>
    `if((${r}==="-e"||${r}==="--regexp")&&${s}+1<${t}.length){${pats}=__pathErrors.grepPattern(${pats},${t}[++${s}]);continue}if(${r}.startsWith("--regexp=")){${pats}=__pathErrors.grepPattern(${pats},${r}.slice(9));continue}${head}if(${n}==="e"||${n}==="--regexp"){let __pattern=${n}==="e"?${d}.slice(${p}+1).join(""):"";if(__pattern.length===0){if(${s}+1>=${t}.length)return{stdout:"",stderr:__pathErrors.grepMissingArgument(${n}),exitCode:2};__pattern=${t}[++${s}]}${pats}=__pathErrors.grepPattern(${pats},__pattern);break}${f}__pathErrors.grepMissingArgument(${n}),`, count: 1 },
  // grep names each file (`a.txt:x`) when it searches more than one operand, walks a directory, or is given -H
  // (`--with-filename`; the last of -h/-H wins), as GNU grep 3.8: `grep -r x a.txt` is `x`, `grep -r x d` `d/f.txt:x`
  // (just-bash named every file under -r and had no -H).
  { what: "grep -H", when: 'name:"grep",async execute(', re: new RegExp(String.raw`(name:"grep",async execute\(${ID},${ID}\)\{let )((?:(?!function )[^])*?else if\((${ID})==="h"\|\|\3==="--no-filename"\)(${ID})=!0;)`, "g"), to: (all, head, rest, n, noNames) => `${head}__withFilename=!1,${rest}else if(${n}==="H"||${n}==="--with-filename")${noNames}=!1,__withFilename=!0;`, count: 1 },
  { what: "grep -r names a walked directory", when: 'name:"grep",async execute(', re: new RegExp(String.raw`if\((${ID})=!0,(${ID})\.includes\("\*"\)\|\|\2\.includes\("\?"\)\|\|\2\.includes\("\["\)\)\{let (${ID})=await (${ID})\(\2,(${ID}),(${ID})\);if\((${ID})\)for\(let (${ID}) of \3\)\{let (${ID})=await (${ID})\(\8\.path,((?:${ID},){4})\8\.isFile,\6\);(${ID})\(\9\)\}else \12\(\3\)\}else if\(\7\)\{let (${ID})=await \10\(\2,\11void 0,\6\);\12\(\13\)\}((?:(?!function )[^])*?let ${ID}=\()(${ID})\.length>1\|\|\7&&\1\)&&!(${ID})`, "g"), to: (all, walked, s, r, glob, e, R, a, v, o, V, args, add, r2, mid, list, noNames) =>
    `if(${s}.includes("*")||${s}.includes("?")||${s}.includes("[")){let ${r}=await ${glob}(${s},${e},${R});if(${a})for(let ${v} of ${r}){let ${o}=await ${V}(${v}.path,${args}${v}.isFile,${R});${walked}=${walked}||${o}.some(__found=>__found.path!==${v}.path);${add}(${o})}else ${add}(${r})}else if(${a}){let ${r2}=await ${V}(${s},${args}void 0,${R});${walked}=${walked}||${r2}.some(__found=>__found.path!==${s});${add}(${r2})}${mid}__withFilename||${list}.length>1||${a}&&${walked})&&!${noNames}`, count: 1 },
  // --dereference-recursive is -R (src/backends/worker-shell/walks.ts already walks it so; just-bash refused it).
  { what: "grep --dereference-recursive", when: 'name:"grep",async execute(', re: new RegExp(String.raw`else if\((${ID})==="r"\|\|\1==="R"\|\|\1==="--recursive"\)`, "g"), to: (all, n) => `else if(${n}==="r"||${n}==="R"||${n}==="--recursive"||${n}==="--dereference-recursive")`, count: 1 },
  // grep -R follows a link met while walking to a file too (stat, not the listing's type), and reports one that
  // leads nowhere (`grep: w/dl: No such file or directory`, status 2), as GNU; grep -r's listings leave links out.
  { what: "grep -R follows links to files", when: 'name:"grep",async execute(', re: new RegExp(String.raw`(async function (${ID})\((${ID}),${ID},${ID}=\[\],${ID}=\[\],${ID}=\[\],(${ID}),(${ID})=\{operations:0,(?:(?!function )[^])*?\},(${ID})=\[\],(${ID})=0\)\{(?:(?!function )[^])*?await \2\((?:${ID},){5})(${ID})\.isFile,(\5,\6,\7\+1\)(?:(?!function )[^])*?catch\((${ID})\)\{(${ID})\(\10\))\}`, "g"), to: (all, head, V, t, h, c, u, a, x, tail) => `${head}${x}.isSymbolicLink?void 0:${x}.isFile,${tail};${a}>0&&${h}===void 0&&${u}.push({path:${t}})}`, count: 1 },
  // Issue 20, twenty-second attack run (fixer SH2; helpers in src/backends/worker-shell/isolate/text-output.ts).
  // sed -iSUFFIX / --in-place=SUFFIX keeps the original as <file><SUFFIX> (`*` in SUFFIX is the file name, as GNU sed
  // 4.9); `-ni.bak` is `-n -i.bak` (getopt); a file sed cannot read is `sed: can't read f: <reason>`, sed goes on with
  // the next one and exits 2; a directory stops it with status 4.
  { what: "sed -i suffix", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(${ID})=\[\];(for\(let (${ID})=0;\3<(${ID})\.length;\3\+\+\)\{let (${ID})=\4\[\3\];if\(\5==="-n"\|\|\5==="--quiet"\|\|\5==="--silent"\)(${ID})=!0;else if\(\5==="-i"\|\|\5==="--in-place"\)(${ID})=!0;else if\()\5\.startsWith\("-i"\)\)\7=!0;`, "g"), to: (all, o, loop, l, i, f, a, r) => `${o}=[],__sedSuffix="",__sedErr="",__sedCode=0,__sedStop=0;${loop}${f}.startsWith("-i")||${f}.startsWith("--in-place="))${r}=!0,__sedSuffix=__textOutput.sedSuffix(${f});`, count: 1 },
  { what: "sed -i in an option group", when: 'name:"sed",async execute(', re: new RegExp(String.raw`else if\((${ID})\.startsWith\("-"\)&&\1\.length>1\)\{(?=for\(let (${ID}) of \1\.slice\(1\)\)if\(\2!=="n"&&\2!=="e")`, "g"), to: (all, f) => `${all}{let __group=__textOutput.sedFlagGroup(${f});__group!==null&&(${f}=__group.flags,__sedSuffix=__group.suffix)}`, count: 1 },
  { what: "sed -i files", when: 'name:"sed",async execute(', re: new RegExp(String.raw`if\((${ID})\)\{if\((${ID})\.length===0\)return(\{stdout:"",stderr:\`sed: -i requires at least one file argument\n\`,exitCode:1\});for\(let (${ID}) of \2\)\{if\(\4==="-"\)continue;let (${ID})=(${ID})\.fs\.resolvePath\(\6\.cwd,\4\);try\{let (${ID})=await (${ID})\("in-place input read",\(\)=>\6\.fs\.readFile\(\5\)\),(${ID})=await \8\("in-place processing",(\(\)=>(?:(?!\);if\()[^])*?)\);if\(\9\.errorMessage\)return\{stdout:"",stderr:\`\$\{\9\.errorMessage\}\n\`,exitCode:\9\.exitCode\?\?1\};await \8\("in-place output write",\(\)=>\6\.fs\.writeFile\(\5,\9\.output\)\)\}catch\((${ID})\)\{if\(\11 instanceof (${ID})\)throw \11;return \11 instanceof (${ID})\?(\{stdout:"",stderr:\`sed: \$\{(?:(?!\`)[^])*\}\n\`,exitCode:\13\.EXIT_CODE\}):(\{stdout:"",stderr:\`sed: \$\{\4\}: (?:(?!\`)[^])*\n\`,exitCode:1\})\}\}return\{stdout:"",stderr:"",exitCode:0\}\}`, "g"), to: (all, r, o, usage, l, f, e, b, t, v, proc, x, I, X, xResult, failure) =>
    `if(${r}){if(${o}.length===0)return${usage};for(let ${l} of ${o}){if(${l}==="-")continue;let ${f}=${e}.fs.resolvePath(${e}.cwd,${l}),__phase=0;try{let ${b}=await ${t}("in-place input read",()=>${e}.fs.readFile(${f}));__phase=1;let ${v}=await ${t}("in-place processing",${proc});if(${v}.errorMessage)return{stdout:"",stderr:__sedErr+\`\${${v}.errorMessage}\n\`,exitCode:${v}.exitCode??1};__phase=2;__sedSuffix!==""&&await __textOutput.sedBackup(${e}.fs,${e}.cwd,${l},${f},__sedSuffix);__phase=3;await ${t}("in-place output write",()=>${e}.fs.writeFile(${f},${v}.output))}catch(${x}){if(${x} instanceof ${I})throw ${x};let __result;if(${x} instanceof ${X})__result=${xResult};else if(__phase===0){let __failure=__textOutput.sedReadFailure(${l},${x},!0);if(__failure.exitCode===2){__sedErr+=__failure.message,__sedCode=2;continue}__result={stdout:"",stderr:__failure.message,exitCode:__failure.exitCode}}else __result=__phase===2?{stdout:"",stderr:__textOutput.sedBackupFailure(${l},${x}),exitCode:4}:${failure};__result.stderr=__sedErr+__result.stderr;return __result}}return{stdout:"",stderr:__sedErr,exitCode:__sedCode}}`, count: 1 },
  { what: "sed input files", when: 'name:"sed",async execute(', re: new RegExp(String.raw`try\{(${ID})=await (${ID})\("input file read",\(\)=>(${ID})\.fs\.readFile\((${ID})\)\)\}catch\((${ID})\)\{if\(\5 instanceof (${ID})\)throw \5;return \5 instanceof (${ID})\?(\{stdout:"",stderr:\`sed: \$\{(?:(?!\`)[^])*\}\n\`,exitCode:\7\.EXIT_CODE\}):\{stdout:"",stderr:\`sed: \$\{(${ID})\}: No such file or directory\n\`,exitCode:1\}\}`, "g"), to: (all, f, t, e, b, v, I, X, xResult, l) =>
    `try{${f}=await ${t}("input file read",()=>${e}.fs.readFile(${b}))}catch(${v}){if(${v} instanceof ${I})throw ${v};if(${v} instanceof ${X}){let __result=${xResult};__result.stderr=__sedErr+__result.stderr;return __result}{let __failure=__textOutput.sedReadFailure(${l},${v},!1);__sedErr+=__failure.message;if(__failure.exitCode===2){__sedCode=2;continue}__sedStop=__failure.exitCode;break}}`, count: 1 },
  { what: "sed input files status", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(let (${ID})=await (${ID})\("final processing",(?:(?!\);return)[^])*?\);return\{stdout:\2\.output,stderr:)(\2\.errorMessage\?\`\$\{\2\.errorMessage\}\n\`:""),exitCode:\2\.exitCode\?\?0\}`, "g"), to: (all, head, l, t, message) => `${head}__sedErr+(${message}),exitCode:__sedStop||${l}.exitCode||__sedCode}`, count: 1 },
  // md5sum / sha1sum / sha256sum: errors and WARNING lines on stderr with the error's reason, -c as GNU coreutils 9.1.
  { what: "checksum commands", re: new RegExp(String.raw`async function (${ID})\((${ID}),(${ID})\)\{if\(\2==="md5"\)return (?:(?!function )[^])*?function (${ID})\((${ID}),(${ID}),(${ID})\)\{let (${ID})=\{name:\5,(?:(?!function )[^])*?async execute\((${ID}),(${ID})\)\{if\((${ID})\(\9\)\)return (${ID})\(\8\);(?:(?!function )[^])*?return (${ID})\(\5,(${ID})\);(?:(?!function )[^])*?\?(${ID})\(\10\.stdin\):`, "g"), to: (all, digest, a1, a2, command, n, h, g, usage, args, ctx, isHelp, help, unknown, e, decode) => {
    const entry = `async execute(${args},${ctx}){if(${isHelp}(${args}))return ${help}(${usage});`;
    return all.replace(entry, `${entry}return __textOutput.checksumCommand(${n},${h},${args},${ctx},${digest},${decode},${unknown});`);
  }, count: 1 },
  // SP: a byte an escape writes (printf's `\xHH` `\NNN` in the format and `%b`, find -printf, echo -e, $'…', awk
  // strings) is that one byte, as bash 5.2 and GNU write it: just-bash made a byte >= 0x80 that forms no UTF-8 the
  // Latin-1 character (`printf '\xc0'` wrote c3 80). Each byte is now its surrogate escape (__escapes.byteChar) and the
  // text joins runs that form UTF-8 (`\303\251` is é, `\xef\xbb\xbf` a BOM); helpers in isolate/escapes.ts.
  { what: "escape bytes: UTF-8 or Latin-1 decoders (SP)", re: new RegExp(String.raw`function (${ID})\((${ID})\)\{let (${ID})="",(${ID})=0;for\(;\4<\2\.length;\)\{let (${ID})=\2\[\4\];if\(\5<128\)\{\3\+=String\.fromCharCode\(\5\),\4\+\+;continue\}if\(\(\5&224\)===192\)(?:(?!function )[^])*?\3\+=String\.fromCharCode\(\5\),\4\+\+\}return \3\}`, "g"), to: (all, f, bytes) => `function ${f}(${bytes}){return __escapes.bytesText(${bytes})}`, count: 2 }, // SP
  { what: "escape bytes: octal and hex numbers (SP)", re: new RegExp(String.raw`String\.fromCharCode\(parseInt\((${ID}),(8|16)\)\)`, "g"), to: (all, digits, base) => `__escapes.byteChar(parseInt(${digits},${base}))`, count: 5 }, // SP
  { what: "escape bytes: echo -e and $'' numbers (SP)", re: new RegExp(String.raw`let (${ID})=parseInt\((${ID}),(8|16)\)(%256)?;(${ID})\+=String\.fromCharCode\(\1\)`, "g"), to: (all, v, digits, base, mod, out) => `let ${v}=parseInt(${digits},${base})${mod ?? ""};${out}+=__escapes.byteChar(${v})`, count: 3 }, // SP
  { what: "escape bytes: printf format \\xH (SP)", re: new RegExp(String.raw`case"x":\{let ${ID}=\[\],${ID}=(${ID});for\((?:(?!function )[^])*?\}else (${ID})\+=(${ID})\[\1\],\1\+\+;break\}((?:(?!function )[^])*?default:\2\+=\3\[\1\],\1\+\+\}else \2\+=\3\[\1\],\1\+\+;)return \2\}`, "g"), to: (all, e, n, t, rest) => // SP
    `case"x":{let __hex=/^[0-9a-fA-F]{1,2}/.exec(${t}.slice(${e}+2,${e}+4));__hex?(${n}+=__escapes.byteChar(parseInt(__hex[0],16)),${e}+=2+__hex[0].length):(${n}+=${t}[${e}],${e}++);break}${rest}return __escapes.joinBytes(${n})}`, count: 1 }, // SP
  { what: "escape bytes: printf output (SP)", when: '{name:"printf",summary:', re: new RegExp(String.raw`do\{let\{result:(${ID}),argsConsumed:${ID},error:${ID},errMsg:${ID},stopped:${ID}\}=${ID}\((?:(?!function )[^])*?if\((${ID})\+=\1,(?:(?!function )[^])*?\}while\([^)]*\);`, "g"), to: (all, g, a) => `${all}${a}=__escapes.joinBytes(${a});`, count: 1 }, // SP
  { what: "escape bytes: echo -e output (SP)", when: '{name:"echo",async execute(', re: new RegExp(String.raw`let (${ID})=(${ID})\((${ID})\);if\(\3=\1\.output,\1\.stop\)`, "g"), to: (all, l, n, t) => `let ${l}=${n}(${t});if(${t}=__escapes.joinBytes(${l}.output),${l}.stop)`, count: 1 }, // SP
  { what: "escape bytes: $'' (SP)", re: new RegExp(String.raw`let (${ID})=(${ID})\.slice\((${ID})\+2,\3\+4\),(${ID})=parseInt\(\1,16\);if\(!Number\.isNaN\(\4\)&&\1\.length>0\)((?:(?!function )[^])*?return (${ID})<${ID}\.length&&${ID}\[\6\]==="'"&&\6\+\+,\{part:${ID}\.literal\()(${ID})\)`, "g"), to: (all, c, t, l, u, rest, s, r) => // SP
    `let ${c}=/^[0-9a-fA-F]*/.exec(${t}.slice(${l}+2,${l}+4))[0],${u}=parseInt(${c},16);if(!Number.isNaN(${u})&&${c}.length>0)${rest}__escapes.joinBytes(${r}))`, count: 1 }, // SP
  { what: "escape bytes: awk strings (SP)", re: new RegExp(String.raw`(return this\.peek\(\)==='"'&&this\.advance\(\),\{type:${ID}\.STRING,value:)(${ID}),`, "g"), to: (all, head, r) => `${head}__escapes.joinBytes(${r}),`, count: 1 }, // SP
  // SR: read, mapfile and readarray take characters, as bash 5.2 in a UTF-8 locale: their stdin (a pipe, a redirect, // SR
  // a here-string or here-document: just-bash's byte string) is read one UTF-8 character at a time, a byte that is // SR
  // not UTF-8 as its escape (it was Latin-1 text: `read x <<< é` gave c3 83 c2 a9); -n/-N count characters, -d takes // SR
  // the delimiter's first character; the input of an open descriptor (-u, <&N) is text already (isolate/read-input.ts). // SR
  { what: "read and mapfile get their stdin's source (SR)", re: new RegExp(String.raw`if\((${ID})==="read"\)return (${ID})\((${ID}),(${ID}),(${ID}),(${ID})\);if\(\1==="mapfile"\|\|\1==="readarray"\)return (${ID})\(\3,\4,\5\);`, "g"), to: (all, t, q, c, n, s, a, j) => `if(${t}==="read")return ${q}(${c},${n},${s},${a});if(${t}==="mapfile"||${t}==="readarray")return ${j}(${c},${n},${s},${a});`, count: 1 }, // SR
  { what: "read decodes its input (SR)", re: new RegExp(String.raw`(function ${ID}\((${ID}),${ID},(${ID}),(${ID})=-1\)\{let (${ID})=!1,(${ID})=` + "`\n`" + String.raw`,(?:(?!function )[^])*?let (${ID})=\3,${ID}=${ID}\(\2,(${ID})\),(${ID})=\8>0&&(?:(?!function )[^])*?let (${ID})=\6===""\?"\\0":\6,(${ID})="",${ID}=0,(${ID})=(?:(?!function )[^])*?)if\((${ID})>=0\)\{let (${ID})=Math\.min\(\13,\7\.length\);\11=\7\.substring\(0,\14\),(${ID})\(\11\),(${ID})=\14,(${ID})=\14>=\13,(${ID})\(\16\);((?:(?!function )[^])*?return ${ID}\("","",\17\?0:1\)\})else if\((${ID})>=0\)\{(?:(?!function )[^])*?\17=${ID}>=\20\|\|${ID},\18\(\16\)\}else\{\16=0;(?:(?!function )[^])*?if\((${ID})>=\7\.length&&\(\17=!1,\16=\21,\11\.length===0&&\7\.length===0\)\)(\{(?:(?!function )[^])*?\})\18\(\16\)\}(?=\10===` + "`\n`" + String.raw`&&\11\.endsWith)`, "g"), to: (all, head, e, n, r, s, i, b, u, y, S, v, A, l, x, C, N, P, $, exact, a, z, eof) => // SR
    `${head}let __scan=__readInput.readScan(${b},!${y}&&!(${r}>=0)&&!(!${n}&&(${e}.state.groupStdinSourceFd??-1)>=0),${l},${a},${S},${s});if(${l}>=0){${v}=__scan.value,${C}(${v}),${N}=__scan.consumed,${P}=__scan.complete,${$}(${N});${exact}else if(${a}>=0){${A}(__scan.value),${P}=__scan.complete,${$}(__scan.consumed)}else{${N}=__scan.consumed,${A}(__scan.value);if(__scan.end&&(${P}=!1,${v}.length===0&&${b}.length===0))${eof}${$}(${N})}`, count: 1 }, // SR
  { what: "mapfile decodes its input (SR)", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{(let ${ID}=` + "`\n`" + String.raw`,${ID}=0,${ID}=0,${ID}=0,${ID}=!1,${ID}="MAPFILE",(?:(?!function )[^])*?let (${ID})=\4;!\6&&\2\.state\.groupStdin!==void 0&&\(\6=\2\.state\.groupStdin\);)`, "g"), to: (all, f, e, t, n, body, u) => // SR
    `function ${f}(${e},${t},${n},__source=-1){${body}${u}=__readInput.inputText(${u},!(__source>=0)&&!(!${n}&&(${e}.state.groupStdinSourceFd??-1)>=0));`, count: 1 }, // SR
  // SR: the other escape readers write bytes too: sed's \xHH \oNNN \dNNN \cX (regex and replacement) and \a \f \v // SR
  // (replacement) as GNU sed 4.9 (it kept the letter: `s/a/\x41/` wrote x41); tr's \NNN octal and \a \b \f \v, ranges // SR
  // of them; printf %b's \e \E; printf's 'c argument is the code point, or the byte of a byte escape; %c the first byte. // SR
  { what: "sed s escapes (SR)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`\{type:"substitute",address:(${ID}),pattern:(${ID})\.pattern\|\|"",replacement:\2\.replacement\|\|"",`, "g"), to: (all, t, e) => `{type:"substitute",address:${t},pattern:__escapes.sedPattern(${e}.pattern||""),replacement:__escapes.sedReplacement(${e}.replacement||""),`, count: 1 }, // SR
  { what: "sed replacement \\\\ (SR)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(${ID})==="\\\\"\?\(this\.advance\(\),this\.pos<this\.input\.length&&this\.peek\(\)===` + "`\n`" + String.raw`\?\((${ID})\+=` + "`\n`" + String.raw`,this\.advance\(\)\):\2\+="\\\\"\)`, "g"), to: (all) => `${all.slice(0, -5)}"\\\\\\\\")`, count: 1 }, // SR: `\\` stays an escaped backslash (`s/a/\\n/` wrote a newline)
  { what: "sed address escapes (SR)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`case (${ID})\.PATTERN:return this\.advance\(\),\{pattern:(${ID})\.pattern\|\|\2\.value\};`, "g"), to: (all, c, e) => `case ${c}.PATTERN:return this.advance(),{pattern:__escapes.sedPattern(${e}.pattern||${e}.value)};`, count: 1 }, // SR
  { what: "tr escapes (SR)", when: '{name:"tr",summary:', re: new RegExp(String.raw`if\((${ID})\[(${ID})\]==="\\\\"&&\2\+1<\1\.length\)\{let (${ID})=\1\[\2\+1\];(${ID})\(\3==="n"\?` + "`\n`" + String.raw`:\3==="t"\?"\t":\3==="r"\?"\\r":\3\),\2\+=2;continue\}`, "g"), to: (all, o, t, e, a) => // SR
    `if(${o}[${t}]==="\\\\"&&${t}+1<${o}.length){let[${e},__n]=__escapes.trEscape(${o},${t});if(${o}[${t}+__n]==="-"&&${t}+__n+1<${o}.length){let[__z,__m]=${o}[${t}+__n+1]==="\\\\"?__escapes.trEscape(${o},${t}+__n+1):[${o}[${t}+__n+1],1];${a}(__escapes.trRange(${e},__z)),${t}+=__n+1+__m;continue}${a}(${e}),${t}+=__n;continue}`, count: 1 }, // SR
  { what: "printf %b \\e (SR)", when: '{name:"printf",summary:', re: new RegExp(String.raw`case"v":(${ID})\+="\\v",(${ID})\+=2;break;case"c":return\{value:\1,stopped:!0\};`, "g"), to: (all, n, r) => `${all}case"e":case"E":${n}+="\\x1B",${r}+=2;break;`, count: 1 }, // SR
  { what: "printf 'c code (SR)", when: '{name:"printf",summary:', re: new RegExp(String.raw`return (${ID})\.charCodeAt\(([12])\);`, "g"), to: (all, e, i) => `return __escapes.charCode(${e},${i});`, count: 2 }, // SR
  { what: "printf %c (SR)", when: '{name:"printf",summary:', re: new RegExp(String.raw`let (${ID})=new TextEncoder\(\)\.encode\((${ID})\)\[0\];return\{value:String\.fromCharCode\(\1\)`, "g"), to: (all, a, n) => `return{value:__escapes.firstByte(${n})`, count: 1 }, // SR
  // uniq -c: the count in 7 columns (`%7d `), as GNU.
  { what: "uniq -c width", re: new RegExp(String.raw`(\?${ID}\+=\`\$\{String\(${ID}\)\.padStart\()4(\)\} \$\{${ID}\}\n\`)`, "g"), to: (all, head, tail) => `${head}7${tail}`, count: 1 },
  // Issue 20, twenty-fourth attack run (fixer SS; helpers in src/backends/worker-shell/isolate/sort-sed.ts). // SS
  // SS: sort compares by UTF-8 bytes (GNU's C locale; it used localeCompare), -f folds to upper case, -n reads // SS
  // numbers as GNU (no exponent, no `+`, exact), -u keeps the first of each equal run and -c -u rejects equal lines. // SS
  { what: "sort -f folds to upper case (SS)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`(${ID})\.ignoreCase&&\((${ID})=\2\.toLowerCase\(\),(${ID})=\3\.toLowerCase\(\)\)`, "g"), to: (all, e, l, s) => `${e}.ignoreCase&&(${l}=__sortSed.foldCase(${l}),${s}=__sortSed.foldCase(${s}))`, count: 1 }, // SS
  { what: "sort -n and byte order (SS)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`if\((${ID})\.numeric\)\{let (${ID})=parseFloat\((${ID})\)\|\|0,(${ID})=parseFloat\((${ID})\)\|\|0;return \2-\4\}return \3\.localeCompare\(\5\)\}`, "g"), to: (all, e, i, l, n, s) => `if(${e}.numeric)return __sortSed.compareNumbers(${l},${s});return __sortSed.compareBytes(${l},${s})}`, count: 1 }, // SS
  { what: "sort last-resort byte order (SS)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`let (${ID})=(${ID})\.localeCompare\((${ID})\);return`, "g"), to: (all, p, f, c) => `let ${p}=__sortSed.compareBytes(${f},${c});return`, count: 2 }, // SS
  { what: "sort -c -u (SS)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`let (${ID})=(${ID})\((${ID})\);if\(\3\.checkOnly\)\{(let ${ID}=${ID}\.length>0\?${ID}\[0\]:"-";for\(let (${ID})=1;\5<(${ID})\.length;\5\+\+\)if\()\1\(\6\[\5-1\],\6\[\5\]\)>0\)`, "g"), to: (all, d, b, e, head, t, n) => `let ${d}=${b}(${e}.unique?{...${e},stable:!0}:${e});if(${e}.checkOnly){${head}__sortSed.disorder(${d}(${n}[${t}-1],${n}[${t}]),${e}.unique))`, count: 1 }, // SS
  { what: "sort -u (SS)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`(${ID})\.sort\((${ID})\),(${ID})\.unique&&\(\1=${ID}\(\1,\3\)\)`, "g"), to: (all, n, d, e) => `${n}.sort(${d}),${e}.unique&&(${n}=__sortSed.uniqueRuns(${n},${d}))`, count: 1 }, // SS
  // SS: comm compares by bytes (it compared UTF-16 code units); uniq -i and join -i fold ASCII only, and join -i // SS
  // prints the join field as file 1 has it (it printed it in lower case), as GNU coreutils 9.1. // SS
  { what: "comm byte order (SS)", when: 'name:"comm",async execute(', re: new RegExp(String.raw`(${ID})\[(${ID})\]([<>])(${ID})\[(${ID})\]\?`, "g"), to: (all, t, n, op, s, o) => `__sortSed.compareBytes(${t}[${n}],${s}[${o}])${op}0?`, count: 2 }, // SS
  { what: "uniq -i (SS)", when: 'name:"uniq",async execute(', re: new RegExp(String.raw`=\((${ID}),(${ID})\)=>(${ID})\?\1\.toLowerCase\(\)===\2\.toLowerCase\(\):\1===\2`, "g"), to: (all, e, u, a) => `=(${e},${u})=>${a}?__sortSed.foldCase(${e})===__sortSed.foldCase(${u}):${e}===${u}`, count: 1 }, // SS
  { what: "join -i key (SS)", when: '{name:"join",execute:', re: new RegExp(String.raw`(${ID})&&\((${ID})=\2\.toLowerCase\(\)\),\{fields:(${ID}),joinKey:\2,`, "g"), to: (all, a, r, t) => `${a}&&(${r}=__sortSed.foldCase(${r})),{fields:${t},joinKey:${r},`, count: 1 }, // SS
  { what: "join -i output key (SS)", when: '{name:"join",execute:', re: new RegExp(String.raw`(function ${ID}\((${ID}),(${ID}),(${ID})\)\{(?:(?!function )[^])*?let ${ID}=\[\],${ID}=)\2\?\.joinKey\?\?\3\?\.joinKey\?\?"";`, "g"), to: (all, head, i, l, n) => `${head}${i}?${i}.fields[${n}.field1-1]??"":${l}?.fields[${n}.field2-1]??"";`, count: 1 }, // SS
  // SS: sed s///Ng replaces the Nth match and every later one (it replaced all), s///N with fewer matches makes no // SS
  // substitution (for `t` and the p flag), H always appends a newline and the pattern space (GNU sed 4.9). // SS
  { what: "sed s///Ng (SS)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`if\((${ID})\.substitutionMade=!0,(${ID})\.nthOccurrence&&\2\.nthOccurrence>0&&!\2\.global\)\{(?:(?!\}else if)[^])*?\}else if\(\2\.global\)\{let (${ID})=(${ID})\((${ID}),\`g\$\{\2\.ignoreCase\?"i":""\}\`\);\1\.patternSpace=(${ID})\(\1\.patternSpace,\3,\2\.replacement,\((${ID}),(${ID})\)=>(${ID})\(\2\.replacement,\7,\8\)\)\}else \1\.patternSpace=(${ID}\.replace\(\1\.patternSpace,\((${ID}),\.\.\.(${ID})\)=>\{let (${ID})=\12\.slice\(0,-2\);return \9\(\2\.replacement,\11,\13\)\}\));\2\.printOnMatch&&\1\.lineNumberOutput\.push\(\1\.patternSpace\)`, "g"), to: (all, e, r, m, A, h, scan, d, E, j, plain) => // SS
    `{let __s=${r}.nthOccurrence>0||${r}.global?__sortSed.sedSubstitute(${e}.patternSpace,${A}(${h},\`g\${${r}.ignoreCase?"i":""}\`),${r}.nthOccurrence,${r}.global,(__m,__g)=>${j}(${r}.replacement,__m,__g),(__t,__re,__f)=>${scan}(__t,__re,${r}.replacement,__f)):${plain};if(__s!==null){${e}.substitutionMade=!0,${e}.patternSpace=__s,${r}.printOnMatch&&${e}.lineNumberOutput.push(${e}.patternSpace)}}`, count: 1 }, // SS
  { what: "sed H (SS)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`case"holdAppend":(${ID})\.holdSpace\?\1\.holdSpace\+=\`\n\$\{\1\.patternSpace\}\`:\1\.holdSpace=\1\.patternSpace,`, "g"), to: (all, e) => `case"holdAppend":${e}.holdSpace+=\`\\n\${${e}.patternSpace}\`,`, count: 1 }, // SS
  // wc: every count padded to GNU's width (wcWidth: the digits of the files' total size, 7 with stdin or a directory).
  { what: "wc width of stdin", when: 'name:"wc",async execute(', re: new RegExp(String.raw`(let\{lines:(${ID}),words:(${ID})\}=(${ID})\.result\.flags,(${ID})=\4\.result\.flags\.bytes,(${ID})=\4\.result\.flags\.chars,(${ID})=\4\.result\.positional;(?:(?!function )[^])*?(${ID})=await __wcReadFiles\((?:(?!function )[^])*?)"",0\)`, "g"), to: (all, head, o, n, s, l, e, t, i) => `${head}"",__textOutput.wcWidth(${t},${i}.files,(${o}?1:0)+(${n}?1:0)+(${l}||${e}?1:0)))`, count: 1 },
  { what: "wc width of files", when: 'name:"wc",async execute(', re: new RegExp(String.raw`(let\{lines:(${ID}),words:(${ID})\}=(${ID})\.result\.flags,(${ID})=\4\.result\.flags\.bytes,(${ID})=\4\.result\.flags\.chars,(${ID})=\4\.result\.positional;(?:(?!function )[^])*?(${ID})=await __wcReadFiles\((?:(?!function )[^])*?)(${ID})=\7\.length>1\?3:0;[^;]*;`, "g"), to: (all, head, o, n, s, l, e, t, i, h) => `${head}${h}=__textOutput.wcWidth(${t},${i}.files,(${o}?1:0)+(${n}?1:0)+(${l}||${e}?1:0));`, count: 1 },
  // ls A B …: the operands that are not directories first, as one list (no blank line between them), then the
  // directories, each group sorted (GNU ls); a listing of a quoted glob shows each entry's mode.
  { what: "ls operand order", when: 'name:"ls",async execute(', re: new RegExp(String.raw`(let (${ID})=(${ID})\.result\.positional;\2\.length===0&&\2\.push\("\."\);(?:(?!function )[^])*?)(let (${ID})="",(${ID})="",(${ID})=0,(${ID})=new ${ID}\(\{limits:(${ID})\.limits,)`, "g"), to: (all, head, h, r, tail, o, f, i, c, ctx) => `${head}let __lsDirs=await __textOutput.lsOperandOrder(${ctx}.fs,${ctx}.cwd,${h},${r}.result.flags);${tail}`, count: 1 },
  { what: "ls blank line before a directory", when: 'name:"ls",async execute(', re: new RegExp(String.raw`if\((${ID})>0&&((?:!${ID}&&)?)(${ID})&&!\3\.endsWith\(\`\n\n\`\)&&`, "g"), to: (all, p, dirOnly, o) => `if(${p}>0&&${dirOnly}${o}&&__lsDirs[${p}]&&!${o}.endsWith(\`\n\n\`)&&`, count: 1 },
  { what: "ls -l of a quoted glob", when: 'name:"ls",async execute(', re: new RegExp(String.raw`let (${ID})=await (${ID})\.fs\.stat\((${ID})\),(${ID})=\1\.isDirectory\?"drwxr-xr-x":"-rw-r--r--",(?=[^\`]*?\.push\(\`\$\{\4\} 1 user user)`, "g"), to: (all, c, t, i, p) => `let ${c}=await ${t}.fs.stat(${i}),${p}=__textOutput.modeColumn(${c}.mode,${c}.isDirectory?"d":"-"),`, count: 1 },
  // failglob: a pattern that matches nothing is an expansion error that ends a non-interactive shell (or the
  // subshell, command substitution or function call's script it is in) with status 1, as bash 5.2 `bash -c`;
  // just-bash skipped the one command (or loop) and went on. ExitError is found as the class the fatal arithmetic
  // error is rethrown as (`if(e.fatal)throw new ExitError(1,"",message)`).
  { what: "failglob ends the shell (command)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`if\((${ID})\?\.finish\(\),(${ID}) instanceof (${ID})\)return ${ID}\(\2\.stderr\);throw \2\}`, "g"), to: (all, r, e, globError, ...rest) => `if(${r}?.finish(),${e} instanceof ${globError})throw __shellOptions.expansionExit(new ${exitErrorOf(rest.at(-1))}(1,"",${e}.stderr));throw ${e}}`, count: 1 }, // SF: marked
  { what: "failglob ends the shell (for words)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`catch\((${ID})\)\{if\(\1 instanceof (${ID})\)return\{stdout:"",stderr:\1\.stderr,exitCode:1\};throw \1\}`, "g"), to: (all, e, globError, ...rest) => `catch(${e}){if(${e} instanceof ${globError})throw __shellOptions.expansionExit(new ${exitErrorOf(rest.at(-1))}(1,"",${e}.stderr));throw ${e}}`, count: 1 }, // SF: marked
  // SF (issue 20, twenty-third attack run; helpers in src/backends/worker-shell/isolate/shell-options.ts): the
  // SF: failglob error above is marked; `eval` / `source` stop their own text at it with status 1 (bash 5.2's
  // SF: parse_and_execute); `cmd &` runs as a subshell job (status 0, `$!`, `wait $!` gives its status); `bash`/`sh`
  // SF: and a script file start with bash's default options; declaration builtins expand `NAME=(…)` as `NAME=(…)`.
  { what: "eval ends at an expansion error (SF)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`catch\((${ID})\)\{(if\(\1 instanceof ${ID}\|\|\1 instanceof ${ID}\|\|\1 instanceof ${ID}\|\|\1 instanceof ${ID}\)throw \1;if\(\1\.name==="ParseException"\)return ${ID}\(\`bash: eval: )`, "g"), to: (all, l, rest) => `catch(${l}){if(__shellOptions.isExpansionExit(${l}))return{stdout:${l}.stdout,stderr:${l}.stderr,exitCode:1};${rest}`, count: 1 }, // SF
  { what: "source ends at an expansion error (SF)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`catch\((${ID})\)\{if\((${ID})\(\),\1 instanceof (${ID})\)throw \1;(?=if\(\1 instanceof ${ID}\)return ${ID}\(\1\.stdout,\1\.stderr,\1\.exitCode\);if\(\1\.name==="ParseException"\))`, "g"), to: (all, c, l, exitError) => `catch(${c}){if(${l}(),__shellOptions.isExpansionExit(${c}))return{stdout:${c}.stdout,stderr:${c}.stderr,exitCode:1};if(${c} instanceof ${exitError})throw ${c};`, count: 1 }, // SF
  { what: "background job (SF)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`async executeStatement\((${ID})\)\{`, "g"), to: (all, t) => `${all}if(${t}.background)return __shellOptions.backgroundJob(this,${t});`, count: 1 }, // SF
  { what: "wait (SF)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(if\((${ID})==="shopt"\)return ${ID}\((${ID}),(${ID})\);(?:(?!function )[^])*?)if\(\2==="wait"\)return ${ID};`, "g"), to: (all, head, t, c, n) => `${head}if(${t}==="wait")return __shellOptions.wait(${c},${n});`, count: 1 }, // SF
  { what: "declaration array words (SF)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`let (${ID})=await (${ID})\(this\.ctx,(${ID})\);(?=if\(\1\)(${ID})\(\1,!0\);else\{let (${ID})=await ${ID}\(this\.ctx,\3\);if\(\5!==null\)\4\(\5,!0\);else\{let ${ID}=await (${ID})\(this\.ctx,\3\))`, "g"), to: (all, a, compound, word, push, b, expand, offset, text) => { // SF
    const parser = new RegExp(String.raw`async function ${compound.replace(/\$/g, "\\$")}\((?:(?!function )[^])*?new (${ID})\(\)\.parseWordFromString\(`).exec(text); // SF
    if (!parser) throw new Error("gen-shell: just-bash's compound array reading no longer parses words (SF)");
    return `let ${a}=await __shellOptions.declarationArray(this.ctx,${word},{compound:${compound},expand:${expand},parseWord:__word=>new ${parser[1]}().parseWordFromString(__word,!1,!1)});`; // SF
  }, count: 1 }, // SF
  { what: "bash -c starts a new shell (SF)", when: 'name:"bash",async execute(', re: new RegExp(String.raw`return (${ID})\?await \1\((${ID}),\{env:(${ID}),cwd:(${ID})\.cwd,signal:\4\.signal\}\):await \4\.exec\(\2,\{env:\3,cwd:\4\.cwd,stdin:\4\.stdin,stdinKind:"bytes",signal:\4\.signal\}\)`, "g"), to: (all) => all.replace(/signal\}\)/g, "signal,__newShell:!0})"), count: 1 }, // SF
  { what: "new shell options (SF)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(let ${ID}=\{\.\.\.this\.state,env:(${ID}),arrays:(${ID})\.replaceEnv\?(?:(?!function )[^])*?options:\{\.\.\.this\.state\.options\},)`, "g"), to: (all, head, env, u) => `${head}shoptOptions:${u}.__newShell?__shellOptions.newShellShopt(this.state.shoptOptions,${env}):this.state.shoptOptions,`, count: 1 }, // SF
  { what: "script file starts a new shell (SF)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(let (${ID})=(${ID})\.state\.loopDepth,(${ID})=${ID}\(\3\.state\);)(?=\3\.state\.parentHasLoopContext=\2>0,\3\.state\.loopDepth=0,\3\.state\.bashPid=\3\.state\.nextVirtualPid\+\+,(${ID})&&\(\3\.state\.groupStdin=\5\),\3\.state\.currentSource=)`, "g"), to: (all, head, o, e) => `${head}__shellOptions.newShell(${e}.state);`, count: 1 }, // SF
  // SF2 (issue 20, twenty-fourth attack run; helpers in shell-options.ts): the parser notes the element words of a
  // SF2: command's `NAME=(…)` argument before writing them back as text (which lost `$(…)` and `\ `), so declaration
  // SF2: builtins expand each as `NAME=(…)` does; `export NAME=(…)` makes an exported array as `declare -x`.
  { what: "declaration array element words (SF2)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(let (${ID})=(${ID})\.map\((${ID})=>${ID}\((${ID}),\4\)\),(${ID})=\`\$\{${ID}\}=\(\$\{\2\.join\(" "\)\}\)\`;)(${ID})\.push\(\5\.parseWordFromString\(\6,!1,!1,!0\)\)`, "g"), to: (all, head, p, d, m, e, h, s) => `${head}${s}.push(__shellOptions.withArrayElements(${e}.parseWordFromString(${h},!1,!1,!0),${d}))`, count: 1 }, // SF2
  { what: "export NAME=(…) makes an array (SF2)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(?<=[(,])(${ID})==="export"\)return (${ID})\((${ID}),(${ID})\);((?:(?!function )[^])*?)if\(\1==="declare"\|\|\1==="typeset"\)return (${ID})\(\3,\4\);`, "g"), to: (all, t, exportFn, c, n, mid, declareFn) => `${t}==="export")return __shellOptions.exportBuiltin(${c},${n},${exportFn},${declareFn});${mid}if(${t}==="declare"||${t}==="typeset")return ${declareFn}(${c},${n});`, count: 1 }, // SF2
  { what: "declare -p NAME: an array's attributes (SF2)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(function ${ID}\(${ID},${ID}\)\{let ${ID}="",${ID}="",${ID}=!1;for\(let (${ID}) of ${ID}\)\{let (${ID})=${ID}\(${ID},\2\);(?:(?!function )[^])*?)(?=function )`, "g"), to: (all, body, name, flags) => arrayDeclarations(body, name, flags, 4), count: 1 }, // SF2
  { what: "declare -p: arrays' attributes (SF2)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(for\(let (${ID}) of ${ID}\)\{let (${ID})=${ID}\(${ID},\2\),${ID}=${ID}\.state\.associativeArrays\?\.has\(\2\)(?:(?!function )[^])*?)(?=function )`, "g"), to: (all, body, name, flags) => arrayDeclarations(body, name, flags, 4), count: 1 }, // SF2
  // L25: an unset variable under `set -u` and `${x:?msg}` end the shell (status 127; 1 for a subshell or $(…)) with
  // bash's message, and a quoted `"${x:-d}"`/`"${x+a}"` does not trip `set -u` (isolate/shell-options.ts).
  { what: "set -u ends the shell (L25)", re: new RegExp(String.raw`(\.nounset(?:&&!\((?:[^;()]|\([^;()]*\))*\))?\)throw )new (${ID})\(((?:"[A-Z_]+"|\`[^\`]*\`|${ID}))\)`, "g"), to: (all, head, nounset, arg, ...rest) => `${head}__shellOptions.nounsetExit(new ${nounset}(${arg}),${exitErrorOf(rest.at(-1))})`, count: 10 }, // L25
  { what: "${x:?msg} ends the shell (L25)", re: new RegExp(String.raw`let (${ID})=(${ID})\.word\?await (${ID})\((${ID}),\2\.word\.parts,(${ID})\.inDoubleQuotes\):\`\$\{(${ID})\}: parameter null or not set\`;throw new (${ID})\(1,"",\`bash: \$\{\1\}\n\`\)`, "g"), to: (all, o, n, s, e, r, t, exitError) => `let ${o}=${n}.word?await ${s}(${e},${n}.word.parts,${r}.inDoubleQuotes):void 0;throw __shellOptions.unsetParameterExit(${t},${o},${exitError})`, count: 1 }, // L25
  { what: "subshell status of a shell-ending error (L25)", re: new RegExp(String.raw`((${ID}) instanceof ${ID}\|\|\2 instanceof ${ID}\|\|\2 instanceof ${ID}\?\((${ID})\.append\("stdout",\2\.stdout,\2\.internalOutputAccounting\.stdout\),\3\.append\("stderr",\2\.stderr,\2\.internalOutputAccounting\.stderr\),\3\.build\()\2\.exitCode\)\)`, "g"), to: (all, head, a) => `${head}__shellOptions.subshellStatus(${a})))`, count: 1 }, // L25
  { what: "$(…) status of a shell-ending error (L25)", re: new RegExp(String.raw`if\((${ID}) instanceof (${ID})\)\{(${ID})\.state\.lastExitCode=\1\.exitCode,\3\.state\.env\.set\("\?",String\(\1\.exitCode\)\)`, "g"), to: (all, p, G, e) => `if(${p} instanceof ${G}){${e}.state.lastExitCode=__shellOptions.subshellStatus(${p}),${e}.state.env.set("?",String(${e}.state.lastExitCode))`, count: 1 }, // L25
  { what: "quoted default of an unset variable under set -u (L25)", re: new RegExp(String.raw`(let (${ID})=(${ID})\.parameter,(${ID})=await (${ID})\((${ID}),\2\),(${ID})=await (${ID})\(\6,\2)\),`, "g"), to: (all, head) => `${head},!1),`, count: 1 }, // L25
  // LD: a pipeline followed by `&&`/`||` or negated with `!` runs with errexit ignored inside (functions, groups), as an `if` condition. // LD
  { what: "errexit ignored in a guarded operand (LD)", when: "async executeStatement(", re: new RegExp(String.raw`let (${ID})=(${ID})\.pipelines\[(${ID})\],(${ID})=\3>0\?\2\.operators\[\3-1\]:null;if\(\4==="&&"&&(${ID})!==0\|\|\4==="\|\|"&&\5===0\)continue;let (${ID})=await this\.executePipeline\(\1\);`, "g"), to: (all, c, t, l, u, r, f) => `${all.slice(0, all.lastIndexOf("let "))}let ${f}=await (${l}<${t}.pipelines.length-1||${c}.negated?__shellOptions.errexitIgnored(this.ctx,()=>this.executePipeline(${c})):this.executePipeline(${c}));`, count: 1 }, // LD
  // SE: a `set -e` exemption (errexitSafe: the last command ran as a non-final `&&`/`||` operand or under `!`) carries // fixer SE
  // SE: out of a group, `if`, loop or `case` only; every other command (a simple command, so a function call, // fixer SE
  // SE: `source`, `eval`, `x=$(…)`; a subshell, `[[ ]]`, `(( ))`) ends with it clear, and so does a pipeline of more // fixer SE
  // SE: than one command, as bash 5.2 (issue 20, run 35, fixer SE). // fixer SE
  { what: "set -e exemption ends at a call (SE)", when: "async executeCommandInner(", re: new RegExp(String.raw`async executeCommandInner\((${ID}),(${ID}),(${ID})\)\{switch\(`, "g"), to: (all, t, n, r) => `async executeCommandInner(${t},${n},${r}){return __shellOptions.errexitScope(this.ctx,${t},()=>this.__executeCommandInner(${t},${n},${r}))}async __executeCommandInner(${t},${n},${r}){switch(`, count: 1 }, // fixer SE
  { what: "set -e exemption ends at a pipe (SE)", when: "async executePipeline(", re: new RegExp(String.raw`async executePipeline\((${ID})\)\{return (${ID}\(this\.ctx,\1,\((${ID}),(${ID})\)=>this\.executeCommand\(\3,\4\)\))\}`, "g"), to: (all, t, call) => `async executePipeline(${t}){return __shellOptions.errexitPipeline(this.ctx,${t},()=>${call})}`, count: 1 }, // fixer SE
  // LD: a command's own `<` redirect that gave "" is its whole stdin: the loop's/group's stdin is hidden while it runs. // LD
  { what: "empty redirected stdin (LD)", when: "async runCommand(", re: new RegExp(String.raw`async runCommand\((${ID}),(${ID}),(${ID}),(${ID}),(${ID})=!1,(${ID})=!1,(${ID})=-1,(${ID})=!1\)\{`, "g"), to: (all, t, n, r, s, i, o, a, l) => `async runCommand(${t},${n},${r},${s},${i}=!1,${o}=!1,${a}=-1,${l}=!1){return ${l}&&${s}===""?__shellOptions.emptyRedirectedStdin(this.ctx,()=>this.__runCommand(${t},${n},${r},${s},${i},${o},${a},${l})):this.__runCommand(${t},${n},${r},${s},${i},${o},${a},${l})}async __runCommand(${t},${n},${r},${s},${i}=!1,${o}=!1,${a}=-1,${l}=!1){`, count: 1 }, // LD
  // L25: a command substitution runs with `set -e` off unless inherit_errexit (bash 5.2 outside POSIX mode).
  { what: "command substitution errexit (L25)", re: new RegExp(String.raw`let (${ID})=await (${ID})\.executeScript\((${ID})\.body\),(${ID})=\1\.exitCode;(?=${ID}\.state\.env=)`, "g"), to: (all, p, e, t, h) => `let ${p}=await __shellOptions.commandSubstitution(${e},()=>${e}.executeScript(${t}.body)),${h}=${p}.exitCode;`, count: 1 }, // L25
  // ls -l: no `/` after a directory's name unless -F (GNU; just-bash added one to every -l line of a directory).
  { what: "ls -l without a slash", when: 'name:"ls",async execute(', re: new RegExp(String.raw`(\?${ID}\(await ${ID}\.fs\.lstat\(${ID}\)\)):${ID}\.isDirectory\?"/":""`, "g"), to: (all, head) => `${head}:""`, count: 3 },
  // Issue 20, twenty-third attack run (fixer SB3; helpers in path-errors.ts, text-output.ts, link-operands.ts).
  // SB3: sed -i replaces a link operand with the edited file and leaves its target (GNU sed 4.9; -iSUF renames the
  // link to the backup); --follow-symlinks edits the file at the end of the links instead.
  { what: "sed --follow-symlinks (declaration)", when: 'name:"sed",async execute(', re: /__sedSuffix="",/g, to: '__sedSuffix="",__sedFollow=!1,', count: 1 }, // SB3
  { what: "sed --follow-symlinks", when: 'name:"sed",async execute(', re: new RegExp(String.raw`if\((${ID})\.startsWith\("--"\)\)return (${ID})\("sed",\1\);`, "g"), to: (all, f) => `if(${f}==="--follow-symlinks"){__sedFollow=!0;continue}${all}`, count: 1 }, // SB3
  { what: "sed -i through a link", when: 'name:"sed",async execute(', re: new RegExp(String.raw`__phase=2;__sedSuffix!==""&&await __textOutput\.sedBackup\((${ID})\.fs,\1\.cwd,(${ID}),(${ID}),__sedSuffix\);__phase=3;await (${ID})\("in-place output write",\(\)=>\1\.fs\.writeFile\(\3,(${ID})\.output\)\)`, "g"), to: (all, e, l, f, t, v) => // SB3
    `__phase=2;let __sedTarget=await __textOutput.sedInPlaceTarget(${e}.fs,${e}.cwd,${l},${f},__sedSuffix,__sedFollow);__phase=3;await ${t}("in-place output write",()=>__textOutput.sedWriteInPlace(${e}.fs,__sedTarget,${v}.output))`, count: 1 }, // SB3
  // SB3: readlink as GNU readlink 9.1 (-f/-e/-m canonicalize and fail for a loop or a missing directory, -n -z -v -q).
  { what: "readlink", when: 'name:"readlink",async execute(', re: new RegExp(String.raw`name:"readlink",async execute\((${ID}),(${ID})\)\{if\(${ID}\(\1\)\)return ${ID}\(${ID}\);`, "g"), to: (all, args, ctx) => `${all}return __pathErrors.readlinkCommand(${args},${ctx});`, count: 1 }, // SB3
  // SB3: cp keeps an existing file's mode and gives new files and directories the source's less umask 022 (-p: all of it).
  { what: "cp modes", when: 'name:"cp",async execute(', re: new RegExp(String.raw`await (${ID})\.fs\.cp\((${ID}),(${ID}),\{recursive:(${ID})\}\)`, "g"), to: (all, e, o, r, d, ...rest) => // SB3
    `await __pathErrors.cpWithModes(${e}.fs,${o},${r},{recursive:${d},preserve:${sb3Var(rest.at(-1), String.raw`(${ID})=${ID}\.result\.flags\.preserve`)}},async()=>{${all}})`, count: 1 }, // SB3
  // SB3: cp/mv name the operand that failed, with its reason, as GNU coreutils 9.1 (`cannot stat 'f/x': Not a
  // directory`, `cannot move 'f' to 'd/nope/x': …`, `cannot overwrite non-directory 'f' with directory 'd'`).
  { what: "cp/mv destination", re: new RegExp(String.raw`if\((${ID})\)try\{await (${ID})\.fs\.stat\((${ID})\);continue\}catch\{\}(?=let (${ID})=await ${ID}\(\2\.fs,${ID},\3\);if\(\4==="same"\))`, "g"), to: (all, noClobber, e, r, same, offset, text) => { // SB3
    const v = sb3CopyVars(text);
    return `{let __destFailure=await __pathErrors.destinationFailure("${v.command}",${e}.fs,${r},__pathErrors.destOperand(${v.source},${v.destName},${v.destIsDir}),${v.source},${v.sourceStat});if(__destFailure!==null){${v.err}+=__destFailure,${v.code}=1;continue}}${all}`;
  }, count: 2 }, // SB3
  { what: "cp/mv failure", re: new RegExp(String.raw`catch\((${ID})\)\{(if\(\1 instanceof ${ID}\|\|\1 instanceof ${ID}\)throw \1;)let (${ID})=${ID}\(\1\);\3\.includes\("ENOENT"\)\|\|\3\.includes\("no such file"\)\?(${ID})\+=\`(?:cp|mv): cannot stat '\$\{${ID}\}': No such file or directory\n\`:\4\+=\`(?:cp|mv): cannot (?:copy|move) '\$\{${ID}\}': \$\{\3\}\n\`,(${ID})=1\}`, "g"), to: (all, x, rethrow, m, err, code, offset, text) => { // SB3
    const v = sb3CopyVars(text);
    return `catch(${x}){${rethrow}${err}+=await __pathErrors.moveFailure("${v.command}",${v.ctx}.fs,${v.ctx}.cwd,${v.source},__pathErrors.destOperand(${v.source},${v.destName},${v.destIsDir}),${x},${v.recursive}),${code}=1}`;
  }, count: 2 }, // SB3
  // SB3: tee, touch, nl, rev, base64 and sort name the real reason (GNU coreutils 9.1, util-linux rev); sort exits 2.
  { what: "tee failure reason", when: 'name:"tee",async execute(', re: new RegExp(String.raw`catch\{(${ID})\+=\`tee: \$\{(${ID})\}: No such file or directory\n\`,(${ID})=1\}`, "g"), to: (all, s, i, a) => `catch(__teeError){${s}+=__pathErrors.teeFailure(${i},__teeError),${a}=1}`, count: 1 }, // SB3
  { what: "touch failure reason", when: 'name:"touch",async execute(', re: new RegExp(String.raw`(${ID})\+=\`touch: cannot touch '\$\{(${ID})\}': \$\{(${ID})\((${ID})\)\}\n\``, "g"), to: (all, l, t, m, e) => `${l}+=\`touch: cannot touch '\${${t}}': \${__pathErrors.reason(${e},${m}(${e}))}\n\``, count: 1 }, // SB3
  { what: "nl failure reason", when: 'name:"nl",execute:', re: new RegExp(String.raw`let (${ID})="",(${ID})=(${ID})\.startNumber;((?:(?!function )[^])*?)let (${ID})=(${ID})\.fs\.resolvePath\(\6\.cwd,(${ID})\),(${ID})=await \6\.fs\.readFile\(\5\);if\(\8===null\)return\{exitCode:1,stdout:\1,stderr:\`nl: \$\{\7\}: No such file or directory\n\`\};((?:(?!function )[^])*?)return\{exitCode:0,stdout:\1,stderr:""\}`, "g"), to: (all, u, f, s, mid, e, r, n, m, tail) => // SB3
    `let ${u}="",__nlErr="",${f}=${s}.startNumber;${mid}let ${e}=${r}.fs.resolvePath(${r}.cwd,${n}),${m};try{${m}=await ${r}.fs.readFile(${e})}catch(__nlError){__nlErr+=__pathErrors.nlFailure(${n},__nlError);continue}${tail}return{exitCode:__nlErr?1:0,stdout:${u},stderr:__nlErr}`, count: 1 }, // SB3
  { what: "rev failure reason", when: 'name:"rev",execute:', re: new RegExp(String.raw`let (${ID})="",((?:(?!function )[^])*?)let (${ID})=(${ID})\.fs\.resolvePath\(\4\.cwd,(${ID})\),(${ID})=await \4\.fs\.readFile\(\3\);if\(\6===null\)return\{exitCode:1,stdout:\1,stderr:\`rev: \$\{\5\}: No such file or directory\n\`\};((?:(?!function )[^])*?)return\{exitCode:0,stdout:\1,stderr:""\}`, "g"), to: (all, n, mid, t, s, e, i, tail) => // SB3
    `let ${n}="",__revErr="",${mid}let ${t}=${s}.fs.resolvePath(${s}.cwd,${e}),${i};try{${i}=await ${s}.fs.readFile(${t})}catch(__revError){__revErr+=__pathErrors.revFailure(${e},__revError);continue}${tail}return{exitCode:__revErr?1:0,stdout:${n},stderr:__revErr}`, count: 1 }, // SB3
  { what: "base64 failure reason", when: 'name:"base64",async execute(', re: new RegExp(String.raw`catch\((${ID})\)\{return (${ID})\(\1\),\{ok:!1,error:\{stdout:"",stderr:\`\$\{(${ID})\}: \$\{(${ID})\}: No such file or directory\n\`,exitCode:1\}\}\}`, "g"), to: (all, r, check, u, n) => `catch(${r}){return ${check}(${r}),{ok:!1,error:{stdout:"",stderr:__pathErrors.base64Failure(${u},${n},${r}),exitCode:1}}}`, count: 1 }, // SB3
  { what: "sort read failure", when: 'name:"sort",async execute(', re: new RegExp(String.raw`(let (${ID})=await ${ID}\(${ID},${ID},\{cmdName:"sort"\}\);if\(!\2\.ok\)return )\2\.error;`, "g"), to: (all, head, s) => `${head}__pathErrors.sortReadFailure(${s}.error);`, count: 1 }, // SB3
  // SB3: find -printf %y %Y %l %n %H %u %g %U %G and %M of a link; stat -c %% %h %i %b %t %T %Y … and widths, as GNU.
  { what: "find -printf entry type", when: 'name:"find",async execute(', re: new RegExp(String.raw`let (${ID})=\{path:(${ID})\.relativePath,name:\2\.name,`, "g"), to: (all, m, h) => `${all}isFile:${h}.isFile,`, count: 1 }, // SB3
  { what: "find -printf data", when: 'name:"find",async execute(', re: new RegExp(String.raw`case"printf":(${ID})\((${ID})\((${ID})\.format,(${ID})\.printfData\)\);break;(?=case"delete":\{let ${ID}=(${ID})\.fs\.resolvePath\(\5\.cwd,)`, "g"), to: (all, out, format, f, c, t) => `case"printf":${out}(${format}(${f}.format,await __pathErrors.findPrintfData(${t}.fs,${t}.cwd,${f}.format,${c}.printfData)));break;`, count: 1 }, // SB3
  { what: "find -printf directives", when: 'name:"find",async execute(', re: new RegExp(String.raw`case"M":(${ID})=${ID}\((${ID})\.mode,\2\.isDirectory\),(${ID})\+\+;break;((?:(?!function )[^])*?)default:((${ID})\+=\`%\$\{(${ID})!==0\|\|(${ID})!==-1\?\`\$\{\7\}\.\$\{\8\}\`:""\}\$\{(${ID})\}\`),\3\+\+;continue\}`, "g"), to: (all, l, t, a, mid, literal, s, o, u, i) => // SB3
    `case"M":${l}=__pathErrors.findMode(${t}),${a}++;break;${mid}default:if(${l}=__pathErrors.findDirective(${i},${t}),${l}===void 0){${literal},${a}++;continue}${a}++;break}`, count: 1 }, // SB3
  { what: "stat -c format", when: 'name:"stat",async execute(', re: new RegExp(String.raw`(\["%s",String\((${ID})\.size\)\](?:(?!function )[^])*?)\["%G","group"\]\]\),(${ID})=(${ID})\.replace\(/%\[nNsFaAuUgG\]/g,(${ID})=>(${ID})\.get\(\5\)\?\?\5\)`, "g"), to: (all, head, t, A, m, y, w) => `${head}["%G","user"]]),${A}=__pathErrors.statFormat(${m},${w},${t})`, count: 1 }, // SB3
];
/**
 * SX (issue 20, run 25; helpers in src/backends/worker-shell/isolate/text-tools.ts): cut, head, tail, paste, tr, seq
 * and xargs read their lists, counts and operands as GNU coreutils 9.1 / findutils 4.9. cut: a bad list is a
 * failure of cut (status 1, GNU's message and `Try`; it was a limit error ending the run with 126), a line without
 * the delimiter is printed whole unless -s, fields/characters come out in input order and once. head/tail: size
 * suffixes (`1k`, `1kB`, `2b`), head -N all but the last N, tail -c +N. paste -d: `\n \t \\ \0` escapes. tr: `[c*]`
 * and `[c*n]` in SET2, GNU's refusals (empty SET2, classes in SET2). seq: integer operands counted exactly. xargs:
 * with no input the command runs once (unless -r or -I).
 */
HELPER_NAMESPACES.push(["__textTools", join(isolateDir, "text-tools.ts")]); // SX
const TEXT_TOOLS_PATCHES = [ // SX
  { what: "cut options (SX)", when: 'name:"cut",async execute(', re: new RegExp(String.raw`(let (${ID})="\t",(${ID})=null,(${ID})=null,(${ID})=!1,${ID}=\[\];(?:(?!function )[^])*?)if\(!\3&&!\4\)return\{stdout:"",stderr:\`cut: you must specify[^\`]*\`,exitCode:1\};`, "g"), to: (all, head, l, a, s, i) => // SX
    `${head}let __cut=__textTools.cutOptions(${a},${s},${l},${i});if("exitCode" in __cut)return __cut;`, count: 1 }, // SX
  { what: "cut lines (SX)", when: 'name:"cut",async execute(', re: new RegExp(String.raw`let ${ID}=(${ID})\(${ID}\|\|(${ID})\|\|"1",(${ID})\.limits\.maxArrayElements\),(${ID})=new (${ID})\((Math\.min\(\3\.limits\.maxOutputSize,\3\.limits\.maxStringLength\)),"cut"\),(?:(?!function )[^])*?for\(let (${ID}) of (${ID})\)if\(\2\)(?:(?!function )[^])*?return \2\?`, "g"), to: (all, M, s, o, g, W, size, n, m) => // SX
    `__cut.count>${o}.limits.maxArrayElements&&${M}(",".repeat(__cut.count-1),${o}.limits.maxArrayElements);let ${g}=new ${W}(${size},"cut");for(let ${n} of ${m})${g}.append(__textTools.cutLine(${n},__cut));return ${s}?`, count: 1 }, // SX
  { what: "head/tail options (SX)", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{let ${ID}=10,${ID}=null,(?:(?!function )[^])*?error:(${ID})\(\3,${ID}\)(?:(?!function )[^])*?fromLine:${ID}\}\}\}`, "g"), to: (all, A, e, s, w) => // SX
    `function ${A}(${e},${s}){return __textTools.headTailOptions(${e},${s},${w})}`, count: 1 }, // SX
  { what: "head all but the last (SX)", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{if\(\4!==null\)return \2\.slice\(0,\4\);`, "g"), to: (all, H, e, s, i) => // SX
    `function ${H}(${e},${s},${i}){if(${i}!==null?${i}<0:${s}<0)return __textTools.headAllBut(${e},${s},${i});if(${i}!==null)return ${e}.slice(0,${i});`, count: 1 }, // SX
  { what: "tail -c +N (SX)", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID}),(${ID})\)\{if\(\4!==null\)return \4===0\?"":\2\.slice\(-\4\);`, "g"), to: (all, O, e, s, i, r) => // SX
    `function ${O}(${e},${s},${i},${r}){if(${i}!==null)return __textTools.tailBytes(${e},${i},${r});`, count: 1 }, // SX
  { what: "paste -d escapes (SX)", when: 'name:"paste",async execute(', re: new RegExp(String.raw`let (${ID})=(${ID})\.result\.flags\.delimiter,`, "g"), to: (all, r, l) => // SX
    `let __pasteList=__textTools.pasteDelimiters(${l}.result.flags.delimiter);if(!Array.isArray(__pasteList))return __pasteList;let ${r}=__pasteList.join(""),`, count: 1 }, // SX
  { what: "paste -d list (SX)", when: 'name:"paste",async execute(', re: new RegExp(String.raw`\$\{(${ID})\((${ID}),(${ID})\)\}`, "g"), to: (all, b, t) => `\${${b}(${t},__pasteList)}`, count: 2 }, // SX
  { what: "tr sets (SX)", when: '{name:"tr",summary:', re: new RegExp(String.raw`(${ID})=(${ID})\((${ID})\[0\],(${ID}),(${ID}),(${ID})\),(${ID})=\3\.length>1\?\2\(\3\[1\],\4,\5,\6\):""`, "g"), to: (all, h, F, a, l, d, r, e) => // SX
    `__trSets=__textTools.trSets(${a},__trDelete,__trComplement,__s=>${F}(__s,${l},${d},${r}));if(typeof __trSets=="string")return{stdout:"",stderr:__trSets,exitCode:1};${h}=__trSets[0],${e}=__trSets[1]`, count: 1 }, // SX
  { what: "tr flags (SX)", when: '{name:"tr",summary:', re: new RegExp(String.raw`let (${ID})=(${ID})\.result\.flags\.complement\|\|\2\.result\.flags\.complementUpper,(${ID})=\2\.result\.flags\.delete,`, "g"), to: (all, u, c, g) => // SX
    `let __trSets,${u}=${c}.result.flags.complement||${c}.result.flags.complementUpper,${g}=${c}.result.flags.delete,__trComplement=${u},__trDelete=${g},`, count: 1 }, // SX
  { what: "seq integers (SX)", when: 'name:"seq",async execute(', re: new RegExp(String.raw`(if\((${ID})\.length===0\)return\{stdout:"",stderr:\`seq: missing operand[^\`]*\`,exitCode:1\};(?:(?!function )[^])*?)if\((${ID})>0\)for\(let (${ID})=(${ID});\4<=(${ID})\+1e-10;\4\+=\3\)(${ID})\(`, "g"), to: (all, head, i, a, t, d, l, M) => // SX
    `${head}let __seqInts=__textTools.seqIntegers(${i});if(__seqInts!==null)for(let __n of __seqInts)${M}(__n);else if(${a}>0)for(let ${t}=${d};${t}<=${l}+1e-10;${t}+=${a})${M}(`, count: 1 }, // SX
  { what: "xargs without input (SX)", when: 'name:"xargs"', re: new RegExp(String.raw`(let (${ID})=null,${ID}=null,(${ID})=null,${ID}=null,${ID}=!1,${ID}=!1,${ID}=!1,${ID}=0;(?:(?!function )[^])*?)if\((${ID})\.length===0\)return (${ID})\?\{stdout:"",stderr:"",exitCode:0\}:\{stdout:"",stderr:"",exitCode:0\};`, "g"), to: (all, head, u, o, m, N) => // SX
    `${head}if(${m}.length===0){if(${N}||${u}!==null)return{stdout:"",stderr:"",exitCode:0};${o}=null}`, count: 1 }, // SX
]; // SX
SOURCE_PATCHES.push(...TEXT_TOOLS_PATCHES); // SX
/**
 * SW (issue 20, run 25; helpers in src/backends/worker-shell/isolate/script-builtins.ts): `trap` (EXIT run when a
 * shell, subshell, `$(…)` or script ends; ERR after a failing command where `set -e` applies; signals stored;
 * `-p`/`-l`), `set -E`, printf `%q`/`%Q` quoting as bash 5.2, xargs as GNU findutils 4.9 (mktemp: worker.ts).
 */
HELPER_NAMESPACES.push(["__scriptBuiltins", join(isolateDir, "script-builtins.ts")]); // SW
/** SW: the name of just-bash's parser class in bundle text `text` (`let n=new Q,r;try{r=n.parse(t)}…`). */ // SW
function swParser(text) { // SW
  const found = [...text.matchAll(new RegExp(String.raw`let (${ID})=new (${ID}),(${ID});try\{\3=\1\.parse\(`, "g"))]; // SW
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's parser not found once (${found.length}; SW)`); // SW
  return found[0][2]; // SW
} // SW
const SCRIPT_BUILTIN_PATCHES = [ // SW
  { what: "printf %q %Q (SW)", when: 'name:"printf"', re: new RegExp(String.raw`case"q":return\{value:${ID}\((${ID}),(${ID}),${ID}\),parseError:!1,parseErrMsg:""\};`, "g"), to: (all, e, n) => `case"q":case"Q":return{value:__scriptBuiltins.printfQuote(${e},${n}),parseError:!1,parseErrMsg:""};`, count: 1 }, // SW
  { what: "xargs as GNU xargs (SW)", when: '{name:"xargs",summary:', re: new RegExp(String.raw`(var ${ID}=\{name:"xargs",async execute\((${ID}),(${ID})\)\{)if\((${ID})\(\2\)\)return (${ID})\((${ID})\);(?:(?!function )[^])*?let ${ID}=(${ID})\(\3\.stdin\),(?:(?!function )[^])*?new (${ID})\(\3\.executionScope,"xargs"\)(?:(?!function )[^])*?\3\.exec\?\3\.exec\((${ID})\(\[${ID}\[0\]\]\)`, "g"), to: (all, head, r, i, H, k, D, P, T, R) => // SW
    `${head}return __scriptBuiltins.xargs(${r},${i},{help:()=>${k}(${D}),decode:__s=>${P}(__s),scope:()=>${i}.executionScope?new ${T}(${i}.executionScope,"xargs"):void 0,run:__a=>${i}.exec?${i}.exec(${R}([__a[0]]),{cwd:${i}.cwd,signal:${i}.signal,args:__a.slice(1)}):null});${all.slice(head.length)}`, count: 1 }, // SW
  { what: "trap builtin (SW)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`if\((${ID})==="help"\)return (${ID})\((${ID}),(${ID})\);`, "g"), to: (all, t, help, c, n) => `if(${t}==="trap")return __scriptBuiltins.trap(${c},${n},()=>${help}(${c},["trap"]));${all}`, count: 1 }, // SW
  { what: "ERR trap (SW)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`if\(this\.ctx\.state\.errexitSafe=(${ID})\|\|(${ID})\|\|(${ID}),this\.ctx\.state\.options\.errexit&&((${ID})!==0&&(${ID})===(${ID})\.pipelines\.length-1&&!\2&&!this\.ctx\.state\.inCondition&&!\3)\)\{let (${ID})=new ${ID}\(\5\);throw \8\.prependOutput\((${ID})\.stdout,\9\.stderr\),\8\}`, "g"), to: (all, o, i, a, cond, r, s, t, l, n, ...rest) => // SW
    `if(this.ctx.state.errexitSafe=${o}||${i}||${a},${cond}&&await __scriptBuiltins.errTrap(this.ctx,${t}.pipelines[${s}],${r},${n},${exitErrorOf(rest.at(-1))}),this.ctx.state.options.errexit&&${cond})${all.slice(all.indexOf("){") + 1)}`, count: 1 }, // SW
  { what: "EXIT trap of a shell, traps of $(…) (SW)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`async executeScript\((${ID})\)\{`, "g"), to: (all, t, ...rest) => // SW
    `${all}{let __sw=__scriptBuiltins.scriptEntry(this.ctx,${t},__t=>new ${swParser(rest.at(-1))}().parse(__t));if(__sw!==void 0)return __sw}`, count: 1 }, // SW
  { what: "EXIT trap of a script file (SW)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(async function ${ID}\((${ID}),${ID},${ID},${ID},${ID}\)\{let ${ID};try\{${ID}=await \2\.fs\.readFile\((?:(?!function )[^])*?let (${ID})=new ${ID}\(\)\.parse\(${ID}\),${ID}=await )(${ID})\(\3\);`, "g"), to: (all, head, e, c, s) => `${head}__scriptBuiltins.newShell(${e},()=>${s}(${c}));`, count: 1 }, // SW
  { what: "traps of a subshell (SW)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(${ID})=>(${ID})\((${ID}),(${ID}),\1\.stdin\?\?(${ID}),(${ID}),(${ID})\|\|\1\.stdin!==void 0\)`, "g"), to: (all, l, Om, e) => `${l}=>__scriptBuiltins.subshell(${e},()=>${all.slice(l.length + 2)})`, count: 1 }, // SW
  { what: "set -E (SW)", when: "async executeSimpleCommand(", re: /\["E",null\]/g, to: '["E","errtrace"]', count: 1 }, // SW
  { what: "set -o errtrace (SW)", when: "async executeSimpleCommand(", re: /\["errtrace",null\]/g, to: '["errtrace","errtrace"]', count: 1 }, // SW
]; // SW
SOURCE_PATCHES.push(...SCRIPT_BUILTIN_PATCHES); // SW
/** SB3: the name of the variable `re`'s first group captures in bundle text `text` (exactly one match). */
function sb3Var(text, re) {
  const found = [...text.matchAll(new RegExp(re, "g"))];
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's ${re} found ${found.length} times, expected 1; update SOURCE_PATCHES (SB3)`);
  return found[0][1];
}
/** SB3: just-bash's cp/mv variables — command, context, source operand and stat, destination operand, whether it is a directory, stderr, status. */
function sb3CopyVars(text) {
  const command = sb3Var(text, String.raw`name:"(cp|mv)",async execute\(`);
  const [, source, , ctx, sourceStat] = new RegExp(String.raw`for\((?:let )?(${ID}) of (${ID})\)try\{let ${ID}=(${ID})\.fs\.resolvePath\(\3\.cwd,\1\),(${ID})=await `).exec(text) ?? [];
  if (sourceStat === undefined) throw new Error(`gen-shell: just-bash's ${command} changed shape; update SOURCE_PATCHES (SB3)`);
  return {
    command,
    ctx,
    source,
    sourceStat,
    destName: sb3Var(text, String.raw`let (${ID})=${ID}\.pop\(\)\?\?"",${ID}=${ID},${ID}=${ID}\.fs\.resolvePath\(`),
    destIsDir: sb3Var(text, String.raw`(${ID})=!1;try\{\1=\(await ${ID}\.fs\.stat\(${ID}\)\)\.isDirectory\}catch\{\}`),
    err: sb3Var(text, String.raw`(${ID})\+=\`${command}: cannot stat '`),
    code: sb3Var(text, String.raw`No such file or directory\n\`:${ID}\+=\`${command}: cannot (?:copy|move) '\$\{${ID}\}': \$\{${ID}\}\n\`,(${ID})=1\}`),
    recursive: command === "cp" ? sb3Var(text, String.raw`let (${ID})=${ID}\.result\.flags\.recursive\|\|`) : "!1",
  };
}
/** just-bash's ExitError class as named in bundle text `text`: what a fatal arithmetic error is rethrown as. */
function exitErrorOf(text) {
  const found = [...text.matchAll(new RegExp(String.raw`if\(${ID}\.fatal\)throw new (${ID})\(1,"",${ID}\)`, "g"))];
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's ExitError not found once (${found.length})`);
  return found[0][1];
}
/**
 * SZ (issue 20, run 25): shell integers are bash's 64-bit signed ones (src/backends/worker-shell/isolate/arith64.ts):
 * the arithmetic evaluator's operators, number literals and the numbers it reads from variables, `$(( ))` and
 * `declare -i` results, `[[ a -gt b ]]`, `test`'s -eq…-ge and printf's %d %i %u %o %x %X. The evaluator gives exact
 * values (a bigint past 2^53) only where they are printed or compared; indexes and offsets get a number as before.
 */
function arith64Evaluator(all) { // SZ
  let text = all; // SZ
  const swap = (what, re, to, count) => { // SZ
    const n = (text.match(re) ?? []).length; // SZ
    if (n !== count) throw new Error(`gen-shell: just-bash's arithmetic evaluator changed (${what}: ${n} matches, expected ${count}; SZ)`); // SZ
    text = text.replace(re, to); // SZ
  }; // SZ
  swap("numbers read", /\bNumber\.parseInt\(/g, "__arith64.parseInt(", 13); // SZ
  swap("++ and --", new RegExp(String.raw`(${ID})\.operator==="\+\+"\?(${ID})\+1:\2-1`, "g"), (m, t, a) => `__arith64.step(${a},${t}.operator[0])`, 4); // SZ
  swap("array subscripts", new RegExp(String.raw`let (${ID})=await (${ID})\((${ID})\.(index|subscript)\);if\(\1<0\)`, "g"), (m, a, s, t, k) => `let ${a}=__arith64.toNumber(await ${s}(${t}.${k}));if(${a}<0)`, 2); // SZ
  swap("evaluator entry", new RegExp(String.raw`async function (${ID})\((${ID}),(${ID}),(${ID})=!1\)\{return (${ID})\(\2,\3,\4,(${ID})\(\)\)\}`, "g"), (m, y, e, t, n, ln, eu) => // SZ
    `async function ${y}(${e},${t},${n}=!1){let __v=await ${ln}(${e},${t},${n},${eu}());return typeof __v=="bigint"?Number(__v):__v}async function ${y}__x64(${e},${t},${n}=!1){return ${ln}(${e},${t},${n},${eu}())}`, 1); // SZ
  return text; // SZ
} // SZ
const ARITH64_PATCHES = [ // SZ
  { what: "arithmetic operators (SZ)", when: '"exponent less than 0"', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{switch\(\4\)\{case"\+":return \2\+\3;(?:(?!function )[^])*?throw new (${ID})\("division by 0"\)(?:(?!function )[^])*?default:return 0\}\}function (${ID})\((${ID}),(${ID}),(${ID})\)\{switch\(\9\)\{case"=":return \8;case"\+=":(?:(?!function )[^])*?default:return \8\}\}function (${ID})\((${ID}),(${ID})\)\{switch\(\12\)\{case"-":return-\11;case"\+":return\+\11;case"!":return \11===0\?1:0;case"~":return~\11;default:return \11\}\}`, "g"), to: (all, bin, a, b, op, err, cmp, c1, c2, c3, un, u1, u2) => // SZ
    `function ${bin}(${a},${b},${op}){let __r=__arith64.binary(${a},${b},${op});if(typeof __r=="string")throw new ${err}(__r);return __r}function ${cmp}(${c1},${c2},${c3}){let __r=__arith64.compound(${c1},${c2},${c3});if(typeof __r=="string")throw new ${err}(__r);return __r}function ${un}(${u1},${u2}){return __arith64.unary(${u1},${u2})}`, count: 1 }, // SZ
  { what: "arithmetic number literals (SZ)", when: '"exponent less than 0"', re: new RegExp(String.raw`function (${ID})\((${ID})\)\{if\(\2\.includes\("#"\)\)\{(?:(?!function )[^])*?let (${ID})=Number\.parseInt\(\2,10\);return \3>Number\.MAX_SAFE_INTEGER\?Number\.MAX_SAFE_INTEGER:\3\}`, "g"), to: (all, or, e) => `function ${or}(${e}){return __arith64.literal(${e})}`, count: 1 }, // SZ
  { what: "arithmetic evaluator (SZ)", when: '"exponent less than 0"', re: new RegExp(String.raw`async function ${ID}\(${ID},${ID},${ID}\)\{if\(!${ID}\)return 0;let ${ID}=Number\.parseInt\((?:(?!async function ${ID}\(${ID},${ID},${ID}=!1,${ID}=${ID}\(\)\))[^])*`, "g"), to: arith64Evaluator, count: 1 }, // SZ
  { what: "exact $(( )) and declare -i (SZ)", when: '"exponent less than 0"', re: new RegExp(String.raw`String\(await (${ID})\((${ID}),(${ID}(?:\.expression)+)(,!0)?\)\)`, "g"), to: (all, y, e, x, q) => `String(await ${y}__x64(${e},${x}${q ?? ""}))`, count: 4 }, // SZ
  { what: "exact declare -i value (SZ)", when: '"exponent less than 0"', re: new RegExp(String.raw`(${ID})=await (${ID})\((${ID}),(${ID})\.expression\);return String\(\1\)\}catch\{return"0"\}`, "g"), to: (all, s, y, e, r) => `${s}=await ${y}__x64(${e},${r}.expression);return String(${s})}catch{return"0"}`, count: 1 }, // SZ
  { what: "declare -i NAME+=VALUE (SZ)", when: '"exponent less than 0"', re: new RegExp(String.raw`(${ID})=parseInt\((${ID}),10\)\|\|0,(${ID})=parseInt\((await ${ID}\(${ID},${ID}\)),10\)\|\|0;(${ID})=String\(\1\+\3\)`, "g"), to: (all, a, f, b, call, u) => `${a}=__arith64.parseInt(${f},10)||0,${b}=__arith64.parseInt(${call},10)||0;${u}=String(__arith64.binary(${a},${b},"+"))`, count: 1 }, // SZ
  { what: "[[ a -gt b ]] operands (SZ)", when: '"exponent less than 0"', re: new RegExp(String.raw`(try\{let (${ID})=new ${ID},(${ID})=${ID}\(\2,(${ID})\);return await )(${ID})\((${ID}),\3\.expression\)\}catch\{return (${ID})\(\4\)\}\}((?:(?!async function )[^])*?)function \7\((${ID})\)\{if\(\9=\9\.trim\(\),\9===""\)return 0;(?:(?!function )[^])*?return Number\.isNaN\((${ID})\)&&\(\10=0\),(${ID})\?-\10:\10\}`, "g"), to: (all, head, n, r, t, y, e, au, mid, a) => `${head}${y}__x64(${e},${r}.expression)}catch{return ${au}(${t})}}${mid}function ${au}(${a}){return __arith64.conditionalInteger(${a})}`, count: 1 }, // SZ
  { what: "test integer operands (SZ)", when: '"exponent less than 0"', re: new RegExp(String.raw`function (${ID})\((${ID})\)\{if\(\2=\2\.trim\(\),\2===""\)return\{value:0,valid:!0\};(?:(?!function )[^])*?\{value:(${ID})\?-(${ID}):\4,valid:!0\}\}`, "g"), to: (all, ss, e) => `function ${ss}(${e}){return __arith64.testInteger(${e})}`, count: 1 }, // SZ
  { what: "printf length modifiers (SZ)", when: 'name:"printf"', re: new RegExp(String.raw`;(${ID})<(${ID})\.length&&"hlL"\.includes\(\2\[\1\]\)&&\1\+\+;`, "g"), to: (all, t, e) => `;for(;${t}<${e}.length&&"hlLjzt".includes(${e}[${t}]);)${t}++;`, count: 1 }, // SZ: %lld, %jd // SW: not q, printf's %q conversion
  { what: "printf integer conversions (SZ)", when: 'name:"printf"', re: new RegExp(String.raw`(function ${ID}\((${ID}),(${ID}),(${ID}),${ID}\)\{let ${ID}=!1,${ID}="";switch\(\3\)\{)case"d":case"i":\{(?:(?!function )[^])*?(?=case"e":case"E":)`, "g"), to: (all, head, e, l, n) => `${head}case"d":case"i":case"o":case"u":case"x":case"X":return __arith64.printfInteger(${e},${l},${n});`, count: 1 }, // SZ
  // SZ: `${a[*]}` where it is not split (an assignment's value, `case`, `[[ ]]`, `<<<`, `${a[*]^^}`, `${a[*]/x/y}`) joins
  // with IFS's first character (none when IFS is empty, a space when it is unset), as `$*` and bash; `${a[@]}` with a space.
  { what: "${a[*]} joins with IFS (SZ)", when: '"exponent less than 0"', re: new RegExp(String.raw`if\((${ID})==="@"\|\|\1==="\*"\)\{let (${ID})=${ID}\((${ID}),(${ID})\);if\(\2\.length>0\)return \2\.map\(\(\[,(${ID})\]\)=>\5\)\.join\(" "\);`, "g"), to: (all, a, f, e) => all.replace(/\.join\(" "\);$/, `.join(${a}==="*"?((__ifs)=>__ifs===void 0?" ":__ifs[0]||"")(${e}.state.env.get("IFS")):" ");`), count: 1 }, // SZ
  { what: "${a[*]:n} and ${*:n} join with IFS (SZ)", when: '"exponent less than 0"', re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),${ID},${ID}\)\{\2\.coverage\?\.hit\("bash:expansion:substring"\);)((?:(?!function )[^])*?)(?=(?:async )?function )`, "g"), to: (all, head, e, t, body) => { // SZ
    if ((body.match(/\.join\(" "\)/g) ?? []).length !== 4) throw new Error("gen-shell: just-bash's substring expansion changed (SZ)"); // SZ
    return `${head}let __sep=${t}==="*"||${t}.endsWith("[*]")?((__ifs)=>__ifs===void 0?" ":__ifs[0]||"")(${e}.state.env.get("IFS")):" ";${body.replace(/\.join\(" "\)/g, ".join(__sep)")}`; // SZ
  }, count: 1 }, // SZ
  { what: "printf reports every invalid number (SZ)", when: 'name:"printf"', re: new RegExp(String.raw`(${ID})&&\((${ID})=!0,(${ID})&&\((${ID})=\3\)\)`, "g"), to: (all, r, a, w, f) => `${r}&&(${a}=!0,${w}&&(${f}+=${w}))`, count: 2 }, // SZ
]; // SZ
SOURCE_PATCHES.push(...ARITH64_PATCHES); // SZ
const sourcePatchCounts = new Map();
/** The text of just-bash bundle file `path` with SOURCE_PATCHES applied (and their helpers imported). */
function readJustBash(path) {
  const source = readFileSync(path, "utf8");
  let text = source;
  for (const patch of SOURCE_PATCHES) {
    if (patch.when !== undefined && !source.includes(patch.when)) continue;
    const n = [...text.matchAll(patch.re)].length;
    if (n === 0) continue;
    text = text.replace(patch.re, patch.to);
    if (!sourcePatchCounts.has(patch.what)) sourcePatchCounts.set(patch.what, new Map());
    sourcePatchCounts.get(patch.what).set(path, n);
  }
  if (text === source) return source;
  const helpers = "operandsAfterOptions as __operandsAfterOptions,dirnameOf as __dirnameOf,basenameOf as __basenameOf,rmdirParentFailure as __rmdirParentFailure,readFailureReason as __readFailureReason,wcReadFiles as __wcReadFiles,tacText as __tacText,lsDirectoryOperands as __lsDirectoryOperands,followsStart as __followsStart,walkRoot as __walkRoot,findJoin as __findJoin,findStartName as __findStartName,findBelowStart as __findBelowStart,duName as __duName,childName as __childName,belowRoot as __belowRoot";
  const namespaces = HELPER_NAMESPACES.map(([name, module]) => `import*as ${name} from${JSON.stringify(module)};`).join("");
  return `import{${helpers}}from${JSON.stringify(coreutilsModule)};${namespaces}\n${text}`;
}
/**
 * SY (issue 20, run 25; helpers in src/backends/worker-shell/isolate/mode-expr.ts): chmod's modes as GNU chmod 9.1
 * (umask 022 for a clause without u/g/o/a, X only for directories and executables, u/g/o copies, a directory's
 * set-ID bits kept by a short numeric mode, "new permissions are" for `chmod -w`); expr's grammar as GNU expr 9.1
 * (`:`/match take a basic regular expression and print group 1, comparisons of non-integers as strings, exact
 * integers); a command another command runs (env, timeout, xargs, sh -c, bash FILE) gets the caller's exported
 * variables as its whole environment, env's assignments exported, `env -i` an empty one; env/printenv list exports.
 */
HELPER_NAMESPACES.push(["__modeExpr", join(isolateDir, "mode-expr.ts")]); // SY
const MODE_EXPR_PATCHES = [ // SY
  { what: "chmod mode (SY)", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})=420\)\{if\(/\^\[0-7\]\+\$/\.test\(\2\)\)return parseInt\(\2,8\);(?:(?!function )[^])*?return ${ID}\}(?=var ${ID}=\{name:"chmod",flags:)`, "g"), to: (all, p, e, a) => `function ${p}(${e},${a}=420,__dir=!1){return __modeExpr.chmodMode(${e},${a},__dir)}`, count: 1 }, // SY
  { what: "chmod mode operand (SY)", when: 'name:"chmod",async execute(', re: /\/\^\[\+-\]\?\[rwxugo\]\+\//g, to: "/^[+-]?[rwxXstugoa]+/", count: 1 }, // SY: chmod -X f, -s, -t
  { what: "chmod invalid mode (SY)", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`chmod: invalid mode: '\$\{${ID}\}'\n`, "g"), to: (all) => `${all}Try 'chmod --help' for more information.\n`, count: 1 }, // SY
  { what: "chmod numeric mode checked (SY)", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`if\((${ID})\)(${ID})=parseInt\((${ID}),8\);else try\{(${ID})\(\3,420\)\}`, "g"), to: (all, o, s, r, p) => `${o}&&(${s}=parseInt(${r},8));try{${p}(${r},420)}`, count: 1 }, // SY
  { what: "chmod of each file (SY)", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`(${ID})="",(${ID})=!1;for\(let (${ID}) of (${ID})\)\{let (${ID})=(${ID})\.fs\.resolvePath\(\6\.cwd,\3\);try\{let (${ID});if\((${ID})&&(${ID})!==void 0\)\7=\9;else\{let (${ID})=await \6\.fs\.stat\(\5\);\7=(${ID})\((${ID}),\10\.mode\)\}await \6\.fs\.chmod\(\5,\7\),((?:(?!catch)[^])*?)await (${ID})\(\6,\5,\8\?\9:void 0,\8\?void 0:\12,`, "g"), to: (all, l, c, t, d, m, a, h, o, s, g, p, r, mid, I) =>
    `${l}="",${c}=!1;for(let ${t} of ${d}){let ${m}=${a}.fs.resolvePath(${a}.cwd,${t});try{let ${h};{let ${g}=await ${a}.fs.stat(${m});${h}=${p}(${r},${g}.mode,${g}.isDirectory);await ${a}.fs.chmod(${m},${h});let __sy=__modeExpr.chmodSurprise(${r},${t},${g}.mode,${g}.isDirectory,${h});__sy&&(${l}+=__sy,${c}=!0)}${mid}await ${I}(${a},${m},void 0,${r},`, count: 1 }, // SY
  { what: "chmod -R of each file (SY)", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`(${ID})!==void 0\?\1:(${ID})!==void 0\?(${ID})\(\2,(${ID})\.stat\.mode\):420`, "g"), to: (all, i, f, p, o) => `${f}!==void 0?${p}(${f},${o}.stat.mode,${o}.stat.isDirectory):${i}`, count: 1 }, // SY
  { what: "expr grammar (SY)", when: '{name:"expr",async execute(', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{if\(\2\.length===1\)return \2\[0\];(?:(?!var ${ID}=\{name:"expr",flags)[^])*?(${ID})\(\`\^\$\{${ID}\}\`\)(?:(?!var ${ID}=\{name:"expr",flags)[^])*?(?=var ${ID}=\{name:"expr",flags:)`, "g"), to: (all, S, i, a, m) => `function ${S}(${i},${a}){return __modeExpr.expr(${i},${a},${m})}`, count: 1 }, // SY
  { what: "expr status (SY)", when: '{name:"expr",async execute(', re: new RegExp(String.raw`(${ID})==="0"\|\|\1===""\?1:0`, "g"), to: (all, t) => `__modeExpr.exprNull(${t})?1:0`, count: 1 }, // SY
  { what: "env starts from the exports (SY)", when: 'name:"printenv",summary:', re: new RegExp(String.raw`else\{(${ID})=new Map\((${ID})\.env\);`, "g"), to: (all, s, i) => `else{${s}=new Map(__modeExpr.environment(${i}));`, count: 1 }, // SY
  { what: "printenv lists the exports (SY)", when: 'name:"printenv",summary:', re: new RegExp(String.raw`(?<=of |=)(${ID})\.env(?=\)|\.get\()`, "g"), to: (all, i) => `__modeExpr.environment(${i})`, count: 2 }, // SY
  { what: "a command's commands get its exports (SY)", when: "execWithInheritedStdin:(", re: new RegExp(String.raw`exportedEnv:(${ID}),((?:(?!function )[^])*?)exec:\((${ID}),(${ID})\)=>(${ID})\.execFn\(\3,\4,!1\),execWithInheritedStdin:\((${ID}),(${ID})\)=>\5\.execFn\(\6,\{\.\.\.\7,`, "g"), to: (all, h, mid, v, k, i, v2, k2) =>
    `exportedEnv:${h},${mid}exec:(${v},${k})=>${i}.execFn(${v},__modeExpr.childExec(${k},${h}),!1),execWithInheritedStdin:(${v2},${k2})=>${i}.execFn(${v2},{...__modeExpr.childExec(${k2},${h}),`, count: 1 }, // SY
  { what: "a new environment is exported (SY)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`let (${ID})=(${ID})\.replaceEnv\?new Map:new Map\(this\.state\.env\);((?:(?!function )[^])*?hashTable:this\.state\.hashTable,)`, "g"), to: (all, h, u, mid) =>
    `let ${h}=${u}.replaceEnv?__modeExpr.startEnv(this.state):new Map(this.state.env);${mid}...(${u}.replaceEnv?__modeExpr.childExports(${u}.env):{}),`, count: 1 }, // SY
]; // SY
SOURCE_PATCHES.push(...MODE_EXPR_PATCHES); // SY
/** // SC
 * SC (issue 20, run 26; helpers in isolate/pattern-match.ts and isolate/arith64.ts, a sibling of SZ's): the matcher of // SC
 * `case`, `[[ == ]]` and `compgen -X` reads bracket expressions as bash (`[!a]` negated, `[!]a]`, `[\]]`); `for NAME;` // SC
 * loops over the positional parameters as they are ("$@"); a variable's value in arithmetic is read with the rules // SC
 * of a literal (`x=010` is 8, `x=08` an error), also by `++`, `+=`, `${x}` and `$(cmd)` operands. // SC
 */ // SC
HELPER_NAMESPACES.push(["__patternMatch", join(isolateDir, "pattern-match.ts")]); // SC
/** SC: the arithmetic evaluator region (SZ's) with variable values read as expressions. */ // SC
function scArithEvaluator(all, th) { // SC
  let text = all; // SC
  const swap = (what, re, to, count) => { // SC
    const n = (text.match(re) ?? []).length; // SC
    if (n !== count) throw new Error(`gen-shell: just-bash's arithmetic evaluator changed (${what}: ${n} matches, expected ${count}; SC)`); // SC
    text = text.replace(re, to); // SC
  }; // SC
  const ln = new RegExp(String.raw`async function (${ID})\((${ID}),(${ID}),(${ID}),(${ID})\)\{let (${ID})=\((${ID}),(${ID})=\4\)=>\1\(\2,\7,\8,\5\);switch\(\3\.type\)`).exec(text); // SC
  if (!ln) throw new Error("gen-shell: just-bash's arithmetic evaluator changed (Ln; SC)"); // SC
  const [, , e, , , r] = ln; // SC
  swap("decimal fast paths", new RegExp(String.raw`let (${ID})=__arith64\.parseInt\((${ID}),10\);if\(!Number\.isNaN\(\1\)&&/\^-\?\\d\+\$/\.test\(\2(?:\.trim\(\))?\)\)return \1;`, "g"), (m, v, t) => `let ${v}=__arith64.decimal(${t});if(${v}!==null)return ${v};`, 3); // SC
  swap("++ and -- read the operand's value", new RegExp(String.raw`(case"ArithUnary":\{let (${ID})=await ${ID}\(${ID}\.operand\);)((?:(?!case"ArithTernary")[^])*)`, "g"), (m, head, i, body) => { // SC
    const re = new RegExp(String.raw`(${ID})=__arith64\.parseInt\((?:(?!__arith64\.step)[^;])*?,10\)\|\|0,(${ID})=__arith64\.step\(\1,`, "g"); // SC
    if ((body.match(re) ?? []).length !== 4) throw new Error("gen-shell: just-bash's ++/-- changed (SC)"); // SC
    return head + body.replace(re, (m2, a, l) => `${a}=${i},${l}=__arith64.step(${a},`); // SC
  }, 1); // SC
  swap("op= reads the variable's value", new RegExp(String.raw`(${ID})=__arith64\.parseInt\(((?:(?!__arith64)[^;])*?)\|\|"0",10\)\|\|0,(${ID})=await (${ID})\((${ID})\.value\),`, "g"), (m, c, v, u, s, t) => `${c}=${t}.operator==="="?0:await ${th}(${e},${v},${r}),${u}=await ${s}(${t}.value),`, 2); // SC
  swap("${x} operand", new RegExp(String.raw`\{let (${ID})=await (${ID})\(${e},(${ID})\.content\);return __arith64\.parseInt\(\1,10\)\|\|0\}`, "g"), (m, i, us, t) => `{let ${i}=await ${us}(${e},${t}.content);return await ${th}(${e},${i},${r})}`, 1); // SC
  swap("$(cmd) operand", new RegExp(String.raw`let (${ID})=(${ID})\.stdout\.trim\(\);return __arith64\.parseInt\(\1,10\)\|\|0`, "g"), (m, o, i) => `let ${o}=${i}.stdout.trim();return await ${th}(${e},${o},${r})`, 1); // SC
  swap("value too great names the number", new RegExp(String.raw`case"ArithNumber":if\(Number\.isNaN\((${ID})\.value\)\)throw new (${ID})\("value too great for base"\);`, "g"), (m, t, ce) => `case"ArithNumber":if(Number.isNaN(${t}.value))throw new ${ce}(${t}.text!==void 0?\`\${${t}.text}: value too great for base (error token is "\${${t}.text}")\`:"value too great for base");`, 1); // SC
  return text; // SC
} // SC
const SC_PATCHES = [ // SC
  { what: "case/[[ ]] bracket expression (SC)", re: new RegExp(String.raw`else if\((${ID})==="\["\)\{let (${ID})=(${ID})\.indexOf\("\]",(${ID})\+1\);\2!==-1\?\((${ID})\+=\3\.slice\(\4,\2\+1\),\4=\2\):\5\+="\\\\\["\}`, "g"), to: (all, s, i, e, r, n) => `else if(${s}==="["){let ${i}=__patternMatch.bracket(${e},${r});${i}!==null?(${n}+=${i}.regex,${r}=${i}.end):${n}+="\\\\["}`, count: 1 }, // SC
  { what: "pattern length bracket end (SC)", re: new RegExp(String.raw`if\((${ID})==="\["\)\{let (${ID})=(${ID})\.indexOf\("\]",(${ID})\+1\);if\(\2!==-1\)\{`, "g"), to: (all, s, i, e, r) => `if(${s}==="["){let ${i}=__patternMatch.bracketEnd(${e},${r});if(${i}!==-1){`, count: 2 }, // SC
  { what: "for NAME; loops over $@ (SC)", re: new RegExp(String.raw`if\((${ID})\.words===null\)(${ID})=\((${ID})\.state\.env\.get\("@"\)\|\|""\)\.split\(" "\)\.filter\(Boolean\)`, "g"), to: (all, t, i, e) => `if(${t}.words===null)${i}=Array.from({length:Number.parseInt(${e}.state.env.get("#")||"0",10)||0},(__v,__k)=>${e}.state.env.get(String(__k+1))??"")`, count: 1 }, // SC
  { what: "arithmetic number text (SC)", when: '"exponent less than 0"', re: new RegExp(String.raw`return\{expr:\{type:"ArithNumber",value:(${ID})\((${ID})\)\},pos:(${ID})\}`, "g"), to: (all, or, c, s) => `return{expr:{type:"ArithNumber",value:${or}(${c}),text:${c}},pos:${s}}`, count: 1 }, // SC
  { what: "arithmetic variable values (SC)", when: '"exponent less than 0"', re: new RegExp(String.raw`async function (${ID})\(${ID},${ID},${ID}\)\{if\(!${ID}\)return 0;let ${ID}=__arith64\.parseInt\((?:(?!async function ${ID}\(${ID},${ID},${ID}=!1,${ID}=${ID}\(\)\))[^])*`, "g"), to: (all, th) => scArithEvaluator(all, th), count: 1 }, // SC
  { what: "subscript base errors (SC)", when: '"exponent less than 0"', re: new RegExp(String.raw`(await ${ID}\(${ID},${ID}\.expression(?:,!1)?\)\})catch\{(?!return ${ID}\(${ID}\)\})`, "g"), to: (all, head) => `${head}catch(__e){__arith64.rethrowBaseError(__e);`, count: 11 }, // SC: `x=08; ${a[x]}` fails as bash
  // SC: test and [ name themselves and the operand in bash's messages, status 2: `[ abc -eq 1 ]` is `bash: [: abc: integer
  // expression expected`, `test 1 -eq` (two operands, the first no unary operator) `bash: test: 1: unary operator expected`.
  { what: "test knows its name (SC)", when: '"exponent less than 0"', re: new RegExp(String.raw`if\((${ID})==="\["\|\|\1==="test"\)\{let (${ID})=(${ID});((?:(?!function )[^])*?)return (${ID})\((${ID}),\2\)\}`, "g"), to: (all, t, f, n, mid, mr, c) => `if(${t}==="["||${t}==="test"){let ${f}=${n};${mid}return ${mr}(${c},${f},${t})}`, count: 1 }, // SC
  { what: "test integer expression expected (SC)", when: '"exponent less than 0"', re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID})\)\{if\(\3\.length===0\)return (${ID})\("","",1\);(?:(?!function )[^])*?)\?(${ID})\(\`test: \$\{(${ID})\}: unary operator expected\n\`,2\):\4\("","",1\)\}((?:(?!function )[^])*?let (${ID})=(${ID})\((${ID})\),(${ID})=\9\((${ID})\);return!\8\.valid\|\|!\11\.valid\?)\4\("","",2\):`, "g"), to: (all, head, e, t, l, d, r, mid, o, ss, r2, a, i) => // SC
    `${head.replace(`(${e},${t}){`, `(${e},${t},__testName="test"){`)}?${d}(\`bash: \${__testName}: \${${r}}: unary operator expected\n\`,2):${d}(\`bash: \${__testName}: \${${r}}: unary operator expected\n\`,2)}${mid}${l}("",\`bash: \${__testName}: \${${o}.valid?${i}:${r2}}: integer expression expected\n\`,2):`, count: 1 }, // SC
  // SC: `${!x}` with x unset (also under set -u, also `${!x:+w}`) ends the shell, status 1, `bash: x: invalid indirect
  // expansion`; a value that names no parameter (``, `a b`, `1a`) `bash: a b: invalid variable name`, as bash.
  { what: "${!x} of an unset x (SC)", when: '"exponent less than 0"', re: new RegExp(String.raw`(let (${ID})=/[^/\n]*/\.test\((${ID})\);)if\((${ID})\)\{if\((${ID})\.innerOp\?\.type==="UseAlternative"\)return"";throw new ${ID}\(\`\\\$\{!\$\{\3\}\}\`\)\}let (${ID})=(${ID});`, "g"), to: (all, head, a, t, r, s, l, n, ...rest) => { // SC
    const exitError = exitErrorOf(rest.at(-1)); // SC
    return `${head}if(${r})throw new ${exitError}(1,"",\`bash: \${${t}}: invalid indirect expansion\n\`);let ${l}=${n};if(!${a}&&!/^(?:[a-zA-Z_][a-zA-Z0-9_]*(?:\\[[^]*\\])?|[0-9]+|[-@*#?$!])$/.test(${l}))throw new ${exitError}(1,"",\`bash: \${${l}}: invalid variable name\n\`);`; // SC
  }, count: 1 }, // SC
  { what: "${!x} reads x without set -u (SC)", when: '"exponent less than 0"', re: new RegExp(String.raw`(${ID})=(${ID})&&\(\2\.type==="DefaultValue"\|\|\2\.type==="AssignDefault"\|\|\2\.type==="UseAlternative"\|\|\2\.type==="ErrorIfUnset"\)`, "g"), to: (all, o, s) => `${all.slice(0, -1)}||${s}.type==="Indirection")`, count: 1 }, // SC
]; // SC
SOURCE_PATCHES.push(...SC_PATCHES); // SC
/** // JQ
 * JQ (issue 20, run 39; helpers in isolate/jq-fixes.ts): just-bash's query engine (jq's, shared with yq) and its // JQ
 * `jq` command as jq 1.6: `.[a:b] = v` / `|=` / `+=` and `del(.[a:b])` splice the array inside the document; // JQ
 * values ordered and compared as jq (strings by code point, objects by key sets then values; `unique` and // JQ
 * `group_by` sort); `\uXXXX` in the program's strings; type errors (`+ - * / %`, `.[]` of a scalar, indexing a // JQ
 * string or number) fail the input with `jq: error (at <unknown>): …`, status 5, outputs of earlier inputs kept; // JQ
 * `walk` applies f to scalars; `match(re; "g")` yields every match; `break` keeps earlier outputs; `-j` is raw; // JQ
 * `@sh` formats arrays and non-strings, `@tsv` escapes `\`; `-e` exits 4 with no output; `length` counts code points. // JQ
 */ // JQ
HELPER_NAMESPACES.push(["__jq", join(isolateDir, "jq-fixes.ts")]); // JQ
const JQ_ENGINE = "withPrependedResults("; // JQ: only the query engine's chunk has it
const JQ_COMMAND = '{name:"jq",async execute('; // JQ
/** JQ: the one match of `re`'s group 1 in the bundle text `text`. */ // JQ
function jqName(text, re, what) { // JQ
  const found = [...text.matchAll(new RegExp(re, "g"))]; // JQ
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's ${what} found ${found.length} times, expected 1; update JQ_PATCHES (JQ)`); // JQ
  return found[0][1]; // JQ
} // JQ
/** JQ: the query engine's break error class (its `withPrependedResults` carries the outputs before a `break`). */ // JQ
const jqBreak = (text) => jqName(text, String.raw`var (${ID})=class ${ID} extends Error\{label;partialResults;`, "jq break class"); // JQ
/** JQ: `text` with `re` replaced by `to`, which must match exactly `count` times. */ // JQ
function jqSwap(text, what, re, to, count = 1) { // JQ
  const n = (text.match(re) ?? []).length; // JQ
  if (n !== count) throw new Error(`gen-shell: just-bash's ${what} changed (${n} matches, expected ${count}); update JQ_PATCHES (JQ)`); // JQ
  return text.replace(re, to); // JQ
} // JQ
const JQ_PATCHES = [ // JQ
  { what: "jq equality and order (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{return JSON\.stringify\(\2\)===JSON\.stringify\(\3\)\}function (${ID})\((${ID}),(${ID})\)\{return typeof \5=="number"&&typeof \6=="number"\?\5-\6:typeof \5=="string"&&typeof \6=="string"\?\5\.localeCompare\(\6\):0\}`, "g"), to: (all, eq, a, b, cmp, c, d) => `function ${eq}(${a},${b}){return __jq.compare(${a},${b})===0}function ${cmp}(${c},${d}){return __jq.compare(${c},${d})}`, count: 1 }, // JQ
  { what: "jq sort comparator (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{let (${ID})=(${ID})=>\5===null\?0:typeof \5=="boolean"\?1:typeof \5=="number"\?2:(?:(?!function )[^])*?\}return 0\}(?=function ${ID}\(${ID},${ID}\)\{if\(${ID}\(${ID},${ID}\)\)return!0;)`, "g"), to: (all, z, a, b) => `function ${z}(${a},${b}){return __jq.compare(${a},${b})}`, count: 1 }, // JQ
  { what: "jq sort (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"sort":return Array\.isArray\((${ID})\)\?\[\[\.\.\.\1\]\.sort\(${ID}\)\]:\[null\];`, "g"), to: (all, e) => `case"sort":return[__jq.sort(${e})];`, count: 1 }, // JQ
  { what: "jq unique (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"unique":if\(Array\.isArray\((${ID})\)\)\{let (${ID})=new Set,(${ID})=\[\];for\(let (${ID}) of \1\)\{let (${ID})=JSON\.stringify\(\4\);\2\.has\(\5\)\|\|\(\2\.add\(\5\),\3\.push\(\4\)\)\}return\[\3\]\}return\[null\];`, "g"), to: (all, e) => `case"unique":return[__jq.unique(${e})];`, count: 1 }, // JQ
  { what: "jq group_by (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"group_by":\{if\(!Array\.isArray\((${ID})\)\|\|(${ID})\.length===0\)return\[null\];let (${ID})=new Map;for\(let (${ID}) of \1\)\{let (${ID})=JSON\.stringify\((${ID})\(\4,\2\[0\],(${ID})\)\[0\]\);\3\.has\(\5\)\|\|\3\.set\(\5,\[\]\),\3\.get\(\5\)\?\.push\(\4\)\}return\[\[\.\.\.\3\.values\(\)\]\]\}`, "g"), to: (all, e, t, c, h, a, s, r) => `case"group_by":{if(${t}.length===0)return[null];return[__jq.groupBy(${e},__x=>${s}(__x,${t}[0],${r})[0])]}`, count: 1 }, // JQ
  { what: "jq @tsv (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"@tsv":return Array\.isArray\((${ID})\)\?\[\1\.map\((?:(?!case")[^])*?\]:\[null\];`, "g"), to: (all, e) => `case"@tsv":return[__jq.tsv(${e})];`, count: 1 }, // JQ
  { what: "jq @sh (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"@sh":return typeof (${ID})=="string"\?\[(?:(?!case")[^])*?\]:\[null\];`, "g"), to: (all, e) => `case"@sh":return[__jq.sh(${e})];`, count: 1 }, // JQ
  { what: "jq length (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"length":return typeof (${ID})=="string"\?\[\1\.length\]:`, "g"), to: (all, e) => `case"length":return typeof ${e}=="string"?[__jq.codePoints(${e})]:`, count: 1 }, // JQ
  { what: "jq walk (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"walk":\{if\((${ID})\.length===0\)return\[(${ID})\];let ${ID}=(${ID})\((${ID})\),(?:(?!case")[^])*?let ${ID}=(${ID})\(${ID},\1\[0\],\4\)\[0\];(?:(?!case")[^])*?return\[${ID}\]\}`, "g"), to: (all, t, e, V, r, s) => `case"walk":{if(${t}.length===0)return[${e}];let __l=${V}(${r});return __jq.walk(${e},__v=>${s}(__v,${t}[0],${r}),{maxIterations:__l.maxIterations,maxDepth:__l.maxDepth})}`, count: 1 }, // JQ
  { what: "jq match (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"match":\{if\(typeof (${ID})!="string"\|\|(${ID})\.length===0\)return\[null\];let (${ID})=(${ID})\(\1,\2\[0\],(${ID})\),(${ID})=String\(\3\[0\]\);try\{let (${ID})=\2\.length>1\?String\(\4\(\1,\2\[1\],\5\)\[0\]\):"",${ID}=(${ID})\(\6,` + "`" + String.raw`\$\{\7\}d` + "`" + String.raw`\)\.exec\(\1\);(?:(?!case")[^])*?\}catch\{return\[null\]\}\}`, "g"), to: (all, e, t, o, s, r, p, u, j) => // JQ
    `case"match":{if(typeof ${e}!="string"||${t}.length===0)return[null];let ${o}=${s}(${e},${t}[0],${r}),${p}=String(${o}[0]);try{let ${u}=${t}.length>1?String(${s}(${e},${t}[1],${r})[0]):"";return __jq.matches(${e},${u},__f=>${j}(${p},__f))}catch{return[null]}}`, count: 1 }, // JQ
  { what: "jq break keeps outputs of a map (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{let (${ID})=\[\];for\(let (${ID}) of \3\)\{(${ID})\(\2\);let (${ID})=\4\(\6\);(${ID})\(\2,\5,\8\)\}return \5\}`, "g"), to: (all, m, e, n, t, r, s, R, o, q, ...rest) => // JQ
    `function ${m}(${e},${n},${t}){let ${r}=[];for(let ${s} of ${n}){${R}(${e});let ${o};try{${o}=${t}(${s})}catch(__b){throw __b instanceof ${jqBreak(rest.at(-1))}?__b.withPrependedResults(${r}):__b}${q}(${e},${r},${o})}return ${r}}`, count: 1 }, // JQ
  { what: "jq break keeps outputs of a comma (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"Comma":\{let (${ID})=(${ID})\((${ID}),(${ID})\.left,(${ID})\),(${ID})=\2\(\3,\4\.right,\5\);`, "g"), to: (all, r, d, e, n, t, s, ...rest) => // JQ
    `case"Comma":{let ${r}=${d}(${e},${n}.left,${t}),${s};try{${s}=${d}(${e},${n}.right,${t})}catch(__b){throw __b instanceof ${jqBreak(rest.at(-1))}?__b.withPrependedResults(${r}):__b}`, count: 1 }, // JQ
  { what: "jq .[] of a scalar (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`(case"Iterate":\{let (${ID})=(${ID})\.base\?${ID}\(${ID},\3\.base,${ID}\):\[${ID}\];return ${ID}\(${ID},\2,(${ID})=>Array\.isArray\(\4\)\?\4:\4&&typeof \4=="object"\?Object\.values\(\4\):)\[\]\)\}`, "g"), to: (all, head, r, n, s) => `${head}__jq.iterateError(${s}))}`, count: 1 }, // JQ
  { what: "jq index errors (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`if\(typeof (${ID})=="string"\)\{let (${ID})=(${ID})\((${ID})\);return!\2\|\|!Object\.hasOwn\(\2,\1\)\?\[null\]:\[\2\[\1\]\]\}return\[null\]\}\)\}\)\}case"Slice":`, "g"), to: (all, p, u, S, s) => // JQ
    `if(typeof ${p}=="string"){let ${u}=${S}(${s});if(!${u})return __jq.indexError(${s},${p});return!Object.hasOwn(${u},${p})?[null]:[${u}[${p}]]}return __jq.indexError(${s},${p})})})}case"Slice":`, count: 1 }, // JQ
  { what: "jq arithmetic (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`(${ID})\.flatMap\((${ID})=>(${ID})\.map\((${ID})=>\{switch\((${ID})\)\{case"\+":(?:(?!function )[^])*?case"==":`, "g"), to: (all, o, f, p, i, n) => { // JQ
    let text = all.replace(`${o}.flatMap(${f}=>${p}.map(${i}=>{`, `${p}.flatMap(${i}=>${o}.map(${f}=>{`); // JQ: jq runs the left operand inside the right one's loop
    const err = (op) => `__jq.arithmeticError(${JSON.stringify(op)},${f},${i})`; // JQ
    text = jqSwap(text, "jq + fallback", /:null;case"-":/g, `:${err("+")};case"-":`); // JQ
    text = jqSwap(text, "jq - fallback", /return null;case"\*":/g, `return ${err("-")};case"*":`); // JQ
    text = jqSwap(text, "jq * fallback", /return null;case"\/":/g, `return ${err("*")};case"/":`); // JQ
    text = jqSwap(text, "jq / fallback", /:null;case"%":/g, `:${err("/")};case"%":`); // JQ
    return jqSwap(text, "jq % fallback", /return null;case"==":/g, `return ${err("%")};case"==":`); // JQ
  }, count: 1 }, // JQ
  { what: "jq slice update (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID}),(${ID}),(${ID})\)\{function (${ID})\((${ID}),(${ID})\)\{switch\(\4\)\{case"=":return \9;[^]*?(?=case"Iterate":\{let ${ID}=${ID}=>\{if\(Array\.isArray\(${ID}\)\)\{${ID}\(\6,0,)`, "g"), to: (all, it, e, n, t, r, s) => { // JQ
    const m = new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{switch\(\3\.type\)\{case"Identity":return \4\(\2\);`).exec(all); // JQ
    const d = new RegExp(String.raw`let ${ID}=(${ID})\(${e.replace(/\$/g, "\\$")},(${ID})\.index,${s.replace(/\$/g, "\\$")}\)\[0\]`).exec(all); // JQ
    if (!m || !d) throw new Error("gen-shell: just-bash's jq path update changed; update JQ_PATCHES (JQ)"); // JQ
    const [, p, f, i, c] = m; // JQ
    const ev = d[1]; // JQ
    return `${all}case"Slice":{let __u=__a=>__jq.sliceUpdate(__a,${i}.start?${ev}(${e},${i}.start,${s})[0]:null,${i}.end?${ev}(${e},${i}.end,${s})[0]:null,${c});return ${i}.base?${p}(${f},${i}.base,__u):__u(${f})}`; // JQ
  }, count: 1 }, // JQ
  { what: "jq \\u escapes in strings (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`for\(;!(${ID})\(\);\)\{let (${ID})=(${ID})\(\);if\((${ID})===0&&\2==='"'\)break;if\(\4===0&&\2==="\\\\"\)\{if\((${ID})\(\),\1\(\)\)break;let (${ID})=\5\(\);switch\(\6\)\{case"n":(${ID})\+=`, "g"), to: (all, o, l, r, a, s, y, h) => // JQ
    `${all.slice(0, all.indexOf("{case\"n\":") + 1)}case"u":{let __h="";for(let __k=0;__k<4&&!${o}()&&/[0-9a-fA-F]/.test(${r}());__k++)__h+=${s}();${h}+=__h.length===4?String.fromCharCode(parseInt(__h,16)):"u"+__h;break}case"b":${h}+="\\b";break;case"f":${h}+="\\f";break;case"n":${h}+=`, count: 1 }, // JQ
  { what: "jq -j is raw (JQ)", when: JQ_COMMAND, re: new RegExp(String.raw`(if\((${ID})==="-r"\|\|\2==="--raw-output"\)(${ID})=!0;)(?:(?!function )[^])*?else if\(\2==="-j"\|\|\2==="--join-output"\)(${ID})=!0;`, "g"), to: (all, head, e, m, h) => `${all.slice(0, -1)},${m}=!0;`, count: 1 }, // JQ
  { what: "jq -j in a flag group is raw (JQ)", when: JQ_COMMAND, re: new RegExp(String.raw`if\((${ID})==="r"\)(${ID})=!0;(?:(?!function )[^])*?else if\(\1==="j"\)(${ID})=!0;`, "g"), to: (all, n, m, h) => `${all.slice(0, -1)},${m}=!0;`, count: 1 }, // JQ
  { what: "jq errors per input (JQ)", when: JQ_COMMAND, re: new RegExp(String.raw`(try\{let ${ID}=${ID}\(${ID},\{maxDepth:${ID}\.limits\.maxQueryDepth,maxTokens:${ID}\.limits\.maxQueryTokens,maxSourceLength:${ID}\.limits\.maxStringLength\}\),(${ID})=\[\],)((?:(?!function )[^])*?)(let (${ID})=(${ID})\?"":` + "`\n`" + String.raw`(?:(?!function )[^])*?)(${ID})=(${ID})&&\(\2\.length===0\|\|\2\.every\((${ID})=>\9==null\|\|\9===!1\)\)\?1:0;return\{stdout:((?:(?!function )[^])*?),stderr:"",exitCode:\7\}\}catch\((${ID})\)\{if\(\11 instanceof (${ID})\)throw \11;if\(\11 instanceof (${ID})\)return`, "g"), to: (all, head, e, body, mid, y, h, te, x, o, out, err, fatal, limit) => { // JQ
    const evaluate = /if\(([\w$]+)\)[\w$]+=([\w$]+)\(null,/.exec(body); // JQ
    if (!evaluate) throw new Error("gen-shell: just-bash's jq evaluation changed; update JQ_PATCHES (JQ)"); // JQ
    const C = evaluate[2]; // JQ
    const calls = new RegExp(String.raw`(?<![\w$.])${C.replace(/\$/g, "\\$")}\(`, "g"); // JQ
    const n = (body.match(calls) ?? []).length; // JQ
    if (n !== 6) throw new Error(`gen-shell: just-bash's jq evaluation calls changed (${n}, expected 6); update JQ_PATCHES (JQ)`); // JQ
    const wrapped = body.replace(calls, `__jq.run(__jqErrs,__jqFatal,${C},`); // JQ
    return `${head}__jqErrs=[],__jqFatal=(__x)=>__x instanceof ${fatal}||__x instanceof ${limit},${wrapped}${mid}${te}=${x}?__jq.exitStatus(${e}):0;return{stdout:${out},stderr:__jqErrs.join(""),exitCode:__jqErrs.length>0?5:${te}}}catch(${err}){if(${err} instanceof ${fatal})throw ${err};if(${err} instanceof ${limit})return`; // JQ
  }, count: 1 }, // JQ
  { what: "jq del of a slice (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{function (${ID})\((${ID}),(${ID}),(${ID})\)\{switch\(\7\.type\)\{case"Identity":return \8;[^]*?(?=case"Iterate":return Array\.isArray\(${ID}\)\?\[\]:)`, "g"), to: (all, st, e, n, t, r) => { // JQ
    const q = (x) => x.replace(/\$/g, "\\$"); // JQ
    const m = new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{switch\(\3\.type\)\{case"Identity":return null;`).exec(all); // JQ
    const d = new RegExp(String.raw`let ${ID}=(${ID})\(${q(e)},(${ID})\.index,${q(t)}\)\[0\]`).exec(all); // JQ
    if (!m || !d) throw new Error("gen-shell: just-bash's jq del changed; update JQ_PATCHES (JQ)"); // JQ
    const [, , o, p] = m; // JQ
    const ev = d[1]; // JQ
    return `${all}case"Slice":{let __v=${p}.base?${ev}(${o},${p}.base,${t})[0]:${o},__r=__jq.sliceDelete(__v,${p}.start?${ev}(${e},${p}.start,${t})[0]:null,${p}.end?${ev}(${e},${p}.end,${t})[0]:null);return ${p}.base?${r}(${o},${p}.base,__r):__r}`; // JQ
  }, count: 1 }, // JQ
  { what: "jq splits of a non-string (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"splits":\{if\(typeof (${ID})!="string"\|\|(${ID})\.length===0\)return\[\];let (${ID})=(${ID})\(\1,\2\[0\],(${ID})\),(${ID})=String\(\3\[0\]\);`, "g"), to: (all, e, t, o, s, r, p) => // JQ
    `case"splits":{if(${t}.length===0)return[];__jq.matchable(${e});let ${o}=${s}(${e},${t}[0],${r}),${p}=__jq.matchable(${o}[0]);`, count: 1 }, // JQ
  { what: "jq compile errors exit 3 (JQ)", when: JQ_COMMAND, re: new RegExp(String.raw`(try\{let ${ID}=${ID}\(${ID},\{maxDepth:${ID}\.limits\.maxQueryDepth,(?:(?!function )[^])*?let (${ID})=(${ID})\((${ID})\.message\);return )\2\.includes\("Unknown function"\)\?`, "g"), to: (all, head, e) => { // JQ
    const parsed = head.replace(/(maxSourceLength:[\w$.]+\}\),)/, "$1__jqP=(__jqParsed=!0),"); // JQ: set once the program parsed
    if (parsed === head) throw new Error("gen-shell: just-bash's jq program parse changed; update JQ_PATCHES (JQ)"); // JQ
    return `let __jqParsed=!1;${parsed}!__jqParsed||${e}.includes("Unknown function")?`; // JQ
  }, count: 1 }, // JQ
  { what: "jq @csv (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"@csv":return Array\.isArray\((${ID})\)\?\[\1\.map\((?:(?!case")[^])*?\]:\[null\];`, "g"), to: (all, e) => `case"@csv":return[__jq.csv(${e})];`, count: 1 }, // JQ
  { what: "jq del of several paths (JQ)", when: JQ_ENGINE, re: new RegExp(String.raw`case"delpaths":\{if\((${ID})\.length===0\)return\[(${ID})\];let (${ID})=(${ID})\(\2,\1\[0\],(${ID})\)\[0\],(${ID})=\2;for\(let (${ID}) of \3\.sort\(\((${ID}),(${ID})\)=>\9\.length-\8\.length\)\)\6=(${ID})\(\6,\7\);return\[\6\]\}case"path":\{if\(\1\.length===0\)return\[\[\]\];let (${ID})=\[\];return (${ID})\(\2,\1\[0\],\5,\[\],\11\),\11\}case"del":return \1\.length===0\?\[\2\]:\[(${ID})\(\2,\1\[0\],\5\)\];`, "g"), to: (all, t, e, h, s, r, a, l, y, m, u, c, i, f, ...rest) => // JQ
    // JQ: jq deletes the paths sorted, the last first (delpaths sorted by length only); `del(.a, .b[0])` deletes every path
    all.replace(`${h}.sort((${y},${m})=>${m}.length-${y}.length)`, `${h}.sort((${y},${m})=>__jq.compare(${m},${y}))`).replace(new RegExp(String.raw`case"del":return (?:(?!case")[^])*$`), `case"del":{if(${t}.length===0)return[${e}];let ${c}=__jq.commaPaths(${t}[0],${jqName(rest.at(-1), String.raw`function (${ID})\((${ID})\)\{if\(\2\.type==="Identity"\)return\[\];if\(\2\.type==="Field"\)`, "jq static path")});if(${c}===null)return[${f}(${e},${t}[0],${r})];let ${a}=${e};for(let ${l} of ${c}.sort((${y},${m})=>__jq.compare(${m},${y})))${a}=${u}(${a},${l});return[${a}]}`), count: 1 }, // JQ
]; // JQ
SOURCE_PATCHES.push(...JQ_PATCHES); // JQ
/** // JQ2
 * JQ2 (issue 20, run 39; helpers in isolate/jq-fixes.ts): jq's path expressions. just-bash's `path(f)` knew only // JQ2
 * plain paths (`path(.[] | select(. > 1))` gave `[]`), and its assignments and `del` walked the AST, so // JQ2
 * `del(.[] | select(…))`, `.. |= f`, `(.a[] | select(…) | .b) = v` silently did nothing or replaced the document. // JQ2
 * Now `path`, `del`, `delpaths`, `paths`, `leaf_paths`, `map_values` and every `=`/`|=`/`op=` run the path // JQ2
 * evaluator `__jq.pathsFor` (jq's path mode: `.a .[e] .[a:b] .[] .. ? | , if // try reduce foreach as label def`, // JQ2
 * `select recurse first last limit getpath empty error` and the type selectors; anything else is `Invalid path // JQ2
 * expression with result …`), then jq 1.6's `_assign`/`_modify`/`delpaths` over those paths. // JQ2
 */ // JQ2
/** JQ2: the `__jq.PathEngine` object literal built from the engine chunk's own names, found in `text`. */ // JQ2
function jq2Engine(text) { // JQ2
  const d = jqName(text, String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{let ${ID}=\4&&"vars"in \4\?\4:`, "jq evaluate"); // JQ2
  const w = jqName(text, String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{switch\(\3\.type\)\{case"var":return`, "jq pattern bind"); // JQ2
  const g = jqName(text, String.raw`case"Optional":try\{return ${ID}\(${ID},${ID}\.expr,${ID}\)\}catch\(${ID}\)\{if\(${ID} instanceof (${ID})\)throw`, "jq limit error"); // JQ2
  return { d, w, g, q: jqBreak(text) }; // JQ2
} // JQ2
const JQ2_PATCHES = [ // JQ2
  { what: "jq path(f) in path mode (JQ2)", when: JQ_ENGINE, re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID}),(${ID}),(${ID})\)\{(?=if\((${ID})\(\4\),\5\.length>\4\.limits\.maxDepth\)throw)`, "g"), to: (all, ne, e, n, t, r, s, R, ...rest) => { // JQ2
    const { d, w, g, q } = jq2Engine(rest.at(-1)); // JQ2
    return `var __jqEngine=()=>({evaluate:${d},bind:${w},limitError:${g},breakError:${q},step:${R}});${all}for(let __p of __jq.pathsFor(__jqEngine(),${t},${n},${e}))${s}.push([...${r},...__p]);return;`; // JQ2
  }, count: 1 }, // JQ2
  { what: "jq assignments over paths (JQ2)", when: JQ_ENGINE, re: new RegExp(String.raw`case"UpdateOp":return\[(${ID})\((${ID}),(${ID})\.path,\3\.op,\3\.value,(${ID})\)\];`, "g"), to: (all, it, e, n, t) => `case"UpdateOp":return __jq.update(__jqEngine(),${t},${e},${n}.path,${n}.op,${n}.value);`, count: 1 }, // JQ2
  { what: "jq del over paths (JQ2)", when: JQ_ENGINE, re: new RegExp(String.raw`case"del":\{if\((${ID})\.length===0\)return\[(${ID})\];let ${ID}=__jq\.commaPaths\((?:(?!case")[^])*?if\(${ID}===null\)return\[${ID}\(\2,\1\[0\],(${ID})\)\];(?:(?!case")[^])*?(?=case"pick")`, "g"), to: (all, t, e, r) => `case"del":return ${t}.length===0?[${e}]:[__jq.del(__jqEngine(),${r},${t}[0],${e})];`, count: 1 }, // JQ2
  { what: "jq delpaths (JQ2)", when: JQ_ENGINE, re: new RegExp(String.raw`case"delpaths":\{if\((${ID})\.length===0\)return\[(${ID})\];let ${ID}=(${ID})\(\2,\1\[0\],(${ID})\)\[0\],(?:(?!case")[^])*?(?=case"path")`, "g"), to: (all, t, e, s, r) => `case"delpaths":return ${t}.length===0?[${e}]:${s}(${e},${t}[0],${r}).map(__p=>__jq.delpaths(${e},__p));`, count: 1 }, // JQ2
  { what: "jq paths and leaf_paths (JQ2)", when: JQ_ENGINE, re: new RegExp(String.raw`case"paths":\{let (${ID})=(${ID})\((${ID}),(${ID}),!1\);return (${ID})\.length>0\?(?:(?!case")[^])*?case"leaf_paths":return \2\(\3,\4,!0\);`, "g"), to: (all, c, L, e, r, t) => `case"paths":return __jq.paths(__jqEngine(),${r},${e},${t}.length>0?${t}[0]:null);case"leaf_paths":return __jq.paths(__jqEngine(),${r},${e},{type:"Call",name:"scalars",args:[]});`, count: 1 }, // JQ2
  { what: "jq getpath and setpath (JQ2)", when: JQ_ENGINE, re: new RegExp(String.raw`case"getpath":\{if\((${ID})\.length===0\)return\[null\];let ${ID}=(${ID})\((${ID}),\1\[0\],(${ID})\)(?:(?!case")[^])*?case"setpath":\{if\(\1\.length<2\)return\[null\];(?:(?!case")[^])*?(?=case"delpaths")`, "g"), to: (all, t, s, e, r) => // JQ2
    `case"getpath":return ${t}.length===0?[null]:${s}(${e},${t}[0],${r}).map(__p=>{if(!Array.isArray(__p))throw new Error("Path must be specified as an array");return __jq.getpath(__jqEngine(),${r},${e},__p)});case"setpath":{if(${t}.length<2)return[null];let __v=${s}(${e},${t}[1],${r});return ${s}(${e},${t}[0],${r}).flatMap(__p=>{if(!Array.isArray(__p))throw new Error("Path must be specified as an array");return __v.map(__x=>__jq.setpath(${e},__p,()=>__x))})}`, count: 1 }, // JQ2
  { what: "jq map_values is .[] |= f (JQ2)", when: JQ_ENGINE, re: new RegExp(String.raw`case"map_values":(?=\{if\((${ID})\.length===0\)return\[null\];if\(Array\.isArray\((${ID})\)\)\{${ID}\((${ID}),0,\2\.length\))`, "g"), to: (all, t, e, r) => `${all}if(${t}.length>0)return __jq.update(__jqEngine(),${r},${e},{type:"Iterate"},"|=",${t}[0]);`, count: 1 }, // JQ2
]; // JQ2
SOURCE_PATCHES.push(...JQ2_PATCHES); // JQ2
/** // JQ40
 * JQ40 (issue 20, run 40, fixer f40jq; helpers in isolate/jq-fixes.ts): `def f($a): …` binds `$a` to each output of // JQ40
 * its argument and defines `a` (just-bash bound only the filter `$a/0`, so `$a` read null); a user function shadows // JQ40
 * the builtin of its name and arity; an undefined `$x` and a jq 1.6 builtin called with another arity are compile errors; `sub`/`gsub` evaluate the replacement on the named captures; // JQ40
 * formats of non-strings, `@fmt "…\(x)"` format strings, `to_entries` of arrays and `add` of objects as jq; // JQ40
 * a missing input file is reported and the rest read (status 2); outputs before a malformed input are kept (status 4). // JQ40
 */ // JQ40
const JQ40_PATCHES = [ // JQ40
  // JQ40: a user function shadows a builtin of the same name and arity (`def pick($k): …; pick("a")`), as in jq
  { what: "jq def $params (JQ40)", when: JQ_ENGINE, re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID}),(${ID})\)\{(?=let (${ID})=(${ID})\.get\(\3\);if\(\6\)return typeof \2=="number"\?\[\6\(\2\)\]:\[null\];let (${ID})=(${ID})\(\2,\3,\4,\5,(${ID})\);)`, "g"), to: (all, J, e, n, t, r, s, et, o, de, d) => // JQ40
    `${all}let __k=\`\${${n}}/\${${t}.length}\`,__u=${r}.funcs?.get(__k);if(__u)return __jq.defContexts(__jqEngine(),${e},__u,__k,${t},${r}).flatMap(__c=>${d}(${e},__u.body,__c));`, count: 1 }, // JQ40
  { what: "jq compile checks (JQ40)", when: JQ_COMMAND, re: new RegExp(String.raw`let (${ID})=(${ID})\((${ID}),(\{maxDepth:${ID}\.limits\.maxQueryDepth,maxTokens:${ID}\.limits\.maxQueryTokens,maxSourceLength:${ID}\.limits\.maxStringLength\})\),(?=__jqP=(?:(?!function )[^])*?namedArgs:(${ID}),)`, "g"), to: (all, r, Z, V, opts, named) => // JQ40
    `let ${r}=__jq.compileCheck(${Z}(${V},${opts}),${V},${named}.keys()),`, count: 1 }, // JQ40
  { what: "jq sub and gsub (JQ40)", when: JQ_ENGINE, re: new RegExp(String.raw`case"sub":\{if\(typeof (${ID})!="string"\|\|(${ID})\.length<2\)return\[null\];let ${ID}=(${ID})\(\1,\2\[0\],(${ID})\),(?:(?!case")[^])*?\[(${ID})\(${ID},${ID}\)\.replace\(\1,${ID}\)\]\}catch\{return\[\1\]\}\}case"gsub":\{(?:(?!case")[^])*?\}catch\{return\[\1\]\}\}`, "g"), to: (all, e, t, s, r, j) => // JQ40
    ["sub", "gsub"].map((name) => `case"${name}":{if(${t}.length<2)return[null];return ${s}(${e},${t}[0],${r}).flatMap(__re=>__jq.substitute(${e},__re,${t}.length>2?String(${s}(${e},${t}[2],${r})[0]):"",${name === "gsub"},__f=>${j}(__re,__f),__c=>${s}(__c,${t}[1],${r})))}`).join(""), count: 1 }, // JQ40
  // JQ40: `@base64`, `@uri`, `@html`, `@text`… format a non-string's JSON text (jq's tostring), `to_entries` of an array
  // keys its indices, `add` of an object adds its values, `@fmt "…\(x)…"` formats each interpolated value
  { what: "jq formats of non-strings (JQ40)", when: JQ_ENGINE, re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{switch\(\3\)\{case"@base64":`, "g"), to: (all, ye, e, n) => // JQ40
    `${all.slice(0, -"switch(".length - n.length - '){case"@base64":'.length)}if(typeof ${e}!="string"&&/^@(?:base64d?|urid?|html|text)$/.test(${n}))${e}=JSON.stringify(${e});switch(${n}){case"@base64":`, count: 1 }, // JQ40
  { what: "jq to_entries of an array (JQ40)", when: JQ_ENGINE, re: new RegExp(String.raw`case"to_entries":\{(?=let ${ID}=${ID}\((${ID})\);)`, "g"), to: (all, e) => `${all}if(Array.isArray(${e}))return[${e}.map((__v,__i)=>({key:__i,value:__v}))];`, count: 1 }, // JQ40
  { what: "jq add of an object (JQ40)", when: JQ_ENGINE, re: new RegExp(String.raw`return Array\.isArray\((${ID})\)\?\[(${ID})\(\1\)\]:\[null\]\}case"any":`, "g"), to: (all, e, c) => `return Array.isArray(${e})?[${c}(${e})]:${e}&&typeof ${e}=="object"?[${c}(Object.values(${e}))]:[null]}case"any":`, count: 1 }, // JQ40
  { what: "jq format strings parse (JQ40)", when: JQ_ENGINE, re: new RegExp(String.raw`let (${ID})=this\.advance\(\)\.value;if\(\1\.startsWith\("\$"\)\)return\{type:"VarRef",name:\1\};`, "g"), to: (all, t) => `${all}if(${t}.startsWith("@")&&this.check("STRING"))return{...this.parseStringInterpolation(this.advance().value),format:${t}};`, count: 1 }, // JQ40
  { what: "jq format strings (JQ40)", when: JQ_ENGINE, re: new RegExp(String.raw`(case"StringInterp":\{(?:(?!case")[^])*?for\(let ${ID} of (${ID})\.parts\)(?:(?!case")[^])*?)(${ID})\.append\(typeof (${ID})=="string"\?\4:JSON\.stringify\(\4\)\)`, "g"), to: (all, head, n, r, p, ...rest) => { // JQ40
    const ye = jqName(rest.at(-1), String.raw`function (${ID})\(${ID},(${ID}),${ID}\)\{(?:if\((?:(?!switch)[^])*)?switch\(\2\)\{case"@base64":`, "jq formats"); // JQ40
    return `${head}${r}.append(${n}.format?String(${ye}(${p},${n}.format)?.[0]??"null"):typeof ${p}=="string"?${p}:JSON.stringify(${p}))`; // JQ40
  }, count: 1 }, // JQ40
  // JQ40: a missing input file is reported and the others read (status 2); a malformed input ends the inputs after
  // the outputs of the values before it (status 4)
  { what: "jq missing input files (JQ40)", when: JQ_COMMAND, re: new RegExp(String.raw`let (${ID})=await (${ID})\("file read",\(\)=>(${ID})\((${ID}),(${ID}),\{cmdName:"jq",stopOnError:!0\}\)\);if\(\1\.exitCode!==0\)return\{stdout:"",stderr:\1\.stderr,exitCode:2\};`, "g"), to: (all, r, d, y, t, N) => // JQ40
    `let ${r}=await ${d}("file read",()=>${y}(${t},${N},{cmdName:"jq",stopOnError:!1}));var __jqOpen=${r}.exitCode!==0?__jq.openErrors(${r}.stderr):"";`, count: 1 }, // JQ40
  { what: "jq input errors (JQ40)", when: JQ_COMMAND, re: new RegExp(String.raw`let __jqParsed=!1;((?:(?!function )[^])*?)for\(let\{content:(${ID})\}of (${ID})\)\{let (${ID})=\2\.trim\(\);if\(!\4\)continue;let (${ID})=(${ID})\(\4,(${ID})\);(for\(let ${ID} of \5\)${ID}\(${ID},__jq\.run\(__jqErrs,__jqFatal,${ID},${ID},${ID},${ID}\)\))\}((?:(?!function )[^])*?)return\{stdout:((?:(?!function )[^])*?),stderr:__jqErrs\.join\(""\),exitCode:__jqErrs\.length>0\?5:(${ID})\}`, "g"), to: (all, mid, o, D, f, c, J, v, loop, rest, out, te) => // JQ40
    `let __jqParsed=!1,__jqBad=[];${mid}for(let{content:${o}}of ${D}){let ${f}=${o}.trim();if(!${f})continue;let ${c}=__jq.jsonValues(${f},__x=>${J}(__x,${v}),__jqFatal,__jqBad);${loop};if(__jqBad.length>0)break}${rest}return{stdout:${out},stderr:(__jqOpen||"")+__jqErrs.join("")+__jqBad.join(""),exitCode:__jqBad.length>0?4:__jqOpen?2:__jqErrs.length>0?5:${te}}`, count: 1 }, // JQ40
]; // JQ40
SOURCE_PATCHES.push(...JQ40_PATCHES); // JQ40
const justBashSourcePatch = {
  name: "just-bash-source-patches",
  setup(b) {
    b.onStart(() => sourcePatchCounts.clear());
    b.onLoad({ filter: /[\\/]node_modules[\\/]just-bash[\\/]dist[\\/]bundle[\\/](?:index|chunks[\\/][^\\/]+)\.js$/ }, (args) => {
      const text = readJustBash(args.path);
      if (!text.startsWith("import{operandsAfterOptions as")) return undefined;
      return { contents: text, loader: "js", resolveDir: dirname(args.path) };
    });
    b.onEnd(() => {
      for (const { what, count } of SOURCE_PATCHES) {
        const found = [...(sourcePatchCounts.get(what)?.values() ?? [])].reduce((a, n) => a + n, 0);
        if (found !== count) throw new Error(`gen-shell: just-bash's ${what} changed (${found} matches, expected ${count}); update SOURCE_PATCHES in scripts/gen-shell.mjs`);
      }
    });
  },
};

/**
 * L1 (issue 20, run 25; helpers in src/backends/worker-shell/isolate/gnu-extra.ts): `mapfile -u FD` / `readarray -u FD`
 * read the descriptor (just-bash skipped -u and read stdin); sed takes GNU's address flags `/re/I` and `/re/M`;
 * `mkdir -p` makes each missing parent in turn and -v names each (just-bash named only the operand); comm checks its inputs'
 * order (`--check-order`, `--nocheck-order`); join pairs lines in one merge, unpairable lines in order; `sort -k` with a
 * bad key fails with GNU's message, status 2; `cp f nope/` is `Not a directory`, `cp a b T` names T's own failure.
 */
HELPER_NAMESPACES.push(["__gnuExtra", join(isolateDir, "gnu-extra.ts")]); // L1
/** L1: the name of the function `re`'s group 1 captures in bundle text `text` (exactly one match). */
function l1Name(text, re, what) { // L1
  const found = [...text.matchAll(new RegExp(re, "g"))]; // L1
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's ${what} found ${found.length} times, expected 1 (L1)`); // L1
  return found[0][1]; // L1
} // L1
const L1_PATCHES = [ // L1
  { what: "mapfile -u (L1)", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID}),__source=-1\)\{let (${ID})=` + "`\n`" + String.raw`,(${ID})=0,(${ID})=0,(${ID})=0,(${ID})=!1,(${ID})="MAPFILE",(${ID})=0;for\(;\11<(${ID})\.length;\)\{let (${ID})=\12\[\11\];((?:(?!function )[^])*?)\13==="-u"\|\|\13==="-C"\|\|\13==="-c"\?\11\+=2:((?:(?!function )[^])*?)(${ID})=__readInput\.inputText\(\16,((?:(?!function )[^])*?)\);((?:(?!function )[^])*?)return \2\.state\.groupStdin!==void 0&&!\4&&\(\2\.state\.groupStdin=""\),\{\.\.\.(${ID})\("","",0\),internalStdinConsumed:\16\.length\}`, "g"), to: (all, f, e, t, n, r, s, i, o, a, l, c, args, g, mid1, mid2, u, textArg, mid3, L, offset, text) => { // L1
    const lookup = l1Name(text, String.raw`let ${ID}=${ID},${ID}=(${ID})\(${ID},${ID}\),${ID}=${ID}>0&&!\(${ID}\?\.kind==="dup-in"&&${ID}\.sourceFd===0\);`, "read -u descriptor lookup"); // L1
    const content = l1Name(text, String.raw`if\(${ID}\)\{let ${ID}=(${ID})\(${ID},${ID}\);if\("error"in ${ID}\)\{let ${ID}=${ID}\.error==="write-only"`, "read -u descriptor content"); // L1
    const advance = l1Name(text, String.raw`=${ID}=>\{${ID}\?(${ID})\(${ID},${ID},${ID}\):${ID}>=0\?${ID}\(`, "read -u descriptor advance"); // L1
    return `function ${f}(${e},${t},${n},__source=-1,__mfName="mapfile"){let ${r}=\`\\n\`,${s}=0,${i}=0,${o}=0,${a}=!1,${l}="MAPFILE",${c}=0,__mfFd;for(;${c}<${args}.length;){let ${g}=${args}[${c}];${mid1}` + // L1
      `${g}==="-u"&&${c}+1<${args}.length?(__mfFd=${args}[${c}+1],${c}+=2):${g}.startsWith("-u")&&${g}.length>2?(__mfFd=${g}.slice(2),${c}++):${g}==="-u"||${g}==="-C"||${g}==="-c"?${c}+=2:${mid2}` + // L1
      `${u}=__readInput.inputText(${u},${textArg});let __mfIn=__gnuExtra.mapfileInput(${e},__mfFd,{lookup:${lookup},content:${content}},__mfName);if(__mfIn!==null&&typeof __mfIn=="object")return ${L}("",__mfIn.error,1);if(__mfIn!==null)${u}=__mfIn;${mid3}` + // L1
      `if(__mfIn!==null)return ${advance}(${e},Number(__mfFd.trim()),__gnuExtra.mapfileConsumed(${u},${r},${s},${o})),${L}("","",0);return ${e}.state.groupStdin!==void 0&&!${n}&&(${e}.state.groupStdin=""),{...${L}("","",0),internalStdinConsumed:${u}.length}`; // L1
  }, count: 1 }, // L1
  { what: "readarray names itself (L1)", re: new RegExp(String.raw`if\((${ID})==="mapfile"\|\|\1==="readarray"\)return (${ID})\((${ID}),(${ID}),(${ID}),(${ID})\);`, "g"), to: (all, t, j, c, n, s, a) => `if(${t}==="mapfile"||${t}==="readarray")return ${j}(${c},${n},${s},${a},${t});`, count: 1 }, // L1
  { what: "sed address flags read (L1)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`return this\.peek\(\)==="/"&&this\.advance\(\),\{type:(${ID})\.PATTERN,value:(${ID}),pattern:\2,line:(${ID}),column:(${ID})\}`, "g"), to: (all) => `${all.slice(0, -1)},addressFlags:__gnuExtra.sedAddressFlags(this)}`, count: 1 }, // L1
  { what: "sed address flags kept (L1)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`case (${ID})\.PATTERN:return this\.advance\(\),\{pattern:__escapes\.sedPattern\((${ID})\.pattern\|\|\2\.value\)\};`, "g"), to: (all, c, e) => `${all.slice(0, -2)},flags:${e}.addressFlags||""};`, count: 1 }, // L1
  { what: "sed address flags used (L1)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(if\(typeof (${ID})=="object"&&"pattern"in \2\)try\{(?:(?!catch)[^])*?return ${ID}\(${ID})\)\.test\(`, "g"), to: (all, head, i) => `${head},${i}.flags||"").test(`, count: 1 }, // L1
  { what: "mkdir -p parents (L1)", when: 'name:"mkdir",async execute(', re: new RegExp(String.raw`let (${ID})="",(${ID})="",(${ID})=0;for\(let (${ID}) of (${ID})\)try\{let (${ID})=(${ID})\.fs\.resolvePath\(\7\.cwd,\4\);(await \7\.fs\.mkdir\(\6,\{recursive:(${ID})\}\),(${ID})&&\(\1\+=)`, "g"), to: (all, a, o, c, r, n, i, t, tail, u, g) => // L1
    `let ${a}="",${o}="",${c}=0;for(let ${r} of ${n})try{let ${i}=${t}.fs.resolvePath(${t}.cwd,${r});if(${u}){let __m=await __gnuExtra.mkdirParents(${t}.fs,${t}.cwd,${r});${g}&&(${a}+=__m.stdout),__m.stderr&&(${o}+=__m.stderr,${c}=1);continue}${tail}`, count: 1 }, // L1
  { what: "comm order options (L1)", when: 'name:"comm",async execute(', re: new RegExp(String.raw`let (${ID})=!1,(${ID})=!1,(${ID})=!1,(${ID})=\[\];for\(let (${ID}) of (${ID})\)if\(\5==="-1"\)`, "g"), to: (all, r, l, f, i, e, m) => `let ${r}=!1,${l}=!1,${f}=!1,${i}=[],__commCheck="";for(let ${e} of ${m})if(${e}==="--check-order"||${e}==="--nocheck-order")__commCheck=${e};else if(${e}==="-1")`, count: 1 }, // L1
  { what: "comm order check (L1)", when: 'name:"comm",async execute(', re: new RegExp(String.raw`let (${ID})=0,(${ID})=0,(${ID})="",(${ID})=(${ID})\?"":"\t",(${ID})=\(\5\?"":"\t"\)\+\((${ID})\?"":"\t"\);for\(;\1<(${ID})\.length\|\|\2<(${ID})\.length;\)(?:(?!return)[^])*?:\((${ID})\|\|\(\3\+=` + "`" + String.raw`\$\{\6\}\$\{\8\[\1\]\}\n` + "`" + String.raw`\),\1\+\+,\2\+\+\);return\{stdout:\3,stderr:"",exitCode:0\}`, "g"), to: (all, n, o, u, h, r, w, l, t, s, f) => `return __gnuExtra.comm(${t},${s},{first:!${r},second:!${l},both:!${f}},__commCheck)`, count: 1 }, // L1
  { what: "join merge (L1)", when: '{name:"join",execute:', re: new RegExp(String.raw`(${ID})=new Map;for\(let (${ID}) of (${ID})\)\{let (${ID})=\1\.get\(\2\.joinKey\);\4\?\4\.push\(\2\):\1\.set\(\2\.joinKey,\[\2\]\)\}((?:(?!function )[^])*?),(${ID})=new Set;for\(let (${ID}) of (${ID})\)\{(?:(?!return)[^])*?\}if\((${ID})\.printUnpairable\.has\(2\)\|\|\9\.onlyUnpairable\.has\(2\)\)for\(let (${ID}) of \3\)\6\.has\(\10\.joinKey\)\|\|(${ID})\((${ID})\(null,\10,\9\)\);`, "g"), to: (all, y, e0, L2, o0, mid, N, e1, K, n, e2, j, I) => // L1
    `${y}=null;${mid},${N}=null;__gnuExtra.joinMerge(${K},${L2},{pairs:${n}.onlyUnpairable.size===0,unpaired1:${n}.printUnpairable.has(1)||${n}.onlyUnpairable.has(1),unpaired2:${n}.printUnpairable.has(2)||${n}.onlyUnpairable.has(2)},(__a,__b)=>${j}(${I}(__a,__b,${n})));`, count: 1 }, // L1
  { what: "sort -k checked (L1)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`if\((${ID})==="-k"\|\|\1==="--key"\)\{let (${ID})=(${ID})\[\+\+(${ID})\];if\(\2\)\{let (${ID})=(${ID})\(\2\);\5&&(${ID})\.keys\.push\(\5\)\}\}else if\(\1\.startsWith\("-k"\)\)\{let ${ID}=\6\(\1\.slice\(2\)\);${ID}&&\7\.keys\.push\(${ID}\)\}else if\(\1\.startsWith\("--key="\)\)\{let ${ID}=\6\(\1\.slice\(6\)\);${ID}&&\7\.keys\.push\(${ID}\)\}`, "g"), to: (all, t, a, u, c, f, y, e) => // L1
    `if(${t}==="-k"||${t}==="--key"||${t}.startsWith("-k")||${t}.startsWith("--key=")){let __k=__gnuExtra.sortKeyOption(${u},${c});if("error"in __k)return __k.error;${c}=__k.last;let ${f}=${y}(__k.spec);${f}&&${e}.keys.push(${f})}`, count: 1 }, // L1
  { what: "cp/mv target failure (L1)", re: new RegExp(String.raw`try\{(${ID})=\(await (${ID})\.fs\.stat\((${ID})\)\)\.isDirectory\}catch\{\}if\((${ID})\.length>1&&!\1\)return\{stdout:"",stderr:` + "`" + String.raw`(cp|mv): target '\$\{(${ID})\}' is not a directory\n` + "`" + String.raw`,exitCode:1\}`, "g"), to: (all, f, e, l, m, cmd, g) => // L1
    `let __target=null;try{${f}=(await ${e}.fs.stat(${l})).isDirectory}catch(__e){__target=__e}if(${m}.length>1&&!${f})return{stdout:"",stderr:\`${cmd}: target '\${${g}}': \${await __gnuExtra.targetReason(${e}.fs,${l},__target)}\\n\`,exitCode:1}`, count: 2 }, // L1
]; // L1
SOURCE_PATCHES.push(...L1_PATCHES); // L1
/** // SD
 * SD (issue 20, run 26; helpers in isolate/gnu-extra.ts, a sibling of L1's, and isolate/umask.ts): sort finds a // SD
 * key's text as GNU sort 9.1 (`-k N` to the end of the line, `.C` offsets from the field's start, past its end); // SD
 * join checks its inputs' order as GNU join 9.1 (`--check-order`, `--nocheck-order`). // SD
 */ // SD
const SD_PATCHES = [ // SD
  { what: "sort key text (SD)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{let ${ID}=\4!==null\?\4:/\\s\+/,${ID}=\2\.split\(${ID}\),${ID}=\3\.startField-1;(?:(?!function )[^])*?\}(?=function )`, "g"), to: (all, v, u, r, e) => `function ${v}(${u},${r},${e}){return __gnuExtra.sortKey(${u},${r},${e})}`, count: 1 }, // SD
  { what: "sort key b skips blanks once (SD)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`(${ID})\.ignoreLeading&&\((${ID})=\2\.trimStart\(\),(${ID})=\3\.trimStart\(\)\);`, "g"), to: "", count: 1 }, // SD
  { what: "join order options (SD)", when: '{name:"join",execute:', re: new RegExp(String.raw`else if\((${ID})==="-i"\|\|\1==="--ignore-case"\)(${ID})\.ignoreCase=!0,(${ID})\+\+;`, "g"), to: (all, e, n, t) => `${all}else if(${e}==="--check-order"||${e}==="--nocheck-order")${n}.checkOrder=${e},${t}++;`, count: 1 }, // SD
  { what: "join order check (SD)", when: '{name:"join",execute:', re: new RegExp(String.raw`__gnuExtra\.joinMerge\((${ID}),(${ID}),\{pairs:(${ID})\.onlyUnpairable\.size===0,((?:(?!return)[^])*?)return\{exitCode:0,(stdout:(?:(?!return)[^])*?),stderr:"",stdoutEncoding:"binary"\}`, "g"), to: (all, k, l, n, mid, out) => // SD
    `let __joinCheck=__gnuExtra.joinMerge(${k},${l},{check:${n}.checkOrder??"",names:__joinNames,texts:__joinTexts,pairs:${n}.onlyUnpairable.size===0,${mid}return{exitCode:__joinCheck.exitCode,${out},stderr:__joinCheck.stderr,stdoutEncoding:"binary"}`, count: 1 }, // SD
  { what: "join operands kept (SD)", when: '{name:"join",execute:', re: new RegExp(String.raw`let (${ID})=\[\];for\(let (${ID}) of (${ID})\)if\(\2==="-"\)\1\.push\(`, "g"), to: (all, r, e, a) => `let ${r}=[],__joinNames=${a},__joinTexts=${r};for(let ${e} of ${a})if(${e}==="-")${r}.push(`, count: 1 }, // SD
]; // SD
SOURCE_PATCHES.push(...SD_PATCHES); // SD
HELPER_NAMESPACES.push(["__umask", join(isolateDir, "umask.ts")]); // SD: umask builtin, touch -d/-t/-r refused
const SD_UMASK_PATCHES = [ // SD
  { what: "umask builtin (SD)", re: new RegExp(String.raw`if\((${ID})==="declare"\|\|\1==="typeset"\)return (${ID})\((${ID}),(${ID})\);`, "g"), to: (all, t, d, c, n) => `if(${t}==="umask")return __umask.umaskBuiltin(${c},${n});${all}`, count: 1 }, // SD
  { what: "umask kept by subshells (SD)", re: new RegExp(String.raw`(${ID})=(${ID})\((${ID})\.state\);((?:__shellOptions\.newShell\(\3\.state\);)?)\3\.state\.parentHasLoopContext=`, "g"), to: (all, a, aa, e, sf) => `${a}=__umask.keepUmask(${e}.fs,${aa}(${e}.state));${sf}${e}.state.parentHasLoopContext=`, count: 2 }, // SD
  { what: "umask kept by child shells (SD)", re: new RegExp(String.raw`(${ID})=await new (${ID})\((${ID}),(${ID})\)\.executeScript\((${ID})\)`, "g"), to: (all, n, kr, k, m, s) => `${n}=await __umask.withUmask(this.fs,()=>new ${kr}(${k},${m}).executeScript(${s}))`, count: 1 }, // SD
  { what: "umask kept by $(…) (SD)", re: new RegExp(String.raw`__shellOptions\.commandSubstitution\((${ID}),\(\)=>\1\.executeScript\((${ID})\.body\)\)`, "g"), to: (all, e, t) => `__shellOptions.commandSubstitution(${e},()=>__umask.withUmask(${e}.fs,()=>${e}.executeScript(${t}.body)))`, count: 1 }, // SD
  { what: "chmod mode under the umask (SD)", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})=420,__dir=!1\)\{return __modeExpr\.chmodMode\(\2,\3,__dir\)\}`, "g"), to: (all, p, e, a) => `function ${p}(${e},${a}=420,__dir=!1,__um){return __modeExpr.chmodMode(${e},${a},__dir,__um)}`, count: 1 }, // SD
  { what: "chmod of each file under the umask (SD)", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`(${ID})=(${ID})\((${ID}),(${ID})\.mode,\4\.isDirectory\);await (${ID})\.fs\.chmod\(`, "g"), to: (all, h, p, r, g, a) => `${h}=${p}(${r},${g}.mode,${g}.isDirectory,__umask.umaskOf(${a}.fs));await ${a}.fs.chmod(`, count: 1 }, // SD
  { what: "chmod -R under the umask (SD)", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`(async function ${ID}\((${ID}),(?:(?!function )[^])*?)(${ID})!==void 0\?(${ID})\(\3,(${ID})\.stat\.mode,\5\.stat\.isDirectory\):`, "g"), to: (all, head, e, f, p, o) => `${head}${f}!==void 0?${p}(${f},${o}.stat.mode,${o}.stat.isDirectory,__umask.umaskOf(${e}.fs)):`, count: 1 }, // SD
  { what: "touch -d/-t/-r refused (SD)", when: 'name:"touch",async execute(', re: new RegExp(String.raw`(async execute\((${ID}),(${ID})\)\{let (${ID})=\[\],(${ID})=null,(${ID})=!1;(?:(?!function )[^])*?)(let ${ID}=null;if\(\5!==null&&)`, "g"), to: (all, head, s, a, r, i, u, date) => `${head}{let __t=await __umask.touchTimes(${s},${r},${u},${a});if(__t!==null)return __t}${date}`, count: 1 }, // SD
]; // SD
SOURCE_PATCHES.push(...SD_UMASK_PATCHES); // SD
/** // L2
 * L2 (issue 20, run 27; helpers in isolate/leads-l2.ts): extglob `!(…)` matched without a regular expression // L2
 * (`[[ == ]]`, `case`, pathname expansion) and lexed as a word where bash reads it as one. // L2
 */ // L2
HELPER_NAMESPACES.push(["__leadsL2", join(isolateDir, "leads-l2.ts")]); // L2
const L2_PATCHES = [ // L2
  { what: "case/[[ ]] !(…) (L2)", re: new RegExp(String.raw`(function ${ID}\((${ID}),(${ID}),(${ID})=!1,(${ID})=!1,(${ID})=256\)\{\5&&${ID}\(\3,\6\);)`, "g"), to: (all, head, e, t, n, r) => `${head}if(${r}&&__leadsL2.hasExtNegation(${t}))return __leadsL2.globMatch(${e},${t},${n});`, count: 1 }, // L2
  { what: "pathname !(…) (L2)", re: /matchPattern\((\w+),(\w+)\)\{return this\.patternToRegex\(\2\)\.test\(\1\)\}/g, to: (all, t, n) => `matchPattern(${t},${n}){if(this.extglob&&__leadsL2.hasExtNegation(${n}))return __leadsL2.globMatch(${t},__leadsL2.unquoteMarkers(${n}));return this.patternToRegex(${n}).test(${t})}`, count: 1 }, // L2
  { what: "!( lexed as a word (L2)", re: new RegExp(String.raw`(${ID})==="!"\?(${ID})==="="\?(\(this\.pos=(${ID})\+2,this\.column=(${ID})\+2,this\.makeToken\((${ID})\.WORD,"!=",\4,(${ID}),\5\)\)):`, "g"), to: (all, i, o, eq, n, s, E, r) => `${i}==="!"?${o}==="="?${eq}:${o}==="("&&this.scanExtglobPattern(${n}+1)!==null&&__leadsL2.extglobAtParse(this.input,${n},this.tokens.at(-1)?.value)?this.readWord(${n},${r},${s}):`, count: 1 }, // L2
  { what: "export NAME leaves it unset (L2)", re: new RegExp(String.raw`else (${ID})\.state\.env\.set\((${ID}),(${ID})\);else \1\.state\.env\.has\(\2\)\|\|\1\.state\.env\.set\(\2,""\);(${ID})\(\1,\2\)\}return (${ID})\("",(${ID}),(${ID})\)\}`, "g"), to: (all, e, a) => all.replace(`${e}.state.env.has(${a})||${e}.state.env.set(${a},"");`, `${e}.state.env.has(${a})||(${e}.state.declaredVars??=new Set).add(${a});`), count: 1 }, // L2
  { what: "export -p lists an unset export (L2)", re: new RegExp(String.raw`let (${ID})=(${ID})\.state\.env\.get\((${ID})\);\1!==void 0&&\((${ID})\+=` + "`" + String.raw`declare -x \$\{\3\}=\$\{(${ID})\(\1\)\}\n` + "`" + String.raw`\)`, "g"), to: (all, u, e, c, o, wr) => `let ${u}=${e}.state.env.get(${c});${o}+=${u}===void 0?\`declare -x \${${c}}\\n\`:\`declare -x \${${c}}=\${${wr}(${u})}\\n\``, count: 1 }, // L2
  { what: "exec COMMAND ends the shell (L2)", re: new RegExp(String.raw`if\((${ID})==="exit"\)return (${ID})\((${ID}),(${ID})\);((?:(?!function )[^])*?)if\(\1==="exec"\)\{if\(\4\.length===0\)return (${ID});let\[(${ID}),\.\.\.(${ID})\]=\4;return\{\.\.\.await (${ID})\(\7,\8,\[\],(${ID}),!1,!1,-1,(${ID})\),internalProducerOmitsShellPrefix:!0\}\}`, "g"), to: (all, t, exit, c, n, mid, ne, f, d, u, s, l) => // L2
    `if(${t}==="exit")return ${exit}(${c},${n});${mid}if(${t}==="exec"){if(${n}.length===0)return ${ne};let[${f},...${d}]=${n};let __r={...await ${u}(${f},${d},[],${s},!1,!1,-1,${l}),internalProducerOmitsShellPrefix:!0};__scriptBuiltins.dropExitTrap(${c}.state);try{${exit}(${c},[String(__r.exitCode)])}catch(__x){__x?.prependOutput?.(__r.stdout,__r.stderr);throw __x}return __r}`, count: 1 }, // L2
  { what: "awk input that cannot be opened exits 2 (L2)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`if\((${ID}) instanceof __awk\.OpenError\)return\{stdout:"",stderr:\1\.message,exitCode:1\}`, "g"), to: (all) => all.replace(/exitCode:1\}$/, "exitCode:2}"), count: 1 }, // L2
  { what: "$(( )) error leaves loops (L2)", re: new RegExp(String.raw`(function ${ID}\((${ID}),(${ID}),(${ID}),(${ID})\)\{if\(\2 instanceof ${ID}\)return \3\+=\2\.stdout,(?:(?!function )[^])*?if\(\2 instanceof ${ID}\|\|\2 instanceof ${ID}\|\|\2 instanceof ${ID}\|\|\2 instanceof ${ID})\)return \2\.prependOutput\(\3,\4\),\{action:"rethrow"`, "g"), to: (all, head, e) => all.replace(`${head})return`, `${head}||${e}?.name==="ArithmeticError")return`), count: 1 }, // L2
  { what: "$(( )) error leaves if/case bodies (L2)", re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),(${ID})\)\{let (${ID})=0;try\{for\(let (${ID}) of \3\)\{let (${ID})=await \2\.executeStatement\(\6\);\4\.append\(\7\.stdout,\7\.stderr\),\5=\7\.exitCode\}\}catch\((${ID})\)\{if\(${ID}\(\8\)\|\|\8 instanceof ${ID}\|\|\8 instanceof ${ID}\|\|\8 instanceof ${ID}\|\|\8 instanceof ${ID})\)throw`, "g"), to: (all, head, e, t, n, r, s, i, c) => `${head}||${c}?.name==="ArithmeticError")throw`, count: 1 }, // L2
  { what: "$(( )) error in a subshell (L2)", re: new RegExp(String.raw`:\((${ID})\.append\("stderr",` + "`" + String.raw`\$\{(${ID})\((${ID})\)\}\n` + "`" + String.raw`\),\1\.build\(1\)\)`, "g"), to: (all, i, t, a) => `:(${i}.append("stderr",${a}?.name==="ArithmeticError"?${a}.stderr:\`\${${t}(${a})}\\n\`),${i}.build(1))`, count: 1 }, // L2
  { what: "$(( )) error text (L2)", re: new RegExp(String.raw`case"ArithmeticExpansion":\{(let (${ID})=(${ID})\.expression\.originalText;(?:(?!case")[^])*?)\}(?=case"BraceExpansion")`, "g"), to: (all, body, s, t) => `case"ArithmeticExpansion":{try{${body}}catch(__e){throw __leadsL2.arithExpansionError(__e,${t}.expression.originalText,e.state.currentLine)}}`, count: 1 }, // L2
  { what: "script's group marked (L2)", re: new RegExp(String.raw`(${ID})=await __umask\.withUmask\(this\.fs,\(\)=>new (${ID})\((${ID}),(${ID})\)\.executeScript\((${ID})\)\)`, "g"), to: (all, n, kr, k, m, s) => `${n}=(__leadsL2.markTop(${s}),${all.slice(n.length + 1)})`, count: 1 }, // L2
  { what: "$(( )) error ends the line (L2)", re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),${ID},(${ID}),${ID},${ID}\)\{let (${ID})=new ${ID}\(\2\.executionScope,"group"\),(${ID})=0,(?:(?!function )[^])*?)try\{for\(let (${ID}) of \3\.body\)\{let (${ID})=await \4\(\7\);\5\.appendResult\(\8\),\6=\8\.exitCode\}\}catch\((${ID})\)\{`, "g"), to: (all, head, e, t, r, o, a, d, p, c) => // L2
    `${head}try{let __skip=null;for(let ${d} of ${t}.body){if(__skip!==null&&__leadsL2.startsOnLine(${d},__skip))continue;let ${p};try{${p}=await ${r}(${d})}catch(__e){if(__e?.name!=="ArithmeticError"||!__leadsL2.isTop(${t}))throw __e;${o}.append("stdout",__e.stdout),${o}.append("stderr",__leadsL2.lineErrorText(__e,${e}.state.currentLine)),${a}=1,${e}.state.lastExitCode=1,${e}.state.env.set("?","1"),__skip=__leadsL2.endLine(${d});continue}${o}.appendResult(${p}),${a}=${p}.exitCode}}catch(${c}){if(${c}?.name==="ArithmeticError"&&!__leadsL2.isTop(${t}))throw ${c}.prependOutput(${o}.stdout,${o}.stderr),${c};`, count: 1 }, // L2
  { what: "test -a/-o integer operands (L2)", when: '"exponent less than 0"', re: new RegExp(String.raw`if\((${ID})\((${ID})\)\)\{let (${ID})=(${ID})\((${ID})\),(${ID})=\4\((${ID})\[(${ID})\+2\]\?\?"0"\);return!\3\.valid\|\|!\6\.valid\?\{value:!1,pos:\8\+3\}:`, "g"), to: (all, ms, s1, i, ss, r, o, t, n) => all.replace(/\{value:!1,pos:\w+\+3\}:$/, `__leadsL2.testIntegerError(${i}.valid?${t}[${n}+2]??"":${r}):`), count: 1 }, // L2
  { what: "test of 4+ arguments reports (L2)", when: '"exponent less than 0"', re: new RegExp(String.raw`if\((${ID})\.length===4\)\{if\(\1\[0\]==="!"\)\{let (${ID})=await (${ID})\((${ID}),\1\.slice\(1\)\);((?:(?!function )[^])*?)return \3\(\4,\[\1\[1\],\1\[2\]\]\)\}let (${ID})=await (${ID})\(\4,\1,0\);return \6\.pos<\1\.length\?(${ID})\(` + "`" + String.raw`test: too many arguments\n` + "`" + String.raw`,2\):`, "g"), to: (all, t, r, mr, e, mid, n, lu, d) => // L2
    `if(${t}.length===4){if(${t}[0]==="!"){let ${r}=await ${mr}(${e},${t}.slice(1),__testName);${mid}return ${mr}(${e},[${t}[1],${t}[2]],__testName)}let ${n};try{${n}=await ${lu}(${e},${t},0)}catch(__x){let __m=__leadsL2.testErrorText(__x,__testName);if(__m===null)throw __x;return ${d}(__m,2)}return ${n}.pos<${t}.length?${d}(\`bash: \${__testName}: too many arguments\\n\`,2):`, count: 1 }, // L2
]; // L2
SOURCE_PATCHES.push(...L2_PATCHES); // L2
/** // SG
 * SG (issue 20, run 27; helpers in isolate/grep-gnu.ts, patterns by mode-expr.ts's translatePosix): grep as GNU grep // SG
 * 3.8 — GNU BRE/ERE syntax and errors, leftmost-longest matches, -w by GNU's test, -o steps over empty matches, // SG
 * context lines never hide a match, -m limits -c and -m 0 reads nothing, -s -b -z -T -a -I -y -NUM --label --color, // SG
 * binary files (`grep: f: binary file matches`); a failure that is no file system error keeps its own text. // SG
 */ // SG
HELPER_NAMESPACES.push(["__grepGnu", join(isolateDir, "grep-gnu.ts")]); // SG
const SG_GREP_WHEN = 'name:"grep",async execute('; // SG
const SG_PATCHES = [ // SG
  // just-bash's regex factory (RE2JS): flag "L" asks RE2's leftmost-longest (POSIX) matching; a native RegExp never sees it. // SG
  { what: "RE2 leftmost-longest flag (SG)", when: "static LONGEST_MATCH=16", re: new RegExp(String.raw`function (${ID})\((${ID})\)\{let (${ID})=0;return \2\.includes\("i"\)&&\(\3\|=(${ID})\.CASE_INSENSITIVE\)`, "g"), to: (all, f, i, t, R) => `function ${f}(${i}){let ${t}=0;return ${i}.includes("L")&&(${t}|=${R}.LONGEST_MATCH),${i}.includes("i")&&(${t}|=${R}.CASE_INSENSITIVE)`, count: 1 }, // SG
  { what: "RE2 flag L not native (SG)", when: "static LONGEST_MATCH=16", re: /new RegExp\(this\._pattern,this\._flags\)/g, to: 'new RegExp(this._pattern,this._flags.replace("L",""))', count: 1 }, // SG
  // the search engine's buildRegex: mode "raw" takes a ready pattern (grep-gnu.ts translates), `longest` adds flag L. // SG
  { what: "buildRegex raw mode (SG)", when: "search: matching work limit exceeded", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{let (${ID}),(${ID});switch\(\3\.mode\)\{case"fixed":`, "g"), to: (all, f, t, n, e) => `function ${f}(${t},${n}){let ${e},${all.slice(all.indexOf(",", all.indexOf("{let ") + 5) + 1, all.indexOf(";switch"))};switch(${n}.mode){case"raw":${e}=${t};break;case"fixed":`, count: 1 }, // SG
  { what: "buildRegex longest (SG)", when: "search: matching work limit exceeded", re: new RegExp(String.raw`(${ID})="g"\+\((${ID})\.ignoreCase\?"i":""\)`, "g"), to: (all, o, n) => `${all}+(${n}.longest?"L":"")`, count: 1 }, // SG
  { what: "grep state (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`(name:"grep",async execute\(${ID},${ID}\)\{let )`, "g"), to: (all) => `${all}__sg=__grepGnu.state(),`, count: 1 }, // SG
  { what: "grep -m/-A/-B unset (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`,(${ID})=0,(${ID})=0,(${ID})=0,(${ID})=\[\],`, "g"), to: (all, s, n, w, b) => `,${s}=-1,${n}=-1,${w}=-1,${b}=[],`, count: 1 }, // SG
  { what: "grep -C is the default context (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`(${ID})\[1\]==="A"\?(${ID})=(${ID}):\1\[1\]==="B"\?(${ID})=\3:\1\[1\]==="C"&&\(\4=\3,\2=\3\)`, "g"), to: (all, o, w, p, n) => `${o}[1]==="A"?${w}=${p}:${o}[1]==="B"?${n}=${p}:${o}[1]==="C"&&(__sg.context=${p})`, count: 1 }, // SG
  { what: "grep -C NUM is the default context (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`(${ID})==="-A"\?(${ID})=(${ID}):\1==="-B"\?(${ID})=\3:\(\4=\3,\2=\3\)`, "g"), to: (all, r, w, p, n) => `${r}==="-A"?${w}=${p}:${r}==="-B"?${n}=${p}:(__sg.context=${p})`, count: 1 }, // SG
  { what: "grep -y (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`if\((${ID})==="i"\|\|\1==="--ignore-case"\)(${ID})=!0`, "g"), to: (all, n, i) => `if(__grepGnu.isIgnoreCase(${n}))${i}=!0`, count: 1 }, // SG
  { what: "grep options just-bash lacks (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`(for\(let (${ID})=0;\2<(${ID})\.length;\2\+\+\)\{let (${ID})=\3\[\2\];(?:(?!function )[^])*?)else\{if\(\4\.startsWith\("--"\)\)return (${ID})\("grep",\4\);`, "g"), to: (all, head, p, d, n, ne) => `${head}else{{let __k=__grepGnu.option(__sg,${n},${d},${p});if(__k>=0){${p}+=__k;continue}}if(${n}.startsWith("--"))return ${ne}("grep",${n});`, count: 1 }, // SG
  { what: "grep patterns compiled (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`if\((${ID})\.length>1&&(${ID})!=="fixed"\)for\(let (?:(?!catch\{)[^])*?catch\{return\{stdout:"",stderr:\`grep: invalid regular expression: \$\{${ID}\}\n\`,exitCode:2\}\}let (${ID})=\1\.length===0\?\{pattern:${ID},mode:"extended"\}:${ID}\(\1,\2\),(${ID}),(${ID}),(${ID});try\{let (${ID})=(${ID})\(\3\.pattern,\{mode:\3\.mode,ignoreCase:(${ID}),wholeWord:(${ID}),lineRegexp:(${ID})\}\);\4=\7\.regex,\5=\7\.kResetGroup,\6=\7\.preFilter\}catch\{return\{stdout:"",stderr:\`grep: invalid regular expression: \$\{\1\.join\(\`\n\`\)\}\n\`,exitCode:2\}\}`, "g"), to: (all, E, k, ie, Y, ee, I, s, build, i, l, m) => // SG
    `let ${Y},${ee},${I};{let __c=__grepGnu.compile(__sg,${E},${k},{ignoreCase:${i},wholeWord:${l},lineRegexp:${m}},${build});if(__c.error!==void 0)return{stdout:"",stderr:__c.error,exitCode:2};${Y}=__c.regex,${ee}=__c.kResetGroup,${I}=__c.preFilter}`, count: 1 }, // SG
  { what: "grep stdin search (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`(${ID})=(${ID})\((${ID}),(${ID}),\{invertMatch:((?:(?!\}\))[^])*?)filename:"",((?:(?!\}\))[^])*?)\}\);return (${ID})\?\{stdout:"",stderr:"",exitCode:\1\.matched\?0:1\}:\{stdout:\1\.output,stderr:"",exitCode:\1\.matched\?0:1\}`, "g"), to: (all, r, se, s, Y, a, b, G) => // SG
    `${r}=__grepGnu.search(__sg,${s},${Y},{invertMatch:${a}filename:__withFilename?__sg.label:"",${b}},!0);return ${G}?{stdout:"",stderr:"",exitCode:${r}.matched?0:1}:{stdout:${r}.output,stderr:__sg.warnings+(${r}.binary?\`grep: \${__sg.label}: binary file matches\n\`:""),exitCode:${r}.matched?0:1}`, count: 1 }, // SG
  { what: "grep - operand label (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`push\(\{path:${ID},isFile:!0,isStdin:!0,`, "g"), to: () => `push({path:__sg.label,isFile:!0,isStdin:!0,`, count: 1 }, // SG
  { what: "grep file search (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`(map\(async (${ID})=>\{let (${ID})=\2\.path,(?:(?!function )[^])*?let (${ID})=)(${ID})\((${ID}),(${ID}),\{invertMatch:((?:(?!\}\))[^])*?)\}\);return\{file:\3,result:\4\}`, "g"), to: (all, head, o, d, z, se, n, Y, body) => // SG
    `${head}__grepGnu.search(__sg,${n},${Y},{invertMatch:${body}},${o}.isStdin===!0);return{file:${d},result:${z}}`, count: 1 }, // SG
  { what: "grep -s and binary files (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`if\("error"in (${ID})&&\1\.error\)\{(${ID})\+=\1\.error,((?:(?!function )[^])*?)(${ID})\?(${ID})\+=\`\$\{(${ID})\}\n\`:(${ID})\|\|\(\5\+=(${ID})\.output\)`, "g"), to: (all, o, oe, mid, c, U, d, u, p) => // SG
    `if("error"in ${o}&&${o}.error){__sg.noMessages||(${oe}+=${o}.error),${mid.replace(/^[\w$]+\.error\.includes\("Is a directory"\)\|\|\(([\w$]+)=!0\)/, "$1=!0")}${c}?${U}+=\`\${${d}}\n\`:${u}||(${U}+=${p}.output,${p}.binary&&(${oe}+=\`grep: \${${d}}: binary file matches\n\`))`, count: 1 }, // SG
  { what: "grep warnings (SG)", when: SG_GREP_WHEN, re: new RegExp(String.raw`(${ID})\?\{stdout:"",stderr:"",exitCode:(${ID})\}:\{stdout:(${ID}),stderr:(${ID}),exitCode:\2\}`, "g"), to: (all, G, q, U, oe) => `${G}?{stdout:"",stderr:"",exitCode:${q}}:{stdout:${U},stderr:__sg.warnings+${oe},exitCode:${q}}`, count: 1 }, // SG
]; // SG
SOURCE_PATCHES.push(...SG_PATCHES); // SG
// run 38, fixer SG2: just-bash's search engine (rg's) bounds its work by maxWork (rg passes maxLoopIterations, 100,000) // run 38, fixer SG2
// and its lines, matches and output lines by maxMatches (maxArrayElements, 1,000,000) whatever the input's size, so rg // run 38, fixer SG2
// failed past 100,000 matching lines; both now grow with the input (isolate/grep-gnu.ts searchWorkBound/searchItemBound). // run 38, fixer SG2
SOURCE_PATCHES.push({ what: "search bounds grow with the input (SG2)", when: "search: matching work limit exceeded", re: new RegExp(String.raw`(function ${ID}\((${ID}),${ID},(${ID})=\{\}\)\{let\{invertMatch:(?:(?!\}=)[^])*?maxWork:(${ID}),maxMatches:(${ID}),signal:${ID}\}=\3;)`, "g"), to: (all, head, t, e, w, m) => `${head}${w}=__grepGnu.searchWorkBound(${w},${t}.length),${m}=__grepGnu.searchItemBound(${m},${t}.length);`, count: 1 }); // run 38, fixer SG2
/** // SJ
 * SJ (issue 20, run 27; helpers in isolate/expand-decl.ts): `${#@}` counts the parameters; `^`/`,`/`^^`/`,,` on a // SJ
 * list change every element and `"${a[@]^}"` keeps the words; `${v@A}`/`${a[@]@A}` with attributes; `${v@Q}` as // SJ
 * bash; `declare -f`/`typeset -f` print definitions and `type f` compound bodies; `local -` restores set options. // SJ
 */ // SJ
HELPER_NAMESPACES.push(["__expandDecl", join(isolateDir, "expand-decl.ts")]); // SJ
const SJ_PATCHES = [ // SJ
  { what: "array reader known (SJ)", re: new RegExp(String.raw`\}function (${ID})\((${ID}),(${ID})\)\{return \3==="FUNCNAME"\?\(\2\.state\.funcNameStack\?\?\[\]\)\.map\(`, "g"), to: (all, k) => `};__expandDecl.useArrays(${k});${all.slice(1)}`, count: 1 }, // SJ
  { what: "AST printers known (SJ)", re: new RegExp(String.raw`\}function (${ID})\((${ID})\)\{return \2\.statements\.map\((${ID})\)\.join\(`, "g"), to: (all, gn, e, wl) => `};__expandDecl.useStatementText(${wl});${all.slice(1)}`, count: 1 }, // SJ
  { what: "command printer known (SJ)", re: new RegExp(String.raw`\}function (${ID})\((${ID})\)\{switch\(\2\.type\)\{case"SimpleCommand":return ${ID}\(\2\);case"If":`, "g"), to: (all, el) => `};__expandDecl.useCommandText(${el});${all.slice(1)}`, count: 1 }, // SJ
  { what: "${#@} counts parameters (SJ)", re: new RegExp(String.raw`function ${ID}\((${ID}),(${ID}),${ID}\)\{\1\.coverage\?\.hit\("bash:expansion:length"\);`, "g"), to: (all, e, t) => `${all}if(${t}==="@"||${t}==="*")return ${e}.state.env.get("#")||"0";`, count: 1 }, // SJ
  { what: "case modification of each element (SJ)", re: new RegExp(String.raw`(case"Length":return ${ID}\((${ID}),(${ID}),(${ID})\);(?:(?!function )[^])*?)case"CaseModification":\{let (${ID})=await (${ID})\(\2,\4,(${ID}),(${ID}),(${ID})\);`, "g"), to: (all, head, e, r, a, d, kl, s, yt, as) => // SJ
    `${head}case"CaseModification":{let ${d}=__expandDecl.isListParameter(${r})?await __expandDecl.caseModEach(${e},${r},(__v)=>${kl}(${e},__v,${s},${yt},${as})):await ${kl}(${e},${a},${s},${yt},${as});`, count: 1 }, // SJ
  { what: "\"${a[@]^}\" one word per element (SJ)", re: new RegExp(String.raw`(\{(${ID})\.coverage\?\.hit\("bash:expansion:word_glob"\);let (${ID})=${ID}\.parts,(?:(?!function )[^])*?)(let (${ID})=await ${ID}\(\2,\3,${ID},${ID},${ID},(${ID})\);if\(\5!==null\)return \5;)`, "g"), to: (all, head, e, r, tail, p, n) => `${head}{let __c=await __expandDecl.caseModWords(${e},${r},${n}.expandPart);if(__c!==null)return __c}${tail}`, count: 1 }, // SJ
  { what: "${v@Q} as bash (SJ)", re: new RegExp(String.raw`function (${ID})\((${ID})\)\{if\(\2===""\)return"''";if\(/\[\\n\\r\\t\\x00-\\x1f\\x7f'\]/\.test\(\2\)\)`, "g"), to: (all, zt, e) => `function ${zt}(${e}){return __expandDecl.quoteQ(${e});if(/[\\x00-\\x1f\\x7f']/.test(${e}))`, count: 1 }, // SJ
  { what: "${v@A} with attributes (SJ)", re: new RegExp(String.raw`(function ${ID}\((${ID}),(${ID}),(${ID}),(${ID}),(${ID})\)\{\2\.coverage\?\.hit\("bash:expansion:transform"\);)(let ${ID}=\3\.match\([^;]*;if\(${ID}&&\6\.operator==="Q"\)return ${ID}\(\2,${ID}\[1\]\)\.map\(\(\[,${ID}\]\)=>${ID}\(${ID}\)\)\.join\(" "\);if\(${ID}&&\6\.operator==="a"\)return (${ID})\()`, "g"), to: (all, head, e, t, n, r, s, rest, ht) => // SJ
    `${head}if(${s}.operator==="A")return __expandDecl.transformA(${e},${t},${n},${r},(__n)=>${ht}(${e},__n));${rest}`, count: 1 }, // SJ
  { what: "\"${a[@]@A}\" one word (SJ)", re: new RegExp(String.raw`(let (${ID})=(${ID})\[1\],(${ID})=\3\[2\]==="\*",(${ID})=${ID}\.operation,${ID}=${ID}\((${ID}),\2\);)((?:(?!function )[^])*?let ${ID}=(${ID})\(\6,\2\),${ID}=\[\],${ID}=0;for\(let\[,${ID}\]of ${ID}\)\{let ${ID};switch\(\5\.operator\)\{case"a":)`, "g"), to: (all, head, i, s, o, a, e, rest, ht) => // SJ
    `${head}if(${a}.operator==="A")return{values:__expandDecl.transformAWords(${e},${i},${o},(__n)=>${ht}(${e},__n)),quoted:!0};${rest}`, count: 1 }, // SJ
  { what: "declare -f prints definitions (SJ)", re: new RegExp(String.raw`if\((${ID})\)\{if\((${ID})\.length===0\)\{let (${ID})="",(${ID})=Array\.from\((${ID})\.state\.functions\.keys\(\)\)\.sort\(\);for\(let (${ID}) of \4\)\3\+=` + "`" + String.raw`\$\{\6\} \(\)\n\{\n    # function body\n\}\n` + "`" + String.raw`;return ${ID}\(\3\)\}let (${ID})=!0;for\(let \3 of \2\)\5\.state\.functions\.has\(\3\)\|\|\(\7=!1\);return (${ID})\("","",\7\?0:1\)\}`, "g"), to: (all, m, g, a, b, e, c, p, l) => `if(${m})return __expandDecl.declareFunctions(${e},${g},${l});`, count: 1 }, // SJ
  { what: "type f prints compound bodies (SJ)", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{let (${ID});return \3\.body\.type==="Group"\?\4=\3\.body\.body\.map\((${ID})=>${ID}\(\5\)\)\.join\("; "\):\4=${ID}\(\3\.body\),` + "`" + String.raw`\$\{\2\} is a function\n\$\{\2\} \(\) \n\{ \n    \$\{\4\}\n\}\n` + "`" + String.raw`\}`, "g"), to: (all, sf, e, t) => `function ${sf}(${e},${t}){return\`\${${e}} is a function\n\`+__expandDecl.functionText(${e},${t})}`, count: 1 }, // SJ
  { what: "local - saves options (SJ)", re: new RegExp(String.raw`(let (${ID})=(${ID})\.state\.localScopes\[\3\.state\.localScopes\.length-1\];(?:(?!function )[^])*?for\(let (${ID}) of (${ID})\))(if\(\4==="-n"\))((?:(?!function )[^])*?)if\((${ID})\.length===0\)\{`, "g"), to: (all, head, r, e, d, t, ifn, mid, f) => // SJ
    `${head}if(${d}==="-")__expandDecl.saveOptions(${e},${r});else ${ifn}${mid}if(${f}.length===0&&!${t}.includes("-")){`, count: 1 }, // SJ
  { what: "function return restores local - options (SJ)", re: new RegExp(String.raw`(${ID})=(${ID})\.state\.localScopes\.pop\(\),`, "g"), to: (all, h, e) => `${h}=__expandDecl.popScope(${e},${e}.state.localScopes.pop()),`, count: 1 }, // SJ
  { what: "N>&- closes stdout for the command (SJ)", re: new RegExp(String.raw`if\((${ID})==="-"\)\{(${ID})===1\?(${ID})=\{kind:"discard"\}:(${ID})=\{kind:"discard"\};break\}`, "g"), to: (all, k, a, h, m) => `if(${k}==="-"){${a}===1?${h}={kind:"invalid-output",fd:1}:${m}={kind:"discard"};break}`, count: 1 }, // SJ
]; // SJ
SOURCE_PATCHES.push(...SJ_PATCHES); // SJ
/** // SI
 * SI (issue 20, run 27; helpers in isolate/text-gnu.ts): tac reverses every operand and takes -s/-b/-r; nl -b t numbers // SI
 * every non-empty line, pads an unnumbered one with width + separator blanks and ends the last line; diff prints GNU's // SI
 * normal format by default (-u/-U/-c/-C, -q -s -i -w -b -B -N -r, --label; directories); find -size rounds the size up // SI
 * to its unit; uniq writes OUTPUT and takes -f/-s/-w/-D/--group/-z; a split or uniq output error names file and reason. // SI
 */ // SI
HELPER_NAMESPACES.push(["__textGnu", join(isolateDir, "text-gnu.ts")]); // SI
const SI_PATCHES = [ // SI
  { what: "nl -b t non-empty (SI)", when: 'name:"nl",execute:', re: new RegExp(String.raw`case"t":return (${ID})\.trim\(\)\.length>0;`, "g"), to: (all, i) => `case"t":return ${i}.length>0;`, count: 1 }, // SI
  { what: "nl unnumbered line (SI)", when: 'name:"nl",execute:', re: new RegExp(String.raw`\$\{" "\.repeat\((${ID})\.width\)\}\$\{\1\.separator\}\$\{(${ID})\}`, "g"), to: (all, r, n) => `\${__textGnu.nlBlank(${r}.width,${r}.separator)}\${${n}}`, count: 1 }, // SI
  { what: "nl last newline (SI)", when: 'name:"nl",execute:', re: new RegExp(String.raw`output:(${ID})\.join\(` + "`\n`" + String.raw`\)\+\((${ID})\?` + "`\n`" + String.raw`:""\)`, "g"), to: (all, d) => `output:${d}.join(\`\\n\`)+\`\\n\``, count: 1 }, // SI
  { what: "diff as GNU diff (SI)", when: 'name:"diff",async execute(', re: new RegExp(String.raw`(name:"diff",async execute\((${ID}),(${ID})\)\{if\(${ID}\(\2\)\)return ${ID}\(${ID}\);)`, "g"), to: (all, head, a, n) => `${head}return __textGnu.diffCommand(${a},${n});`, count: 1 }, // SI
  { what: "diff help (SI)", when: 'name:"diff",async execute(', re: /"-u, --unified {5}output unified diff format \(default\)"/g, to: '"-u, -U N, --unified[=N]  unified format with N (3) lines of context","-c, -C N, --context[=N]  context format","-N, --new-file    treat absent files as empty","-r, --recursive   compare subdirectories too","-w, -b, -B        ignore all space, space changes, blank lines","-L, --label LABEL use LABEL instead of the file name"', count: 1 }, // SI
  { what: "find -size units (SI)", when: 'name:"find",async execute(', re: new RegExp(String.raw`case"size":\{let (${ID})=(${ID})\.value;switch\(\2\.unit\)\{(?:(?!case"perm")[^])*?let (${ID});return \2\.comparison==="more"\?\3=(${ID})\.size>(?:(?!case"perm")[^])*?\{matches:\3,pruned:!1,printed:!1\}\}`, "g"), to: (all, n, e, s, t) => `case"size":return{matches:__textGnu.findSizeMatches(${t}.size,${e}.value,${e}.unit,${e}.comparison),pruned:!1,printed:!1};`, count: 1 }, // SI
  { what: "find -size w unit (SI)", when: 'name:"find",async execute(', re: /\.match\(\/\^\(\\d\+\)\(\[ckMGb\]\)\?\$\/\)/g, to: ".match(/^(\\d+)([ckMGbw])?$/)", count: 1 }, // SI
  { what: "uniq as GNU uniq (SI)", when: 'name:"uniq",async execute(', re: new RegExp(String.raw`(name:"uniq",async execute\((${ID}),(${ID})\)\{if\(${ID}\(\2\)\)return ${ID}\(${ID}\);)`, "g"), to: (all, head, a, n) => `${head}return __textGnu.uniqCommand(${a},${n});`, count: 1 }, // SI
  { what: "split piece written (SI)", when: 'name:"split",execute:', re: new RegExp(String.raw`try\{for\(let (${ID}) of (${ID})\)\1\.stagePath=await`, "g"), to: (all, r, m) => `let __splitAt;try{for(let ${r} of ${m})__splitAt=${r},${r}.stagePath=await`, count: 1 }, // SI
  { what: "split output failure (SI)", when: 'name:"split",execute:', re: new RegExp(String.raw`\}catch\{((?:(?!function |catch\{)[^])*?)return\{exitCode:1,stdout:"",stderr:` + "`split: failed to write output\n`" + String.raw`\}`, "g"), to: (all, body) => `}catch(__splitError){${body}return{exitCode:1,stdout:"",stderr:__textGnu.splitFailure(__splitAt,__splitError)}`, count: 1 }, // SI
]; // SI
SOURCE_PATCHES.push(...SI_PATCHES); // SI

/** // SH
 * SH (issue 20, run 27; helpers in isolate/sed-gnu.ts): sed as GNU sed 4.9 — a/i/c text (one-liner `2c\text`, blanks, // SH
 * `2c\` alone), `c` on a range once at its end, `\U \L \u \l \E` in replacements, w/W/`s///w` files opened before // SH
 * input (status 4 when one cannot be), `/dev/stdout` and `/dev/stderr`, one w file over all inputs (-i, -s), `i`, `=`, // SH
 * `l`, `n` output in order, `q N`/`Q N`, `l N`/`-l N` wrapping, `addr,~N`, ranges kept per command, `F`, `-s`, // SH
 * `--posix`, getopt order, -f scripts read as written, `s///M`, `s///e` refused as `e`. // SH
 */ // SH
HELPER_NAMESPACES.push(["__sedGnu", join(isolateDir, "sed-gnu.ts")]); // SH
const SED_GNU_WHEN = 'name:"sed",async execute('; // SH
const SED_GNU_PATCHES = [ // SH
  { what: "sed a/i/c text read (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`readTextCommand\((${ID}),(${ID}),(${ID})\)\{(?:(?!readBranch\()[^])*?\}(?=readBranch\()`, "g"), to: (all, l, e, t) => `readTextCommand(${l},${e},${t}){return __sedGnu.readText(this,${l},${e},${t})}`, count: 1 }, // SH
  { what: "sed a/i/c no text (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(parseTextCommand\((${ID}),(${ID})\)\{let (${ID})=\2\.value,(${ID})=\2\.text)\|\|""`, "g"), to: (all, head) => `${head}??null`, count: 1 }, // SH
  { what: "sed a/i/c run (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`case"append":(${ID})\.appendBuffer\.push\((${ID})\.text\);break;case"insert":\1\.appendBuffer\.unshift\(\`__INSERT__\$\{\2\.text\}\`\);break;case"change":\1\.deleted=!0,\1\.changedText=\2\.text;break;`, "g"), to: (all, e, i) => // SH
    `case"append":${i}.text!==null&&${e}.appendBuffer.push(${i}.text);break;case"insert":${i}.text!==null&&${e}.lineNumberOutput.push(__sedGnu.own(${i}.text));break;case"change":${e}.deleted=!0,${i}.text!==null&&__sedGnu.changeWrites(${i}.address,${e}.lineNumber,${e}.totalLines,${e}.rangeStates)&&(${e}.changedText=${i}.text);break;`, count: 1 }, // SH
  { what: "sed c text ends its line (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(${ID})\.changedText!==void 0&&\((${ID})\(\`\$\{\1\.changedText\}\n\`\),(${ID})=!0\)`, "g"), to: (all, g, v, d) => `${g}.changedText!==void 0&&${v}(\`\${${g}.changedText}\n\`)`, count: 1 }, // SH
  { what: "sed output ends with the pattern space (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`let (${ID})=(${ID})\.lineNumberOutput\.length>0;`, "g"), to: (all, de, g) => `let ${de}=__sedGnu.endsWithSpace(${g}.lineNumberOutput);`, count: 1 }, // SH
  { what: "sed replacement case conversion (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{let (${ID})="",(${ID})=0;for\(;\6<\2\.length;\)\{if\(\2\[\6\]==="\\\\"&&\6\+1<\2\.length\)\{let (${ID})=\2\[\6\+1\];if\(\7==="&"\)(?:(?!function )[^])*?return \5\}`, "g"), to: (all, j, i, e, t) => `function ${j}(${i},${e},${t}){return __sedGnu.replacement(${i},${e},${t})}`, count: 1 }, // SH
  { what: "sed ranges kept per command (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`function (${ID})\((${ID})\)\{let (${ID})=(${ID})=>\4===void 0\?"undefined":(?:(?!function )[^])*?return\` ?\$\{\3\(\2\.start\)\},\$\{\3\(\2\.end\)\}\`\}`, "g"), to: (all, g, i) => `function ${g}(${i}){return ${i}}`, count: 1 }, // SH
  { what: "sed = l F own lines (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`case"list":\{let (${ID})=${ID}\((${ID})\.patternSpace\);\2\.lineNumberOutput\.push\(\1\);break\}case"printFilename":\2\.currentFilename&&\2\.lineNumberOutput\.push\(\2\.currentFilename\);break;`, "g"), to: (all, r, e) => // SH
    `case"list":${e}.lineNumberOutput.push(__sedGnu.own(__sedGnu.list(${e}.patternSpace,arguments[0].width??${e}.__io?.lineLength??70)));break;case"printFilename":${e}.lineNumberOutput.push(__sedGnu.own(${e}.currentFilename||"-"));break;`, count: 1 }, // SH
  { what: "sed = own line (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`case"lineNumber":(${ID})\.lineNumberOutput\.push\(String\(\1\.lineNumber\)\);`, "g"), to: (all, e) => `case"lineNumber":${e}.lineNumberOutput.push(__sedGnu.own(String(${e}.lineNumber)));`, count: 1 }, // SH
  { what: "sed w and W (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`case"writeFile":(${ID})\.pendingFileWrites\.push\(\{filename:(${ID})\.filename,content:\`\$\{\1\.patternSpace\}\n\`\}\);break;case"writeFirstLine":\{let (${ID})=\1\.patternSpace\.indexOf\(\`\n\`\),(${ID})=\3!==-1\?\1\.patternSpace\.slice\(0,\3\):\1\.patternSpace;\1\.pendingFileWrites\.push\(\{filename:\2\.filename,content:\`\$\{\4\}\n\`\}\);break\}`, "g"), to: (all, e, i, r, u) => // SH
    `case"writeFile":__sedGnu.write(${e},${i}.filename,${e}.patternSpace);break;case"writeFirstLine":{let ${r}=${e}.patternSpace.indexOf(\`\n\`),${u}=${r}!==-1?${e}.patternSpace.slice(0,${r}):${e}.patternSpace;__sedGnu.write(${e},${i}.filename,${u});break}`, count: 1 }, // SH
  { what: "sed q Q l numbers read (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`case"l":case"F":return\{type:(${ID})\.COMMAND,value:(${ID}),line:(${ID}),column:(${ID})\}`, "g"), to: (all, c, n, e, t) => `case"l":case"F":return{type:${c}.COMMAND,value:${n},line:${e},column:${t},...__sedGnu.commandNumber(this,${n})}`, count: 1 }, // SH
  { what: "sed q Q l numbers kept (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`case"q":return\{command:\{type:"quit",address:(${ID})\}\};case"Q":return\{command:\{type:"quitSilent",address:\1\}\};((?:(?!case"l")[^])*?)case"l":return\{command:\{type:"list",address:\1\}\};`, "g"), to: (all, t, mid) => // SH
    `case"q":return{command:{type:"quit",address:${t},exitCode:arguments[0].number}};case"Q":return{command:{type:"quitSilent",address:${t},exitCode:arguments[0].number}};${mid}case"l":return{command:{type:"list",address:${t},width:arguments[0].number}};`, count: 1 }, // SH
  { what: "sed s flags read (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`let (${ID})="";for\(;this\.pos<this\.input\.length;\)\{let (${ID})=this\.peek\(\);if\(\2==="g"\|\|\2==="i"\|\|\2==="p"\|\|\2==="I"\|\|this\.isDigit\(\2\)\)\1\+=this\.advance\(\);else break\}return\{type:(${ID})\.SUBSTITUTE,((?:(?!flags:)[^])*?),flags:\1,line:(${ID}),column:(${ID})\}`, "g"), to: (all, u, o, c, mid, e, t) => // SH
    `let __f=__sedGnu.substituteFlags(this),${u}=__f.flags;if(__f.error)return{type:${c}.ERROR,value:__f.error,message:__f.error,line:${e},column:${t}};return{type:${c}.SUBSTITUTE,${mid},flags:${u},line:${e},column:${t},wfile:__f.wfile,multiline:__f.multiline,execute:__f.execute}`, count: 1 }, // SH
  { what: "sed s flags kept (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(parseSubstituteFromToken\((${ID}),(${ID})\)\{(?:(?!\}\}\})[^])*?nthOccurrence:(${ID}),extendedRegex:this\.extendedRegex)\}\}\}`, "g"), to: (all, head, e) => `${head},wfile:${e}.wfile,multiline:${e}.multiline,execute:${e}.execute}}}`, count: 1 }, // SH
  { what: "sed s M flag (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(${ID})\.global&&\((${ID})\+="g"\),\1\.ignoreCase&&\(\2\+="i"\)`, "g"), to: (all, r, u) => `${all},${r}.multiline&&(${u}+="m")`, count: 1 }, // SH
  { what: "sed s M flag with a number or g (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(${ID})\((${ID}),\`g\$\{(${ID})\.ignoreCase\?"i":""\}\`\)`, "g"), to: (all, A, h, r) => `${A}(${h},\`g\${${r}.ignoreCase?"i":""}\${${r}.multiline?"m":""}\`)`, count: 1 }, // SH
  { what: "sed s w and e flags (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(if\(__s!==null\)\{(${ID})\.substitutionMade=!0,\2\.patternSpace=__s,(${ID})\.printOnMatch&&\2\.lineNumberOutput\.push\(\2\.patternSpace\))\}`, "g"), to: (all, head, e, r) => // SH
    `${head},${r}.wfile!==void 0&&__sedGnu.write(${e},${r}.wfile,${e}.patternSpace),${r}.execute&&(${e}.errorMessage="sed: e command (shell execution) is not supported in sandboxed environment",${e}.quit=!0)}`, count: 1 }, // SH
  { what: "sed parse error message (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`case (${ID})\.ERROR:return\{command:null,error:\`invalid command: \$\{(${ID})\.value\}\`\}`, "g"), to: (all, c, n) => `case ${c}.ERROR:return{command:null,error:${n}.message??\`invalid command: \${${n}.value}\`}`, count: 1 }, // SH
  { what: "sed addr,~N read (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`default:return\{type:(${ID})\.ERROR,value:(${ID}),line:(${ID}),column:(${ID})\}\}\}(readSubstitute\()`, "g"), to: (all, c, n, e, t, tail) => // SH
    `default:if(${n}==="~"&&this.isDigit(this.peek())){let __m="";for(;this.isDigit(this.peek());)__m+=this.advance();return{type:${c}.RELATIVE_OFFSET,value:\`~\${__m}\`,offset:0,multiple:parseInt(__m,10),line:${e},column:${t}}}return{type:${c}.ERROR,value:${n},line:${e},column:${t}}}}${tail}`, count: 1 }, // SH
  { what: "sed addr,~N kept (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`case (${ID})\.RELATIVE_OFFSET:return this\.advance\(\),\{offset:(${ID})\.offset\|\|0\}`, "g"), to: (all, c, e) => `case ${c}.RELATIVE_OFFSET:return this.advance(),{offset:${e}.offset||0,multiple:${e}.multiple}`, count: 1 }, // SH
  { what: "sed addr,~N end (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`return (${ID})>=(${ID})\+(${ID})\.offset&&`, "g"), to: (all, e, E, u) => `return(${u}.multiple!==void 0?${u}.multiple<=0||${e}%${u}.multiple===0:${e}>=${E}+${u}.offset)&&`, count: 1 }, // SH
  { what: "sed addr,~N start (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(${ID})\.startLine=(${ID}),(${ID})\.set\((${ID}),\1\),(${ID})\.offset===0&&`, "g"), to: (all, d, e, s, m, u) => `${d}.startLine=${e},${s}.set(${m},${d}),(${u}.multiple!==void 0?${u}.multiple<=0:${u}.offset===0)&&`, count: 1 }, // SH
  { what: "sed n prints in order (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(${ID})\.nCommandOutput\.push\(\1\.patternSpace\),`, "g"), to: (all, e) => `__sedGnu.next(${e}),`, count: 1 }, // SH
  { what: "sed N writes the appends (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(\(${ID}\.coverage\?\.hit\("sed:cmd:nextAppend"\),(${ID})&&\2\.currentLineIndex\+(${ID})\.linesConsumedInCycle\+1<\2\.lines\.length\)\{)`, "g"), to: (all, head, t, e) => `${head}__sedGnu.flushAppends(${e});`, count: 1 }, // SH
  { what: "sed run state (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`async function (${ID})\((${ID}),(${ID}),(${ID}),(${ID})=\{\}\)\{(let\{limits:${ID},filename:)`, "g"), to: (all, q, i, e, t, n, tail) => `async function ${q}(${i},${e},${t},${n}={}){let __io=${n}.__io,__silent=${t};${tail}`, count: 1 }, // SH
  { what: "sed w files shared (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(${ID})=new Map,(${ID})=(${ID})\?\{maxIterations:`, "g"), to: (all, D, he, s) => `${D}=__io?.files??new Map,${he}=${s}?{maxIterations:`, count: 1 }, // SH
  { what: "sed cycle state (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(for\(let (${ID})=0;\2<${ID}\.length;\2\+\+\)\{let ${ID}=\{\.\.\.${ID}\(${ID},)(${ID})(,${ID}\),patternSpace:(?:(?!\})[^])*?,coverage:${ID})\}`, "g"), to: (all, head, R, a, rest) => `${head}__sedGnu.fileAt(__io,${R},${a})${rest},__io,__silent}`, count: 1 }, // SH
  { what: "sed quit noted (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`\{(if\((${ID})\.exitCode!==void 0&&\((${ID})=\2\.exitCode\),\2\.errorMessage\)return\{output:"")`, "g"), to: (all, body) => `{__io&&(__io.quit=!0);${body}`, count: 1 }, // SH
  { what: "sed options (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(if\(${ID}\((${ID})\)\)return ${ID}\(${ID}\);)(let (${ID})=\[\],(${ID})=\[\],)`, "g"), to: (all, head, i, tail) => `${head}let __g=__sedGnu.options(${i});if(__g.error)return{stdout:"",stderr:__g.error,exitCode:1};${i}=__g.args;let __io=__sedGnu.io();__io.lineLength=__g.lineLength;${tail}`, count: 1 }, // SH
  { what: "sed -f script as written (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`for\(let (${ID}) of (${ID})\.split\(\`\n\`\)\)\{let (${ID})=\1\.trim\(\);\3&&!\3\.startsWith\("#"\)&&(${ID})\.push\(\3\)\}`, "g"), to: (all, v, b, w, n) => `${n}.push(${b}.replace(/\\n$/,""))`, count: 1 }, // SH
  { what: "sed w files opened first (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(let\{commands:(${ID}),error:(${ID}),silentMode:(${ID})\}=${ID}\(${ID},${ID},(${ID})\.limits\);if\(\3\)return\{stdout:"",stderr:\`sed: \$\{\3\}\n\`,exitCode:1\};let ${ID}=!!\(${ID}\|\|\4\);)if\((${ID})\)\{`, "g"), to: (all, head, h, p, k, e, r) => // SH
    `${head}__io.inPlace=${r};{let __w=await __sedGnu.openWriteFiles(${e}.fs,${e}.cwd,${h},__io);if(__w!==null)return{stdout:"",stderr:__w,exitCode:4}}if(${r}){`, count: 1 }, // SH
  { what: "sed runs share their output (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`\{limits:(${ID})\.limits,`, "g"), to: (all, e) => `{__io,limits:${e}.limits,`, count: 3 }, // SH
  { what: "sed -i quit ends the run (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(await ${ID}\("in-place output write",\(\)=>__textOutput\.sedWriteInPlace\(${ID}\.fs,__sedTarget,(${ID})\.output\)\))\}catch`, "g"), to: (all, head, v) => `${head};if(__io.quit){__sedCode=${v}.exitCode??__sedCode;break}}catch`, count: 1 }, // SH
  { what: "sed -i streams (SH)", when: SED_GNU_WHEN, re: /return\{stdout:"",stderr:__sedErr,exitCode:__sedCode\}\}/g, to: 'return{stdout:__io.stdout,stderr:__sedErr+__io.stderr,exitCode:__sedCode}}', count: 1 }, // SH
  { what: "sed stdin streams (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(\("stdin processing",(?:(?!return)[^])*?return\{stdout:(${ID})\.output,stderr:)(\2\.errorMessage\?\`\$\{\2\.errorMessage\}\n\`:"")`, "g"), to: (all, head, l, message) => `${head}__io.stderr+(${message})`, count: 1 }, // SH
  { what: "sed files gathered (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(let ${ID}=!1;for\(let (${ID}) of ${ID}\)\{let (${ID});if\(\2==="-"\)(?:(?!function )[^])*?)((${ID})\.length>0&&\3\.length>0&&!\5\.endsWith\(\`\n\`\)&&\(\5\+=\`\n\`\),\5\+=\3\})`, "g"), to: (all, head, l, f, tail) => `let __parts=[];${head}__parts.push([${l},${f}]),${tail}`, count: 1 }, // SH
  { what: "sed -s and F over files (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`\("final processing",\(\)=>(${ID})\((${ID}),(${ID}),(${ID}),\{__io,limits:(${ID})\.limits,filename:(${ID})\.length===1\?\6\[0\]:void 0,((?:(?!\}\))[^])*?)\}\)\)`, "g"), to: (all, Q, d, h, m, e, o, rest) => // SH
    `("final processing",()=>__sedGnu.runFiles(__parts,__g.separate,__io,${d},${o}.length===1?${o}[0]:void 0,(__t,__n)=>${Q}(__t,${h},${m},{__io,limits:${e}.limits,filename:__n,${rest}})))`, count: 1 }, // SH
  { what: "sed files streams (SH)", when: SED_GNU_WHEN, re: new RegExp(String.raw`stderr:__sedErr\+\((${ID})\.errorMessage\?`, "g"), to: (all, l) => `stderr:__sedErr+__io.stderr+(${l}.errorMessage?`, count: 1 }, // SH
]; // SH
SOURCE_PATCHES.push(...SED_GNU_PATCHES); // SH
/** // SK
 * SK (issue 20, run 27; helpers in isolate/glob-printf.ts): globstar `**` as bash 5.2 (a final `**`, or one before a // SK
 * trailing slash; no hidden // SK
 * names crossed without dotglob, no links crossed), nocaseglob for every pattern, printf %e/%f/%g of a long double // SK
 * (awk.ts's exact formatter: ties to even, `%g` exponent zeros kept, inf/nan, invalid numbers), pushd/popd/dirs // SK
 * with no operand, +N/-N and -n. // SK
 */ // SK
HELPER_NAMESPACES.push(["__globPrintf", join(isolateDir, "glob-printf.ts")]); // SK
const SK_PATCHES = [ // SK
  { what: "globstar expansion (SK)", when: "isGlobstarValid", re: new RegExp(String.raw`if\((${ID})\.includes\("\*\*"\)&&this\.globstar&&this\.isGlobstarValid\(\1\)\)(${ID})=await this\.expandRecursive\(\1\);`, "g"), to: (all, t, n) => `if(__globPrintf.isGlobstar(${t},this.globstar))${n}=await __globPrintf.globstarExpand(this,${t});`, count: 1 }, // SK
  { what: "nocaseglob option (SK)", when: "isGlobstarValid", re: new RegExp(String.raw`this\.extglob=(${ID})\.extglob\?\?!1,`, "g"), to: (all, s) => `${all}this.nocaseglob=${s}.nocaseglob??!1,`, count: 1 }, // SK
  { what: "nocaseglob passed (SK)", re: new RegExp(String.raw`extglob:(${ID})\.state\.shoptOptions\.extglob,globskipdots:`, "g"), to: (all, e) => `extglob:${e}.state.shoptOptions.extglob,nocaseglob:${e}.state.shoptOptions.nocaseglob,globskipdots:`, count: 3 }, // SK
  { what: "nocaseglob in pathname patterns (SK)", re: new RegExp(String.raw`(patternToRegex\((${ID})\)\{let (${ID})=this\.patternToRegexStr\(\2\);return ${ID}\(\`\^\$\{\3\}\$\`),"s"\)`, "g"), to: (all, head) => `${head},this.nocaseglob?"is":"s")`, count: 1 }, // SK
  { what: "nocaseglob in pathname !(…) (SK)", re: new RegExp(String.raw`__leadsL2\.globMatch\((${ID}),__leadsL2\.unquoteMarkers\((${ID})\)\)`, "g"), to: (all, t, n) => `__leadsL2.globMatch(${t},__leadsL2.unquoteMarkers(${n}),this.nocaseglob)`, count: 1 }, // SK
  { what: "printf floating point (SK)", when: 'name:"printf"', re: new RegExp(String.raw`case"e":case"E":case"f":case"F":case"g":case"G":\{let (${ID})=parseFloat\((${ID})\)\|\|0;return\{value:${ID}\((${ID}),(${ID}),\1\),parseError:!1,parseErrMsg:""\}\}`, "g"), to: (all, t, n, e, l) => `case"e":case"E":case"f":case"F":case"g":case"G":return __globPrintf.printfFloat(${e},${l},${n});`, count: 1 }, // SK
  { what: "printf warnings keep the status (SK)", when: 'name:"printf"', re: new RegExp(String.raw`(${ID})&&\((${ID})=!0,(${ID})&&\((${ID})\+=\3\)\)`, "g"), to: (all, r, a, w, f) => `(${r}&&(${a}=!0),${w}&&(${f}+=${w}))`, count: 2 }, // SK
  { what: "globskipdots in inner segments (SK)", when: "isGlobstarValid", re: new RegExp(String.raw`\((${ID})\.startsWith\("\."\)\|\|this\.dotglob\)`, "g"), to: (all, s) => `(!this.globskipdots&&(${s}.startsWith(".")||this.dotglob))`, count: 2 }, // SK: h/.*/x never goes through h/. or h/..
  { what: "echo option words (SK)", when: '{name:"echo",async execute(', re: new RegExp(String.raw`if\((${ID})==="-n"\)(${ID})=!0,(${ID})\+\+;else if\(\1==="-e"\)(${ID})=!0,\3\+\+;else if\(\1==="-E"\)\4=!1,\3\+\+;else if\(\1==="-ne"\|\|\1==="-en"\)\2=!0,\4=!0,\3\+\+;else break`, "g"), to: (all, l, e, a, o) => `if(/^-[neE]+$/.test(${l})){for(let __c of ${l}.slice(1))__c==="n"?${e}=!0:__c==="e"?${o}=!0:${o}=!1;${a}++}else break`, count: 1 }, // SK: echo -nn, -neE as bash
  { what: "pushd/popd/dirs (SK)", re: new RegExp(String.raw`if\((${ID})==="pushd"\)return await (${ID})\((${ID}),(${ID})\);if\(\1==="popd"\)return ${ID}\(\3,\4\);if\(\1==="dirs"\)return ${ID}\(\3,\4\);`, "g"), to: (all, t, push, c, n) => `if(${t}==="pushd")return await __globPrintf.pushd(${c},${n})??await ${push}(${c},${n});if(${t}==="popd")return await __globPrintf.popd(${c},${n});if(${t}==="dirs")return __globPrintf.dirs(${c},${n});`, count: 1 }, // SK
]; // SK
SOURCE_PATCHES.push(...SK_PATCHES); // SK
/** // SM
 * SM (issue 20, run 27; helpers in isolate/small-gnu.ts): seq's decimal places and `-w` width as GNU seq 9.1 (the // SM
 * sign counts, width from FIRST and LAST); base64 -d decodes by groups of four and writes what it decoded before // SM
 * `base64: invalid input` (status 1), -i/--ignore-garbage; unexpand -t implies -a, --first-only. (md5sum -b: // SM
 * text-output.ts.) // SM
 */ // SM
HELPER_NAMESPACES.push(["__smallGnu", join(isolateDir, "small-gnu.ts")]); // SM
const SM_SEQ_WHEN = 'name:"seq",async execute('; // SM
const SM_BASE64_WHEN = 'name:"base64",async execute('; // SM
const SM_UNEXPAND_WHEN = 'name:"unexpand",execute:'; // SM
const SM_PATCHES = [ // SM
  { what: "seq decimal places (SM)", when: SM_SEQ_WHEN, re: new RegExp(String.raw`(if\((${ID})\.length===0\)return\{stdout:"",stderr:\`seq: missing operand(?:(?!function )[^])*?)(${ID})=Math\.max\((${ID})\((${ID})\),\4\((${ID})\),\4\((${ID})\)\)`, "g"), to: (all, head, i, h, q, d, a, l) => // SM
    `${head}__smOps=${i},${h}=__smallGnu.seqPrecision(${i})??Math.max(${q}(${d}),${q}(${a}),${q}(${l}))`, count: 1 }, // SM
  { what: "seq -w width (SM)", when: SM_SEQ_WHEN, re: new RegExp(String.raw`let (${ID})=0;for\(let (${ID}) of (${ID})\)\1=Math\.max\(\1,\2\.startsWith\("-"\)\?\2\.length-1:\2\.length\);`, "g"), to: (all, t, n, s) => `let ${t}=__smallGnu.seqWidth(__smOps,${s});`, count: 1 }, // SM
  { what: "seq -w sign counted (SM)", when: SM_SEQ_WHEN, re: new RegExp(String.raw`(${ID})=\((${ID})\?(${ID})\[(${ID})\]\.slice\(1\):\3\[\4\]\)\.padStart\((${ID}),"0"\);\3\[\4\]=\2\?\`-\$\{\1\}\`:\1`, "g"), to: (all, B, f, s, n, t) => `${B}=__smallGnu.seqPad(${s}[${n}],${t});${s}[${n}]=${B}`, count: 1 }, // SM
  { what: "base64 -i option (SM)", when: SM_BASE64_WHEN, re: /=\{decode:\{short:"d",long:"decode",type:"boolean"\},/g, to: '={decode:{short:"d",long:"decode",type:"boolean"},ignoreGarbage:{short:"i",long:"ignore-garbage",type:"boolean"},', count: 1 }, // SM
  { what: "base64 -i help (SM)", when: SM_BASE64_WHEN, re: /"-d, --decode {4}decode data",/g, to: '"-d, --decode    decode data","-i, --ignore-garbage  when decoding, ignore non-alphabet characters",', count: 1 }, // SM
  { what: "base64 -d as GNU (SM)", when: SM_BASE64_WHEN, re: new RegExp(String.raw`let (${ID})=(${ID})\("base64",(${ID}),(${ID})\);if\(!\1\.ok\)return \1\.error;((?:(?!function )[^])*?try\{if\((${ID})\)\{let (${ID})=await (${ID})\((${ID}),(${ID}),"base64"\);if\(!\7\.ok\)return \7\.error;)if\(typeof Buffer<"u"\)\{let (${ID})=Buffer\.from\(\7\.data\)\.toString\("utf8"\)\.replace\(\/\\s\/g,""\),(${ID})=(${ID})\(\11\);(${ID})\((?:(?!function )[^])*?stdoutEncoding:"binary"\}(?:(?!function )[^])*?stdoutEncoding:"binary"\}\}`, "g"), to: (all, u, L, t, F, mid, i, r, x, e, c, y, z, B, a) => // SM
    `let ${u}=${L}("base64",${t},${F});if(!${u}.ok)return ${u}.error;${mid}return __smallGnu.base64Decode(${r}.data,${u}.result.flags.ignoreGarbage===!0,__z=>${a}(__z,${e}.limits.maxOutputSize,"output size","output_size"))}`, count: 1 }, // SM
  { what: "unexpand -t implies -a (SM)", when: SM_UNEXPAND_WHEN, re: new RegExp(String.raw`(${ID})\.tabStops=(${ID}),`, "g"), to: (all, e, l) => `${e}.tabStops=${l},${e}.allBlanks=!0,`, count: 4 }, // SM
  { what: "unexpand --first-only (SM)", when: SM_UNEXPAND_WHEN, re: new RegExp(String.raw`else if\((${ID})==="-a"\|\|\1==="--all"\)(${ID})\.allBlanks=!0,(${ID})\+\+;`, "g"), to: (all, t, e, n) => `${all}else if(${t}==="--first-only")${e}.firstOnly=!0,${n}++;`, count: 1 }, // SM
  { what: "unexpand --first-only overrides (SM)", when: SM_UNEXPAND_WHEN, re: new RegExp(String.raw`let (${ID})="";if\((${ID})\.length===0\)\{let (${ID})=${ID}\((${ID})\.stdin\)\?\?"";\1=(${ID})\(\3,(${ID})\)`, "g"), to: (all, a, o, t, i, k, e) => `${e}.firstOnly&&(${e}.allBlanks=!1);${all}`, count: 1 }, // SM
  { what: "unexpand lines as GNU (SM)", when: SM_UNEXPAND_WHEN, re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{let\{tabStops:(${ID}),allBlanks:(${ID})\}=\3,[^]*?return ${ID}\(\),${ID}\}`, "g"), to: (all, N, s, i) => `function ${N}(${s},${i}){return __smallGnu.unexpandLine(${s},${i}.tabStops,${i}.allBlanks)}`, count: 1 }, // SM
  { what: "unexpand help (SM)", when: SM_UNEXPAND_WHEN, re: /"-a {10}Convert all sequences of blanks \(not just leading\)"/g, to: '"-a          Convert all sequences of blanks (not just leading)","-t N, -t LIST  (implies -a)","--first-only  convert only leading blanks (overrides -a and -t)"', count: 1 }, // SM
]; // SM
SOURCE_PATCHES.push(...SM_PATCHES); // SM
/** // SN
 * SN (issue 20, run 27; helpers in isolate/array-assign.ts): an element word of `NAME=(…)` that starts with an unquoted // SN
 * `[` runs to its matching `]`, blanks included (`declare -A m=([c d]=3)`, `m+=([e f]=4)`, `a=([x y] z)`), as bash's // SN
 * skipsubscript; an array with the integer attribute stores each element's arithmetic value (`declare -ai a=(1+1)`, // SN
 * `a=(…)`/`a+=(…)` of a `declare -i a`, `a[3]=4+4`, `a[0]+=3`), and `declare -ai`/`-Ai` gives the array the attribute. // SN
 */ // SN
HELPER_NAMESPACES.push(["__arrayAssign", join(isolateDir, "array-assign.ts")]); // SN
const SN_WHEN = '"associative array assignment"'; // SN
const SN_PATCHES = [ // SN
  { what: "array element [key with blank] (SN)", when: SN_WHEN, re: new RegExp(String.raw`(function ${ID}\((${ID})\)\{let (${ID})=\[\];for\(\2\.skipNewlines\(\);!\2\.check\((${ID})\.RPAREN,\4\.EOF\);\)\2\.checkIterationLimit\(\),\2\.isWord\(\)\?\3\.push\()\2\.parseWord\(\)\)`, "g"), to: (all, head, e) => `${head}__arrayAssign.element(${e})??${e}.parseWord())`, count: 1 }, // SN
  { what: "declare -i evaluator known (SN)", when: SN_WHEN, re: new RegExp(String.raw`async function (${ID})\((${ID}),(${ID})\)\{try\{let (${ID})=new ${ID},(${ID})=${ID}\(\4,\3\),(${ID})=await ${ID}\(\2,\5\.expression\);return String\(\6\)\}catch\{return"0"\}\}`, "g"), to: (all, fu) => `${all}__arrayAssign.useArith(${fu});`, count: 1 }, // SN
  { what: "integer array element a[i]=v (SN)", when: SN_WHEN, re: new RegExp(String.raw`let (${ID})=(${ID})\?(${ID})\((${ID}),(${ID})\(\4,(${ID}),(${ID})\)\|\|"",(${ID})\):\8;return (${ID})\.name\|\|(${ID})\(\4,\6,\7,\1,(${ID})\?"associative":"indexed"\)`, "g"), to: (all, u, i, bs, e, le, a, c, s) => // SN
    `let ${u}=${e}.state.integerVars?.has(${a})?await __arrayAssign.integerValue(${e},${i}?"("+(${le}(${e},${a},${c})||"0")+")+("+${s}+")":${s}):${all.slice(`let ${u}=`.length)}`, count: 1 }, // SN
  { what: "integer array a=(…) a+=(…) (SN)", when: SN_WHEN, re: new RegExp(String.raw`try\{(${ID})&&(${ID})\?await (${ID})\((${ID}),(${ID}),(${ID}),(${ID}),(${ID}),(${ID}),(${ID})=>\{(${ID})\+=\10\}\):\2\?await (${ID})\(\4,\6,\7,\8,\9\):await (${ID})\(\4,\6,\7,\8,\9\)\}catch\((${ID})\)\{throw (${ID})\(\),\14\}`, "g"), to: (all, a, d, fm, e, t, n, r, s) => // SN
    `let __snBefore=${s}?__arrayAssign.snapshot(${e},${n}):void 0;${all}await __arrayAssign.integerElements(${e},${n},__snBefore);`, count: 1 }, // SN
  { what: "declare -ai NAME=(…) (SN)", when: SN_WHEN, re: new RegExp(String.raw`(for\(let (${ID})=0;\2<(${ID})\.length;\2\+\+\)(${ID})\((${ID}),(${ID}),\2,\3\[\2\]\)\})(${ID}\(\6\),)((?:(?!function )[^])*?\.consumeWork\((${ID})\.length,"declare array append"\)(?:(?!function )[^])*?for\(let (${ID})=0;\10<\9\.length;\10\+\+\)\4\(\5,(${ID}),(${ID})\+\10,\9\[\10\]\)\})(${ID}\(\11\),)(?=(?:(?!function )[^])*?;${ID}\(\11\),(${ID})&&(${ID})\(\5,\11\),${ID}&&${ID}\(\5,\11\),${ID}&&${ID}\(\5,\11\);let ${ID}=${ID}\(\5,\11\)\.length>0)`, "g"), to: (all, loop, ae, f, z, e, o, a1, mid, _, ae2, o2, f2, a2, flag, no) => // SN
    `${loop}${flag}&&${no}(${e},${o}),await __arrayAssign.integerElements(${e},${o});${a1}${mid}${flag}&&${no}(${e},${o2}),await __arrayAssign.integerElements(${e},${o2});${a2}`, count: 1 }, // SN
  { what: "declaration NAME=(…) words keep a [subscript] whole (SN)", when: SN_WHEN, re: new RegExp(String.raw`let (${ID})=\[\],(${ID})="",(${ID})=!1,(${ID})=!1,(${ID})=!1,(${ID})=!1;for\(let (${ID}) of (${ID})\)\{if\(\5\)\{\2\+=\7,\5=!1,\6=!0;continue\}(?:(?!function )[^])*?return \6&&(${ID})\(\1,\2,(${ID})\),\1\}`, "g"), to: (all, n, r, s, i, o, a, l, e, eo, t) => `let ${n}=[];__arrayAssign.splitWords(${e},(__w)=>${eo}(${n},__w,${t}));return ${n}}`, count: 1 }, // SN
  { what: "local with attributes or NAME=(…) is declare (SN)", when: SN_WHEN, re: new RegExp(String.raw`if\((${ID})==="local"\)return (${ID})\((${ID}),(${ID})\);(?=(?:(?!function )[^])*?if\(\1==="declare"\|\|\1==="typeset"\)return (${ID})\(\3,\4\);)`, "g"), to: (all, t, lo, c, n, de) => `if(${t}==="local")return __arrayAssign.local(${c},${n},${lo},${de});`, count: 1 }, // SN
]; // SN
SOURCE_PATCHES.push(...SN_PATCHES); // SN
/** // RL
 * RL (issue 20, run 28; helpers in isolate/rm-links.ts): rm decides `Is a directory` from lstat of its operand, so // RL
 * `rm LINK` / `rm -f LINK` of a link to a directory removes the link (GNU); `rm -d`/`--dir`; `rm -r l/` through a // RL
 * link empties the directory and keeps the link (`Not a directory`), as GNU rm 9.1. mkdir's refusals in strerror words. // RL
 */ // RL
HELPER_NAMESPACES.push(["__rmLinks", join(isolateDir, "rm-links.ts")]); // RL
const RL_PATCHES = [ // RL
  { what: "rm -d option (RL)", when: 'name:"rm",async execute(', re: /(verbose:\{short:"v",long:"verbose",type:"boolean"\})(\},\w+=\{name:"rm",async execute\()/g, to: (all, v, tail) => `${v},dir:{short:"d",long:"dir",type:"boolean"}${tail}`, count: 1 }, // RL
  { what: "rm -d flag read (RL)", when: 'name:"rm",async execute(', re: new RegExp(String.raw`(${ID})=(${ID})\.result\.flags\.verbose,(${ID})=\2\.result\.positional`, "g"), to: (all, d, e, c) => `${d}=${e}.result.flags.verbose,__rmDir=${e}.result.flags.dir===!0,${c}=${e}.result.positional`, count: 1 }, // RL
  { what: "rm view for the Is-a-directory check (RL)", when: 'name:"rm",async execute(', re: new RegExp(String.raw`name:"rm",async execute\((${ID}),(${ID})\)\{`, "g"), to: (all, g, s) => `${all}let __rlView={fs:{stat:(__p)=>__rmLinks.refusalStat(${s}.fs,__p,__rmDir)}};`, count: 1 }, // RL
  { what: "rm decides from lstat (RL)", when: 'name:"rm",async execute(', re: new RegExp(String.raw`if\(\(await (${ID})\.fs\.stat\((${ID})\)\)\.isDirectory&&!(${ID})\)\{(${ID})\+=` + "`" + String.raw`rm: cannot remove '\$\{(${ID})\}': Is a directory\n` + "`" + String.raw`,(${ID})=1;continue\}await \1\.fs\.rm\(\2,\{recursive:\3,force:(${ID})\}\),(${ID})&&\((${ID})\+=`, "g"), to: (all, s, n, i, t, r, l, a, d, f) => // RL
    `if((await __rlView.fs.stat(${n})).isDirectory&&!${i}){${t}+=\`rm: cannot remove '\${${r}}': Is a directory\n\`,${l}=1;continue}{let __rl=await __rmLinks.rmOperand(${s}.fs,${n},${r},{recursive:${i},force:${a},dir:__rmDir,verbose:${d}});if(__rl!==null){${f}+=__rl.stdout;if(__rl.error)throw __rl.error;__rl.stderr&&(${t}+=__rl.stderr,${l}=1);continue}}await ${s}.fs.rm(${n},{recursive:${i},force:${a}}),${d}&&(${f}+=`, count: 1 }, // RL
  { what: "rm -d in the flag list (RL)", when: 'name:"rm",async execute(', re: /(\{name:"rm",flags:\[\{flag:"-r",type:"boolean"\},\{flag:"-R",type:"boolean"\},\{flag:"-f",type:"boolean"\},\{flag:"-v",type:"boolean"\})/g, to: (all, head) => `${head},{flag:"-d",type:"boolean"}`, count: 1 }, // RL
  { what: "rmdir of a link (RL)", when: 'name:"rmdir",async execute(', re: new RegExp(String.raw`if\(!\(await (${ID})\.fs\.stat\((${ID})\)\)\.isDirectory\)return\{stdout:"",stderr:` + "`" + String.raw`rmdir: failed to remove '\$\{(${ID})\}': Not a directory\n`, "g"), to: (all, r, t, e) => `{let __rl=await __rmLinks.rmdirRefusal(${r}.fs,${t},${e});if(__rl!==null)return{stdout:"",stderr:__rl,exitCode:1}}${all}`, count: 1 }, // RL
  { what: "mkdir refusal in strerror words (RL)", when: 'name:"mkdir",async execute(', re: new RegExp(String.raw`catch\((${ID})\)\{let (${ID})=(${ID})\(\1\);(\2\.includes\("ENOENT"\)(?:(?!catch)[^])*?:(${ID})\+=` + "`" + String.raw`mkdir: cannot create directory '\$\{(${ID})\}': )\$\{(${ID})\(\2\)\}\n` + "`", "g"), to: (all, i, s, l, body, o, r, f) => `catch(${i}){let ${s}=${l}(${i});${body}\${__pathErrors.reason(${i},${f}(${s}))}\n\``, count: 1 }, // RL
]; // RL
SOURCE_PATCHES.push(...RL_PATCHES); // RL
/** // DD
 * DD (issue 20, run 35): `cd -P DIR` resolves DIR physically, as bash's `cd -P` (chdir to the operand, then $PWD is // DD
 * getcwd): a `..` after a link goes up from where the link leads (`cd -P lnk/..` with lnk -> a/b is `a`; `cd -P ..` // DD
 * from a cwd entered through a link is the real parent). just-bash canonicalised the operand lexically first and only // DD
 * then took the realpath. The logical walk (`cd`, `cd -L`: `lnk/..` is the directory holding lnk) is unchanged. // DD
 */ // DD
const DD_PATCHES = [ // DD
  { what: "cd -P resolves the operand physically (DD)", when: "bash: cd: ", re: new RegExp(String.raw`for\(let (${ID}) of (${ID})\)(if\(\1==="\.\."\)(?:(?!function )[^])*?return (${ID})\(` + "`" + String.raw`bash: cd: \$\{(${ID})\}: Not a directory\n` + "`" + String.raw`\)(?:(?!function )[^])*?\}\})let (${ID})=(${ID})\|\|"/";if\((${ID})\)try\{\6=await (${ID})\.fs\.realpath\(\6\)\}catch\{\}`, "g"), // DD
    to: (all, f, l, body, D, n, u, c, s, e) => `for(let ${f} of ${s}?[]:${l})${body}let ${u}=${c}||"/";if(${s})try{${u}=await ${e}.fs.realpath(${n}.startsWith("/")?${n}:\`\${${e}.state.cwd}/\${${n}}\`);if(!(await ${e}.fs.stat(${u})).isDirectory)throw{code:"ENOTDIR"}}catch(__cdError){return ${D}(\`bash: cd: \${${n}}: \${__cdError?.code==="ENOTDIR"?"Not a directory":"No such file or directory"}\n\`)}`, count: 1 }, // DD
]; // DD
SOURCE_PATCHES.push(...DD_PATCHES); // DD
/** // OP
 * OP (issue 20, run 28; helpers in isolate/option-words.ts): sort, grep and cut read their options as GNU getopt_long // OP
 * — a short-option cluster ends at a letter that takes an argument (`sort -nk2`, `-rnk2`, `grep -nA1`, `cut -sd,`), a // OP
 * long option that requires an argument takes the next word (`grep --include '*.ts'`, `--exclude-dir DIR`, // OP
 * `--max-count N`, `cut --delimiter ,`, `--fields 2`); grep's and sort's refusals are GNU's (status 2); paste // OP
 * without a file operand reads standard input. // OP
 */ // OP
HELPER_NAMESPACES.push(["__optionWords", join(isolateDir, "option-words.ts")]); // OP
const OP_PATCHES = [ // OP
  ...["sort", "grep", "cut"].map((command) => ({ what: `${command} option words (OP)`, when: `name:"${command}",async execute(`, re: new RegExp(String.raw`name:"${command}",async execute\((${ID}),(${ID})\)\{`, "g"), to: (all, a) => `${all}${a}=__optionWords.words("${command}",${a});`, count: 1 })), // OP
  { what: "sort refusals (OP)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`return ${ID}\("sort",(${ID})\)`, "g"), to: (all, t) => `return __optionWords.refuse("sort",${t})`, count: 2 }, // OP
  { what: "grep refusals (OP)", when: 'name:"grep",async execute(', re: new RegExp(String.raw`return ${ID}\("grep",(${ID}|` + "`-\\$\\{" + ID + "\\}`" + String.raw`)\)`, "g"), to: (all, n) => `return __optionWords.refuse("grep",${n},"[OPTION]... PATTERNS [FILE]...")`, count: 2 }, // OP
  { what: "paste reads stdin without operands (OP)", when: 'name:"paste",async execute(', re: new RegExp(String.raw`if\((${ID})\.length===0\)return\{stdout:"",stderr:` + "`usage: paste \\[-s\\] \\[-d delimiters\\] file \\.\\.\\.\\n`" + String.raw`,exitCode:1\};`, "g"), to: (all, p) => `if(${p}.length===0)${p}=["-"];`, count: 1 }, // OP
]; // OP
SOURCE_PATCHES.push(...OP_PATCHES); // OP
/** // AW
 * AW (issue 20, run 28; helpers in isolate/awk.ts): awk arrays as gawk 5.2 / mawk 1.3.4 — a reference to an element // AW
 * (`a[$1]`, `x[1] == ""`, `f(a[k])`) creates it uninitialized (not `k in a`, not `delete`), `length(ARRAY)` counts // AW
 * elements, `for (k in P)` / `split(s, P)` / `length(P)` through a parameter P reach the caller's array, a call binds // AW
 * its arrays in the caller's scope (recursion passing an array on, `f(b, a)`), locals get fresh arrays per call, and // AW
 * the arguments are all evaluated before any parameter is bound. // AW
 */ // AW
const AW_PATCHES = [ // AW
  { what: "awk array alias lookup (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{let (${ID})=\3,(${ID})=new Set,(${ID})=\2\.arrayAliases\.get\(\4\);for\(;\6!==void 0&&!\5\.has\(\4\);\)\5\.add\(\4\),\4=\6,\6=\2\.arrayAliases\.get\(\4\);return \4\}`, "g"), to: (all, Y, e, t) => `function ${Y}(${e},${t}){return __awk.arrayKey(${e},${t})}`, count: 1 }, // AW
  { what: "awk element reference creates it (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=(${ID})\((${ID}),(${ID})\);return __awk\.load\(\3,\3\.arrays\[\1\]\?\.\[(${ID})\]\)\}function (${ID})\(`, "g"), to: (all, r, Y, e, t, n, ye) => `let ${r}=${Y}(${e},${t});return ${e}.arrays[${r}]&&${n} in ${e}.arrays[${r}]||${ye}(${e},${t},${n},__awk.UNINIT),__awk.load(${e},${e}.arrays[${r}][${n}])}function ${ye}(`, count: 1 }, // AW
  { what: "awk for-in through a parameter (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(${ID})\((${ID}),"for-in execution"\);let (${ID})=\2\.arrays\[(${ID})\.array\];`, "g"), to: (all, D, e, n, t) => `${D}(${e},"for-in execution");let ${n}=__awk.arrayOf(${e},${t}.array);`, count: 1 }, // AW
  { what: "awk split into a parameter (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`if\((${ID})\.type!=="variable"\)return 0;let (${ID})=\1\.name,(${ID})=(${ID})\.FS;`, "g"), to: (all, s, a, o, t) => `if(${s}.type!=="variable")return 0;let ${a}=__awk.arrayKey(${t},${s}.name),${o}=${t}.FS;`, count: 1 }, // AW
  { what: "awk length of an array (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`return (${ID})\.length===0\?(${ID})\.line\.length:(${ID})\.str\(await \3\.evalExpr\(\1\[0\]\)\)\.length\}`, "g"), to: (all, e, t, n) => `return ${e}.length===0?${t}.line.length:__awk.arrayLength(${t},${e}[0])??${n}.str(await ${n}.evalExpr(${e}[0])).length}`, count: 1 }, // AW
  { what: "awk call binds arrays in the caller's scope (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=\[\];for\(let (${ID})=0;\2<(${ID})\.params\.length;\2\+\+\)\{let (${ID})=\3\.params\[\2\];if\(\2<(${ID})\.length\)\{let (${ID})=\5\[\2\];\6\.type==="variable"&&\((${ID})\.arrayAliases\.set\(\4,\6\.name\),\1\.push\(\4\)\);let (${ID})=await (${ID})\(\7,"user function argument evaluation",\(\)=>(${ID})\(\7,\6\)\);\7\.vars\[\4\]=__awk\.keepOf\(\7,\6,\8\)\}else \7\.vars\[\4\]=""\}`, "g"), to: (all, s, l, t, c, n, u, e, f, R, E) => // AW
    `let __av=[];for(let ${l}=0;${l}<${t}.params.length&&${l}<${n}.length;${l}++){let ${u}=${n}[${l}],${f}=await ${R}(${e},"user function argument evaluation",()=>${E}(${e},${u}));__av.push(__awk.keepOf(${e},${u},${f}))}let ${s}=__awk.enterFrame(${e},${t}.params,${n});for(let ${l}=0;${l}<${t}.params.length;${l}++)${e}.vars[${t}.params[${l}]]=${l}<${n}.length?__av[${l}]:void 0;`, count: 1 }, // AW
  { what: "awk call unbinds arrays (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`for\(let (${ID}) of (${ID})\)(${ID})\.arrayAliases\.delete\(\1\);`, "g"), to: (all, l, s, e) => `__awk.leaveFrame(${e},${s});`, count: 1 }, // AW
]; // AW
SOURCE_PATCHES.push(...AW_PATCHES); // AW
/** // AW31
 * AW (issue 20, run 31; helpers in src/backends/worker-shell/isolate/awk-streams.ts): awk as gawk 5.2.1 / mawk 1.3.4 — // AW31
 * `NAME (expr)` with a blank is a concatenation unless NAME is a built-in or a defined function (`s = s (NR > 1 ? "," // AW31
 * : "") $1` joins); `print`/`printf` `>`/`>>` `"/dev/stdout"`, `"/dev/stderr"`, `"/dev/fd/1"`, `"/dev/fd/2"` write // AW31
 * to the command's stdout/stderr; close() of a `getline <` file or a `| getline` command forgets it (the next getline // AW31
 * starts again at the top / runs the command again), returning 0, the command's status, or -1 when not open. // AW31
 */ // AW31
HELPER_NAMESPACES.push(["__awkSt", join(isolateDir, "awk-streams.ts")]); // AW31
const AW31_PATCHES = [ // AW31
  { what: "awk name (expr) is a concatenation (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`if\(this\.check\((${ID})\.IDENT\)\)\{let (${ID})=this\.advance\(\)\.value;if\(this\.check\(\1\.LPAREN\)\)\{`, "g"), to: (all, i, t) => `if(this.check(${i}.IDENT)){let ${t}=this.advance().value;if(this.check(${i}.LPAREN)&&__awkSt.isCall(this,${t})){`, count: 2 }, // AW31
  { what: "awk close() of getline files and commands (AW)", when: 'OFMT:"%.6g"', re: /\["close",\(\)=>0\]/g, to: '["close",__awkSt.close]', count: 1 }, // AW31
  { what: "awk getline command keeps its status (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=(await ${ID}\(${ID},"getline command exec",(?:(?!getlineCommandStreams)[^])*?)\{lines:(${ID}),index:-1\}`, "g"), to: (all, c, mid, f) => `let ${c}=${mid}{lines:${f},index:-1,exitCode:${c}.exitCode}`, count: 1 }, // AW31
  { what: "awk print > /dev/stdout, /dev/stderr (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`async function ${ID}\((${ID}),${ID},(${ID}),(${ID})\)\{${ID}\(\1,"file write execution"\);let (${ID})=\1\.fs;if\(!\4\|\|!\1\.cwd\)\{\1\.output\+=\3,(${ID})\(\1\);return\}let (${ID})=__awk\.str\(\1,await ${ID}\(\1,"redirection filename evaluation",\(\)=>${ID}\(\1,\2\)\)\),${ID}=\4\.resolvePath\(\1\.cwd,\6\);`, "g"), to: (all, e, n, r, s, we, a) => `${all}if(__awkSt.standardStream(${e},${a},${r})){${we}(${e});return}`, count: 1 }, // AW31
  { what: "awk stderr of a run (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`stderr:"",exitCode:(${ID})\.getExitCode\(\)`, "g"), to: (all, T) => `stderr:__awkSt.errText(${T}.getContext()),exitCode:${T}.getExitCode()`, count: 3 }, // AW31
  { what: "awk stderr before an error (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`return\{stdout:(${ID})\.getOutput\(\),stderr:\`awk: \$\{(${ID})\}\n\`,exitCode:(${ID})\}`, "g"), to: (all, T, y, p) => `if(${T}.getContext().errOutput)return{stdout:${T}.getOutput(),stderr:__awkSt.errText(${T}.getContext())+"awk: "+${y}+"\\n",exitCode:${p}};${all}`, count: 1 }, // AW31
]; // AW31
SOURCE_PATCHES.push(...AW31_PATCHES); // AW31
/** // AW2
 * AW2 (issue 20, run 31; helpers in src/backends/worker-shell/isolate/awk-io.ts): awk as gawk 5.2.1 / mawk 1.3.4 — a // AW2
 * string used as a regex is the ERE it holds (`gsub("/", "_")` replaces slashes; no `/…/` stripped); in a sub/gsub // AW2
 * replacement a backslash before a character other than `&` or `\` stays (`"\\."` gives `\.`), in gensub's `\c` is `c` // AW2
 * (gawk; not a tab or newline for t/n); `print > "f"`/`>>`/`printf >` keep each open file's later text in the isolate // AW2
 * and append it at close()/fflush()/the program's end (was a read and rewrite of the whole file per record, // AW2
 * O(N²)); close(file) ends a `>` opening (the next `print >` truncates again). // AW2
 */ // AW2
HELPER_NAMESPACES.push(["__awkIo", join(isolateDir, "awk-io.ts")]); // AW2
const AW2_PATCHES = [ // AW2
  { what: "awk dynamic regex keeps slashes (AW2)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`return (${ID})\.startsWith\("/"\)&&\1\.endsWith\("/"\)&&\(\1=\1\.slice\(1,-1\)\),\1\}`, "g"), to: (all, n) => `return ${n}}`, count: 1 }, // AW2
  { what: "awk sub/gsub replacement keeps other backslashes (AW2)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(${ID})==="&"\?\((${ID})\.append\("&"\),(${ID})\+=2\):\1==="\\\\"\?\(\2\.append\("\\\\"\),\3\+=2\):\(\2\.append\((${ID})\[\3\+1\]\),\3\+=2\)`, "g"), to: (all, a, r, s, e) => all.slice(0, all.lastIndexOf(":(") + 1) + String.raw`(${r}.append("\\"+${e}[${s}+1]),${s}+=2)`, count: 1 }, // AW2
  { what: "awk gensub \\t \\n are t n (AW2)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`else (${ID})==="n"\?\((${ID})\.append\(\`\n\`\),(${ID})\+=2\):\1==="t"\?\(\2\.append\("\t"\),\3\+=2\):\(\2\.append\(\1\),\3\+=2\)`, "g"), to: (all, o, s, a) => `else(${s}.append(${o}),${a}+=2)`, count: 1 }, // AW2
  { what: "awk output files kept while open (AW2)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=\{readFile:(${ID})\.fs\.readFile\.bind\(\2\.fs\),writeFile:\2\.fs\.writeFile\.bind\(\2\.fs\),appendFile:async\(${ID},${ID}\)=>\{try\{let ${ID}=await (${ID})\("appendFile read",(?:(?!resolvePath:)[^])*\},resolvePath:\2\.fs\.resolvePath\.bind\(\2\.fs\)\},`, "g"), to: (all, k, t, n) => `let __awkOut=new __awkIo.OutputFiles(${t}.fs,${n}),${k}=__awkOut,`, count: 1 }, // AW2
  { what: "awk output files written at the end (AW2)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`try\{if\(await ${ID}\("BEGIN execution",[^]*?\}catch\((${ID})\)\{if\(\1 instanceof (${ID})\)throw \1;[^]*?return\{stdout:${ID}\.getOutput\(\),stderr:\`awk: \$\{${ID}\}\n\`,exitCode:${ID}\}\}`, "g"), to: (all, m, fatal) => `let __awkResult=await(async()=>{${all}})();return await __awkOut.finish(__awkResult,__x=>__x instanceof ${fatal})`, count: 1 }, // AW2
  { what: "awk close/fflush of output files (AW2)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`var (${ID})=new Map\(\[\["length",(?:(?!\]\]\);)[^])*\]\]\);`, "g"), to: (all, me) => `${all}__awkIo.wrapBuiltins(${me});`, count: 1 }, // AW2
]; // AW2
SOURCE_PATCHES.push(...AW2_PATCHES); // AW2
/** // AW
 * AW (issue 20, run 32; helpers in src/backends/worker-shell/isolate/awk-funcs.ts): awk as gawk 5.2.1 / mawk 1.3.4 — // AW
 * `$` binds tighter than `^`/`**` (`$2^2` is `($2)^2`, `$i^2`, `$NF^2`; a unary sign after `$` takes a power: // AW
 * `$-x^2` is `$(-(x^2))`); the right operand of `^` may carry a sign (`2^-1`, `$1 ^ -1`); `**=` is `^=`; `srand(seed)` // AW
 * seeds `rand()` and returns the previous seed (1 first, as gawk); asort, asorti, strtonum as gawk; a call to a function // AW
 * that is neither built in nor defined is gawk's fatal error when reached (`awk: function `g' not defined`, status 2). // AW
 */ // AW
HELPER_NAMESPACES.push(["__awkFn", join(isolateDir, "awk-funcs.ts")]); // AW
const AW32_PATCHES = [ // AW
  { what: "awk $ binds tighter than ^ (AW)", when: "parseFieldIndexPower", re: new RegExp(String.raw`(if\(this\.match\((${ID})\.NOT,\2\.MINUS,\2\.PLUS\)\)\{let (${ID})=this\.advance\(\)\.value,(${ID})=this\.withDepth\(\(\)=>this\.)parseFieldIndex(\(\)\);return\{type:"unary",operator:\3,operand:\4\}\}return this\.)parseFieldIndexPower\(\)\}`, "g"), to: (all, head, i, t, n, tail) => `${head}parseUnary${tail}parseFieldIndexPrimary()}`, count: 1 }, // AW
  { what: "awk signed power exponent (AW)", when: "parseFieldIndexPower", re: new RegExp(String.raw`(parsePower\(\)\{let (${ID})=this\.parsePostfix\(\);if\(this\.check\((${ID})\.CARET\)\)\{this\.advance\(\);let (${ID})=this\.withDepth\(\(\)=>this\.)parsePower\(\)\)`, "g"), to: (all, head) => `${head}parseUnary())`, count: 1 }, // AW
  { what: "awk **= (AW)", when: "parseFieldIndexPower", re: new RegExp(String.raw`case"\*":return (${ID})==="\*"\?\(this\.advance\(\),\{type:(${ID})\.CARET,value:"\*\*",line:(${ID}),column:(${ID})\}\)`, "g"), to: (all, s, i, t, n) => `case"*":return ${s}==="*"&&this.peek(1)==="="?(this.advance(),this.advance(),{type:${i}.CARET_ASSIGN,value:"^=",line:${t},column:${n}}):${all.slice('case"*":return '.length)}`, count: 1 }, // AW
  { what: "awk rand/srand, asort, asorti, strtonum (AW)", when: 'OFMT:"%.6g"', re: /__awkIo\.wrapBuiltins\(([\w$]+)\);/g, to: (all, me) => `__awkFn.install(${me});${all}`, count: 1 }, // AW
  { what: "awk undefined function is fatal (AW)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`let (${ID})=(${ID})\.functions\.get\((${ID})\);return \1\?(${ID})\(\2,\1,(${ID})\):""\}`, "g"), to: (all, s, e, t, bt, n) => `let ${s}=${e}.functions.get(${t});return ${s}?${bt}(${e},${s},${n}):__awkFn.notDefined(${t})}`, count: 1 }, // AW
]; // AW
SOURCE_PATCHES.push(...AW32_PATCHES); // AW
/** // AP
 * AP (issue 20, run 32; helpers in src/backends/worker-shell/isolate/awk-output.ts): awk's standard output keeps its // AP
 * UTF-8 size as it grows (each text's bytes added where it is appended); printf read it by counting the whole output // AP
 * on every call (O(N²): 20,000 printf of 22 bytes ran past 20 s). // AP
 */ // AP
HELPER_NAMESPACES.push(["__awkOb", join(isolateDir, "awk-output.ts")]); // AP
const AP_PATCHES = [ // AP
  { what: "awk printf room under the output limit (AP)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`Math\.max\(0,(${ID})\.maxOutputSize-${ID}\(\1\.output\)\)`, "g"), to: (all, e) => `Math.max(0,${e}.maxOutputSize-__awkOb.outputBytes(${e}))`, count: 1 }, // AP
  { what: "awk output appends counted (AP)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(${ID})\.output\+=(${ID}),(${ID})\(\1\)`, "g"), to: (all, e, s, we) => `${e}.output+=${s},__awkOb.noteOutput(${e},${s}),${we}(${e})`, count: 3 }, // AP
  { what: "awk /dev/stdout appends counted (AP)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`if\(__awkSt\.standardStream\((${ID}),${ID},(${ID})\)\)\{`, "g"), to: (all, e, r) => `${all}__awkOb.noteOutput(${e},${r});`, count: 1 }, // AP
]; // AP
SOURCE_PATCHES.push(...AP_PATCHES); // AP
/** // SD
 * SD (issue 20, run 28; helpers in isolate/sed-range.ts): sed's two-address ranges as GNU sed 4.9 — a regex end is // SD
 * looked for from the line after the start (`/^## A/,/^## /` no longer ends on its own heading), `0,/re/` may end on // SD
 * line 1, a line-number start passed by `n`/`N` still opens its range (once), `M` ≤ the start line selects one line, // SD
 * `+N`, `~N`, `first~step` and `$` ends as GNU. The whole range test of just-bash's sed is replaced. // SD
 */ // SD
HELPER_NAMESPACES.push(["__sedRange", join(isolateDir, "sed-range.ts")]); // SD
const SD_RANGE_PATCHES = [ // SD
  { what: "sed ranges (SD)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID}),(${ID}),(${ID}),(${ID})\)\{if\(!\2\|\|!\2\.start&&!\2\.end\)return!0;let (${ID})=\2\.start,(${ID})=\2\.end;if\(\8!==void 0&&\9===void 0\)return (${ID})\(\8,\3,\4,\5,\7\);(?:(?!function )[^])*?\}(?=function ${ID}\(${ID},${ID},${ID},${ID},${ID},${ID}\)\{let ${ID}=\1\()`, "g"), to: (all, f, i, e, t, n, s, a, r, u, L) => `function ${f}(${i},${e},${t},${n},${s},${a}){return __sedRange.match(${i},${e},${t},${n},${s},${a},${L})}`, count: 1 }, // SD
  // SD: `r /dev/stdin` and `R /dev/stdin` read the command's standard input (once), as GNU sed 4.9; `R` reads no empty // SD
  // line after a file's final newline. // SD
  { what: "sed stdin kept for r (SD)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(name:"sed",async execute\((${ID}),(${ID})\)\{(?:(?!async execute)[^])*?let __io=__sedGnu\.io\(\);)(?=(?:(?!async execute)[^])*?if\(${ID}==="-"\)${ID}\?${ID}="":\(${ID}=(${ID})\(\3\.stdin\))`, "g"), to: (all, head, i, e, decode) => `${head}__io.stdin=()=>${decode}(${e}.stdin);`, count: 1 }, // SD
  { what: "sed stdin input taken (SD)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`if\((${ID})\.length===0\)\{(${ID})=(${ID})\((${ID})\.stdin\);`, "g"), to: (all) => `${all}__io.stdinTaken=!0;`, count: 1 }, // SD
  { what: "sed stdin operand taken (SD)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(if\(${ID}==="-"\)(${ID})\?${ID}="":\(${ID}=${ID}\(${ID}\.stdin\),\2=!0)\)`, "g"), to: (all, head) => `${head},__io.stdinTaken=!0)`, count: 1 }, // SD
  { what: "sed r reads /dev/stdin (SD)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(let (${ID})=await ${ID}\("read command file",\(\)=>)(${ID})\.readFile\((${ID})\)\);(${ID})\.appendBuffer\.push\(\2\.replace\(`, "g"), to: (all, head, y, fs, path, g) => `${head}__sedRange.readFile(${fs},${path},__io));${y}!==""&&${g}.appendBuffer.push(${y}.replace(`, count: 1 }, // SD: an empty file adds no line
  { what: "sed R reads /dev/stdin (SD)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(let (${ID})=await ${ID}\("read command file line cache",\(\)=>)(${ID})\.readFile\((${ID})\)\);(${ID})\.set\(\4,\2\.split\(\`\n\`\)\)`, "g"), to: (all, head, pe, fs, path, T) => `${head}__sedRange.readFile(${fs},${path},__io));${T}.set(${path},__sedRange.lines(${pe}))`, count: 1 }, // SD
]; // SD
SOURCE_PATCHES.push(...SD_RANGE_PATCHES); // SD
/** // SD33
 * SD33 (issue 20, run 33, fixer SD): (1) a command's `fs` reads `/dev/stdin`, `/dev/fd/0` and `/proc/self/fd/0` as // SD33
 * its own standard input, as Linux (isolate/dev-stdin.ts); (2) a brace range past the word limit stops the line with // SD33
 * `brace expansion result limit exceeded (N)`, status 126, as the product of braces already did, where just-bash cut // SD33
 * `{1..N}` at 10,000 words (a constant, whatever the limit) with status 0; (3) `< /dev/stdin` (fd 0) keeps the input. // SD33
 */ // SD33
HELPER_NAMESPACES.push(["__devStdin", join(isolateDir, "dev-stdin.ts")]); // SD33
const SD33_PATCHES = [ // SD33
  { what: "command fs reads /dev/stdin (SD33)", when: "fsIdentity:", re: new RegExp(String.raw`let (${ID})=\{fs:(${ID})\.fs,fsIdentity:(${ID})\(\2\.fs\),cwd:\2\.state\.cwd,`, "g"), to: (all, m, i, tr) => `let ${m}={fs:__devStdin.withStdin(${i}.fs,()=>${m}.stdin),fsIdentity:${tr}(${i}.fs),cwd:${i}.state.cwd,`, count: 1 }, // SD33
  { what: "< /dev/stdin keeps the input (SD33)", when: 'kind:"input",content:', re: new RegExp(String.raw`(else if\((${ID})\.operator==="<"\)\{let (${ID})=(${ID})\.fs\.resolvePath\(\4\.state\.cwd,${ID}\);)(try\{(${ID})=await ${ID}\(\4\.fs,\3\),(${ID})=-1,(${ID})\((${ID}),\{kind:"input",content:\6\}\))`, "g"), to: (all, head, y, A, e, tail, c, u, m, S) => `${head}if((${S}===0||${S}===null)&&__devStdin.isStdinPath(${A}))continue;${tail}`, count: 1 }, // SD33: `< /dev/stdin` on fd 0 leaves the input as it is
  // SD33: the work budget of one brace expansion is 4 operations a word of the limit (a word is counted when its item // SD33
  // is made and again when the product takes it), not min(100,000, limit): 100,000 words cost 200,000. // SD33
  { what: "brace work budget follows the limit (SD33)", when: "brace expansion string limit exceeded", re: new RegExp(String.raw`var (${ID})=1e5;(async function (${ID})\((${ID}),(${ID}),(${ID})=\{count:0\}\)\{let (${ID})=\(\)=>\{\6\.count\+\+,\4\.executionScope\.consumeLimited\("brace_operations",1,)Math\.min\(\1,\4\.limits\.maxBraceExpansionResults\)((?:(?!async function )[^])*?)\6\.count>\1\)`, "g"), to: (all, qc, head, kc, e, t, n, r, mid) => `var ${qc}=1e5;${head}4*${e}.limits.maxBraceExpansionResults${mid}${n}.count>4*${e}.limits.maxBraceExpansionResults)`, count: 1 }, // SD33
  { what: "brace range cap is the limit (SD33)", when: "brace expansion string limit exceeded", re: new RegExp(String.raw`var (${ID})=1e4,(${ID})=\{maxResults:\1,`, "g"), to: (all, dr, mi) => `var ${dr}=1/0,${mi}={maxResults:1e4,`, count: 1 }, // SD33
  { what: "brace range past the limit stops (SD33)", when: "brace expansion string limit exceeded", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID}),(${ID})\)\{if\(\2\.length>=\4\.maxResults\)return!1;(let (${ID})=(${ID})\(\3\);if\(\7>\4\.maxStringBytes-\5\.value\)throw new (${ID})\()`, "g"), to: (all, jr, e, t, n, r, tail, s, b, x) => `function ${jr}(${e},${t},${n},${r}){if(${e}.length>=${n}.maxResults)throw new ${x}(\`brace expansion result limit exceeded (\${${n}.maxResults})\`,"array_elements");${tail}`, count: 1 }, // SD33
]; // SD33
SOURCE_PATCHES.push(...SD33_PATCHES); // SD33
/** // SO33
 * SO33 (issue 20, run 33, fixer SO): `/dev/stdout`, `/dev/stderr`, `/dev/fd/1`, `/dev/fd/2`, `/proc/self/fd/1` and // SO33
 * `/proc/self/fd/2` (resolved against the cwd, normalised) are the current descriptor 1 or 2 as redirect targets // SO33
 * (opening, `exec N>`, and applying `>`/`>>`/`>|`/`&>`/`&>>` after the command), where just-bash matched the two exact // SO33
 * words `/dev/stdout` and `/dev/stderr`; and a command's writes to them (tee, sort -o, cp, dd of=) go to its own // SO33
 * stdout/stderr (isolate/dev-stdout.ts). Applied after SD33 (it wraps SD33's /dev/stdin view). // SO33
 */ // SO33
HELPER_NAMESPACES.push(["__devStdout", join(isolateDir, "dev-stdout.ts")]); // SO33
const SO33_PATCHES = [ // SO33
  { what: "redirect opening: stream names (SO33)", when: "cannot open redirect target", re: new RegExp(String.raw`(let (${ID})=(${ID})\.fs\.resolvePath\(\3\.state\.cwd,(${ID})\),${ID}=await ${ID}\(\3,\2,\4,\{checkNoclobber:(?:(?!function )[^])*?)if\(\4==="/dev/stdout"\)return\{entry:\{kind:"dup-out",sourceFd:1\}\};if\(\4==="/dev/stderr"\)return\{entry:\{kind:"dup-out",sourceFd:2\}\};`, "g"), to: (all, head, i) => `${head}{let __soFd=__devStdout.streamFd(${i});if(__soFd!==null)return{entry:{kind:"dup-out",sourceFd:__soFd}}}`, count: 1 }, // SO33
  { what: "redirect applying: stream names (SO33)", when: 'kind:"live-stdout"', re: new RegExp(String.raw`if\((${ID})==="/dev/stdout"\)\{(${ID})===2&&\((${ID})=(${ID})\);break\}if\(\1==="/dev/stderr"\)\{\2===1&&\(\4=\3\);break\}((?:(?!function )[^])*?)case"&>":\{\4=\{kind:"file",path:(${ID})\.fs\.resolvePath\(\6\.state\.cwd,\1\),append:!1\},\3=\4;break\}case"&>>":\{`, "g"), to: (all, k, A, m, h, mid, e) => { // SO33
    const fd = `__devStdout.streamFd(${e}.fs.resolvePath(${e}.state.cwd,${k}))`; // SO33
    return `if(${fd}===1){${A}===2&&(${m}=${h});break}if(${fd}===2){${A}===1&&(${h}=${m});break}${mid}case"&>":{if(${fd}===1){${m}=${h};break}if(${fd}===2){${h}=${m};break}${h}={kind:"file",path:${e}.fs.resolvePath(${e}.state.cwd,${k}),append:!1},${m}=${h};break}case"&>>":{if(${fd}===1){${m}=${h};break}if(${fd}===2){${h}=${m};break}`; // SO33
  }, count: 1 }, // SO33
  { what: "command fs writes /dev/stdout (SO33)", when: "fsIdentity:", re: new RegExp(String.raw`let (${ID})=\{fs:(__devStdin\.withStdin\((?:(?!,cwd:)[^])*?\)),fsIdentity:`, "g"), to: (all, m, view) => `let __soStreams=__devStdout.streams(),${m}={fs:__soStreams.wrap(${view}),fsIdentity:`, count: 1 }, // SO33
  { what: "command result gets its stream writes (SO33)", when: "fsIdentity:", re: new RegExp(String.raw`(${ID})=((${ID})\.trusted\?await ${ID}\.runTrustedAsync\((${ID})\):await \4\(\));(?=return\{\.\.\.\1,internalStdinConsumed:)`, "g"), to: (all, A, run) => `${A}=__soStreams.merge(${run});`, count: 1 }, // SO33
]; // SO33
SOURCE_PATCHES.push(...SO33_PATCHES); // SO33
/** // DD2
 * DD2 (issue 20, run 36, fixer DD2; isolate/dot-dots.ts): each command's view of the file system resolves its // DD2
 * operands that hold a `..` after a name physically before it runs (`lnk/..` with lnk -> a/b is `a`), so the tree // DD2
 * walkers (find, du, ls -R, grep -r, rg, cp -r, chmod -R, tar, rm -r) start from the real directory and print names // DD2
 * from the operand text, as GNU does. Applied after SO33 (it wraps what SD33's /dev/stdin view wraps). // DD2
 */ // DD2
HELPER_NAMESPACES.push(["__dotDots", join(isolateDir, "dot-dots.ts")]); // DD2
const DD2_PATCHES = [ // DD2
  { what: "rg's ignore loader walks up lexically (DD2)", when: "loadForDirectory", re: new RegExp(String.raw`let (${ID})=this\.fs\.resolvePath\((${ID}),"\.\."\);if\(\1===\2\)break;`, "g"), to: (all, i, n) => `let ${i}=__dotDots.lexicalParent(${n});if(${i}===${n})break;`, count: 1 }, // DD2
  { what: "command fs resolves operands' .. physically (DD2)", when: "fsIdentity:", re: new RegExp(String.raw`(async function ${ID}\(${ID},${ID},(${ID}),${ID},${ID}\)\{let\{ctx:(${ID}),(?:(?!async function )[^])*?let __soStreams=__devStdout\.streams\(\),${ID}=\{fs:__soStreams\.wrap\(__devStdin\.withStdin\()(${ID})\.fs,`, "g"), to: (all, head, n, i, i2) => `${head}await __dotDots.physicalOperands(${i2}.fs,${i2}.state.cwd,${n}),`, count: 1 }, // DD2
]; // DD2
SOURCE_PATCHES.push(...DD2_PATCHES); // DD2
/** // LM
 * LM (issue 20, run 28; helpers in isolate/limits.ts): bytes a redirection sends to a file (or discards) and bytes // LM
 * `$(…)`/`<(…)` capture are given back to just-bash's run-wide output counter once they have left the output, so the // LM
 * 16 MiB bound is on what reaches the run's stdout/stderr and on one command's output, not on the script's sum; // LM
 * awk's records, join's lines, seq's numbers and strings' strings no longer count as loop iterations. // LM
 */ // LM
HELPER_NAMESPACES.push(["__limits", join(isolateDir, "limits.ts")]); // LM
/** LM: the name of just-bash's relinquishPipelineOutput in bundle text `text`. */ // LM
function lmRelinquish(text) { // LM
  const found = [...text.matchAll(new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})="pipeline"\)\{\2\.relinquishOutput\(\3,\4,${ID}\)\}`, "g"))]; // LM
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's relinquishPipelineOutput not found once (${found.length}; LM)`); // LM
  return found[0][1]; // LM
} // LM
const LM_PATCHES = [ // LM
  { what: "redirected output given back (LM)", when: "relinquishOutput(", re: new RegExp(String.raw`let (${ID})=\((${ID})\.internalOutputAccounting\?\.stdout\?\?0\)\+\(\2\.internalOutputAccounting\?\.stderr\?\?0\),(${ID})=${ID}\((${ID})\.stdout\),(${ID})=${ID}\(\4\.stderr\),(${ID})=Math\.min\(\3,\1\);\4\.internalOutputAccounting=\{stdout:\6,stderr:Math\.min\(\5,\1-\6\)\},(${ID})\.executionScope\.accountResult\(\4,"redirection"\)`, "g"), to: (all, S, t, v, g, k, A, e, ...rest) => // LM
    `${all.slice(0, all.length - `,${e}.executionScope.accountResult(${g},"redirection")`.length)},__limits.releaseRedirected(${e}.executionScope,${S},${g}.internalOutputAccounting.stdout+${g}.internalOutputAccounting.stderr,${lmRelinquish(rest.at(-1))}),${e}.executionScope.accountResult(${g},"redirection")`, count: 1 }, // LM
  { what: "prior output never negative (LM)", when: "relinquishOutput(", re: new RegExp(String.raw`(accountResult\((${ID}),(${ID})="execution",(${ID})=Number\.POSITIVE_INFINITY\)\{let (${ID})=\2\.internalOutputAccounting,(${ID})=Math\.min\(\5\?\.stdout\?\?0,)\4\)`, "g"), to: (all, head, t, n, r) => `${head}Math.max(0,${r}))`, count: 1 }, // LM
  { what: "$(…) capture given back (LM)", when: "relinquishOutput(", re: new RegExp(String.raw`let (${ID})=(await __shellOptions\.commandSubstitution\((${ID}),[^;]*?\)),(${ID})=\1\.exitCode;(?=${ID}\.state\.env=)`, "g"), to: (all, p, call, e, h, ...rest) => `let ${p}=__limits.releaseCaptured(${e}.executionScope,${call},${lmRelinquish(rest.at(-1))}),${h}=${p}.exitCode;`, count: 1 }, // LM
  { what: "$(…) exit capture given back (LM)", when: "relinquishOutput(", re: new RegExp(String.raw`if\((${ID}) instanceof (${ID})\)\{(${ID})\.state\.lastExitCode=__shellOptions\.subshellStatus\(\1\),`, "g"), to: (all, p, G, e, ...rest) => `if(${p} instanceof ${G}){__limits.releaseCaptured(${e}.executionScope,${p},${lmRelinquish(rest.at(-1))});${all.slice(all.indexOf("{") + 1)}`, count: 1 }, // LM
  { what: "$(…) in a string capture given back (LM)", when: "relinquishOutput(", re: new RegExp(String.raw`try\{let (${ID})=await (${ID})\.executeScript\((${ID})\),(${ID})=\1\.exitCode;return`, "g"), to: (all, c, e, r, u, ...rest) => `try{let ${c}=__limits.releaseCaptured(${e}.executionScope,await ${e}.executeScript(${r}),${lmRelinquish(rest.at(-1))}),${u}=${c}.exitCode;return`, count: 1 }, // LM
  { what: "<(…) capture given back (LM)", when: "relinquishOutput(", re: new RegExp(String.raw`let (${ID})=await (${ID})\((${ID}),(${ID})\.body,void 0\);if\(\1\.stderr&&`, "g"), to: (all, o, zc, e, t, ...rest) => `let ${o}=__limits.releaseCaptured(${e}.executionScope,await ${zc}(${e},${t}.body,void 0),${lmRelinquish(rest.at(-1))});if(${o}.stderr&&`, count: 1 }, // LM
  { what: "awk records are not iterations (LM)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`if\(this\.ctx\.recordsProcessed\+\+,this\.ctx\.recordsProcessed>this\.ctx\.maxIterations\)throw new ${ID}\(\`record limit exceeded \(\$\{this\.ctx\.maxIterations\}\)\`,"iterations"\);`, "g"), to: "this.ctx.recordsProcessed++;", count: 1 }, // LM
  { what: "join lines are not iterations (LM)", when: 'name:"join"', re: new RegExp(String.raw`=\(\)=>\{if\(\+\+(${ID})>${ID}\)throw new ${ID}\(\`join: iteration limit exceeded \(\$\{${ID}\}\)\`,"iterations"\)\}`, "g"), to: (all, S) => `=()=>{++${S}}`, count: 1 }, // LM
  { what: "seq numbers are not iterations (LM)", when: 'name:"seq"', re: new RegExp(String.raw`if\((${ID})>=(${ID})\)throw new ${ID}\(\`seq: iteration limit exceeded \(\$\{\2\}\)\`,"iterations"\);`, "g"), to: "", count: 1 }, // LM
  { what: "strings are not iterations (LM)", when: 'name:"strings"', re: new RegExp(String.raw`if\(\+\+(${ID})\.iterations>\1\.maxIterations\)throw new ${ID}\(\`strings: iteration limit exceeded \(\$\{\1\.maxIterations\}\)\`,"iterations"\);`, "g"), to: (all, n) => `++${n}.iterations;`, count: 1 }, // LM
]; // LM
SOURCE_PATCHES.push(...LM_PATCHES); // LM
/** // FX
 * FX (issue 20, run 29; helpers in isolate/find-exec.ts): find's `-exec` as GNU findutils 4.9. `-exec … \;` replaces every // FX
 * `{}` inside any argument (`-exec mv {} {}.bak \;` moved every file onto `./{}.bak`), its command's status is the test's // FX
 * value (true iff 0; find's status stays 0) with the expression evaluated per entry in order, -a/-o/! short-circuiting, // FX
 * when the actions run; `+` ends the command only after an argument holding `{}` (a lone last `{}`, GNU's messages // FX
 * otherwise); a failed `-exec … {} +` batch makes find exit 1; a `-prune` reached after an `-exec … \;` test is refused. // FX
 */ // FX
HELPER_NAMESPACES.push(["__fxFind", join(isolateDir, "find-exec.ts")]); // FX
const FX_WHEN = 'name:"find",async execute('; // FX
const FX_PATCHES = [ // FX
  { what: "find -exec parse (FX)", when: FX_WHEN, re: new RegExp(String.raw`if\((${ID})==="-exec"\)\{let (${ID})=\[\];for\((${ID})\+\+;\3<(${ID})\.length&&\4\[\3\]!==";"&&\4\[\3\]!=="\+";\)\2\.push\(\4\[\3\]\),\3\+\+;if\(\3>=\4\.length\)return\{expr:null,pathIndex:\3,error:"[^"]*"\};if\(\2\.length===0\)return ${ID}\("-exec"\);let (${ID})=\4\[\3\]==="\+";if\(\5&&\(\2\.at\(-1\)!=="\{\}"\|\|\2\.filter\(\(?(${ID})\)?=>\6==="\{\}"\)\.length!==1\)\)return ${ID}\("-exec","\+"\);`, "g"), to: (all, r, i, s, e, l) => // FX
    `if(${r}==="-exec"){let __fxP=__fxFind.parseExec(${e},${s}+1);if(__fxP.error!==void 0)return{expr:null,pathIndex:${s},error:__fxP.error};${s}=__fxP.end;let ${i}=__fxP.command,${l}=__fxP.batch;`, count: 1 }, // FX
  { what: "find -exec skipped before the expression (FX)", when: FX_WHEN, re: new RegExp(String.raw`if\((${ID})==="-exec"\)for\((${ID})\+\+;\2<(${ID})\.length&&\3\[\2\]!==";"&&\3\[\2\]!=="\+";\)\2\+\+;`, "g"), to: (all, f, c, e) => `if(${f}==="-exec")${c}=__fxFind.execEnd(${e},${c}+1);`, count: 1 }, // FX
  { what: "find -prune after an -exec test refused (FX)", when: FX_WHEN, re: new RegExp(String.raw`let\{expr:(${ID}),error:(${ID})\}=${ID}\(${ID},${ID}\);if\(\2\)return\{stdout:"",stderr:\2,exitCode:1\};`, "g"), to: (all, r) => `${all}{let __fxE=__fxFind.refusal(${r});if(__fxE!==null)return{stdout:"",stderr:__fxE,exitCode:1}}`, count: 1 }, // FX
  { what: "find entry with an -exec test evaluated later (FX)", when: FX_WHEN, re: new RegExp(String.raw`if\((${ID})\)(${ID})=(${ID})\((${ID}),(${ID})\.name,\5\.relativePath,\5\.isFile,\5\.isDirectory\);else\{let (${ID})=(\{name:\5\.name,[^}]*\});\2=(${ID})\(\4,\6\)\}((?:(?!function )[^])*?)(for\(let (${ID}) of (${ID})\)(${ID})\.push\(\{action:\11,path:\5\.relativePath,printfData:(${ID})\}\);return \13\})`, "g"), to: (all, xe, g, B, r, h, b, lit, z, mid, loop, m, S, y, M) => // FX
    `var __fxLeaf=(__fxX)=>${xe}?${B}(__fxX,${h}.name,${h}.relativePath,${h}.isFile,${h}.isDirectory):${z}(__fxX,${lit});if(${xe})${g}=${B}(${r},${h}.name,${h}.relativePath,${h}.isFile,${h}.isDirectory);else{let ${b}=${lit};${g}=${z}(${r},${b})}${mid}if(__fxFind.hasExecTest(${r}))return[{fxEval:!0,expr:${r},test:__fxLeaf,path:${h}.relativePath,printfData:${M}}];${loop}`, count: 1 }, // FX
  { what: "find actions run per entry, -exec status kept (FX)", when: FX_WHEN, re: new RegExp(String.raw`let (${ID})=new Map;for\(let (${ID}) of (${ID})\)\{let\{action:(${ID}),path:(${ID})\}=\2;switch\(\4\.type\)\{((?:(?!function )[^])*?)(${ID})\.exitCode!==0&&\((${ID})=\7\.exitCode\);break\}\}\}for\(let\[`, "g"), to: (all, ne, c, I, f, d, mid, x) => // FX
    `let ${ne}=new Map,__fxRun=async(${c})=>{let{action:${f},path:${d}}=${c};switch(${f}.type){${mid}${c}.fxStatus=${x}.exitCode;break}}};for(let ${c} of ${I}){let __fxR=${c}.fxEval?await __fxFind.evaluate(${c},__fxRun):await __fxRun(${c});if(__fxR!==void 0)return __fxR}for(let[`, count: 1 }, // FX
  { what: "find -exec {} inside an argument (FX)", when: FX_WHEN, re: new RegExp(String.raw`\.command\.map\(\(?(${ID})\)?=>\1==="\{\}"\?(${ID}):\1\)`, "g"), to: (all, R, d) => `.command.map(${R}=>${R}.replaceAll("{}",()=>${d}))`, count: 1 }, // FX
  { what: "find -exec + batch failure exits 1 (FX)", when: FX_WHEN, re: new RegExp(String.raw`(${ID})\.exitCode!==0&&\((${ID})=\1\.exitCode\)\}return (${ID})\?\.build\(\2\)`, "g"), to: (all, D, N, P) => `${D}.exitCode!==0&&(${N}=1)}return ${P}?.build(${N})`, count: 1 }, // FX
]; // FX
SOURCE_PATCHES.push(...FX_PATCHES); // FX
/** // SO
 * SO (issue 20, run 28; helper in isolate/sort-keys.ts): a sort key with any ordering option of its own (`-k2n`, // SO
 * `-k1,1f`, `-k2r`) ignores all the global ones (`sort -k2n -r` is ascending), a key with none inherits them all, // SO
 * global `-b` included, as GNU sort 9.1; global `-b` no longer strips the line before keys are found. // SO
 */ // SO
HELPER_NAMESPACES.push(["__sortKeys", join(isolateDir, "sort-keys.ts")]); // SO
const SO_PATCHES = [ // SO
  { what: "sort keys inherit global options only without their own (SO)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`(function ${ID}\((${ID})\)\{let\{keys:(${ID}),fieldDelimiter:${ID},numeric:${ID},ignoreCase:${ID},reverse:${ID},humanNumeric:${ID},versionSort:${ID},dictionaryOrder:${ID},monthSort:${ID},ignoreLeadingBlanks:(${ID}),stable:${ID}\}=\2;)(return\((${ID}),(${ID})\)=>\{let (${ID})=\6,(${ID})=\7;if\()\4&&\(\8=\8\.trimStart\(\),\9=\9\.trimStart\(\)\),\3\.length===0\)`, "g"), to: (all, head, u, r, t, ret, f, C, g, b) => `${head}${r}=__sortKeys.resolveKeys(${r},${u});${ret}${t}&&${r}.length===0&&(${g}=${g}.trimStart(),${b}=${b}.trimStart()),${r}.length===0)`, count: 1 }, // SO
]; // SO
SOURCE_PATCHES.push(...SO_PATCHES); // SO
/** // AX
 * AX (issue 20, run 29; helpers in isolate/arith-subst.ts): a `$( … )` or backquotes inside arithmetic (`$(( ))`, // AX
 * `(( ))`, `$[ ]`, `for (( ))`, `${s:…}`, subscripts) is parsed by just-bash's own substitution parser and run as a // AX
 * `$( … )` in a word (a subshell of the running shell: its variables, functions, cwd; `$?` set), not by a new shell // AX
 * of the Bash object that had none of them; `$(( ))`, `(( ))` and `for (( ))` text is substituted before it is // AX
 * evaluated, as bash (`$(( $(echo 1 + 2) * 3 ))` is 7). // AX
 */ // AX
HELPER_NAMESPACES.push(["__arithSubst", join(isolateDir, "arith-subst.ts")]); // AX
/** AX: the names of just-bash's Parser class, word-part expander, `$(( ))` text expander and arithmetic parser in bundle text `text`. */ // AX
function axNames(text) { // AX
  const arith = [...text.matchAll(new RegExp(String.raw`let (${ID})=await (${ID})\((${ID}),(${ID})\),(${ID})=new (${ID}),(${ID})=(${ID})\(\5,\1\);return String\(await`, "g"))]; // AX
  const part = [...text.matchAll(new RegExp(String.raw`async function (${ID})\(${ID},(${ID}),${ID}=!1\)\{if\(\2\.type==="ParameterExpansion"\)return `, "g"))]; // AX
  if (arith.length !== 1 || part.length !== 1) throw new Error(`gen-shell: just-bash's $(( )) expansion or word-part expander not found once (${arith.length}, ${part.length}; AX)`); // AX
  return { expandText: arith[0][2], Parser: arith[0][6], parseArith: arith[0][8], expandPart: part[0][1] }; // AX
} // AX
const AX_WHEN = '"ArithCommandSubst"'; // AX
const AX_PATCHES = [ // AX
  { what: "arithmetic $( ) parsed as in a word (AX)", when: AX_WHEN, re: new RegExp(String.raw`(function ${ID}\((${ID}),(${ID}),${ID},${ID}=!1\)\{let (${ID})=${ID}\(\3,${ID}\),(?:(?!function )[^])*?)(if\(\3\.slice\(\4,\4\+2\)==="\$\("&&\3\[\4\+2\]!=="\("\)\{\4\+=2;)`, "g"), to: (all, head, p, t, s, cond) => `${head}{let __c=__arithSubst.scan(${p},${t},${s});if(__c)return{expr:__c.expr,pos:__c.end}}${cond}`, count: 1 }, // AX
  { what: "arithmetic $( ) run in the shell (AX)", when: AX_WHEN, re: new RegExp(String.raw`(${ID})\.execFn\((${ID})\.command,\{signal:\1\.state\.signal\}\)`, "g"), to: (all, e, t, ...rest) => { const n = axNames(rest.at(-1)); return `__arithSubst.run(${e},${t},${n.Parser},${n.expandPart})`; }, count: 2 }, // AX
  { what: "subscript $( ) run in the shell (AX)", when: AX_WHEN, re: new RegExp(String.raw`(let (${ID})=${ID}\.slice\(${ID}\+([12]),${ID}(?:-1)?\);if\((${ID})\.execFn\)\{let ${ID}=await )\4\.execFn\(\2,\{signal:\4\.state\.signal\}\)`, "g"), to: (all, head, c, k, e, ...rest) => { const n = axNames(rest.at(-1)); return `${head}__arithSubst.run(${e},${c},${n.Parser},${n.expandPart},${k === "1" ? "!0" : "!1"})`; }, count: 2 }, // AX
  { what: "$(( )) text expands $( ) and backquotes (AX)", when: AX_WHEN, re: new RegExp(String.raw`(async function (${ID})\((${ID}),(${ID})\)\{let (${ID})="",(${ID})=0;for\(;\6<\4\.length;\)\{)(if\(\4\[\6\]==="\$"\)\{if\(\4\[\6\+1\]==="\{"\)\{let ${ID}=1,)`, "g"), to: (all, head, bl, e, t, n, r, tail, ...rest) => { const x = axNames(rest.at(-1)); return `${head}{let __s=await __arithSubst.expandAt(${e},${t},${r},${x.Parser},${x.expandPart});if(__s!==null){${n}+=__s.text;${r}=__s.end;continue}}${tail}`; }, count: 1 }, // AX
  { what: "$(( )) with $( ) substituted first (AX)", when: AX_WHEN, re: new RegExp(String.raw`if\((${ID})&&(/\\\$\[a-zA-Z_\]\[a-zA-Z0-9_\]\*\(\?!\[\{\[\(\]\)/\.test\(\1\))\)\{let (${ID})=await`, "g"), to: (all, s, test, o) => `if(${s}&&(${test}||__arithSubst.hasSubstitution(${s}))){let ${o}=await`, count: 1 }, // AX
  { what: "(( )) with $( ) substituted first (AX)", when: AX_WHEN, re: new RegExp(String.raw`(async executeArithmeticCommand\((${ID})\)\{(?:(?!async )[^])*?let (${ID})=await )(${ID})\(this\.ctx,\2\.expression\.expression\)`, "g"), to: (all, head, t, v, y, ...rest) => { const n = axNames(rest.at(-1)); return `${head}__arithSubst.evaluate(this.ctx,${t}.expression,__x=>${y}(this.ctx,__x),${n.expandText},${n.Parser},${n.parseArith})`; }, count: 1 }, // AX
  { what: "for (( )) with $( ) substituted first (AX)", when: AX_WHEN, re: new RegExp(String.raw`await (${ID})\((${ID}),(${ID})\.(init|condition|update)\.expression\)`, "g"), to: (all, y, e, t, k, ...rest) => { const n = axNames(rest.at(-1)); return `await __arithSubst.evaluate(${e},${t}.${k},__x=>${y}(${e},__x),${n.expandText},${n.Parser},${n.parseArith})`; }, count: 4 }, // AX
]; // AX
SOURCE_PATCHES.push(...AX_PATCHES); // AX
/** // CZ
 * CZ (issue 20, run 29; helpers in isolate/lookup-date-gzip.ts): commands the shell cannot run (worker.ts passes them as // CZ
 * `unavailableCommands`, neither registered nor in /usr/bin) answer their message, status 127, when the PATH lookup finds // CZ
 * nothing, so `command -v`/`type`/`which`/`hash` do not find them; `date -d` refuses out-of-range fields (`2024-02-30`, // CZ
 * `24:00`) as GNU date; gzip/gunzip/zcat read suffixes as GNU gzip 1.12 (`.tgz`/`.taz` → `.tar`, `.z`, `-gz`, `_z`, `.Z`, // CZ
 * any case; none needed with -c), warn `unknown suffix` with status 2, `already has` with status 0, -f recompresses. // CZ
 */ // CZ
HELPER_NAMESPACES.push(["__lookupDateGzip", join(isolateDir, "lookup-date-gzip.ts")]); // CZ
const CZ_GZIP_HEAD = String.raw`(async function ${ID}\((${ID}),(${ID}),(${ID}),(${ID}),(${ID}),(${ID})\)\{let (${ID})=\4\.suffix,(?:(?!function )[^])*?)`; // CZ
const CZ_PATCHES = [ // CZ
  { what: "unavailable commands remembered (CZ)", when: "registerCommandInternal(", re: new RegExp(String.raw`if\((${ID})\.customCommands\)for\(let (${ID}) of \1\.customCommands\)`, "g"), to: (all, t) => `__lookupDateGzip.registerUnavailable(this.commands,${t}.unavailableCommands);${all}`, count: 1 }, // CZ
  { what: "unavailable command answers its message (CZ)", when: "registerCommandInternal(", re: new RegExp(String.raw`(=await ${ID}\((${ID}),(${ID}),${ID}\?"/usr/bin:/bin":void 0\);)(if\(!(${ID})\)return )`, "g"), to: (all, head, ctx, name, tail, found) => `${head}if(!${found}){let __czU=__lookupDateGzip.unavailableCommand(${ctx}.commands,${name});if(__czU!==null)return __czU}${tail}`, count: 1 }, // CZ
  { what: "command -v/-V find a script in PATH (CZ)", when: "registerCommandInternal(", re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),(${ID}),(${ID})\)\{let (${ID})="",(${ID})="",(${ID})=0;for\(let (${ID}) of \3\)\{(?:(?!function )[^])*?)(\}else \5&&\(\7\+=\`\$\{\9\}: not found\n\`\),\8=1\}return ${ID}\(\6,\7,\8\)\}async function (${ID})\()`, "g"), to: (all, head, e, t, n, r, s, i, o, a, tail, uf) => // CZ
    `${head}}else if(await ${uf}(${e},${a})!==null){let __czPath=await ${uf}(${e},${a});${r}?${s}+=\`\${${a}} is \${__czPath}\n\`:${s}+=\`\${__czPath}\n\`${tail}`, count: 1 }, // CZ: as `type`, not only registered commands
  { what: "date -d fields in range (CZ)", when: 'name:"date",async execute(', re: new RegExp(String.raw`(${ID})=(${ID})!==null\?(${ID})\(\2,(${ID})\):new Date;`, "g"), to: (all, p, t, parse, tz) => `${p}=${t}!==null?(__lookupDateGzip.dateFieldsValid(${t})?__lookupDateGzip.validTime(${parse}(${t},${tz})):null):new Date;`, count: 1 }, // CZ
  { what: "date -d local time that does not exist (CZ)", when: 'name:"date",async execute(', re: new RegExp(String.raw`if\((${ID})===0\)return (${ID});\2=new Date\(\2\.getTime\(\)-\1\)\}return \2\}catch\{return null\}`, "g"), to: (all) => all.replace(/return ([\w$]+)\}catch\{return null\}$/, "return new Date(NaN)}catch{return null}"), count: 1 }, // CZ: a time in a DST gap never reads back
  { what: "gzip -d suffix (CZ)", when: '{name:"gzip",summary:', re: new RegExp(CZ_GZIP_HEAD + String.raw`if\(!\3\.endsWith\(\8\)\)return \4\.quiet\?\{stdout:"",stderr:"",exitCode:1\}:\{stdout:"",stderr:\`\$\{\5\}: \$\{\3\}: unknown suffix -- ignored\n\`,exitCode:1\};`, "g"), to: (all, head, e, t, o, r, i, n, s) => `${head}if(!${n}&&__lookupDateGzip.gzipSuffix(${t},${s})===null)return __lookupDateGzip.gzipUnknownSuffix(${r},${t},${o});`, count: 1 }, // CZ
  { what: "gzip -d output name (CZ)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`(${ID})=(${ID})\.slice\(0,-(${ID})\.length\)`, "g"), to: (all, u, a, s) => `${u}=__lookupDateGzip.gzipDecompressedName(${a},${s})`, count: 2 }, // CZ
  { what: "gzip already has a suffix (CZ)", when: '{name:"gzip",summary:', re: new RegExp(CZ_GZIP_HEAD + String.raw`if\(\3\.endsWith\(\8\)\)return \4\.quiet\?\{stdout:"",stderr:"",exitCode:1\}:\{stdout:"",stderr:\`\$\{\5\}: \$\{\3\} already has \$\{\8\} suffix -- unchanged\n\`,exitCode:1\};`, "g"), to: (all, head, e, t, o, r, i, n, s) => `${head}{let __czSuffix=${n}||${o}.force?null:__lookupDateGzip.gzipSuffix(${t},${s});if(__czSuffix!==null)return __lookupDateGzip.gzipHasSuffix(${r},${t},__czSuffix,${o})}`, count: 1 }, // CZ
  { what: "gzip -r leaves suffixes to each file (CZ)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`let (${ID})=(${ID})\.suffix;if\((${ID})&&!(${ID})\.path\.endsWith\(\1\)\|\|!\3&&\4\.path\.endsWith\(\1\)\)return;`, "g"), to: (all, y, o) => `let ${y}=${o}.suffix;`, count: 1 }, // CZ
  { what: "gzip -S invalid suffix (CZ)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),(${ID})\)\{let ${ID}=\4==="zcat"\?(?:(?!function )[^])*?)if\((${ID})\.list\)\{`, "g"), to: (all, head, e, t, o, n) => `${head}{let __czInvalid=__lookupDateGzip.gzipInvalidSuffix(${o},${n}.suffix);if(__czInvalid!==null)return __czInvalid}if(${n}.list){`, count: 1 }, // CZ
  { what: "gzip -l name (CZ)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),(${ID}),(${ID})\)\{(?:(?!function )[^])*?)\(\3==="-"\?"":\3\.replace\(/\\\.gz\$/,""\)\)`, "g"), to: (all, head, e, t, o) => `${head}(${t}==="-"?"":__lookupDateGzip.gzipDecompressedName(${t},${o}.suffix)??${t})`, count: 1 }, // CZ
  { what: "gzip status over files (CZ)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`(${ID})\.exitCode!==0&&\((${ID})=\1\.exitCode\)`, "g"), to: (all, l, y) => `(${y}=__lookupDateGzip.gzipStatus(${y},${l}.exitCode))`, count: 4 }, // CZ
]; // CZ
SOURCE_PATCHES.push(...CZ_PATCHES); // CZ
/** // DP
 * DP (issue 20, run 29; helpers in isolate/deep-walks.ts): the shell's tree walks go as deep as a Workspace path can // DP
 * (worker.ts sets just-bash's maxTraversalDepth to MAX_WALK_DEPTH, 5,793). grep -r/-R (and its `**` operands) stopped // DP
 * 256 directories down and rg (maxDepth 256 by default) too, find left out what lay below maxTraversalDepth, all // DP
 * without a word; now grep fails loudly past the bound, rg has no default depth and find lets just-bash's traversal // DP
 * budget refuse the walk past it (`find: filesystem traversal depth limit exceeded (5793)`, 126), as du does. // DP
 */ // DP
HELPER_NAMESPACES.push(["__deepWalks", join(isolateDir, "deep-walks.ts")]); // DP
const DP_GREP_WHEN = 'name:"grep",async execute('; // DP
/** DP: the name of the limit error grep's chunk throws (`throw new A(\`grep: glob operation limit exceeded …`). */ // DP
function dpGrepLimitError(text) { // DP
  const found = [...text.matchAll(new RegExp(String.raw`throw new (${ID})\(\`grep: glob operation limit exceeded`, "g"))]; // DP
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's grep limit error not found once (${found.length}; DP)`); // DP
  return found[0][1]; // DP
} // DP
const DP_PATCHES = [ // DP
  { what: "grep ** operand walk depth (DP)", when: DP_GREP_WHEN, re: new RegExp(String.raw`(${ID})=256;async function (${ID})\((${ID}),(${ID}),(${ID}),(${ID}),(${ID}),(${ID})=0\)\{if\(\8>=\1\)return;`, "g"), to: (all, ge, ye, t, e, i, g, f, h, ...rest) => // DP
    `${ge}=1/0;async function ${ye}(${t},${e},${i},${g},${f},${h}=0){if(${h}>${i}.limits.maxTraversalDepth)throw __deepWalks.depthExceeded("grep",${i}.limits.maxTraversalDepth,${dpGrepLimitError(rest.at(-1))});`, count: 1 }, // DP
  { what: "grep -r walk depth (DP)", when: DP_GREP_WHEN, re: new RegExp(String.raw`(${ID})=0\)\{if\(\1>=(${ID})\)return (${ID});let (${ID})=(${ID})\.fs\.resolvePath\(\5\.cwd,`, "g"), to: (all, a, ge, u, l, e, ...rest) => // DP
    `${a}=0){if(${a}>${e}.limits.maxTraversalDepth)throw __deepWalks.depthExceeded("grep",${e}.limits.maxTraversalDepth,${dpGrepLimitError(rest.at(-1))});let ${l}=${e}.fs.resolvePath(${e}.cwd,`, count: 1 }, // DP
  { what: "rg has no default depth (DP)", when: "ignoreFiles:[],maxDepth:256,", re: /ignoreFiles:\[\],maxDepth:256,/g, to: "ignoreFiles:[],maxDepth:1/0,", count: 1 }, // DP
  { what: "find walks to the traversal budget (DP)", when: 'site:"find"', re: new RegExp(String.raw`\?\?(${ID})\.limits\.maxTraversalDepth\)`, "g"), to: "??1/0)", count: 2 }, // DP
]; // DP
SOURCE_PATCHES.push(...DP_PATCHES); // DP
/** // SB
 * SB (issue 20, run 29; helpers in isolate/sed-bracket.ts): sed's bracket expressions as POSIX / GNU sed 4.9 — inside // SB
 * `[...]` a backslash is a member and the delimiter does not end the regex (`s/[&/\]/\\&/g` failed "unterminated // SB
 * substitution pattern"), `[]…]`, `[^]…]`, `[:class:]`, `[.c.]`, `[=c=]` are read whole; each bracket becomes a // SB
 * JavaScript class with escaped members (`[\.]` matched only `.`, `[\w]` any word character); `\%re%` addresses; an // SB
 * address regex under -E is an ERE. // SB
 */ // SB
HELPER_NAMESPACES.push(["__sedBracket", join(isolateDir, "sed-bracket.ts")]); // SB
const SB_WHEN = 'name:"sed",async execute('; // SB
const SB_PATCHES = [ // SB
  { what: "sed s regex scan (SB)", when: SB_WHEN, re: new RegExp(String.raw`let (${ID})="",(${ID})=!1;for\(;this\.pos<this\.input\.length;\)\{let (${ID})=this\.peek\(\);if\(\3===(${ID})&&!\2\)break;(?:(?!readTransliterate)[^])*?(?=if\(this\.peek\(\)!==\4\)return\{type:${ID}\.ERROR,value:"unterminated substitution pattern")`, "g"), to: (all, s, a, o, n) => `let ${s}=__sedBracket.scan(this,${n}),${a}=!1;`, count: 1 }, // SB
  { what: "sed address regex scan (SB)", when: SB_WHEN, re: new RegExp(String.raw`readPattern\(\)\{let (${ID})=this\.line,(${ID})=this\.column;this\.advance\(\);let (${ID})="",(${ID})=!1;for\(;this\.pos<this\.input\.length;\)\{(?:(?!readLabelDef)[^])*?\}\}return this\.peek\(\)==="\/"&&this\.advance\(\),`, "g"), to: (all, e, t, n, s) => `readPattern(){let ${e}=this.line,${t}=this.column,__d=this.advance();__d==="\\\\"&&(__d=this.advance());let ${n}=__sedBracket.scan(this,__d),${s}=!1;return this.peek()===__d&&this.advance(),`, count: 1 }, // SB
  { what: "sed \\%re% address (SB)", when: SB_WHEN, re: new RegExp(String.raw`(${ID})==="\/"\?this\.readPattern\(\)`, "g"), to: (all, n) => `${n}==="/"||__sedBracket.customAddress(this)?this.readPattern()`, count: 1 }, // SB
  { what: "sed address -E kept (SB)", when: SB_WHEN, re: new RegExp(String.raw`(case ${ID}\.PATTERN:return this\.advance\(\),\{pattern:__escapes\.sedPattern\((${ID})\.pattern\|\|\2\.value\),flags:\2\.addressFlags\|\|"")\};`, "g"), to: (all, head) => `${head},extendedRegex:this.extendedRegex};`, count: 1 }, // SB
  { what: "sed address regex (SB)", when: SB_WHEN, re: new RegExp(String.raw`(if\(typeof (${ID})=="object"&&"pattern"in \2\)try\{(?:(?!catch)[^])*?let (${ID})=)(${ID})\((${ID})\((${ID})\)\);`, "g"), to: (all, head, i, r, X, V, a) => `${head}__sedBracket.regex(${a},${i}.extendedRegex,${V},${X});`, count: 1 }, // SB
  { what: "sed s regex (SB)", when: SB_WHEN, re: new RegExp(String.raw`let (${ID})=(${ID})\((${ID})\.extendedRegex\?(${ID}):(${ID})\(\4\)\);`, "g"), to: (all, h, X, r, o, V) => `let ${h}=__sedBracket.regex(${o},${r}.extendedRegex,${V},${X});`, count: 1 }, // SB
]; // SB
SOURCE_PATCHES.push(...SB_PATCHES); // SB
/** // LT
 * LT (issue 20, run 29; helpers in isolate/ls-sort.ts): ls's sort order as GNU coreutils 9.1 — `-t` newest first and // LT
 * `-S` largest first (ties by name) for a directory's entries, for the file and directory operands (`ls -t *.log` was // LT
 * by name) and for a quoted glob's matches; `-r` reverses the whole order; `-R` recurses in the listing's order. // LT
 */ // LT
HELPER_NAMESPACES.push(["__lsSort", join(isolateDir, "ls-sort.ts")]); // LT
const LT_WHEN = 'name:"ls",async execute('; // LT
const LT_PATCHES = [ // LT
  { what: "ls operands sorted (LT)", when: LT_WHEN, re: new RegExp(String.raw`let __lsDirs=await __textOutput\.lsOperandOrder\((${ID})\.fs,\1\.cwd,(${ID}),(${ID})\.result\.flags\);`, "g"), to: (all, t, h, r) => `${all}let __lsKey=__lsSort.key(${r}.result.flags);__lsDirs=await __lsSort.operands(${t}.fs,${t}.cwd,${h},__lsDirs,${r}.result.flags);`, count: 1 }, // LT
  { what: "ls directory key (LT)", when: LT_WHEN, re: new RegExp(String.raw`(await ${ID}\((?:${ID},){6}${ID}\.length>1,${ID},${ID},)${ID}(,${ID},!1,${ID},0,new Set\))`, "g"), to: (all, head, tail) => `${head}__lsKey${tail}`, count: 1 }, // LT
  { what: "ls glob key (LT)", when: LT_WHEN, re: new RegExp(String.raw`(await ${ID}\((?:${ID},){7})${ID}(,${ID},${ID}\);${ID}=${ID}\(${ID},${ID},${ID}\.stdout\))`, "g"), to: (all, head, tail) => `${head}__lsKey${tail}`, count: 1 }, // LT
  { what: "ls entries sorted (LT)", when: LT_WHEN, re: new RegExp(String.raw`if\((${ID})\.checkpoint\(\),(${ID})\|\|\((${ID})=\3\.filter\((${ID})=>!\4\.startsWith\("\."\)\)\),(${ID})\)\{let ${ID}=\[\];for\(let ${ID} of \3\)\{let ${ID}=(${ID})==="/"\?(?:(?!function )[^])*?await (${ID})\.fs\.stat\((?:(?!function )[^])*?\}else \3\.sort\(\);`, "g"), to: (all, A, f, a, d, W, i, t) => `${A}.checkpoint(),${f}||(${a}=${a}.filter(${d}=>!${d}.startsWith("."))),${a}=await __lsSort.entries(${t}.fs,${i},${a},${W});`, count: 1 }, // LT
  { what: "ls glob matches sorted (LT)", when: LT_WHEN, re: new RegExp(String.raw`if\((${ID})\)\{let ${ID}=\[\];for\(let (${ID}) of (${ID})\)\{let ${ID}=(${ID})\.fs\.resolvePath\(\4\.cwd,\2\);(?:(?!function )[^])*?\}else \3\.sort\(\);`, "g"), to: (all, C, f, h, t) => `${h}.splice(0,${h}.length,...await __lsSort.paths(${t}.fs,${t}.cwd,${h},${C}));`, count: 1 }, // LT
  { what: "ls -R order (LT)", when: LT_WHEN, re: new RegExp(String.raw`(let (${ID})=(${ID})\.filter\((${ID})=>\4!=="\."&&\4!=="\.\."\),(${ID})=\[\];(?:(?!function )[^])*?)\5\.sort\(\((${ID}),(${ID})\)=>\6\.name\.localeCompare\(\7\.name\)\),(${ID})&&\5\.reverse\(\);((?:(?!function )[^])*?)(${ID})\.sort\(\((${ID}),(${ID})\)=>\11\.name\.localeCompare\(\12\.name\)\),\8&&\10\.reverse\(\);`, "g"), to: (all, head, d, a, e, l, x, y, C, mid, m) => `${head}__lsSort.byOrder(${l},${d});${mid}__lsSort.byOrder(${m},${d});`, count: 1 }, // LT
]; // LT
SOURCE_PATCHES.push(...LT_PATCHES); // LT
/** // FL
 * FL (issue 20, run 34, fixer FL; helpers in isolate/fnmatch.ts): the shell patterns of find -name/-iname/-path/-ipath // FL
 * and grep --include/--exclude/--exclude-dir as glibc fnmatch(3) (GNU findutils 4.9, grep 3.8): `\x` is the character // FL
 * x (`-name '\[id\]'` finds `[id]` instead of failing "Invalid regular expression"; `-name 'a\*b'` finds `a*b`), a `[` // FL
 * with no closing `]` is literal, a trailing lone `\` matches nothing; find takes -wholename/-iwholename (-path/-ipath). // FL
 */ // FL
HELPER_NAMESPACES.push(["__fnmatch", join(isolateDir, "fnmatch.ts")]); // FL
HELPER_NAMESPACES.push(["__lsOutput", join(isolateDir, "ls-output.ts")]); // FL
const FL_PATCHES = [ // FL
  // Runs after "find/grep glob matches a newline" and "find/grep glob [!x]" above, which patch the same converter. // FL
  { what: "find/grep glob as fnmatch (FL)", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{let (${ID})="\^";for\(let (${ID})=0;\5<\2\.length;\5\+\+\)\{(?:(?!function )[^])*?return \4\+="\$",(${ID})\(\4,\3\?"is":"s"\)\}`, "g"), to: (all, f, l, c, t, s, r) => `function ${f}(${l},${c}){return ${r}(__fnmatch.globRegex(${l}),${c}?"is":"s")}`, count: 1 }, // FL
  { what: "find -wholename/-iwholename (FL)", when: 'name:"find",async execute(', re: new RegExp(String.raw`else if\((${ID})==="(-i?)path"\)\{`, "g"), to: (all, r, i) => `else if(${r}==="${i}path"||${r}==="${i}wholename"){`, count: 2 }, // FL
  // ls -l of n entries was O(n²): each line's append measured the whole output so far (isolate/ls-output.ts). // FL
  { what: "ls output appended in linear time (FL)", when: 'name:"ls",async execute(', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{if\((${ID})\(\4\)>\2\.limits\.maxOutputSize-\5\(\3\)\)(throw new ${ID}\(\`ls: output size limit exceeded \(\$\{\2\.limits\.maxOutputSize\} bytes\)\`,"output_size"\));return \3\+\4\}`, "g"), to: (all, g, s, t, r, n, thr) => `function ${g}(${s},${t},${r}){return __lsOutput.append(${t},${r},${s}.limits.maxOutputSize,${n},()=>{${thr}})}`, count: 1 }, // FL
  // case: an unquoted pattern's `\*`, `\?`, `\[` were unescaped before matching (`case axb in a\*b)` matched); expand it // FL
  // as [[ == ]] expands its right side, quoting and escapes kept for the matcher, as bash. // FL
  { what: "case pattern keeps its escapes (FL)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`let (${ID})=await (${ID})\((${ID}),(${ID})\);(${ID})\(\4\)&&\(\1=(${ID})\(\1\)\);(?=let ${ID}=\3\.state\.shoptOptions\.nocasematch)`, "g"), to: (all, u, se, e, c, gc, je, ...rest) => { // FL
    const found = [...rest.at(-1).matchAll(new RegExp(String.raw`async function (${ID})\((${ID}),(${ID})\)\{let (${ID})=\[\];for\(let (${ID}) of \3\.parts\)if\(\5\.type==="Escaped"\)\{let ${ID}=\5\.value;"\(\)\|\*\?\[\]"\.includes`, "g"))]; // FL
    if (found.length !== 1) throw new Error(`gen-shell: just-bash's pattern word expander found ${found.length} times, expected 1 (FL)`); // FL
    return `let ${u}=${gc}(${c})?${je}(await ${se}(${e},${c})):await ${found[0][1]}(${e},${c});`; // FL
  }, count: 1 }, // FL
  // The pattern expander of case and [[ == ]] kept `\\` as a lone `\` (which then escaped the next character). // FL
  { what: "pattern word keeps an escaped backslash (FL)", when: "async executeSimpleCommand(", re: /if\(([\w$]+)\.type==="Escaped"\)\{let ([\w$]+)=\1\.value;"\(\)\|\*\?\[\]"\.includes\(\2\)/g, to: (all, r, v) => `if(${r}.type==="Escaped"){let ${v}=${r}.value;"()|*?[]\\\\".includes(${v})`, count: 1 }, // FL
  // ls -R: which entries are directories was a list lookup per entry (O(entries × subdirectories)). // FL
  { what: "ls -R subdirectories looked up in a set (FL)", when: 'name:"ls",async execute(', re: new RegExp(String.raw`\.filter\(\(?(${ID})\)?=>\1\.isDirectory&&(${ID})\.includes\(\1\.name\)\)`, "g"), to: (all, n, d) => `.filter(((__d)=>(${n})=>${n}.isDirectory&&__d.has(${n}.name))(new Set(${d})))`, count: 1 }, // FL
]; // FL
SOURCE_PATCHES.push(...FL_PATCHES); // FL

/** // AE
 * AE (issue 20, run 30; helpers in isolate/arith-subst.ts, AX's): a `${ … }` in arithmetic (`$(( ))`, `(( ))`, // AE
 * `for (( ))`, `$[ ]`, `${s:…}` offsets, subscripts) is expanded by just-bash's word expander — operators, array // AE
 * elements, `${#…}`, `:=`, `:?`, `set -u` — not by a hand-written reader that looked `name[sub]` up as one variable // AE
 * (`$(( ${count[$k]:-0} + 1 ))` was 1); `$(( ))` and `(( ))` text with one is expanded before it is evaluated, as // AE
 * bash. `[[ ]]` and `(( ))` let an error that ends the shell (`set -u`, `${x:?}`: ExitError) go on up instead of // AE
 * printing `conditional expression: exit` and going on. // AE
 */ // AE
const AE_PATCHES = [ // AE
  { what: "arithmetic ${ } by the word expander (AE)", when: AX_WHEN, re: new RegExp(String.raw`async function (${ID})\((${ID}),(${ID})\)\{(if\(\3\.startsWith\("#"\)\)\{let ${ID}=\3\.slice\(1\),${ID}=${ID}\.match\()`, "g"), to: (all, us, e, t, tail, ...rest) => { const n = axNames(rest.at(-1)); return `async function ${us}(${e},${t}){return __arithSubst.braced(${e},${t},${n.Parser},${n.expandPart})}async function __aeHandBraced(${e},${t}){${tail}`; }, count: 1 }, // AE
  { what: "subscript ${ } by the word expander (AE)", when: AX_WHEN, re: new RegExp(String.raw`(let (${ID})=(${ID})\.slice\((${ID})\+2,(${ID})-1\),(${ID})=await )${ID}\((${ID}),\2\)(;(${ID})\+=\6,\4=\5\})`, "g"), to: (all, head, c, n, o, l, u, e, tail, ...rest) => { const x = axNames(rest.at(-1)); return `${head}__arithSubst.braced(${e},${c},${x.Parser},${x.expandPart})${tail}`; }, count: 1 }, // AE
  { what: "[[ ]] lets a shell-ending error through (AE)", when: AX_WHEN, re: new RegExp(String.raw`(async executeConditionalCommand\(${ID}\)\{(?:(?!async )[^])*?\}catch\((${ID})\)\{)(?=let ${ID}=\2 instanceof ${ID}\?1:2;)`, "g"), to: (all, head, n, ...rest) => `${head}if(${n} instanceof ${exitErrorOf(rest.at(-1))})throw ${n};`, count: 1 }, // AE
  { what: "(( )) lets a shell-ending error through (AE)", when: AX_WHEN, re: new RegExp(String.raw`(async executeArithmeticCommand\(${ID}\)\{(?:(?!async )[^])*?\}catch\((${ID})\)\{)(?=return ${ID}\(\`bash: arithmetic expression: )`, "g"), to: (all, head, n, ...rest) => `${head}if(${n} instanceof ${exitErrorOf(rest.at(-1))})throw ${n};`, count: 1 }, // AE
  { what: "${s:off:len} colon past a ${ } (AE)", when: AX_WHEN, re: new RegExp(String.raw`if\((${ID})==="\("\|\|\1==="\["\)(${ID})\+\+;else if\(\1==="\)"\|\|\1==="\]"\)\2--;(?=else if\(\1==="\?"&&\2===0\))`, "g"), to: (all, b, d) => `if(${b}==="("||${b}==="["||${b}==="{")${d}++;else if(${b}===")"||${b}==="]"||${b}==="}")${d}--;`, count: 1 }, // AE: ${s:${i:-1}:1} was cut at ${i
  { what: "${m[key]:=v} of an assoc array (AE)", when: AX_WHEN, re: new RegExp(String.raw`(let (${ID})=await ${ID}\((${ID}),${ID}\.word\.parts,${ID}\.inDoubleQuotes\),(${ID})=(${ID})\.match\(/\^\(\[a-zA-Z_\]\[a-zA-Z0-9_\]\*\)\\\[\(\.\+\)\\\]\$/\);if\(\4\)\{let\[,(${ID}),(${ID})\]=\4,(${ID});)if\(/\^\\d\+\$/\.test\(\7\)\)`, "g"), to: (all, head, o, e, a, t, l, c, u) => `${head}if(${e}.state.associativeArrays?.has(${l}))${u}=${c};else if(/^\\d+$/.test(${c}))`, count: 1 }, // AE: the key was read as an arithmetic index (m[0])
]; // AE
SOURCE_PATCHES.push(...AE_PATCHES); // AE
/** // DH
 * DH (issue 20, run 30; helpers in isolate/date-sort-h.ts): date's output formats as GNU coreutils 9.1 — `-I` / // DH
 * `--iso-8601` alone is the date, `=hours|minutes|seconds|ns` (and `-Iseconds`…), `--rfc-3339=date|seconds|ns`, a // DH
 * second output format refused; strftime (date, printf's `%(…)T`) reads GNU's `%[-_0^#+]*[width][E|O]X` (`%-d`, // DH
 * `%_d`, `%4Y`, `%^a`, `%#b`, `%3N`, `%:z`, `%::z`, `%:::z`) and copies an unknown directive as written; `%N` is the // DH
 * time's milliseconds. `sort -h` compares as GNU's human_numcompare: suffix order first, then the number, text after it // DH
 * ignored (`1.5K\tdir1`). // DH
 */ // DH
HELPER_NAMESPACES.push(["__dateSortH", join(isolateDir, "date-sort-h.ts")]); // DH
const DH_DATE_WHEN = 'name:"date",async execute('; // DH
const DH_RFC_EMAIL = '{format:"%a, %d %b %Y %H:%M:%S %z"}'; // DH
const DH_PATCHES = [ // DH
  { what: "date output format options (DH)", when: DH_DATE_WHEN, re: new RegExp(String.raw`let (${ID})=(${ID})\[(${ID})\];if\(\1==="-u"\|\|\1==="--utc"\)`, "g"), to: (all, n) => `${all.slice(0, all.indexOf(";") + 1)}{let __o=${n}.startsWith("+")?{format:${n}.slice(1)}:${n}==="-R"||${n}.length>=5&&"--rfc-email".startsWith(${n})?${DH_RFC_EMAIL}:__dateSortH.dateOption(${n});if(__o!==null){if("error"in __o)return __o.error;if(__dhFormat!==null)return __dateSortH.multipleFormats();__dhFormat=__o.format;continue}}${all.slice(all.indexOf(";") + 1)}`, count: 1 }, // DH
  { what: "date option cluster (DH)", when: DH_DATE_WHEN, re: new RegExp(String.raw`if\((${ID})\.startsWith\("-"\)\)for\(let (${ID}) of \1\.slice\(1\)\)if\(\2==="u"\)(${ID})=!0;else if\(\2==="I"\)${ID}=!0;else if\(\2==="R"\)${ID}=!0;else return (${ID})\("date",\`-\$\{\2\}\`\)`, "g"), to: (all, n, T, i, g) => `if(${n}.startsWith("-"))for(let __j=1;__j<${n}.length;__j++){let ${T}=${n}[__j];if(${T}==="u")${i}=!0;else if(${T}==="I"||${T}==="R"){let __o=${T}==="R"?${DH_RFC_EMAIL}:__dateSortH.dateOption("-"+${n}.slice(__j));if("error"in __o)return __o.error;if(__dhFormat!==null)return __dateSortH.multipleFormats();__dhFormat=__o.format;if(${T}==="I")break}else return ${g}("date",\`-\${${T}}\`)}`, count: 1 }, // DH
  { what: "date format variable (DH)", when: DH_DATE_WHEN, re: new RegExp(String.raw`(async execute\(${ID},${ID}\)\{if\(${ID}\(${ID}\)\)return ${ID}\(${ID}\);let )(${ID}=!1,${ID}=null,${ID}=null,${ID}=!1,${ID}=!1;)`, "g"), to: (all, head, tail) => `${head}__dhFormat=null,${tail}`, count: 1 }, // DH
  { what: "date formats with the chosen format (DH)", when: DH_DATE_WHEN, re: new RegExp(String.raw`(${ID})=\{maxOperations:((?:(?!function )[^])*?)return ${ID}\?(${ID})=(${ID})\(${ID},`, "g"), to: (all, f, mid, d, h, ...rest) => `${f}={__ns:(${dhTimeOf(rest.at(-1))}.getTime()%1e3+1e3)%1e3*1e6,maxOperations:${mid}return __dhFormat!==null?${d}=${h}(__dhFormat,`, count: 1 }, // DH
  { what: "strftime GNU directives (DH)", when: "strftime: iteration limit exceeded", re: new RegExp(String.raw`if\((${ID})\[(${ID})\]==="%"&&\2\+1<\1\.length\)\{let (${ID})=\1\[\2\+1\],(${ID});(${ID})\.has\(\3\)\?\4=\5\.get\(\3\)\?\?null:\(\4=(${ID})\((${ID}),(${ID}),\3,(${ID})\),\5\.set\(\3,\4\)\),\4!==null\?\((${ID})\(\4\),\2\+=2\):\(\10\(\1\[\2\]\),\2\+\+\)\}`, "g"), to: (all, n, o, d, m, y, w, t, a, u, h) => `if(${n}[${o}]==="%"){let __d=__dateSortH.directive(${n},${o},__x=>${w}(${t},${a},__x,${u}),__dhOptions.__ns??0);${h}(__d.text),${o}=__d.next}`, count: 1 }, // DH
  { what: "strftime options named (DH)", when: "strftime: iteration limit exceeded", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID}),(${ID})=\{\}\)\{`, "g"), to: (all) => `${all}let __dhOptions=${all.match(/,([\w$]+)=\{\}\)\{$/)[1]};`, count: 1 }, // DH
  { what: "sort -h as human_numcompare (DH)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`if\((${ID})\.humanNumeric\)\{let (${ID})=(${ID})\((${ID})\),(${ID})=\3\((${ID})\);return \2-\5\}`, "g"), to: (all, e, i, x, l, n, s) => `if(${e}.humanNumeric)return __dateSortH.compareHuman(${l},${s},__sortSed.compareNumbers);`, count: 1 }, // DH
]; // DH
/** DH: the name of date's time variable in its chunk (`p=t!==null?…:new Date;`). */ // DH
function dhTimeOf(text) { // DH
  const found = [...text.matchAll(new RegExp(String.raw`(${ID})=${ID}!==null\?`, "g"))]; // DH
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's date time variable not found once (${found.length}; DH)`); // DH
  return found[0][1]; // DH
} // DH
SOURCE_PATCHES.push(...DH_PATCHES); // DH
/** // SP
 * SP (issue 20, run 30; helpers in isolate/shared-stdin.ts): a group's or loop's redirected stdin is one input offset // SP
 * its commands share, as bash with GNU tools on a regular file: a command that reads it (cat, sort, …) consumes it, // SP
 * one that stops early consumes what it used — `head -n N`/`-c N` its output, `grep -m N` up to the last selected // SP
 * line, sed up to the line of `q`/`Q`, `mapfile -n N` its N lines — and the next command reads on from there. // SP
 */ // SP
const SP_PATCHES = [ // SP
  { what: "command notes the group stdin it read (SP)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(let (${ID})=(${ID})\|\|(${ID})\.state\.groupStdin\|\|"",(${ID})=!1,(?:(?!async function )[^])*?)return\{\.\.\.(${ID}),internalStdinConsumed:\6\.internalStdinConsumed\?\?\(\5\?\3\.length:0\)\}`, "g"), to: (all, head, d, r, i, p, A) => // SP
    `${head}return{...${A},internalStdinConsumed:${A}.internalStdinConsumed??(${p}?${r}.length:0),__groupStdinRead:!${r}&&${p}?{input:${d},consumed:${A}.internalStdinConsumed}:void 0}`, count: 1 }, // SP
  { what: "group stdin advanced past a command's read (SP)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(${ID})>=0&&(${ID})!=="read"&&(${ID})\(this\.ctx,\1,(${ID})\.internalStdinConsumed\?\?0\);`, "g"), to: (all, g, u, tn, v) => // SP
    `${all}__sharedStdin.advanceGroup(this.ctx,${v},(__fd,__n)=>${tn}(this.ctx,__fd,__n));`, count: 1 }, // SP
  { what: "head stdin used (SP)", re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),(${ID}),(${ID})\)\{let\{quiet:${ID},verbose:${ID},files:(${ID})\}=\3;(?:(?!function )[^])*?)if\(\6\.length===0\)return\{stdout:\5\(\2\.stdin\),stderr:"",exitCode:0,stdoutEncoding:"binary"\}`, "g"), to: (all, head, e, s, i, r, l) => // SP
    `${head}if(${l}.length===0){let __out=${r}(${e}.stdin);return{stdout:__out,stderr:"",exitCode:0,stdoutEncoding:"binary",internalStdinConsumed:__sharedStdin.headConsumed(${i},__out)}}`, count: 1 }, // SP
  { what: "grep -m stdin used (SP)", when: SG_GREP_WHEN, re: new RegExp(String.raw`(let (${ID})=${ID}\?"":${ID}\((${ID})\.stdin\),(${ID})=__grepGnu\.search\(__sg,\2,(?:(?!return )[^])*?\);return )((${ID})\?\{stdout:"",stderr:"",exitCode:\4\.matched\?0:1\}:\{stdout:\4\.output,(?:(?!return )[^])*?exitCode:\4\.matched\?0:1\})`, "g"), to: (all, head, s, e, r, body, G) => // SP
    `${head}__sharedStdin.grepStdin(${e}.stdin,${s},${r},${G},${body})`, count: 1 }, // SP
  { what: "sed q notes where it stopped (SP)", when: SED_GNU_WHEN, re: new RegExp(String.raw`(async function ${ID}\((${ID}),${ID},${ID},${ID}=\{\}\)\{let __io=(?:(?!async function )[^])*?\b(${ID})\+=${ID}\.linesConsumedInCycle,(?:(?!async function )[^])*?)__io&&\(__io\.quit=!0\);`, "g"), to: (all, head, i, R) => // SP
    `${head}__io&&(__io.quit=!0,__io.quitAt=__sharedStdin.lineEnd(${i},${R}));`, count: 1 }, // SP
  { what: "sed stdin used (SP)", when: SED_GNU_WHEN, re: new RegExp(String.raw`((${ID})=${ID}\((${ID})\.stdin\)(?:(?!return)[^])*?\("stdin processing",(?:(?!return)[^])*?return\{stdout:${ID}\.output,)`, "g"), to: (all, head, d, e) => // SP
    `${head}internalStdinConsumed:__sharedStdin.sedConsumed(${e}.stdin,${d},__io),`, count: 1 }, // SP
  { what: "mapfile -n group stdin used (SP)", re: new RegExp(String.raw`(if\(__mfIn!==null\)return (${ID})\((${ID}),Number\(__mfFd\.trim\(\)\),__gnuExtra\.mapfileConsumed\((${ID}),(${ID}),(${ID}),(${ID})\)\),(${ID})\("","",0\);)return \3\.state\.groupStdin!==void 0&&!(${ID})&&\(\3\.state\.groupStdin=""\),\{\.\.\.\8\("","",0\),internalStdinConsumed:\4\.length\}`, "g"), to: (all, head, advance, e, u, r, s, o, L, n) => // SP
    `${head}return{...${L}("","",0),internalStdinConsumed:__sharedStdin.mapfileDone(${e},${n},${u},__gnuExtra.mapfileConsumed(${u},${r},${s},${o}),(__fd,__k)=>${advance}(${e},__fd,__k))}`, count: 1 }, // SP
  { what: "mapfile option words (SP)", re: new RegExp(String.raw`function ${ID}\(${ID},(${ID}),${ID},__source=-1,__mfName="mapfile"\)\{`, "g"), to: (all, t) => `${all}${t}=__sharedStdin.mapfileArgs(${t});`, count: 1 }, // SP
  { what: "loop stdin from a pipe (SP)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),(${ID})=""\)\{return ${ID}\(\2,\3\.redirections,\4,(${ID})=>)(${ID})\(\2,\3,\4,\5\)\)\}`, "g"), to: (all, head, e, t, n, r, run) => // SP
    `${head}__sharedStdin.withPipe(${e},${r}.stdin!==void 0?!1:${n}!==""?!0:void 0,()=>${run}(${e},${t},${n},${r})))}`, count: 2 }, // SP
  { what: "group stdin from a pipe (SP)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),(${ID}),(${ID}),(${ID})=!1\)\{return ${ID}\(\2,\3\.redirections,\4,(${ID})=>)(${ID})\(\2,\3,\4,\5,\6,\7\)\)\}`, "g"), to: (all, head, e, t, n, r, s, i, run) => // SP
    `${head}__sharedStdin.withPipe(${e},${i}.stdin!==void 0?!1:${n}!==""?!0:void 0,()=>${run}(${e},${t},${n},${r},${s},${i})))}`, count: 1 }, // SP
  { what: "subshell stdin from a pipe (SP)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(${ID})\((${ID}),(${ID}),(${ID})\.stdin\?\?(${ID}),(${ID}),(${ID})\|\|\4\.stdin!==void 0\)`, "g"), to: (all, run, e, t, l, n) => // SP
    `__sharedStdin.withPipe(${e},${l}.stdin!==void 0?!1:${n}!==""?!0:void 0,()=>${all})`, count: 1 }, // SP
  { what: "base64 reads stdin only for - (SP)", re: new RegExp(String.raw`(let ${ID}=Math\.min\((${ID})\.limits\.maxInputBytes,\2\.limits\.maxStringLength\),(${ID})=)\2\.stdin;(if\((${ID})\.length===0\|\|\5\.length===1&&\5\[0\]==="-"\))`, "g"), to: (all, head, t, o, tail, e) => // SP
    `${head}${e}.length===0||${e}.includes("-")?${t}.stdin:"";${tail}`, count: 1 }, // SP
  { what: "paste reads stdin only for - (SP)", re: new RegExp(String.raw`(if\((${ID})\.length===0\)\2=\["-"\];let (${ID})=)(${ID}\((${ID})\.stdin\))(,(${ID})=\3\?\3\.split\()`, "g"), to: (all, head, p, g, read, e, tail) => // SP
    `${head}${p}.includes("-")?${read}:""${tail}`, count: 1 }, // SP
  { what: "rg reads stdin only without files (SP)", re: new RegExp(String.raw`((${ID})=(${ID})\.patternFiles\.includes\("-"\),(${ID})=)(${ID}\((${ID})\.stdin\));(if\((${ID})\.length===0&&\4\.length>0&&!\2\))`, "g"), to: (all, head, f, s, h, read, t, tail, n) => // SP
    `${head}${n}.length===0&&!${f}?${read}:"";${tail}`, count: 1 }, // SP
]; // SP
HELPER_NAMESPACES.push(["__sharedStdin", join(isolateDir, "shared-stdin.ts")]); // SP
SOURCE_PATCHES.push(...SP_PATCHES); // SP
/** // TC
 * TC (issue 20, run 31; helpers in src/backends/worker-shell/isolate/archive.ts and cp-mkdir-extra.ts): `tar -tv` lines // TC
 * as GNU tar 1.34 (`MODE user/group SIZE YYYY-MM-DD HH:MM NAME`, the header's names, growing columns); `tar -x`/`-t` // TC
 * with `-C DIR` fail (status 2) when DIR is not a directory instead of making it; `cp -f/-a/-d/-P/-u/-T/-t/--parents` // TC
 * and `mkdir -m MODE` as GNU coreutils 9.1. // TC
 */ // TC
HELPER_NAMESPACES.push(["__cpMkdir", join(isolateDir, "cp-mkdir-extra.ts")]); // TC
const TC_PATCHES = [ // TC
  { what: "tar entries keep uname/gname (TC)", when: '{name:"tar",summary:', re: new RegExp(String.raw`(type:(${ID}),linkTarget:(${ID})\.header\.linkname\|\|void 0,content:(${ID})\}\))`, "g"), to: (all, head, c, a, o) => `type:${c},linkTarget:${a}.header.linkname||void 0,uname:${a}.header.uname,gname:${a}.header.gname,content:${o}})`, count: 1 }, // TC
  { what: "tar -tv columns (TC)", when: '{name:"tar",summary:', re: new RegExp(String.raw`if\((${ID})\.verbose\)\{let (${ID})=(${ID})\.type==="directory",(${ID})=__archive\.tarModeColumn\(\3\),(${ID})=\`\$\{\3\.uid\}/\$\{\3\.gid\}\`,(${ID})=\3\.size\.toString\(\)\.padStart\(8," "\),(${ID})=${ID}\(\3\.mtime\),(${ID})=\`\$\{\4\} \$\{\5\.padEnd\(10\)\} \$\{\6\} \$\{\7\} \$\{(${ID})\}\``, "g"), to: (all, t, y, f, d, m, p, b, w, u) => `if(${t}.verbose){let ${y}=${f}.type==="directory",${d}=__archive.tarModeColumn(${f}),${m}="",${p}="",${b}="",${w}=__archive.tarListColumns(${t},${d},${f},${u})`, count: 1 }, // TC
  { what: "tar -x -C DIR must exist (TC)", when: '{name:"tar",summary:', re: new RegExp(String.raw`if\((${ID})\.directory&&!\1\.toStdout\)\{if\((${ID})\((${ID})\)\)return (${ID})\(\);try\{await \3\.fs\.mkdir\((${ID}),\{recursive:!0\}\)\}catch\{\}\}`, "g"), to: (all, t, B, e, N, l) => `if(${t}.directory){if(${B}(${e}))return ${N}();{let __c=await __archive.tarChangeDirectory(${e}.fs,${l},${t}.directory);if(__c!==null)return __c}}`, count: 1 }, // TC
  { what: "tar -t -C DIR must exist (TC)", when: '{name:"tar",summary:', re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),${ID}\)\{let ${ID};if\(\3\.file&&\3\.file!=="-"\)\{let (${ID})=\2\.fs\.resolvePath\(\2\.cwd,\3\.file\);try\{${ID}=await \2\.fs\.readFileBuffer\(\4\)\}catch\{return\{stdout:"",stderr:\`tar: \$\{\3\.file\}: Cannot open: No such file or directory\n\`,exitCode:2\}\}\}else (?:(?!function )[^])*?let (${ID})="";)(for\(let ${ID} of ${ID}\.entries\)\{if\(${ID}\(\2\)\)return ${ID}\(\);let ${ID}=${ID}\(${ID}\.name,\3\.strip\);)`, "g"), to: (all, head, e, t, f, l, tail) => `${head}if(${t}.directory){let __c=await __archive.tarChangeDirectory(${e}.fs,${e}.fs.resolvePath(${e}.cwd,${t}.directory),${t}.directory);if(__c!==null)return __c}${tail}`, count: 1 }, // TC
  { what: "cp -f -a -u -T -t --parents (TC)", when: 'name:"cp",async execute(', re: new RegExp(String.raw`(${ID})=\{name:"cp",async execute\((${ID}),(${ID})\)\{if\((${ID})\(\2\)\)return (${ID})\((${ID})\);`, "g"), to: (all, j, u, e, C, $, R) => `${j}={name:"cp",async execute(${u},${e}){if(${C}(${u}))return ${$}(${R});{let __cx=await __cpMkdir.cpExtended(${u},${e},(__a)=>${j}.execute(__a,${e}));if(__cx!==null)return __cx}`, count: 1 }, // TC
  { what: "mkdir -m MODE (TC)", when: 'name:"mkdir",async execute(', re: new RegExp(String.raw`(${ID})=\{name:"mkdir",async execute\((${ID}),(${ID})\)\{`, "g"), to: (all, b, m, t) => `${b}={name:"mkdir",async execute(${m},${t}){{let __mx=await __cpMkdir.mkdirWithMode(${m},${t},(__a)=>${b}.execute(__a,${t}));if(__mx!==null)return __mx}`, count: 1 }, // TC
]; // TC
SOURCE_PATCHES.push(...TC_PATCHES); // TC
/** // CW
 * CW (issue 20, run 30; helpers in isolate/command-word.ts): the command word is expanded as bash expands every word // CW
 * of a simple command — split on IFS where unquoted and globbed, by the interpreter's own argument expansion — and // CW
 * its first field is the command, the rest leading arguments (`cmd="ls -1"; $cmd src`, `"$@"`, `"${a[@]}"`); a // CW
 * command word with no field leaves no command (status of the last command substitution, else 0). // CW
 */ // CW
HELPER_NAMESPACES.push(["__commandWord", join(isolateDir, "command-word.ts")]); // CW
const CW_WHEN = "async executeSimpleCommandInner("; // CW
const CW_PATCHES = [ // CW
  { what: "command word: pid before expansion (CW)", when: CW_WHEN, re: new RegExp(String.raw`this\.ctx\.state\.expansionStderr="";let (${ID})=await (${ID})\(this\.ctx,(${ID})\);if\(\1\.error\)return \1\.error;`, "g"), to: (all) => `let __cwPid=this.ctx.state.nextVirtualPid;${all}`, count: 1 }, // CW
  { what: "command word split into fields (CW)", when: CW_WHEN, re: new RegExp(String.raw`let (${ID})=await ${ID}\(this\.ctx,(${ID})\.name\),((${ID})=\[\],(${ID})=\[\],(${ID})=\((${ID}),(${ID})\)=>\{if\(\4\.length>=this\.ctx\.limits\.maxArrayElements\)throw new ${ID}\(\`expanded argument element limit exceeded \(\$\{this\.ctx\.limits\.maxArrayElements\}\)\`,"array_elements"\);\4\.push\(\7\),\5\.push\(\8\)\};)(?=(?:(?!async )[^])*?else for\(let (${ID}) of \2\.args\)\{let (${ID})=await (${ID})\(this\.ctx,\9\);for\(let ${ID} of \10\.values\))`, "g"), to: (all, u, t, rest, f, d, p, P, q, arg, val, gt) => // CW
    `let __cwName=await ${gt}(this.ctx,${t}.name),${u}=__commandWord.commandName(__cwName),${rest}for(let __cwW of __commandWord.leadingArguments(__cwName))${p}(__cwW,__cwName.quoted);`, count: 1 }, // CW
  { what: "command word with no field (CW)", when: CW_WHEN, re: new RegExp(String.raw`let (${ID})=(${ID})\.name\.parts\.every\((${ID})=>\3\.type==="CommandSubstitution"\|\|\3\.type==="ParameterExpansion"\|\|\3\.type==="ArithmeticExpansion"\);!(${ID})&&\1&&(${ID})\.length>0&&\(\4=\5\.shift\(\),(${ID})\.shift\(\)\)`, "g"), to: (all, m, t, P, u, f, d) => // CW
    `let ${m}=__commandWord.noField(__cwName);${m}&&${f}.length>0&&(${u}=${f}.shift(),${d}.shift(),${m}=!1)`, count: 1 }, // CW
  { what: "no command's status (CW)", when: CW_WHEN, re: new RegExp(String.raw`return (${ID})\?\((${ID})\.finish\(\),(${ID})\("","",this\.ctx\.state\.lastExitCode\)\):\(\2\.finish\(\),${ID}\(\`bash: : command not found\n\`,127\)\)`, "g"), to: (all) => all.replace("this.ctx.state.lastExitCode", "__commandWord.noCommandStatus(this.ctx.state,__cwPid)"), count: 1 }, // CW
]; // CW
SOURCE_PATCHES.push(...CW_PATCHES); // CW
/** // run 38, fixer SE
 * SE (issue 20, run 38, fixer SE; helpers in isolate/command-word.ts and isolate/script-builtins.ts): // run 38, fixer SE
 * - a simple command with no command word (assignments and redirections only: `x=1`, `rc=$?`, `arr+=(x)`, // run 38, fixer SE
 *   `x=$(false) >f`) has the status of the last command substitution its assignments ran, else 0 (bash 5.2, // run 38, fixer SE
 *   execute_cmd.c execute_null_command) — just-bash kept the previous command's status (`false; x=1` was 1, so // run 38, fixer SE
 *   `set -e; cmd || rc=$?` ended the script). Substitutions in the redirections do not count, as in bash; // run 38, fixer SE
 * - an argument-less `exit` in the EXIT trap, and an argument-less `return` run from an EXIT or ERR trap, use the // run 38, fixer SE
 *   status the trap began with (bash's trap_saved_exit_value), not the trap's last command's; // run 38, fixer SE
 * - under `set -e` a failing command in a trap's action ends the shell with its status (just-bash's executeScript // run 38, fixer SE
 *   ended only the action's script, and the shell kept its own status). // run 38, fixer SE
 */ // run 38, fixer SE
const SE38_PATCHES = [ // run 38, fixer SE
  { what: "no-command status taken before the redirections (run 38, fixer SE)", when: CW_WHEN, re: new RegExp(String.raw`if\(!(${ID})\.name\)\{if\(\1\.redirections\.length>0\)\{`, "g"), to: (all, t) => `if(!${t}.name){let __seStatus=__commandWord.noCommandStatus(this.ctx.state,__cwPid);if(${t}.redirections.length>0){`, count: 1 }, // run 38, fixer SE
  { what: "redirections-only command's status (run 38, fixer SE)", when: CW_WHEN, re: new RegExp(String.raw`let (${ID})=(${ID})\("",(${ID}),0\),(${ID})=await (${ID})\(this\.ctx,\1,(${ID})\.redirections,`, "g"), to: (all) => all.replace(`,0),`, `,__seStatus),`), count: 1 }, // run 38, fixer SE
  { what: "assignments-only command's status (run 38, fixer SE)", when: CW_WHEN, re: new RegExp(String.raw`(this\.ctx\.state\.lastArg="";let (${ID})=\(this\.ctx\.state\.expansionStderr\|\|""\)\+${ID};return this\.ctx\.state\.expansionStderr="",${ID}\("",\2,)this\.ctx\.state\.lastExitCode\)`, "g"), to: (all, head) => `${head}__seStatus)`, count: 1 }, // run 38, fixer SE
  { what: "set -e in a trap's action ends the shell (run 38, fixer SE)", when: "async executeScript(", re: new RegExp(String.raw`(for\(let (${ID}) of ${ID}\.statements\)try\{let (${ID})=await this\.executeStatement\(\2\);(${ID})\.appendResult\(\3,${ID}\(\3\)\),(${ID})=\3\.exitCode,this\.ctx\.state\.lastExitCode=\5,this\.ctx\.state\.env\.set\("\?",String\(\5\)\)\}catch\((${ID})\)\{)`, "g"), to: (all, head, s, i, r, n, e) => `${head}if(__scriptBuiltins.errexitEndsTrap(this.ctx.state,${e}))throw ${e}.prependOutput(${r}.stdout,${r}.stderr),${e};`, count: 1 }, // run 38, fixer SE
  // `s+=x` appended through a bounded builder that measured the UTF-8 length of the whole old value and joined a copy // run 38, fixer SE
  // each time: quadratic in the value's length (for i in {1..N}; do s+=x; done: 20k/40k/80k 2.9/7.4/20.4 s). A value // run 38, fixer SE
  // whose UTF-16 length times 3 (an upper bound of its UTF-8 bytes) is within maxStringLength is appended as is, in O(1) // run 38, fixer SE
  // (a rope); only near the limit is it measured exactly, with the same error as before. // run 38, fixer SE
  { what: "scalar += appends in O(1) below the string limit (run 38, fixer SE)", when: '"array assignment"', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID})\)\{return (${ID})\(\[\3,\4\],"",\2\.limits\.maxStringLength,"array assignment"\)\}`, "g"), to: (all, name, e, t, n, join) => `function ${name}(${e},${t},${n}){return 3*(${t}.length+${n}.length)<=${e}.limits.maxStringLength?${t}+${n}:${join}([${t},${n}],"",${e}.limits.maxStringLength,"array assignment")}`, count: 1 }, // run 38, fixer SE
  { what: "exit in the EXIT trap keeps the saved status (run 38, fixer SE)", when: "bash: exit: ", re: new RegExp(String.raw`if\((${ID})\.length===0\)(${ID})=(${ID})\.state\.lastExitCode;(else\{let ${ID}=\1\[0\];if\(${ID}===""\|\|!/\^-\?\\d\+\$/\.test\(${ID}\)\)${ID}=` + "`" + String.raw`bash: exit: )`, "g"), to: (all, t, n, e, tail) => `if(${t}.length===0)${n}=__scriptBuiltins.trapSavedStatus(${e}.state,"exit")??${e}.state.lastExitCode;${tail}`, count: 1 }, // run 38, fixer SE
  { what: "return in a trap keeps the saved status (run 38, fixer SE)", when: "bash: return: ", re: new RegExp(String.raw`let (${ID})=(${ID})\.state\.lastExitCode;(if\((${ID})\.length>0\)\{let (${ID})=\4\[0\],(${ID})=Number\.parseInt\(\5,10\);if\(\5===""\|\|Number\.isNaN\(\6\)\|\|!/\^-\?\\d\+\$/\.test\(\5\)\)return ${ID}\(` + "`" + String.raw`bash: return: )`, "g"), to: (all, n, e, tail) => `let ${n}=__scriptBuiltins.trapSavedStatus(${e}.state,"return")??${e}.state.lastExitCode;${tail}`, count: 1 }, // run 38, fixer SE
]; // run 38, fixer SE
SOURCE_PATCHES.push(...SE38_PATCHES); // run 38, fixer SE

/** // PX
 * PX (issue 20, run 30; helpers in isolate/param-expansion.ts): a nameref stands for the variable it names in every // PX
 * expansion (`"${ref[@]}"`, `${#ref[@]}`, `${!ref[@]}`, `${ref[@]:1}`; `${!ref}` is still the name) and compound // PX
 * assignment (`ref=(…)`, `ref+=(…)`); `${v: -N}` reaching before the start is empty; a `$(( … ))` in a subscript // PX
 * (`${a[$((${#a[@]}-1))]}`) is arithmetic, not a `$( … )` running `( … )`. // PX
 */ // PX
HELPER_NAMESPACES.push(["__paramExpansion", join(isolateDir, "param-expansion.ts")]); // PX
/** PX: the name of just-bash's nameref resolver (`function X(e,t,n=100){if(!isNameref(e,t)||…`) in bundle text `text`. */ // PX
function pxResolver(text) { // PX
  const found = [...text.matchAll(new RegExp(String.raw`function (${ID})\(${ID},${ID},${ID}=100\)\{if\(!${ID}\(${ID},${ID}\)\|\|${ID}\(${ID},${ID}\)\)return ${ID};let ${ID}=new Set`, "g"))]; // PX
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's nameref resolver found ${found.length} times, expected 1 (PX)`); // PX
  return found[0][1]; // PX
} // PX
const PX_PATCHES = [ // PX
  { what: "parameter expansion through a nameref (PX)", when: AX_WHEN, re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),${ID}=!1\)\{if\(\3\.type==="ParameterExpansion"\)return ${ID}\(\2,)\3,`, "g"), to: (all, head, e, t, ...rest) => `${head}__paramExpansion.resolveParam(${e},${t},${pxResolver(rest.at(-1))}),`, count: 1 }, // PX
  { what: "word expansion through a nameref (PX)", when: AX_WHEN, re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),${ID}\)\{\2\.coverage\?\.hit\("bash:expansion:word_glob"\);let ${ID}=)\3\.parts,`, "g"), to: (all, head, e, t, ...rest) => `${head}__paramExpansion.resolveParts(${e},${t}.parts,${pxResolver(rest.at(-1))}),`, count: 1 }, // PX
  { what: "compound assignment through a nameref (PX)", when: AX_WHEN, re: new RegExp(String.raw`(function ${ID}\((${ID}),${ID},(${ID}),${ID},${ID},${ID}\)\{let ${ID}="";if\(/\\\[\.\+\\\]\$/\.test\(\3\)\)(?:(?!function )[^])*?\\\[@\\\]\$/\.test\(${ID}\)\)return\{continueToNext:!1,xtraceOutput:"",error:${ID}\("",\`bash: \$\{\3\}: cannot assign list to array member\n\`,1\)\}\})`, "g"), to: (all, head, e, n, ...rest) => `${head}${n}=__paramExpansion.assignTarget(${e},${n},${pxResolver(rest.at(-1))});`, count: 1 }, // PX
  { what: "${v: -N} before the start is empty (PX)", when: AX_WHEN, re: new RegExp(String.raw`let (${ID})=\[\.\.\.(${ID})\],(${ID})=(${ID});if\(\3<0&&\(\3=Math\.max\(0,\1\.length\+\3\)\),(${ID})!==void 0\)\{`, "g"), to: (all, a, n, l, s, i) => `let ${a}=[...${n}],${l}=${s};if(${l}<0&&(${l}=${a}.length+${l})<0)return"";if(${i}!==void 0){`, count: 1 }, // PX
  { what: "unset NAME[i] through a nameref (PX)", when: AX_WHEN, re: new RegExp(String.raw`(let (${ID})=${ID}\.match\(/\^\(\[a-zA-Z_\]\[a-zA-Z0-9_\]\*\)\\\[\(\.\+\)\\\]\$/\);if\(\2\)\{let (${ID})=\2\[1\],${ID}=\2\[2\];)(?=if\(${ID}\((${ID}),\3\)\)\{${ID}\+=\`bash: unset: )`, "g"), to: (all, head, m, d, e, ...rest) => `${head}${d}=__paramExpansion.assignTarget(${e},${d},${pxResolver(rest.at(-1))});`, count: 2 }, // PX
  { what: "[[ -v NAME[i] ]] through a nameref (PX)", when: AX_WHEN, re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID})\)\{let (${ID})=\3\.match\(/\^\(\[a-zA-Z_\]\[a-zA-Z0-9_\]\*\)\\\[\(\.\+\)\\\]\$/\);if\(\4\)\{let (${ID})=\4\[1\],${ID}=\4\[2\];)(?=if\(\2\.state\.associativeArrays\?\.has\(\5\)\)\{let ${ID}=${ID};return\()`, "g"), to: (all, head, e, t, n, r, ...rest) => `${head}${r}=__paramExpansion.assignTarget(${e},${r},${pxResolver(rest.at(-1))});`, count: 1 }, // PX
  { what: "subscript $(( )) is arithmetic (PX)", when: AX_WHEN, re: new RegExp(String.raw`(let (${ID})=(${ID})\.slice\((${ID})\+2,(${ID})-1\);)(if\((${ID})\.execFn\)\{)(?=(?:(?!function )[^])*?;(${ID})\+=)`, "g"), to: (all, head, c, n, o, l, tail, e, i, ...rest) => { const x = axNames(rest.at(-1)); return `${head}if(__paramExpansion.isArithmeticAt(${n},${o},${l})){${i}+=await __paramExpansion.arithmetic(${e},${n}.slice(${o},${l}),${x.Parser},${x.expandPart});${o}=${l};continue}${tail}`; }, count: 1 }, // PX
]; // PX
SOURCE_PATCHES.push(...PX_PATCHES); // PX

/** // GS
 * GS (issue 20, run 31; helpers in isolate/grep-gnu.ts, grep-perl.ts, sed-gnu.ts): grep puts `--` between context // GS
 * groups of different files; grep -P reads PCRE2's syntax and runs lookarounds and back-references on V8 (the rest // GS
 * stays on RE2); sed's queued a/r/R text ends a last line that had no newline with one first (`sed '$a\'`), r/R // GS
 * text written as the file has it; find -newer REF with REF missing fails (status 1) before walking. // GS
 */ // GS
const GS_PATCHES = [ // GS
  { what: "grep -P native regex (GS)", when: "search: matching work limit exceeded", re: new RegExp(String.raw`(${ID})\.wholeWord&&\((${ID})=\`\\\\b\(\?:\$\{\2\}\)\\\\b\`\)((?:(?!function )[^])*?)return\{regex:(${ID})\(\2,(${ID})\),`, "g"), to: (all, n, e, mid, Y, o) => // GS
    `${n}.wholeWord&&(${e}=${n}.native?\`(?<!\\\\w)(?:\${${e}})(?!\\\\w)\`:\`\\\\b(?:\${${e}})\\\\b\`)${mid}return{regex:${n}.native?__grepGnu.nativeRegex(${e},${o}):${Y}(${e},${o}),`, count: 1 }, // GS
  { what: "grep -- between files (GS)", when: 'name:"grep",async execute(', re: new RegExp(String.raw`(${ID})\+=(${ID})\.output,\2\.binary&&`, "g"), to: (all, U, p) => `${U}+=__grepGnu.fileOutput(__sg,${p}),${p}.binary&&`, count: 1 }, // GS
  { what: "sed a\\ at the end queues nothing but a newline (GS)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`case"append":(${ID})\.text!==null&&(${ID})\.appendBuffer\.push\(\1\.text\);`, "g"), to: (all, i, e) => `case"append":${e}.appendBuffer.push(${i}.text===null?__sedGnu.raw(""):${i}.text);`, count: 1 }, // GS
  { what: "sed r queues the file as it is (GS)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(${ID})!==""&&(${ID})\.appendBuffer\.push\(\1\.replace\(/\\n\$/,""\)\)`, "g"), to: (all, y, g) => `${g}.appendBuffer.push(__sedGnu.raw(${y}))`, count: 1 }, // GS
  { what: "sed r of a missing file (GS)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(for\(let (${ID}) of (${ID})\.pendingFileReads\)\{(?:(?!pendingFileWrites)[^])*?)catch\((${ID})\)\{if\(\4 instanceof (${ID})\)throw \4\}`, "g"), to: (all, head, C, g, y, d) => `${head}catch(${y}){if(${y} instanceof ${d})throw ${y};${C}.wholeFile&&${g}.appendBuffer.push(__sedGnu.raw(""))}`, count: 1 }, // GS
  { what: "sed R lines keep their newline (GS)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`(${ID})\.set\((${ID}),__sedRange\.lines\((${ID})\)\)((?:(?!pendingFileWrites)[^])*?)(${ID})\.appendBuffer\.push\((${ID})\[(${ID})\]\)`, "g"), to: (all, T, S, pe, mid, g, y, k) => `${T}.set(${S},__sedGnu.rLines(__sedRange.lines(${pe}),${pe}))${mid}${g}.appendBuffer.push(__sedGnu.raw(${y}[${k}]))`, count: 1 }, // GS
  { what: "sed writes queued text as it is (GS)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`for\(let (${ID}) of (${ID})\)(${ID})\(\`\$\{\1\}\n\`\);if\((${ID})=\((${ID})\|\|(${ID})\)&&\2\.length===0`, "g"), to: (all, C, q, v, f, de, $) => `for(let ${C} of ${q})${v}(__sedGnu.written(${C}));if(${f}=(${de}||${$})&&${q}.length===0`, count: 1 }, // GS
  { what: "sed N-flushed queue written as it is (GS)", when: 'name:"sed",async execute(', re: new RegExp(String.raw`for\(let (${ID}) of (${ID})\.lineNumberOutput\)(${ID})\(\`\$\{\1\}\n\`\);`, "g"), to: (all, C, g, v) => `for(let ${C} of ${g}.lineNumberOutput)${v}(__sedGnu.written(${C}));`, count: 1 }, // GS
  { what: "find -newer missing reference (GS)", when: 'name:"find",async execute(', re: new RegExp(String.raw`for\(let (${ID}) of (${ID})\)\{let (${ID})=(${ID})\.fs\.resolvePath\(\4\.cwd,\1\);try\{let (${ID})=await \4\.fs\.stat\(\3\);(${ID})\.set\(\1,\5\.mtime\?\.getTime\(\)\?\?Date\.now\(\)\)\}catch\{\}\}`, "g"), to: (all, c, De, f, t, d, te) => // GS
    `for(let ${c} of ${De}){let ${f}=${t}.fs.resolvePath(${t}.cwd,${c});try{let ${d}=await ${t}.fs.stat(${f}).catch(()=>${t}.fs.lstat(${f}));${te}.set(${c},${d}.mtime?.getTime()??Date.now())}catch(__refError){return{stdout:"",stderr:\`find: \${${c}}: \${__readFailureReason(__refError)}\\n\`,exitCode:1}}}`, count: 1 }, // GS
]; // GS
SOURCE_PATCHES.push(...GS_PATCHES); // GS
/** // GZ
 * GZ (issue 20, run 31; helpers in src/backends/worker-shell/isolate/gzip-bound.ts): gzip/gunzip write files within // GZ
 * the shell's read bound (64 MiB), not stdout's output limit, so `gunzip` restores what `gzip` compressed; gzip -t // GZ
 * inflates within it too; a file past the read bound is `File too large` (was `No such file or directory`). // GZ
 */ // GZ
HELPER_NAMESPACES.push(["__gzipBound", join(isolateDir, "gzip-bound.ts")]); // GZ
const GZ_PATCHES = [ // GZ
  { what: "gzip -d to a file within the read bound (GZ)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),(${ID}),(${ID}),(${ID}),(${ID})\)\{let ${ID}=\4\.suffix,${ID},${ID},${ID},${ID}=)(${ID})\(\2\);`, "g"), to: (all, head, e, t, o, r, i, n, P) => `${head}__gzipBound.decompressLimit(${P}(${e}),${t},${n});`, count: 1 }, // GZ
  { what: "gzip to a file within the read bound (GZ)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID}),(${ID}),(${ID}),(${ID}),(${ID})\)\{let ${ID}=\4\.suffix,(?:(?!function )[^])*?let (${ID})=${ID}\(\4\),${ID};try\{let ${ID}=)(${ID})\((${ID}),\8,\2\);`, "g"), to: (all, head, e, t, o, r, i, n, l, O, p) => `${head}__gzipBound.compressFile(${O},${p},${l},${e},${n});`, count: 1 }, // GZ
  { what: "gzip -t within the read bound (GZ)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`return (${ID})\((${ID}),${ID}\((${ID})\),\3\.limits\.maxInputBytes,\3\.signal,\3\)\.lease\?\.release\(\),`, "g"), to: (all, inflate, i, e) => `return ${inflate}(${i},__gzipBound.GZIP_FILE_BOUND,${e}.limits.maxInputBytes,${e}.signal,${e}).lease?.release(),`, count: 1 }, // GZ
  { what: "gzip read failure reason (GZ)", when: '{name:"gzip",summary:', re: new RegExp(String.raw`(try\{let (${ID})=await ${ID}\(${ID},${ID},(${ID})\);${ID}=\2\.data,${ID}=\2\.lease\}catch\((${ID})\)\{return ${ID}\(\4\)),\{stdout:"",stderr:\`\$\{\3\}: \$\{(${ID})\}: No such file or directory\n\`,exitCode:1\}\}`, "g"), to: (all, head, s, r, err, t) => `${head},__gzipBound.readFailure(${r},${t},${err})}`, count: 3 }, // GZ
]; // GZ
SOURCE_PATCHES.push(...GZ_PATCHES); // GZ
/** // AA
 * AA (issue 20, run 33; helpers in src/backends/worker-shell/isolate/array-index.ts): each array keeps its count of // AA
 * indices, its largest index and its sorted keys (bash's num_elements/max_index), so `a+=(x)`, `${#a[@]}`, // AA
 * `${a[-1]}`, `a[-1]=x`, `unset 'a[-1]'`, `[[ -v a ]]` cost O(1) and `"${a[@]}"`/`"${!a[@]}"` no sort; a compound // AA
 * assignment keeps a journal of what it changes to undo a failure instead of copying the array first; a negative // AA
 * subscript of `unset` counts from the largest index + 1, as bash (was: from the number of elements). // AA
 */ // AA
HELPER_NAMESPACES.push(["__arrayIndex", join(isolateDir, "array-index.ts")]); // AA
const AA_PATCHES = [ // AA
  { what: "array elements kept indexed (AA)", re: new RegExp(String.raw`(${ID})=\{kind:(${ID}),elements:new Map\}`, "g"), to: (all, r, n) => `${r}={kind:${n},elements:__arrayIndex.elements()}`, count: 1 }, // AA
  { what: "array copies kept indexed (AA)", re: new RegExp(String.raw`elements:new Map\((${ID})\.elements\)`, "g"), to: (all, a) => `elements:__arrayIndex.elements(${a}.elements)`, count: 2 }, // AA
  { what: "array indices from the index (AA)", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{return Array\.from\((${ID})\(\2,\3\)\?\.elements\.keys\(\)\?\?\[\]\)\.filter\((${ID})=>/\^\(0\|\[1-9\]\\d\*\)\$/\.test\(\5\)\)\.map\(Number\)\.sort\(\((${ID}),(${ID})\)=>\6-\7\)\}`, "g"), to: (all, f, e, t, pe) => `function ${f}(${e},${t}){return __arrayIndex.indices(${pe}(${e},${t})?.elements)}`, count: 1 }, // AA
  { what: "associative keys from the index (AA)", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{return Array\.from\((${ID})\(\2,\3\)\?\.elements\.keys\(\)\?\?\[\]\)\.sort\(\)\}`, "g"), to: (all, f, e, t, pe) => `function ${f}(${e},${t}){return __arrayIndex.keys(${pe}(${e},${t})?.elements)}`, count: 1 }, // AA
  { what: "array keys fit without copying them (AA)", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID}),(${ID})=!1\)\{let (${ID})=new Set\(\5\?\[\]:(${ID})\(\2,\3\)\?\.elements\.keys\(\)\?\?\[\]\);for\(let (${ID}) of \4\)if\(\6\.add\(String\(\8\)\),\6\.size>\2\.limits\.maxArrayElements\)throw new (${ID})\(\`array element limit exceeded \(\$\{\2\.limits\.maxArrayElements\}\)\`,"array_elements"\)\}`, "g"), to: (all, f, e, t, n, r, s, pe, i, X) => // AA
    `function ${f}(${e},${t},${n},${r}=!1){__arrayIndex.assertKeysFit(${pe}(${e},${t})?.elements,${n},${r},${e}.limits.maxArrayElements,(__m)=>new ${X}(__m,"array_elements"))}`, count: 1 }, // AA
  { what: "${#a[@]} from the index (AA)", re: new RegExp(String.raw`let (${ID})=(${ID})\[1\],(${ID})=(${ID})\((${ID}),\1\);return \3\.length>0\?String\(\3\.length\):\5\.state\.env\.get\(\1\)!==void 0\?"1":"0"`, "g"), to: (all, s, r, i, K, e) => `let ${s}=${r}[1],${i}=__arrayIndex.count(${e},${s},${K});return ${i}>0?String(${i}):${e}.state.env.get(${s})!==void 0?"1":"0"`, count: 1 }, // AA
  { what: "arithmetic ${#a[@]} from the index (AA)", re: new RegExp(String.raw`let (${ID})=(${ID})\[1\],(${ID})=(${ID})\((${ID}),\1\);return String\(\3\.length\)\}`, "g"), to: (all, h, d, m, K, e) => `let ${h}=${d}[1],${m}=__arrayIndex.count(${e},${h},${K});return String(${m})}`, count: 1 }, // AA
  { what: "[[ -v a[@] ]] from the index (AA)", re: new RegExp(String.raw`if\((${ID})==="@"\|\|\1==="\*"\)return (${ID})\((${ID}),(${ID})\)\.length>0\?!0:\3\.state\.env\.has\(\4\);`, "g"), to: (all, i, K, e, s) => `if(${i}==="@"||${i}==="*")return __arrayIndex.count(${e},${s},${K})>0?!0:${e}.state.env.has(${s});`, count: 1 }, // AA
  { what: "[[ -v a ]] from the index (AA)", re: new RegExp(String.raw`\?(${ID})\((${ID}),(${ID})\)\.length>0:(${ID})\(\2,\3\)\.length>0\}`, "g"), to: (all, Et, e, t) => `?(${e}.state.arrays?.get(${t})?.elements.size??0)>0:__arrayIndex.indexCount(${e}.state.arrays?.get(${t})?.elements)>0}`, count: 1 }, // AA
  { what: "largest of sorted indices (AA)", re: new RegExp(String.raw`Math\.max\(\.\.\.(${ID})\)\+1`, "g"), to: (all, a) => `__arrayIndex.last(${a})+1`, count: 4 }, // AA
  { what: "${a[-n]} from the index (AA)", re: new RegExp(String.raw`let (${ID})=(${ID})\((${ID}),(${ID})\),(${ID})=\3\.state\.currentLine;if\(\1\.length===0\)(return \3\.state\.expansionStderr=(?:(?!function )[^])*?bad array subscript\n\`,"";)let (${ID})=Math\.max\(\.\.\.\1\.map\(\(\[(${ID})\]\)=>typeof \8=="number"\?\8:0\)\)\+1\+`, "g"), to: (all, f, K, e, o, d, ret, h) => // AA
    `let ${f}=__arrayIndex.count(${e},${o},${K}),${d}=${e}.state.currentLine;if(${f}===0)${ret}let ${h}=__arrayIndex.maxIndex(${e},${o},${K})+1+`, count: 1 }, // AA
  { what: "a[-n]=v from the index (AA)", re: new RegExp(String.raw`let (${ID})=(${ID})\((${ID}),(${ID})\);if\(\1\.length===0\)(\{let ${ID}=\3\.state\.currentLine;return\{index:0,error:(?:(?!function )[^])*?\}\})if\((${ID})=Math\.max\(\.\.\.\1\.map\(\(\[(${ID})\]\)=>typeof \7=="number"\?\7:0\)\)\+1\+\6,`, "g"), to: (all, i, K, e, t, body, s) => // AA
    `let ${i}=__arrayIndex.count(${e},${t},${K});if(${i}===0)${body}if(${s}=__arrayIndex.maxIndex(${e},${t},${K})+1+${s},`, count: 1 }, // AA
  { what: "a+=(…) next index from the index (AA)", re: new RegExp(String.raw`let (${ID})=(${ID})\((${ID}),(${ID})\);if\(\1\.length>0\)(${ID})=Math\.max\(\.\.\.\1\.map\(\(\[(${ID})\]\)=>typeof \6=="number"\?\6:0\)\)\+1;else\{`, "g"), to: (all, a, K, e, t, o) => `let ${a}=__arrayIndex.count(${e},${t},${K});if(${a}>0)${o}=__arrayIndex.maxIndex(${e},${t},${K})+1;else{`, count: 1 }, // AA
  { what: "unset 'a[-n]' from the largest index (AA)", re: new RegExp(String.raw`let (${ID})=(${ID})\((${ID}),(${ID})\),(${ID})=\1\.length,(${ID})=\3\.state\.currentLine;if\(\5===0\)(\{(?:(?!continue\})[^])*?continue\})let (${ID})=\5\+(${ID});if\(\8<0\)(\{(?:(?!continue\})[^])*?continue\})let (${ID})=\1\[\8\]\[0\];`, "g"), to: (all, y, K, e, d, S, v, b1, k, g, b2, A) => // AA
    `let ${y}=0,${S}=__arrayIndex.count(${e},${d},${K}),${v}=${e}.state.currentLine;if(${S}===0)${b1}let ${k}=__arrayIndex.maxIndex(${e},${d},${K})+1+${g};if(${k}<0)${b2}let ${A}=${k};`, count: 2 }, // AA
  { what: "${#a[@]} without expanding the array (AA)", re: new RegExp(String.raw`let (${ID})=(${ID})&&\(\2\.type==="DefaultValue"\|\|\2\.type==="AssignDefault"\|\|\2\.type==="UseAlternative"\|\|\2\.type==="ErrorIfUnset"\|\|\2\.type==="Indirection"\),(${ID})=await (${ID})\((${ID}),(${ID}),!\1\);`, "g"), to: (all, o, s, a, ie, e, r) => `if(${s}&&${s}.type==="Length"){let __n=__arrayIndex.wholeLength(${e},${r});if(__n!==null)return __n}${all}`, count: 1 }, // AA
  { what: "compound assignment journal (AA)", re: new RegExp(String.raw`(${ID})=(${ID})\((${ID}),(${ID})\),(${ID})=\1\?(${ID})\(\1\):void 0,(${ID})=\3\.state\.env\.get\(\4\),(${ID})=\(\)=>\{\3\.state\.arrays\?\?=new Map,\5\?\3\.state\.arrays\.set\(\4,\5\):\3\.state\.arrays\.delete\(\4\),((?:(?!function )[^])*?\}catch\((${ID})\)\{throw \8\(\),\10\})`, "g"), to: (all, l, pe, e, n, c, me, u, f, rest) => // AA
    `${l}=${pe}(${e},${n}),${c}=${l}?__arrayIndex.checkpoint(${l}):void 0,${u}=${e}.state.env.get(${n}),${f}=()=>{${e}.state.arrays??=new Map,${c}?${e}.state.arrays.set(${n},__arrayIndex.restore(${c})):${e}.state.arrays.delete(${n}),${rest}finally{__arrayIndex.settle(${c})}`, count: 1 }, // AA
]; // AA
SOURCE_PATCHES.push(...AA_PATCHES); // AA
/** // run 34, fixer GO
 * GO (issue 20, run 34, fixer GO): a command takes its operands literally, and a glob matches every name it matches. // run 34, fixer GO
 * - grep/egrep/fgrep and ls expanded an operand holding `*`, `?` or `[` as a glob a second time, after the shell had // run 34, fixer GO
 *   expanded (or the script quoted) it: `grep -rn h 'app/[id]'` found nothing, `grep h 'f[1].txt'` read f1.txt, // run 34, fixer GO
 *   `ls 'app/[id]'` was ENOENT. GNU grep 3.8 and ls 9.1 take an operand as a path name (POSIX: pathname expansion // run 34, fixer GO
 *   is the shell's, XCU 2.6.6); so `grep x '*.nope'` is `No such file or directory`, as GNU. Every other just-bash // run 34, fixer GO
 *   command already reads its operands as paths (rg included: its paths go straight to its walk). // run 34, fixer GO
 * - The word expansion took a glob whose first match was its own text (`*.log` beside a file named `*.log`) for a // run 34, fixer GO
 *   pattern that matched nothing, and kept the word alone (`rm *.log` left a.log, b.log; `echo *` printed `*`). // run 34, fixer GO
 *   The no-match result is now marked (`unmatched`), so a real match is never mistaken for it (bash 5.2.15, // run 34, fixer GO
 *   pattern matching, XCU 2.13.3: "If the pattern does not match any existing filenames …, the pattern string // run 34, fixer GO
 *   shall be left unchanged"). // run 34, fixer GO
 */ // run 34, fixer GO
const GO_PATCHES = [ // run 34, fixer GO
  // Runs after "grep -r names a walked directory" above, which rewrote this branch; the glob branch is left dead. // run 34, fixer GO
  { what: "grep operands taken literally (GO)", when: 'name:"grep",async execute(', re: new RegExp(String.raw`if\((${ID})\.includes\("\*"\)\|\|\1\.includes\("\?"\)\|\|\1\.includes\("\["\)\)\{let ${ID}=await ${ID}\(\1,`, "g"), to: (all, s) => all.replace(/^if\([^{]*\)\{/, "if(!1){"), count: 1 }, // run 34, fixer GO
  { what: "ls operands taken literally (GO)", when: 'name:"ls",async execute(', re: new RegExp(String.raw`if\((${ID})\.includes\("\*"\)\|\|\1\.includes\("\?"\)\|\|\1\.includes\("\["\)\)\{let ${ID}=await ${ID}\(\1,`, "g"), to: (all, s) => all.replace(/^if\([^{]*\)\{/, "if(!1){"), count: 1 }, // run 34, fixer GO
  { what: "glob no-match marked (GO)", when: "isGlobstarValid", re: new RegExp(String.raw`return (${ID})\.hasNullglob\(\)\?\[\]:\[(${ID})\]\}`, "g"), to: (all, n, t) => `return ${n}.hasNullglob()?[]:Object.assign([${t}],{unmatched:!0})}`, count: 1 }, // run 34, fixer GO
  { what: "glob match equal to its pattern kept (GO)", when: "isGlobstarValid", re: new RegExp(String.raw`(${ID})\.length>0&&\1\[0\]!==${ID}\)return\{values:\1,quoted:!1\}`, "g"), to: (all, c) => `${c}.length>0&&!${c}.unmatched)return{values:${c},quoted:!1}`, count: 2 }, // run 34, fixer GO
]; // run 34, fixer GO
SOURCE_PATCHES.push(...GO_PATCHES); // run 34, fixer GO
/** // run 35, fixer RP
 * RP (issue 20, run 35, fixer RP; helper in isolate/subshell-control.ts): `return`, `break` and `continue` end the // run 35, fixer RP
 * subshell they run in, as bash 5.2.15: a pipeline element (every one, or all but the last under `shopt -s lastpipe`), // run 35, fixer RP
 * a `$( … )`/backquote substitution (in a word, in here-document and `$(( ))` text) and a `<( … )`/`>( … )`. The // run 35, fixer RP
 * return's status (0 for break/continue) is the subshell's exit status and the function or loop around goes on; // run 35, fixer RP
 * just-bash let them unwind into the enclosing function or loop (`f(){ ls | while read x; do return 1; done; // run 35, fixer RP
 * cleanup; }` skipped cleanup). `exit` in the last element under lastpipe ends the shell (it runs in the shell // run 35, fixer RP
 * itself), and a pipeline element ended by `set -u` has status 1, as a `( … )`; `return` outside a function or // run 35, fixer RP
 * sourced script has status 2 (bash's EX_USAGE), not 1. // run 35, fixer RP
 */ // run 35, fixer RP
HELPER_NAMESPACES.push(["__subshellControl", join(isolateDir, "subshell-control.ts")]); // run 35, fixer RP
/** RP: just-bash's control-flow error classes in bundle text `text`, read off the `( … )` subshell's catch. */ // run 35, fixer RP
function rpControl(text) { // run 35, fixer RP
  const found = [...text.matchAll(new RegExp(String.raw`return (${ID}) instanceof (${ID})\|\|\1 instanceof (${ID})\|\|\1 instanceof (${ID})\?\((${ID})\.append\("stdout",\1\.stdout,\1\.internalOutputAccounting\.stdout\),\5\.append\("stderr",\1\.stderr,\1\.internalOutputAccounting\.stderr\),\5\.build\(0\)\):\1 instanceof (${ID})\|\|\1 instanceof (${ID})\|\|\1 instanceof ${ID}\?`, "g"))]; // run 35, fixer RP
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's subshell catch not found once (${found.length}); update RP_PATCHES (run 35, fixer RP)`); // run 35, fixer RP
  const [, , subshellExit, breakError, continueError, , exitError, returnError] = found[0]; // run 35, fixer RP
  return { exitError, call: (e) => `__subshellControl.subshellExit(${e},${returnError},[${breakError},${continueError},${subshellExit}],${exitError})` }; // run 35, fixer RP
} // run 35, fixer RP
const RP_PATCHES = [ // run 35, fixer RP
  { what: "return/break in a pipeline element ends it (RP)", when: "async executePipeline(", re: new RegExp(String.raw`(let (${ID})=(${ID})&&\(!(${ID})\|\|!(${ID})\.state\.shoptOptions\.lastpipe\),(?:(?!function )[^])*?)catch\((${ID})\)\{if\(\6 instanceof (${ID})\)(${ID})=\{stdout:\6\.stdout,stderr:\6\.stderr,exitCode:1\};else if\(\6 instanceof (${ID})&&(${ID})\.commands\.length>1\)\8=\{stdout:\6\.stdout,stderr:\6\.stderr,exitCode:\6\.exitCode\}`, "g"), to: (all, head, k, u, S, e, err, bad, N, exit, t, offset, text) => // run 35, fixer RP
    `${head}catch(${err}){${k}&&(${err}=${rpControl(text).call(err)});if(${err} instanceof ${bad})${N}={stdout:${err}.stdout,stderr:${err}.stderr,exitCode:1};else if(${err} instanceof ${exit}&&${k})${N}={stdout:${err}.stdout,stderr:${err}.stderr,exitCode:__shellOptions.subshellStatus(${err})}`, count: 1 }, // run 35, fixer RP
  { what: "return/break in $( ) ends it (RP)", when: "async executePipeline(", re: new RegExp(String.raw`catch\((${ID})\)\{(?=if\((${ID})\.state\.env=${ID},\2\.state\.arrays=${ID},\2\.state\.cwd=${ID},(?:\2\.[\w.]+=${ID},)*\1 instanceof ${ID}\)throw \1;(?:return \1 instanceof ${ID}\?|if\(\1 instanceof ${ID}\)\{))`, "g"), to: (all, err, e, offset, text) => `${all}${err}=${rpControl(text).call(err)};`, count: 2 }, // run 35, fixer RP
  { what: "return/break in <( ) ends it (RP)", when: "async executePipeline(", re: new RegExp(String.raw`catch\((${ID})\)\{(?=if\(\1 instanceof ${ID}\)throw \1;if\(\1 instanceof ${ID}\)return\{stdout:\1\.stdout,stderr:\1\.stderr,exitCode:\1\.exitCode\};throw \1\})`, "g"), to: (all, err, offset, text) => `${all}${err}=${rpControl(text).call(err)};`, count: 1 }, // run 35, fixer RP
  { what: "return outside a function has status 2 (RP)", when: "async executePipeline(", re: new RegExp(String.raw`return (${ID})\("bash: return: can only \`return' from a function or sourced script\\n"\)`, "g"), to: (all) => `${all.slice(0, -1)},2)`, count: 1 }, // run 35, fixer RP
]; // run 35, fixer RP
SOURCE_PATCHES.push(...RP_PATCHES); // run 35, fixer RP
/** // run 34, fixer CP
 * CP (issue 20, run 34; helpers in src/backends/worker-shell/isolate/chmod-walk.ts and cp-mkdir-extra.ts): `chmod -R` // run 34, fixer CP
 * leaves a link met in the walk and its target alone and recurses through a link operand, and `-v` names and words each // run 34, fixer CP
 * file as GNU chmod 9.1; `cp -n` (`-rn`, `-an`) merges a directory into an existing one, as GNU cp 9.1. // run 34, fixer CP
 */ // run 34, fixer CP
HELPER_NAMESPACES.push(["__chmodWalk", join(isolateDir, "chmod-walk.ts")]); // run 34, fixer CP
/** CP: the one name `re`'s group 1 captures in bundle text `text`. */ // run 34, fixer CP
function cpVar(text, re) { // run 34, fixer CP
  const found = [...text.matchAll(new RegExp(re, "g"))]; // run 34, fixer CP
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's ${re} found ${found.length} times, expected 1; update CP_PATCHES (run 34, fixer CP)`); // run 34, fixer CP
  return found[0][1]; // run 34, fixer CP
} // run 34, fixer CP
const CP_PATCHES = [ // run 34, fixer CP
  { what: "chmod -v of an operand, -R through a link operand (CP)", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`\{let (${ID})=await (${ID})\.fs\.stat\((${ID})\);((?:(?!function )[^])*?\})(${ID})&&(${ID})\.append\(` + "`" + String.raw`mode of '\$\{(${ID})\}' changed to \$\{(${ID})\.toString\(8\)\.padStart\(4,"0"\)\}\n` + "`" + String.raw`\),(${ID})&&\(await \2\.fs\.stat\(\3\)\)\.isDirectory&&await (${ID})\(\2,\3,void 0,(${ID}),\5,\6\)`, "g"), to: (all, g, a, m, mid, f, u, t, h, i, I, r) => // run 34, fixer CP
    `let __chOld;{let ${g}=await ${a}.fs.stat(${m});__chOld=${g}.mode;${mid}${f}&&${u}.append(__chmodWalk.verboseLine(${t},__chOld,${h})),${i}&&(await ${a}.fs.stat(${m})).isDirectory&&await ${I}(${a},${m},void 0,${r},${f},${u},${t})`, count: 1 }, // run 34, fixer CP
  { what: "chmod -R leaves links in the tree alone (CP)", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`async function (${ID})\((${ID}),(${ID}),(${ID}),(${ID}),(${ID}),(${ID})\)\{(let ${ID}=new ${ID}\(\{limits:\2\.limits,signal:\2\.signal,executionScope:\2\.executionScope,site:"chmod"\}\);await ${ID}\(\{fs:\2\.fs,root:\3,)(symlinks:"never",(?:(?!function )[^])*?site:"chmod"\},async (${ID})=>\{if\(\10\.depth===0\|\|\10\.phase!=="enter"\)return;)((?:(?!function )[^])*?)\6&&\7\.append\(` + "`" + String.raw`mode of '\$\{\10\.path\}' changed to \$\{(${ID})\.toString\(8\)\.padStart\(4,"0"\)\}\n` + "`" + String.raw`\)`, "g"), to: (all, I, e, a, i, f, n, r, head, walk, o, body, s) => // run 34, fixer CP
    `async function ${I}(${e},${a},${i},${f},${n},${r},__op){${head}followRoot:!0,${walk}if(${o}.isSymlink){${n}&&${r}.append(__chmodWalk.linkLine(__chmodWalk.walkName(__op,${a},${o}.path)));return}${body}${n}&&${r}.append(__chmodWalk.verboseLine(__chmodWalk.walkName(__op,${a},${o}.path),${o}.stat.mode,${s}))`, count: 1 }, // run 34, fixer CP
  { what: "cp -n merges into an existing directory (CP)", when: 'name:"cp",async execute(', re: new RegExp(String.raw`(?=if\((${ID})\.isDirectory\)\{let ${ID}=await ${ID}\((${ID})\.fs,(${ID}),(${ID}),${ID}\);if\(${ID}\(\3,\4\)\|\|)`, "g"), to: (all, a, e, o, r, offset, text) => { // run 34, fixer CP
    const k = cpVar(text, String.raw`(${ID})=${ID}\.result\.flags\.noClobber`); // run 34, fixer CP
    const cp = cpVar(text, String.raw`(${ID})=\{name:"cp",async execute\(`); // run 34, fixer CP
    const [, t] = new RegExp(String.raw`for\(let (${ID}) of ${ID}\)try\{let ${o.replace(/\$/g, "\\$")}=${e.replace(/\$/g, "\\$")}\.fs\.resolvePath\(${e.replace(/\$/g, "\\$")}\.cwd,\1\),${a.replace(/\$/g, "\\$")}=await `).exec(text) ?? []; // run 34, fixer CP
    if (t === undefined) throw new Error("gen-shell: just-bash's cp changed shape; update CP_PATCHES (run 34, fixer CP)"); // run 34, fixer CP
    const d = cpVar(text, String.raw`let (${ID})=${ID}\.result\.flags\.recursive\|\|`); // run 34, fixer CP
    const preserve = cpVar(text, String.raw`(${ID})=${ID}\.result\.flags\.preserve`); // run 34, fixer CP
    const verbose = cpVar(text, String.raw`(${ID})=${ID}\.result\.flags\.verbose`); // run 34, fixer CP
    const g = cpVar(text, String.raw`let (${ID})=${ID}\.pop\(\)\?\?""`); // run 34, fixer CP
    const f2 = cpVar(text, String.raw`if\(${ID}\.length>1&&!(${ID})\)return\{`); // run 34, fixer CP
    const y = cpVar(text, String.raw`(${ID})\+=` + "`" + String.raw`'\$\{${ID}\}' -> '`); // run 34, fixer CP
    const err = cpVar(text, String.raw`if\(__destFailure!==null\)\{(${ID})\+=__destFailure,`); // run 34, fixer CP
    const code = cpVar(text, String.raw`if\(__destFailure!==null\)\{${ID}\+=__destFailure,(${ID})=1;continue\}`); // run 34, fixer CP
    return `if(${k}){let __nc=await __cpMkdir.noClobberCopy(${e}.fs,{recursive:${d},preserve:${preserve},verbose:${verbose}},${t},${o},${a},__pathErrors.destOperand(${t},${g},${f2}),${r},(__a)=>${cp}.execute(__a,${e}));if(__nc!==null){${y}+=__nc.stdout,${err}+=__nc.stderr,__nc.exitCode!==0&&(${code}=__nc.exitCode);continue}}`; // run 34, fixer CP
  }, count: 1 }, // run 34, fixer CP
  { what: "chmod of a dangling link operand (CP)", when: 'name:"chmod",async execute(', re: new RegExp(String.raw`(${ID})\+=__pathErrors\.chmodFailure\((${ID}),(${ID})\)`, "g"), to: (all, l, t, h, offset, text) => { // run 34, fixer CP
    const [, m, a] = new RegExp(String.raw`for\(let ${t.replace(/\$/g, "\\$")} of ${ID}\)\{let (${ID})=(${ID})\.fs\.resolvePath\(\2\.cwd,${t.replace(/\$/g, "\\$")}\);`).exec(text) ?? []; // run 34, fixer CP
    if (a === undefined) throw new Error("gen-shell: just-bash's chmod changed shape; update CP_PATCHES (run 34, fixer CP)"); // run 34, fixer CP
    return `${l}+=await __chmodWalk.operandFailure(${a}.fs,${m},${t},__pathErrors.chmodFailure(${t},${h}))`; // run 34, fixer CP
  }, count: 1 }, // run 34, fixer CP
]; // run 34, fixer CP
SOURCE_PATCHES.push(...CP_PATCHES); // run 34, fixer CP
// Issue 20, run 37, fixer SH (helpers in isolate/sort-keys.ts, isolate/awk.ts, isolate/text-tools.ts): // fixer SH
// - sort: the `g` ordering (general numeric, GNU's general_numcompare) in a key (`-k2,2g`, `-t, -k2g`, `-k2,2gr`) and // fixer SH
//   globally (`-g`, `--general-numeric-sort`); a key with `R`/`i` (not implemented) and GNU's incompatible orderings // fixer SH
//   (`-k2gn`, `-gn`) refused with status 2 — just-bash's key parser had no `g`, and the key was sorted as text; // fixer SH
// - awk: every assignment to NF rebuilds $0 with OFS (`NF=NF`, `NF+=0`, `NF=2` on a 2-field line; gawk's set_NF); // fixer SH
//   printf's `%u`, the `#` flag of `%o %x %X`, C's unsigned 64-bit `%u %o %x %X` of a negative value, `%.d`/`%.0d` of 0 // fixer SH
//   (gawk 5.2.1's format_tree); `%.` with no digits is precision 0; `%c` of a code point, widths in bytes; // fixer SH
// - column -t -s SEP: every separator character ends a cell (empty cells kept), rows as wide as the widest, util-linux 2.38.1. // fixer SH
const SH37_PATCHES = [ // fixer SH
  { what: "sort g key options (fixer SH)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`let (${ID})=(${ID})\(__k\.spec\);\1&&(${ID})\.keys\.push\(\1\)`, "g"), to: (all, f, y, e) => `let ${f}=${y}(__k.spec);${f}&&${e}.keys.push(__sortKeys.keyOptions(${f},__k.spec))`, count: 1 }, // fixer SH
  { what: "sort -g long and short option (fixer SH)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`if\((${ID})==="-r"\|\|\1==="--reverse"\)(${ID})\.reverse=!0;`, "g"), to: (all, t, e) => `if(${t}==="-g"||${t}==="--general-numeric-sort")${e}.generalNumeric=!0;else ${all}`, count: 1 }, // fixer SH
  { what: "sort -g in a cluster (fixer SH)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`for\(let (${ID}) of (${ID})\.slice\(1\)\)if\(\1==="r"\)(${ID})\.reverse=!0;`, "g"), to: (all, f, t, e) => `for(let ${f} of ${t}.slice(1))if(${f}==="g")${e}.generalNumeric=!0;else if(${f}==="r")${e}.reverse=!0;`, count: 1 }, // fixer SH
  { what: "sort g comparison (fixer SH)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`(function ${ID}\(${ID},${ID},(${ID})\)\{let (${ID})=${ID},(${ID})=${ID};(?:(?!function )[^])*?)if\(\2\.humanNumeric\)`, "g"), to: (all, head, e, l, s) => `${head}if(${e}.generalNumeric)return __sortKeys.compareGeneral(${l},${s});if(${e}.humanNumeric)`, count: 1 }, // fixer SH
  { what: "sort g passed to the comparison (fixer SH)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`(function ${ID}\((${ID})\)\{let\{keys:${ID},fieldDelimiter:(?:(?!function )[^])*?\{numeric:${ID},ignoreCase:${ID},humanNumeric:${ID},versionSort:${ID},dictionaryOrder:${ID},monthSort:${ID})\}((?:(?!function )[^])*?,monthSort:(${ID})\.monthSort\?\?${ID})\}`, "g"), to: (all, head, u, mid, m) => `${head},generalNumeric:${u}.generalNumeric}${mid},generalNumeric:${m}.generalNumeric}`, count: 1 }, // fixer SH
  { what: "sort ordering refusals (fixer SH)", when: 'name:"sort",async execute(', re: new RegExp(String.raw`let (${ID})=(${ID})\((${ID})\.unique\?\{\.\.\.\3,stable:!0\}:\3\);if\(\3\.checkOnly\)`, "g"), to: (all, d, b, e) => `{let __o=__sortKeys.orderingError(${e});if(__o)return __o}${all}`, count: 1 }, // fixer SH
  { what: "awk NF assignment rebuilds $0 (fixer SH)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`case"NF":\{let (${ID})=Math\.floor\((${ID})\((${ID})\)\);if\(\1<(${ID})\.NF\)\4\.fields=\4\.fields\.slice\(0,\1\),\4\.line=\4\.fields\.join\(\4\.OFS\);else if\(\1>\4\.NF\)\{for\(;\4\.fields\.length<\1;\)\4\.fields\.push\(""\);\4\.line=\4\.fields\.join\(\4\.OFS\)\}\4\.NF=\1;return\}`, "g"), to: (all, r, b, n, e) => // fixer SH
    `case"NF":{let ${r}=Math.trunc(${b}(${n}));if(${r}<0)throw new Error("NF set to negative value");${e}.fields.length>${r}&&(${e}.fields=${e}.fields.slice(0,${r}));for(;${e}.fields.length<${r};)${e}.fields.push("");${e}.line=${e}.fields.join(__awk.str(${e},${e}.OFS)),${e}.NF=${r};return}`, count: 1 }, // fixer SH
  { what: "awk printf %. precision 0 (fixer SH)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`else for\(;(${ID})<(${ID})\.length&&/\\d/\.test\(\2\[\1\]\);\)(${ID})\+=\2\[\1\+\+\];(if\(\3&&parseInt\(\3,10\)>${ID}\)throw new ${ID}\(\`printf precision limit)`, "g"), to: (all, u, e, C, tail) => `else{for(;${u}<${e}.length&&/\\d/.test(${e}[${u}]);)${C}+=${e}[${u}++];${C}===""&&(${C}="0")}${tail}`, count: 1 }, // fixer SH
  { what: "awk printf integer conversions (fixer SH)", when: 'OFMT:"%.6g"', re: new RegExp(String.raw`(,(${ID})=(${ID})=>\{let ${ID}=${ID}\(\3\);if\(${ID}>${ID}-${ID}\)throw new ${ID}\(\`formatted string size limit(?:(?!switch\()[^])*?let (${ID})=${ID}\+1,(${ID})="",(${ID})="",(${ID})="",(${ID}),${ID}=\4;(?:(?!switch\()[^])*?let (${ID})=${ID}\[${ID}\],(${ID})=${ID}\[\8!==void 0\?\8:(${ID})\];__awk\.printfArgument\(\10,\9\);)switch\(\9\)\{`, "g"), to: (all, head, c, u, o, f, k, C, A, W, y, r) => // fixer SH
    `${head}if("diouxXc".includes(${W})){${c}(${W}==="c"?__awk.formatChar(${f},${k},${y}):__awk.formatIntegerConversion(${W},${f},${k},${C},${y})),${A}===void 0&&${r}++}else switch(${W}){`, count: 1 }, // fixer SH
  { what: "column -t -s keeps empty cells (fixer SH)", when: 'name:"column",summary:', re: new RegExp(String.raw`return (${ID})\?(${ID})\?(${ID})\.split\(\1,(${ID})\):\3\.split\(\1,\4\)\.filter\((${ID})=>\5\.length>0\):`, "g"), to: (all, e, i, t, l) => `return ${e}?__textTools.columnCells(${t},${e},${l}):`, count: 1 }, // fixer SH
  { what: "column -t rows as wide as the widest (fixer SH)", when: 'name:"column",summary:', re: new RegExp(String.raw`for\(let (${ID})=0;\1<(${ID})\.length;\1\+\+\)\1>0&&(${ID})\.append\((${ID})\),\3\.append\(\2\[\1\]\),\1<\2\.length-1&&\3\.repeat\(" ",(${ID})\[\1\]-\2\[\1\]\.length\)`, "g"), to: (all, o, r, n, e, l) => // fixer SH
    `for(let ${o}=0;${o}<${l}.length;${o}++){let __v=${r}[${o}]??"";${o}>0&&${n}.append(${e}),${n}.append(__v),${o}<${l}.length-1&&${n}.repeat(" ",${l}[${o}]-__v.length)}`, count: 1 }, // fixer SH
]; // fixer SH
SOURCE_PATCHES.push(...SH37_PATCHES); // fixer SH
/** // fixer SP
 * SP (issue 20, run 38, fixer SP; helper in isolate/pipeline-subshell.ts): each pipeline element bash runs in a // fixer SP
 * subshell (every one, or all but the last under `shopt -s lastpipe`) gets the isolation just-bash's `( … )` gets: // fixer SP
 * its state snapshot and umask put back, its own $BASHPID and trap table, shared descriptors' reads kept. just-bash // fixer SP
 * put back only variables and arrays, so `cd`, `set -e`, `shopt`, `umask`, `unset -f`, `trap … EXIT` leaked. // fixer SP
 */ // fixer SP
HELPER_NAMESPACES.push(["__pipelineSubshell", join(isolateDir, "pipeline-subshell.ts")]); // fixer SP
/** SP: just-bash's subshell snapshot and descriptor functions, read off its `( … )` executor in bundle text `text`. */ // fixer SP
function sp38Parts(text) { // fixer SP
  const re = new RegExp(String.raw`async function ${ID}\((${ID}),${ID},${ID},${ID},${ID}=!1\)\{let ${ID}=\1\.state\.loopDepth,${ID}=new Map;for\(let (${ID}) of \1\.state\.fileDescriptors\?\.keys\(\)\?\?\[\]\)\{let ${ID}=(${ID})\(\1,\2\);(?:(?!function )[^])*?__umask\.keepUmask\(\1\.fs,(${ID})\(\1\.state\)\);(?:(?!function )[^])*?let ${ID}=Math\.min\(\.\.\.(${ID})\(\1,${ID}\)\);(?:(?!function )[^])*?for\(let\[(${ID}),(${ID})\]of ${ID}\)(${ID})\(\1,\6,\7\)\}\}`, "g"); // fixer SP
  const found = [...text.matchAll(re)]; // fixer SP
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's ( … ) executor not found once (${found.length}); update SP38_PATCHES (run 38, fixer SP)`); // fixer SP
  const [, , , entry, snapshot, aliases, , , advance] = found[0]; // fixer SP
  return `{snapshot:${snapshot},entry:${entry},aliases:${aliases},advance:${advance}}`; // fixer SP
} // fixer SP
const SP38_PATCHES = [ // fixer SP
  { what: "a pipeline element runs as a subshell (SP)", when: "async executePipeline(", re: new RegExp(String.raw`try\{(${ID})\.state\.commandCount=\1\.executionScope\.chargeCommand\(\),(${ID})=await (${ID})\((${ID}),(${ID})\)\}catch\((${ID})\)\{(${ID})&&\(\6=__subshellControl\.`, "g"), to: (all, e, N, n, y, s, err, k, offset, text) => // fixer SP
    `try{${e}.state.commandCount=${e}.executionScope.chargeCommand(),${N}=await (${k}?__pipelineSubshell.pipelineElement(${e},${sp38Parts(text)},()=>${n}(${y},${s})):${n}(${y},${s}))}catch(${err}){${k}&&(${err}=__subshellControl.`, count: 1 }, // fixer SP
  // SP: `shopt -s inherit_errexit` is a real option (just-bash listed it as a no-op): `$( )` keeps `set -e` with it // fixer SP
  // (isolate/shell-options.ts commandSubstitution reads it), as bash 5.2; `shopt`, `shopt -p` and $BASHOPTS show it. // fixer SP
  { what: "inherit_errexit is an option (SP)", when: "async executePipeline(", re: /"expand_aliases","lastpipe","xpg_echo"\]/g, to: `"expand_aliases","inherit_errexit","lastpipe","xpg_echo"]`, count: 1 }, // fixer SP
  { what: "inherit_errexit is not a no-op (SP)", when: "async executePipeline(", re: /"inherit_errexit",(?="interactive_comments","lithist")/g, to: "", count: 1 }, // fixer SP
  { what: "inherit_errexit starts off (SP)", when: "async executePipeline(", re: /expand_aliases:!1,lastpipe:!1,xpg_echo:!1\}/g, to: "expand_aliases:!1,inherit_errexit:!1,lastpipe:!1,xpg_echo:!1}", count: 1 }, // fixer SP
  { what: "inherit_errexit in BASHOPTS (SP)", when: "async executePipeline(", re: /"globskipdots","globstar","lastpipe","nocaseglob"/g, to: `"globskipdots","globstar","inherit_errexit","lastpipe","nocaseglob"`, count: 1 }, // fixer SP
  // SP: `shopt NAME`, `shopt`, `set -o`, `shopt -o NAME` print each option as bash's "%-15s\t%s" (builtins/shopt.def, // fixer SP
  // set.def), not name + two tabs: `extglob        \ton`. // fixer SP
  { what: "option listing columns (SP)", when: "async executePipeline(", re: new RegExp(String.raw`\$\{(${ID})\}\t\t(?=\$\{|on\x60|off\x60)`, "g"), to: (all, name) => `\${${name}.padEnd(15)}\t`, count: 8 }, // fixer SP
  { what: "set -o listing columns (SP)", when: "async executePipeline(", re: new RegExp(String.raw`(=>\x60\$\{${ID})\.padEnd\(16\)\}`, "g"), to: (all, head) => `${head}.padEnd(15)}\t`, count: 2 }, // fixer SP
]; // fixer SP
SOURCE_PATCHES.push(...SP38_PATCHES); // fixer SP
/** // run 39, fixer ST
 * ST (issue 20, run 39, fixer ST; helpers in isolate/script-builtins.ts): a function call puts its caller's ERR trap // run 39, fixer ST
 * aside without `set -E` and brings it back on return unless the function set its own (bash's execute_function), // run 39, fixer ST
 * so a trap the function sets fires for its own failures; readonly variables are refused by every assignment form // run 39, fixer ST
 * as bash 5.2 (see ST39_PATCHES' comments). // run 39, fixer ST
 */ // run 39, fixer ST
const ST39_PATCHES = [ // run 39, fixer ST
  { what: "function entry puts the ERR trap aside (run 39, fixer ST)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(${ID})\.state\.sourceStack\.unshift\((${ID})\.sourceFile\?\?"main"\),`, "g"), to: (all, e) => `${all}__scriptBuiltins.enterFunction(${e}),`, count: 1 }, // run 39, fixer ST
  { what: "function return brings the ERR trap back (run 39, fixer ST)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(${ID})\.state\.sourceStack\?\.shift\(\),\1\.state\.callDepth--`, "g"), to: (all, e) => `${e}.state.sourceStack?.shift(),__scriptBuiltins.leaveFunction(${e}),${e}.state.callDepth--`, count: 1 }, // run 39, fixer ST
  // bash runs the ERR trap after a failed pipeline only if an ERR trap was set when the pipeline began // run 39, fixer ST
  // (execute_cmd.c was_error_trap): `f() { trap 'echo f' ERR; false; }; f` runs it for the `false`, not for `f`. // run 39, fixer ST
  { what: "ERR trap armed when a pipeline begins (run 39, fixer ST)", when: "async executePipeline(", re: new RegExp(String.raw`async executePipeline\((${ID})\)\{`, "g"), to: (all, t) => `async executePipeline(${t}){return __scriptBuiltins.armedPipeline(this.ctx,()=>this.__stPipeline(${t}))}async __stPipeline(${t}){`, count: 1 }, // run 39, fixer ST
  // Readonly variables (isolate/readonly-vars.ts): the declaration builtins, read and mapfile fail only themselves for // run 39, fixer ST
  // one (just-bash's check threw its ExitError, ending the script); `for` and arithmetic refuse one (they assigned it). // run 39, fixer ST
  { what: "declare/typeset/readonly refuse a readonly operand (run 39, fixer ST)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`if\((${ID})==="(declare|readonly)"(\|\|\1==="typeset")?\)return (${ID})\((${ID}),(${ID})\)`, "g"), to: (all, t, _b, _ty, f, c, n) => `if(${all.slice(3, all.indexOf(")return"))})return __readonlyVars.declarationGuard(${c},${t},${n},__n=>${f}(${c},__n))`, count: 2 }, // run 39, fixer ST
  { what: "local and export refuse a readonly operand (run 39, fixer ST)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(?<=[(,])(${ID})==="(local|export)"\)return (__arrayAssign\.local|__shellOptions\.exportBuiltin)\((${ID}),(${ID}),((?:${ID},)*${ID})\)`, "g"), to: (all, t, _b, f, c, n, more) => `${t}==="${_b}")return __readonlyVars.declarationGuard(${c},${t},${n},__n=>${f}(${c},__n,${more}))`, count: 2 }, // run 39, fixer ST
  { what: "read refuses a readonly name (run 39, fixer ST)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`if\((${ID})==="read"\)return (${ID})\((${ID}),(${ID}),(${ID}),(${ID})\)`, "g"), to: (all, t, f, c, n, s, a) => `if(${t}==="read")return __readonlyVars.readGuard(${c},${n},__n=>${f}(${c},__n,${s},${a}))`, count: 1 }, // run 39, fixer ST
  { what: "mapfile refuses a readonly name (run 39, fixer ST)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`if\((${ID})==="mapfile"\|\|\1==="readarray"\)return (${ID})\((${ID}),(${ID}),`, "g"), to: (all, t, f, c, n) => `if(${t}==="mapfile"||${t}==="readarray")return __readonlyVars.mapfileRefusal(${c},${n})??${f}(${c},${n},`, count: 1 }, // run 39, fixer ST
  { what: "for refuses a readonly name (run 39, fixer ST)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(${ID})\.state\.loopDepth\+\+;(try\{for\(let (${ID}) of (${ID})\)\{${ID}\+\+,${ID}>\1\.limits\.maxLoopIterations&&${ID}\(\`for loop: too many iterations(?:(?!function )[^])*?\1\.state\.env\.set\((${ID})\.variable,\3\);)`, "g"), to: (all, e, tail, _o, i, t) => `{let __ro=__readonlyVars.forRefusal(${e},${t}.variable,${i}.length);if(__ro)return __ro}${e}.state.loopDepth++;${tail}`, count: 1 }, // run 39, fixer ST
  { what: "arithmetic refuses a readonly variable (run 39, fixer ST)", when: '"exponent less than 0"', re: new RegExp(String.raw`(async function (${ID})\((${ID}),(${ID}),(${ID}),(${ID})\)\{let (${ID})=\((${ID}),(${ID})=\5\)=>\2\(\3,\8,\9,\6\);)(switch\(\4\.type\))`, "g"), to: (all, head, _ln, e, t, ...rest) => {
    const found = [...rest.at(-1).matchAll(new RegExp(String.raw`if\((${ID}) instanceof (${ID})\)\{let ${ID}=\`bash: line \$\{${ID}\.state\.currentLine\}: \$\{${ID}\}: \$\{\1\.message\}\n\`;if\(\1\.fatal\)`, "g"))]; // run 39, fixer ST
    if (found.length !== 1) throw new Error(`gen-shell: just-bash's ArithmeticError not found once (${found.length}; run 39, fixer ST)`); // run 39, fixer ST
    return `${head}__readonlyVars.arithReadonly(${e},${t},${found[0][2]});${rest.at(-3)}`; // run 39, fixer ST
  }, count: 1 }, // run 39, fixer ST
]; // run 39, fixer ST
SOURCE_PATCHES.push(...ST39_PATCHES); // run 39, fixer ST
HELPER_NAMESPACES.push(["__readonlyVars", join(isolateDir, "readonly-vars.ts")]); // run 39, fixer ST
/** // SA39
 * SA39 (issue 20, run 39, fixer SA; helpers in src/backends/worker-shell/isolate/array-fields.ts): a word holding a // SA39
 * multi-field expansion (`${a[@]…}`, `$@`, `${!m[@]}`, unquoted `${a[*]…}`) with other text or a second expansion // SA39
 * expands to one field per element, the text before joined to the first and after to the last, any operation applied // SA39
 * to each element, then split and globbed as bash 5.2 (`${a[@]%.c}.o`, `"${a[@]:1}/"`, `"${a[@]}${a[@]}"`). // SA39
 */ // SA39
HELPER_NAMESPACES.push(["__arrayFields", join(isolateDir, "array-fields.ts")]); // SA39
/** SA39: just-bash's glob test, glob expander, limited push and limit error, found by the brace-word expander and word splitter. */ // SA39
function sa39Names(text) { // SA39
  const op = [...text.matchAll(new RegExp(String.raw`async function ${ID}\((${ID}),(${ID}),(${ID})\)\{let (${ID})=\[\];for\(let (${ID}) of \2\)if\(!\(!\3&&\5===""\)\)if\(!\3&&!\1\.state\.options\.noglob&&(${ID})\(\5,\1\.state\.shoptOptions\.extglob\)\)\{let ${ID}=await (${ID})\(\1,\5\);`, "g"))]; // SA39
  const push = [...text.matchAll(new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),${ID}\)\{if\(\3\.length>=\2\.limits\.maxArrayElements\)throw new (${ID})\(\`word splitting element limit exceeded`, "g"))]; // SA39
  if (op.length !== 1 || push.length !== 1) throw new Error(`gen-shell: just-bash's brace-word expander or word-splitting push not found once (${op.length}, ${push.length}; SA39)`); // SA39
  return { hasGlob: op[0][6], glob: op[0][7], push: push[0][1], LimitError: push[0][4] }; // SA39
} // SA39
HELPER_NAMESPACES.push(["__braceWords", join(isolateDir, "brace-words.ts")]); // SA39
/** SA39: the body of just-bash's parseBraceExpansion with its comma test and alternative split made quote-aware. */ // SA39
function sa39BraceBody(body, inner) { // SA39
  const esc = inner.replace(/\$/g, "\\$"); // SA39
  const comma = new RegExp(String.raw`\b${esc}\.includes\(","\)`, "g"); // SA39
  const splitter = new RegExp(String.raw`\b${ID}\(${esc}\)\.map\(`, "g"); // SA39
  if ((body.match(comma) ?? []).length !== 2 || (body.match(splitter) ?? []).length !== 2) throw new Error("gen-shell: just-bash's parseBraceExpansion changed shape (SA39)"); // SA39
  return body.replace(comma, `__braceWords.hasComma(${inner})`).replace(splitter, `__braceWords.split(${inner}).map(`); // SA39
} // SA39
const SA39_PATCHES = [ // SA39
  { what: "brace expression read outside quotes (SA39)", when: '"bash:expansion:word_glob"', re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID}),(${ID}),(${ID})\)\{let (${ID})=${ID}\(\2,\3,\4,"\{","\}"\);if\(\6===-1\)return null;let (${ID})=\3\.slice\(\4\+1,\6\),((?:(?!function )[^])*?\})(?=function )`, "g"), to: (all, f, e, t, n, r, s, i, body) => `function ${f}(${e},${t},${n},${r}){let ${s}=__braceWords.close(${t},${n});if(${s}===-1)return null;let ${i}=${t}.slice(${n}+1,${s}),${sa39BraceBody(body, i)}`, count: 1 }, // SA39
  { what: "array expansion with adjacent text; quoted brace alternatives (SA39)", when: '"bash:expansion:word_glob"', re: new RegExp(String.raw`(async function (${ID})\((${ID}),(${ID}),(${ID})\)\{\3\.coverage\?\.hit\("bash:expansion:word_glob"\);let (${ID})=[^;]*?;)if\((${ID})&&\7\.length>1\)(return ${ID}\(\3,\7,${ID}\);)`, "g"), to: (all, head, f, e, t, n, r, d, ret, ...rest) => {
    const x = sa39Names(rest.at(-1)); // SA39
    const tooMany = `tooMany:(__k)=>{if(__k>${e}.limits.maxArrayElements)${x.push}(${e},{length:__k,push(){}},"")}`; // SA39
    const braces = `{let __bw=await __braceWords.expandWords(${r},${e}.limits.maxBraceExpansionResults,{braces:(__w)=>${n}.expandWordWithBracesAsync(${e},__w),expand:(__w)=>${f}(${e},__w,${n}),${tooMany},limitError:(__m)=>new ${x.LimitError}(__m,"array_elements")});if(__bw!==null)return __bw}`; // SA39
    return `${head}if(${d}&&${d}.length>1){${braces}${ret}}{let __af=await __arrayFields.expandFields(${e},${r},{alone:(__w)=>${f}(${e},__w,${n}),expandPart:${n}.expandPart,hasGlob:${x.hasGlob},glob:${x.glob},${tooMany}});if(__af!==null)return __af}`; // SA39
  }, count: 1 }, // SA39
]; // SA39
SOURCE_PATCHES.push(...SA39_PATCHES); // SA39
/** // run 40, fixer f40sh
 * SH40 (issue 20, run 40, fixer f40sh; helpers in isolate/heredoc-eof.ts and isolate/script-builtins.ts): a // run 40, fixer f40sh
 * here-document without its end line runs to the end of the caller's script with bash's warning (the lexer stops it // run 40, fixer f40sh
 * before the worker's group end, __heredocEof.GROUP_END); `$BASH_COMMAND` is the simple command running (in a trap: // run 40, fixer f40sh
 * the one running when it began), as bash 5.2. // run 40, fixer f40sh
 */ // run 40, fixer f40sh
HELPER_NAMESPACES.push(["__heredocEof", join(isolateDir, "heredoc-eof.ts")]); // run 40, fixer f40sh
/** SH40: just-bash's serializers of a simple command (its assignments, name and words) and of one word. */ // run 40, fixer f40sh
function sh40Serializers(text) { // run 40, fixer f40sh
  const found = [...text.matchAll(new RegExp(String.raw`function (${ID})\((${ID})\)\{let (${ID})=\[\];for\(let (${ID}) of \2\.assignments\)\3\.push\(${ID}\(\4\)\);\2\.name&&\3\.push\((${ID})\(\2\.name\)\)`, "g"))]; // run 40, fixer f40sh
  if (found.length !== 1) throw new Error(`gen-shell: just-bash's simple command serializer not found once (${found.length}; SH40)`); // run 40, fixer f40sh
  return { words: found[0][1], word: found[0][5] }; // run 40, fixer f40sh
} // run 40, fixer f40sh
const SH40_PATCHES = [ // run 40, fixer f40sh
  { what: "an open here-document ends where the caller's script does (SH40)", when: "readHeredocContent(){", re: new RegExp(String.raw`(readHeredocContent\(\)\{for\(;this\.pendingHeredocs\.length>0;\)\{let (${ID})=this\.pendingHeredocs\.shift\(\);if\(!\2\)break;let ${ID}=this\.pos,${ID}=this\.line,${ID}=this\.column,${ID}="",${ID}=!1;)for\(;this\.pos<this\.input\.length;\)((?:(?!readHeredocDelimiterToken)[^])*?)(this\.tokens\.push\(\{type:${ID}\.HEREDOC_CONTENT,value:${ID},start:${ID},end:this\.pos,line:(${ID}),column:${ID},heredocTerminated:(${ID})\}\))`, "g"), to: (all, head, t, body, push, line, o) => `${head}let __hdEnd=__heredocEof.limit(this.input);for(;this.pos<__hdEnd;)${body}${o}||__heredocEof.unterminated(this.input,${line},${t}.delimiter),${push}`, count: 1 }, // run 40, fixer f40sh
  { what: "a parse notes its open here-documents (SH40)", when: "readHeredocContent(){", re: new RegExp(String.raw`function (${ID})\((${ID}),(${ID})\)\{return new (${ID})\(\)\.parse\(\2,\3\)\}`, "g"), to: (all, f, e, t, Q) => `function ${f}(${e},${t}){return __heredocEof.parsed(()=>new ${Q}().parse(${e},${t}))}`, count: 1 }, // run 40, fixer f40sh
  { what: "a script's stderr ends with its here-document warnings (SH40)", when: "readHeredocContent(){", re: new RegExp(String.raw`(${ID})=\(__leadsL2\.markTop\((${ID})\),(await __umask\.withUmask\(this\.fs,\(\)=>new ${ID}\(${ID},${ID}\)\.executeScript\(\2\)\))\)`, "g"), to: (all, n, S, run) => `${n}=(__leadsL2.markTop(${S}),__heredocEof.withWarnings(${S},${run}))`, count: 1 }, // run 40, fixer f40sh
  { what: "a simple command is noted for $BASH_COMMAND (SH40)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`(async executeSimpleCommandInner\((${ID}),${ID},${ID}\)\{if\()(\2\.line!==void 0&&\(this\.ctx\.state\.currentLine=\2\.line\),)`, "g"), to: (all, head, t, rest) => `${head}__scriptBuiltins.noteCommand(this.ctx.state,${t}),${rest}`, count: 1 }, // run 40, fixer f40sh
  { what: "$BASH_COMMAND (SH40)", when: "readHeredocContent(){", re: new RegExp(String.raw`case"BASH_VERSION":return (${ID});case"!":return String\((${ID})\.state\.lastBackgroundPid\);`, "g"), to: (all, v, e, ...rest) => {
    const x = sh40Serializers(rest.at(-1)); // run 40, fixer f40sh
    return `case"BASH_COMMAND":return __scriptBuiltins.bashCommand(${e}.state,${x.words},${x.word});${all}`; // run 40, fixer f40sh
  }, count: 1 }, // run 40, fixer f40sh
]; // run 40, fixer f40sh
SOURCE_PATCHES.push(...SH40_PATCHES); // run 40, fixer f40sh
HELPER_NAMESPACES.push(["__readonlyFunctions", join(isolateDir, "readonly-functions.ts")]); // run 40, fixer f40sh
const RF40_PATCHES = [ // run 40, fixer f40sh: readonly -f (isolate/readonly-functions.ts)
  { what: "readonly -f (RF40)", when: "readHeredocContent(){", re: new RegExp(String.raw`(function ${ID}\((${ID}),(${ID})\)\{)(let ${ID}=\{maxElements:\2\.limits\.maxArrayElements,maxStringBytes:\2\.limits\.maxStringLength\},${ID}=!1,${ID}=!1,${ID}=!1,${ID}=\[\];for\(let (${ID})=0;\5<\3\.length;\5\+\+\)\{let (${ID})=\3\[\5\];if\(\6==="-a"\))`, "g"), to: (all, head, e, t, rest) => `${head}{let __rf=__readonlyFunctions.builtin(${e},${t});if(__rf)return __rf}${rest}`, count: 1 }, // run 40, fixer f40sh
  { what: "a readonly function is not redefined (RF40)", when: "readHeredocContent(){", re: new RegExp(String.raw`(function ${ID}\((${ID}),(${ID})\)\{)(if\(\2\.state\.options\.posix&&${ID}\.has\(\3\.name\)\))`, "g"), to: (all, head, e, t, rest) => `${head}{let __rf=__readonlyFunctions.redefinition(${e},${t}.name);if(__rf)return __rf}${rest}`, count: 1 }, // run 40, fixer f40sh
  { what: "unset -f refuses a readonly function (RF40)", when: "readHeredocContent(){", re: new RegExp(String.raw`(async function ${ID}\((${ID}),(${ID})\)\{let (${ID})="both",(${ID})="",(${ID})=0;for\(let (${ID}) of \3\)\{if\(\7==="-v"\)\{\4="variable";continue\}if\(\7==="-f"\)\{\4="function";continue\}if\(\4==="function"\)\{)`, "g"), to: (all, head, e, t, n, r, s, i) => `${head}{let __rf=__readonlyFunctions.unsetRefusal(${e},${i});if(__rf){${r}+=__rf,${s}=1;continue}}`, count: 1 }, // run 40, fixer f40sh
  { what: "mapfile -C runs its callback (RF40)", when: "async executeSimpleCommand(", re: new RegExp(String.raw`return __readonlyVars\.mapfileRefusal\((${ID}),(${ID})\)\?\?(${ID}\(\1,\2,[^;]*?\));`, "g"), to: (all, c, n, call) => `return __readonlyVars.mapfileRefusal(${c},${n})??__scriptBuiltins.mapfileCallback(${c},${n},()=>${call});`, count: 1 }, // run 40, fixer f40sh
]; // run 40, fixer f40sh
SOURCE_PATCHES.push(...RF40_PATCHES); // run 40, fixer f40sh
async function generate() {
  await init;
  const result = await build({
    entryPoints: { shell: join(isolateDir, "shell.ts") },
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: "esm",
    write: false,
    outdir: "/out",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "import"],
    external: ["cloudflare:*", "node:*", ...STUBBED],
    metafile: true,
    target: "es2022",
    chunkNames: "[name]-[hash]",
    legalComments: "none",
    // just-bash calls createRequire(import.meta.url); a Dynamic Worker module has no URL.
    define: { "import.meta.url": JSON.stringify("file:///shell.js") },
    plugins: [justBashPatches, justBashRedirectPatch, justBashDotOperandPatch, justBashLinkOperandPatch, justBashSourcePatch],
    logLevel: "error",
  });
  if (redirectPatched !== 1) throw new Error(`gen-shell: patched ${redirectPatched} just-bash bundles for redirect failures, expected 1; update the patch in scripts/gen-shell.mjs`);
  const missing = Object.keys(DOT_PATCHES).filter((name) => !dotPatched.has(name));
  if (missing.length > 0) throw new Error(`gen-shell: found no just-bash chunk for ${missing.join(", ")} to patch for dot operands; update DOT_PATCHES in scripts/gen-shell.mjs`);
  const unlinked = Object.keys(LINK_PATCHES).filter((name) => !linkPatched.has(name));
  if (unlinked.length > 0) throw new Error(`gen-shell: found no just-bash chunk for ${unlinked.join(", ")} to patch for link operands; update LINK_PATCHES in scripts/gen-shell.mjs`);
  if (justBashPatched !== 1) {
    throw new Error(`gen-shell: patched ${justBashPatched} just-bash encoding chunks, expected exactly 1; update the patch in scripts/gen-shell.mjs`);
  }
  // Output module name (as the Worker's module map keys it) → text.
  const text = new Map();
  for (const f of result.outputFiles) text.set(relative("/out", f.path), f.text);
  // Static and dynamic imports of each module (relative specifiers only).
  const imports = new Map();
  for (const [name, src] of text) {
    const [found] = parse(src, name);
    const statics = [], dynamics = [];
    for (const i of found) {
      if (typeof i.specifier !== "string" || !i.specifier.startsWith("./")) continue;
      (i.type === "dynamic" ? dynamics : statics).push(i.specifier.slice(2));
    }
    imports.set(name, { statics, dynamics });
  }
  // Everything `starts` can load, statically or by import(), except other groups' command chunks.
  const closure = (starts, skip) => {
    const seen = new Set();
    const stack = [...starts];
    while (stack.length) {
      const m = stack.pop();
      if (seen.has(m) || skip.has(m)) continue;
      seen.add(m);
      stack.push(...imports.get(m).statics, ...imports.get(m).dynamics);
    }
    return seen;
  };
  // Source chunk → output module, for just-bash's lazily loaded chunks.
  const bySource = new Map();
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint) bySource.set(meta.entryPoint.split("/").pop(), relative("out", out.replace(/^(\.\.\/)+/, "")));
  }
  const chunks = commandChunks();
  const groupOf = new Map();
  for (const [group, names] of Object.entries(GROUPS)) for (const n of names) groupOf.set(n, group);
  const commandsOf = { core: [] };
  const startsOf = { core: ["shell.js"] };
  for (const [command, chunk] of chunks) {
    const group = groupOf.get(command) ?? "core";
    const mod = bySource.get(chunk);
    if (!mod || !text.has(mod)) throw new Error(`gen-shell: no output module for ${command} (${chunk})`);
    (commandsOf[group] ??= []).push(command);
    (startsOf[group] ??= []).push(mod);
  }
  const leftOut = [...bySource].filter(([source]) => LEFT_OUT.some((re) => re.test(source))).map(([, mod]) => mod);
  const commandModules = (group) =>
    new Set([...leftOut, ...Object.entries(startsOf).flatMap(([g, mods]) => (g === group || g === "core" ? [] : mods))]);
  const core = closure(startsOf.core, commandModules("core"));
  const groups = {};
  for (const group of ["core", ...Object.keys(GROUPS)]) {
    const mods =
      group === "core"
        ? core
        : group in UNAVAILABLE
          ? new Set()
          : new Set([...closure(startsOf[group] ?? [], commandModules(group))].filter((m) => !core.has(m)));
    groups[group] = { commands: commandsOf[group] ?? [], modules: [...mods].sort() };
  }
  return { text, groups };
}

function render(hash, group, commands, modules, text) {
  const bytes = modules.reduce((n, m) => n + Buffer.byteLength(text.get(m)), 0);
  const unavailable = UNAVAILABLE[group];
  return [
    `// Generated by scripts/gen-shell.mjs (inputs ${hash}): do not edit, not committed.`,
    `// The "${group}" command group: ${commands.length} commands, ${modules.length} modules, ${bytes} bytes.`,
    "",
    "const group: {",
    "  readonly name: string;",
    "  readonly commands: readonly string[];",
    "  readonly modules: Readonly<Record<string, string>>;",
    "  readonly bytes: number;",
    "  readonly unavailable?: string;",
    "} = {",
    `  name: ${JSON.stringify(group)},`,
    `  commands: ${JSON.stringify(commands)},`,
    "  modules: {",
    ...modules.map((m) => `    ${JSON.stringify(m)}: ${JSON.stringify(text.get(m))},`),
    "  },",
    `  bytes: ${bytes},`,
    ...(unavailable ? [`  unavailable: ${JSON.stringify(unavailable)},`] : []),
    "};",
    "export default group;",
    "",
  ].join("\n");
}

function renderRuntime(hash) {
  const stub = (name) =>
    `const fail = () => { throw new Error(${JSON.stringify(`${name} is not available in the shell's Dynamic Worker`)}); };\n` +
    "export default new Proxy(fail, { get: () => fail, apply: fail });\n";
  return [
    `// Generated by scripts/gen-shell.mjs (inputs ${hash}): do not edit, not committed.`,
    "",
    "/** Stubs for packages just-bash can import but a Worker cannot load; each throws when used. */",
    "export const SHELL_RUNTIME_MODULES: Readonly<Record<string, string>> = {",
    ...STUBBED.map((n) => `  ${JSON.stringify(n)}: ${JSON.stringify(stub(n))},`),
    "};",
    "",
  ].join("\n");
}

// The git entry's isomorphic-git bundle (src/git/generated/) is generated alongside, so every
// caller of this script (pretest, prebuild, pretypecheck, prestart, prebench, vitest.config.ts)
// gets it; it skips work on its own when up to date, and passes --force on.
await import("./gen-git.mjs");

const force = process.argv.includes("--force");
const hash = inputsHash();
const stamp = join(outDir, ".inputs");
if (!force && existsSync(stamp) && readFileSync(stamp, "utf8") === hash) process.exit(0);
const { text, groups } = await generate();
mkdirSync(outDir, { recursive: true });
for (const [group, { commands, modules }] of Object.entries(groups)) {
  writeFileSync(join(outDir, `${group}.ts`), render(hash, group, commands, modules, text));
}
writeFileSync(join(outDir, "runtime.ts"), renderRuntime(hash));
writeFileSync(stamp, hash);
const summary = Object.entries(groups).map(([g, { modules }]) => `${g} ${modules.length}m ${Math.round(modules.reduce((n, m) => n + Buffer.byteLength(text.get(m)), 0) / 1024)} KiB`);
console.error(`gen-shell: ${summary.join(", ")}`);
