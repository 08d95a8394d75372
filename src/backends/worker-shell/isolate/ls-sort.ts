/**
 * ls's sort order (issue 20, run 29, fixer LT), as GNU coreutils 9.1 ls: `-t` newest first, `-S` largest first,
 * ties by name; otherwise by name. `-r` reverses the whole order (just-bash's ls reverses the list this returns;
 * for operands, `operands` does it). Workspace mtimes have millisecond resolution; they are compared as such.
 */

type LsStat = { isDirectory: boolean; size?: number; mtime?: Date };
type LsFs = {
  resolvePath(base: string, path: string): string;
  stat(path: string): Promise<LsStat>;
  lstat(path: string): Promise<LsStat>;
};

export type LsKey = "name" | "size" | "time";

/** The sort key of ls's parsed flags (`-S` over `-t`, as the flags' order is not kept). */
export function key(flags: Record<string, unknown>): LsKey {
  return flags.sortBySize === true ? "size" : flags.sortByTime === true ? "time" : "name";
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type Keyed = { name: string; size: number; time: number };

function compare(sortKey: LsKey): (a: Keyed, b: Keyed) => number {
  if (sortKey === "time") return (a, b) => b.time - a.time || byName(a.name, b.name);
  if (sortKey === "size") return (a, b) => b.size - a.size || byName(a.name, b.name);
  return (a, b) => byName(a.name, b.name);
}

async function keyed(fs: LsFs, names: string[], pathOf: (name: string) => string, follow: boolean): Promise<Keyed[]> {
  const out: Keyed[] = [];
  for (let k = 0; k < names.length; k += 100) {
    const batch = await Promise.all(
      names.slice(k, k + 100).map(async (name) => {
        try {
          const st = await (follow ? fs.stat(pathOf(name)) : fs.lstat(pathOf(name)));
          return { name, size: st.size ?? 0, time: st.mtime?.getTime() ?? 0 };
        } catch {
          return { name, size: 0, time: 0 };
        }
      }),
    );
    out.push(...batch);
  }
  return out;
}

/** The entries `names` of directory `dir` in ls order (not reversed); an entry's own times and size (a link's). */
export async function entries(fs: LsFs, dir: string, names: string[], sortKey: LsKey | boolean): Promise<string[]> {
  const k: LsKey = sortKey === true ? "size" : sortKey === false ? "name" : sortKey;
  if (k === "name") return [...names].sort(byName);
  const list = await keyed(fs, names, (name) => (dir === "/" ? `/${name}` : `${dir}/${name}`), false);
  return list.sort(compare(k)).map((e) => e.name);
}

/** Paths `names` (relative to `cwd`) matched by a quoted glob operand, in ls order (not reversed). */
export async function paths(fs: LsFs, cwd: string, names: string[], sortKey: LsKey | boolean): Promise<string[]> {
  const k: LsKey = sortKey === true ? "size" : sortKey === false ? "name" : sortKey;
  if (k === "name") return [...names].sort(byName);
  const list = await keyed(fs, names, (name) => fs.resolvePath(cwd, name), true);
  return list.sort(compare(k)).map((e) => e.name);
}

/** `-R`: the subdirectories `items` recursed into in the order of the listing `order` (already reversed by `-r`). */
export function byOrder<T extends { name: string }>(items: T[], order: string[]): void {
  const at = new Map(order.map((name, k) => [name, k]));
  items.sort((a, b) => (at.get(a.name) ?? 0) - (at.get(b.name) ?? 0));
}

/**
 * Command-line operands under `-t`/`-S` (after text-output's lsOperandOrder, which puts the missing ones first, then
 * the files, then the directories, keeping the order given under `-t`/`-S`): each group sorted by the key, `-r`
 * reversing. Reorders `operands` in place; returns which are directories. A link is followed unless `-l`, `-F`, `-d`.
 */
export async function operands(
  fs: LsFs,
  cwd: string,
  ops: string[],
  dirs: boolean[],
  flags: Record<string, unknown>,
): Promise<boolean[]> {
  const k = key(flags);
  if (k === "name" || ops.length < 2) return dirs;
  const follow = flags.longFormat !== true && flags.classifyFiles !== true && flags.directoryOnly !== true;
  const present = await Promise.all(
    ops.map(async (name) => {
      try {
        await (follow ? fs.stat(fs.resolvePath(cwd, name)) : fs.lstat(fs.resolvePath(cwd, name)));
        return true;
      } catch {
        return false;
      }
    }),
  );
  const missing = ops.filter((_, i) => !present[i]);
  const sortGroup = async (names: string[]) => {
    const list = (await keyed(fs, names, (name) => fs.resolvePath(cwd, name), follow)).sort(compare(k));
    if (flags.reverse === true) list.reverse();
    return list.map((e) => e.name);
  };
  const files = await sortGroup(ops.filter((_, i) => present[i] && !dirs[i]));
  const directories = await sortGroup(ops.filter((_, i) => present[i] && dirs[i]));
  ops.splice(0, ops.length, ...missing, ...files, ...directories);
  return [...missing.map(() => false), ...files.map(() => false), ...directories.map(() => true)];
}
