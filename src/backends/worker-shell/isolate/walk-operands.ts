/**
 * Start points of the shell's tree walks — `find`, `du` and `grep -r` —
 * named as GNU findutils 4.9, coreutils 9.1 and grep 3.8 name them (issue 20,
 * twenty-first attack run, scout). just-bash 3.4.2 dropped the trailing `/`
 * of a start point before looking at it, so `find ld/` (ld -> d) was the link
 * itself and found nothing below it; `du -s` printed no line for a file or a
 * link operand; and `grep -r keep d/` joined children with a second slash
 * (`d//f.txt`). scripts/gen-shell.mjs patches those commands to call these
 * functions.
 *
 * A start point in directory form (`ld/`, `ld/.`: {@link directoryForm}) is
 * resolved through a final link, as path resolution of `ld/` goes through
 * it — the walk is of the directory the link names. Without the trailing
 * slash, the start point is the link itself (GNU without `-H`/`-L`).
 *
 * @module
 */

import { directoryForm } from "../../../util/path.js";

/** Whether a walk starting at `operand` (as written) follows a final link: it is in directory form (`ld/`, `ld/.`). */
export function followsStart(operand: string): boolean {
  return directoryForm(operand) !== null;
}

/** The walk root `resolved` without the trailing slashes `resolvePath` keeps (`/w/ld/` → `/w/ld`; `/` stays). */
export function walkRoot(resolved: string): string {
  const trimmed = resolved.replace(/\/+$/, "");
  return trimmed === "" && resolved !== "" ? "/" : trimmed;
}

/**
 * The name GNU find shows for an entry `rel` below start point `operand`
 * (fts's join): the start point as written, and no second `/` when it
 * already ends in one (`ld/` + `f.txt` → `ld/f.txt`; `d//` → `d//f.txt`).
 */
export function findJoin(operand: string, rel: string): string {
  return operand.endsWith("/") ? `${operand}${rel}` : `${operand}/${rel}`;
}

/** The name `-name` matches for start point `operand`: its last segment, trailing slashes ignored (`ld/` → `ld`, `/` → `/`). */
export function findStartName(operand: string): string {
  const trimmed = operand.replace(/\/+$/, "");
  if (trimmed === "") return operand === "" ? "" : "/";
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** find's `%P`: `path` below start point `start` (`""` for the start point itself), as GNU. */
export function findBelowStart(path: string, start: string): string {
  if (path === start) return "";
  const prefix = start.endsWith("/") ? start : `${start}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

/** The name GNU du and grep give operand `operand` itself: trailing slashes as one (`d//` → `d/`). */
export function duName(operand: string): string {
  return operand.replace(/\/\/+$/, "/");
}

/**
 * The name GNU du and grep give `name` found below `operand`: the operand
 * without its trailing slashes, then one `/` (`d/` → `d/f.txt`, `d//` →
 * `d/f.txt`, `/` → `/f.txt`).
 */
export function childName(operand: string, name: string): string {
  const trimmed = operand.replace(/\/+$/, "");
  return trimmed === "" && operand !== "" ? `/${name}` : `${trimmed}/${name}`;
}

/**
 * `path` (an entry of a walk, normalised) relative to `root` as resolved
 * (`/w/d/`, `/w/d/.`): `""` for the root itself. just-bash's `du` sliced
 * `root.length` off, which cut into the name when the root ended in `/.`.
 */
export function belowRoot(path: string, root: string): string {
  let base = root;
  for (;;) {
    const next = base.replace(/\/+$/, "").replace(/\/\.$/, "");
    if (next === base) break;
    base = next;
  }
  if (base === "") base = "/";
  if (path === base) return "";
  const prefix = base === "/" ? "/" : `${base}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path.slice(base.length).replace(/^\//, "");
}
