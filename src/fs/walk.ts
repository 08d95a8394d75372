/**
 * Depth-first pre-order walk for `find` and `grep` (spec 01 §3.3): siblings
 * by name byte order, a directory before its contents, children read in
 * keyset pages so the walk stops as soon as the caller has enough results.
 * Links are yielded but never descended; excluded entries are dropped and
 * excluded directories are not read at all.
 *
 * @module
 */
import type { Node, Nodes } from "./nodes.js";
import { Kind } from "./schema.js";
import type { Exclude } from "./glob.js";

/** Largest page of children read per query (spec 01 §3.3: pages of 128). */
export const WALK_PAGE = 128;

/**
 * First page read from each directory. Pages double up to {@link WALK_PAGE},
 * so a walk that stops early reads few rows beyond what it returns, and a
 * long directory still costs about `n / 128` queries.
 */
const FIRST_PAGE = 2;

export interface WalkEntry {
  node: Node;
  /** Path relative to the walk's root, without a leading `/`. */
  relative: string;
}

/**
 * Yields every entry under `root` in DFS pre-order. `want()` tells how many
 * more entries the caller may still need, which sizes the next page; at 0
 * the walk ends instead of reading another page.
 */
export function* walk(
  nodes: Nodes,
  root: Node,
  exclude: Exclude | undefined,
  want: () => number,
): Generator<WalkEntry> {
  interface Frame {
    ino: number;
    prefix: string;
    page: Node[];
    index: number;
    done: boolean;
    size: number;
  }
  const frame = (ino: number, prefix: string): Frame => ({ ino, prefix, page: [], index: 0, done: false, size: FIRST_PAGE });
  const stack: Frame[] = [frame(root.ino, "")];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.index >= top.page.length) {
      if (top.done) {
        stack.pop();
        continue;
      }
      const wanted = want();
      if (wanted <= 0) return; // the caller has all it needs: read no further page
      const after = top.page.length > 0 ? top.page[top.page.length - 1].name : null;
      const size = Math.min(top.size, wanted);
      top.size = Math.min(WALK_PAGE, top.size * 2);
      top.page = nodes.page(top.ino, after, size);
      top.index = 0;
      if (top.page.length < size) top.done = true;
      continue;
    }
    const node = top.page[top.index++];
    const relative = top.prefix + node.name;
    if (exclude?.drop(relative)) continue;
    yield { node, relative };
    if (node.kind === Kind.Directory && !exclude?.prune(relative)) stack.push(frame(node.ino, relative + "/"));
  }
}
