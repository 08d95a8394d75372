/**
 * The globs find and grep take (`pattern`, `include`, `exclude`) are relative to the search `path` (spec 03 §4.3,
 * §4.4): `fs.find` / `fs.grep` match them against the part of each path below it. A glob written as an absolute
 * path, or one ending in `/`, matches nothing there, and the tools answered a silent `count: 0` for files that
 * exist — the agent acts on "there are none". Here such a glob is read as meant, or refused with an error result
 * that says what to send instead (issue 20, run 36, fixer TL):
 *
 * - An absolute glob under `path` (`/workspace/src/**\/*.ts` with path `/workspace`, or `/workspace/`,
 *   `/workspace/src/..`: `path` is normalised lexically) is matched relative to it (`src/**\/*.ts`), as GNU
 *   `find /workspace -path '/workspace/src/*.ts'` takes the start point's own spelling. Its leading part is compared
 *   as literal text, so a glob character in `path` itself needs no escaping there.
 * - An absolute glob elsewhere (outside `path`, `path` itself, or with a relative `path`) is an error naming the
 *   `path` and `pattern` to send instead: the glob's leading directories without glob characters, and the rest.
 * - A trailing `/` (`src/**\/`, bash's globstar spelling for "directories only"): an `exclude` glob drops it
 *   (`node_modules/` excludes and prunes `node_modules`, as in a .gitignore); a find `pattern` or grep `include`
 *   ending in `/` is an error that says to drop it (find's entries carry `type`, so `src/**` with `type: "dir"`
 *   gives the directories; grep searches files only).
 *
 * @module
 */
import { normalizePath } from "../../util/path.js";

const GLOB_CHARS = /[*?[\]{}!]/;

/** Which argument a glob came in, for the error text. */
export type GlobArgument = "pattern" | "include" | "exclude";

/**
 * Reads one glob argument of find or grep relative to `path` (see the module note).
 * @param tool `"find"` or `"grep"`, named in the error.
 * @returns `{ glob }` to pass down, or `{ error }`: the error result's text.
 */
export function relativeGlob(tool: "find" | "grep", path: string, glob: string, argument: GlobArgument): { glob: string } | { error: string } {
  if (typeof glob !== "string") return { glob }; // left to the schema / fs layer, which name the bad input
  let rest = glob;
  if (glob.startsWith("/")) {
    const base = path.startsWith("/") ? normalizePath(path) : undefined;
    const prefix = base === undefined ? undefined : base === "/" ? "/" : base + "/";
    if (prefix !== undefined && glob.startsWith(prefix) && glob.length > prefix.length) rest = glob.slice(prefix.length);
    // grep of one file: an include/exclude naming that file is passed on as before (it does not filter that search).
    else if (tool === "grep" && base !== undefined && normalizePath(glob) === base) return { glob };
    else return { error: outsideError(tool, path, glob, argument) };
  }
  if (rest.endsWith("/")) {
    const bare = rest.replace(/\/+$/, "");
    if (argument === "exclude" && bare !== "") return { glob: bare };
    const instead = bare === "" ? "**" : bare;
    const why =
      tool === "find"
        ? `paths are matched without a trailing "/", so it could never match. Send pattern ${JSON.stringify(instead)} instead: each entry's type says whether it is a directory`
        : `grep searches files, and a glob ending in "/" names directories only, so it could never match. Send include ${JSON.stringify(instead.endsWith("**") ? instead : `${instead}/**`)} instead`;
    return { error: `${tool}'s ${argument} ${JSON.stringify(glob)} ends in "/": ${why}.` };
  }
  return { glob: rest };
}

function outsideError(tool: "find" | "grep", path: string, glob: string, argument: GlobArgument): string {
  const segments = glob.split("/");
  let literal = 1;
  while (literal < segments.length - 1 && !GLOB_CHARS.test(segments[literal])) literal++;
  const dir = segments.slice(0, literal).join("/") || "/";
  const rest = segments.slice(literal).join("/");
  return (
    `${tool}'s ${argument} is relative to path (${JSON.stringify(path)}), and ${JSON.stringify(glob)} is an absolute path not below it, so it could never match. ` +
    `Send path ${JSON.stringify(dir)} with ${argument} ${JSON.stringify(rest === "" ? "**" : rest)} instead, or ${argument} relative to ${JSON.stringify(path)}.`
  );
}

/** Each glob of a list through {@link relativeGlob}; the first error wins. */
export function relativeGlobs(tool: "find" | "grep", path: string, globs: string[] | undefined, argument: GlobArgument): { globs: string[] | undefined } | { error: string } {
  if (globs === undefined) return { globs };
  const out: string[] = [];
  for (const g of globs) {
    const r = relativeGlob(tool, path, g, argument);
    if ("error" in r) return r;
    out.push(r.glob);
  }
  return { globs: out };
}
