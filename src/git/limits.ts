/**
 * Limits of the Workspace's git (issue 20): what a repository from the
 * network may not make the Durable Object do.
 *
 * @module
 */

/**
 * Largest git object (bytes, inflated) the Workspace's git reads: checkout,
 * reset, merge, stash, show, cat-file -p and diff of file contents refuse a
 * bigger one with `E<OP>FAIL` (`object too large: …`). A loose object whose
 * header declares more is refused before its body is inflated, so a zlib
 * bomb (150 MB of zeros in 150 KB) costs nothing; an object in a pack is
 * refused once its inflated size passes the limit. A Durable Object has
 * 128 MB of memory and git holds an object whole, more than once.
 * @defaultValue 64 MiB (67,108,864 bytes)
 */
export const GIT_MAX_OBJECT_BYTES = 64 * 1024 * 1024;

/**
 * Deepest chain of deltas (an object stored as a delta on an object stored as
 * a delta on …) the Workspace's git resolves when it reads a pack: a read
 * (`cat-file`, `checkout`, `log`, …, and a download's indexing where it
 * resolves a delta through the pack) that meets a deeper chain fails with
 * `E<OP>FAIL` `pack has bad object at offset <n>: delta chain deeper than
 * 10000 objects (GIT_MAX_DELTA_DEPTH)`, and one whose chain meets the same
 * object twice (a ref-delta on itself, through a hostile `.idx`) with `…:
 * delta base cycle: …`. An ofs-delta's base must lie strictly before it in
 * the pack (git: `delta base offset is out of bound`). git writes chains of
 * at most 4095 (`pack.depth`, default 50). Unbounded, an ofs-delta on itself
 * was an endless async recursion: a clone never settled and starved the
 * isolate (issue 20, thirtieth attack run).
 * @defaultValue 10,000 deltas
 */
export const GIT_MAX_DELTA_DEPTH = 10_000;

/** The message of a refused object. */
export function objectTooLarge(size: number | undefined): string {
  const what = size === undefined ? `more than ${GIT_MAX_OBJECT_BYTES} bytes` : `${size} bytes`;
  return `object too large: it inflates to ${what}, over the limit of ${GIT_MAX_OBJECT_BYTES} bytes (GIT_MAX_OBJECT_BYTES); the Workspace's git does not read objects this large`;
}

/**
 * Most line edits (removed + added lines) the Workspace's git searches for
 * when it compares two versions of a file: the `maxEditLength` of the `diff`
 * package's Myers search, whose cost grows with this bound times the file's
 * length, not with the file's length squared (a file whose every line
 * changed: about 33,000 line comparisons at most; unbounded, 2,000 such
 * lines took 4,000,000, and 8,000 lines ~35 s of one synchronous call).
 *
 * - `diff` / `diff --stat` / `show` (and `diffSummary`): a file whose change
 *   needs more edits is shown as ONE hunk that removes every old line and
 *   adds every new one between the first and the last changed line (common
 *   leading and trailing lines stay context). It applies to the same result;
 *   real git has no such limit and may split it into several smaller hunks.
 * - `merge`: a file both sides changed where either side's change from the
 *   merge base needs more edits is a conflict (the whole file, ours and
 *   theirs between conflict markers), so the merge fails with `EMERGEFAIL`
 *   `merge conflict in <path>` where real git might merge it cleanly.
 *
 * Changes within the bound (up to 256 changed lines counting both sides, e.g.
 * 128 lines rewritten) give the same output as before.
 * @defaultValue 256 line edits
 */
export const GIT_DIFF_MAX_EDIT_LENGTH = 256;

/**
 * Most lines the Workspace's git line search (the `diff` package's Myers
 * search, diff3 for a merge) is run on, on any one side: both cost about
 * 200-700 bytes a line searched, whatever the size of the change. Before
 * the search the lines the sides share at the start and the end are trimmed
 * (as git's xdiff does), so only the changed middle counts here: a one-line
 * change of a 1,000,000-line file searches 7 lines.
 *
 * - `diff` / `diff --stat` / `show` (and `diffSummary`): a file whose changed
 *   middle (from its first to its last changed line, 3 lines of context
 *   either side) has more lines on either side is shown as ONE hunk that
 *   removes every old line and adds every new one in it, as for a change past
 *   {@link GIT_DIFF_MAX_EDIT_LENGTH}.
 * - `merge`: when both sides changed a file, each side's change from the merge
 *   base is trimmed the same way; changes separated by at least one unchanged
 *   line merge cleanly without a search (as in git); overlapping or adjacent
 *   changes are merged by diff3 on the lines from the first to the last
 *   changed line of either side, and when that passes this bound on any side
 *   the file is a conflict (the whole file, ours and theirs between conflict
 *   markers): the merge fails with `EMERGEFAIL` `merge conflict in <path>`.
 * @defaultValue 50,000 lines
 */
export const GIT_DIFF_MAX_SEARCH_LINES = 50_000;

/**
 * Most characters (UTF-16 code units) of hunks in one diff's patch text:
 * `diff` and the CLI's `git diff` (and `ws:git`'s, the shell's). Files are
 * diffed one after another; a file whose hunks would pass what is left of
 * the bound keeps its header lines (`diff --git`, modes, `index`) and gets
 * one line in place of its hunks: `Patch left out: +<added> -<removed>
 * lines; the diff's patch text would pass 8388608 characters
 * (GIT_DIFF_MAX_PATCH_CHARS): diff fewer paths at a time`. `diffSummary`
 * builds no patch text and is not bounded by it. Without the bound three
 * added 16 MiB files printed 49 Mi characters and grew memory by 212–267
 * MiB (issue 20, sixteenth attack run), before the shell's output bound or
 * the RPC clip cut the answer. Real git has no such limit. See docs/git.md
 * "Performance and limits".
 * @defaultValue 8 Mi characters (8,388,608)
 */
export const GIT_DIFF_MAX_PATCH_CHARS = 8 * 1024 * 1024;

/**
 * Most characters (UTF-16 code units) of commits the git command line's
 * `git log` and `git show` (the commit part; its patch is bounded by
 * {@link GIT_DIFF_MAX_PATCH_CHARS}) print, in every format. The commit that
 * would pass it keeps its lines that fit (the header and whole message
 * lines) and the output ends with one more line: `Log cut: commit <oid7>
 * not shown in full[ and <n> more commits not shown]; the log's text would
 * pass 8388608 characters (GIT_LOG_MAX_CHARS): log fewer commits at a time
 * (-n), or --oneline`; the exit code stays 0. A commit message is legal up
 * to {@link GIT_MAX_OBJECT_BYTES}, and a pack of a few KB can hold 24 MiB
 * messages: unbounded, `git log` of one 4 MiB message of short lines grew
 * memory by ~101 MiB and printed 12 Mi characters (issue 20, eighteenth
 * attack run). The typed `log()` / `show()` return messages whole. Real git
 * has no such limit. See docs/git.md "Performance and limits".
 * @defaultValue 8 Mi characters (8,388,608)
 */
export const GIT_LOG_MAX_CHARS = 8 * 1024 * 1024;

/**
 * Most paths — files, links, submodules and directories, every one counted
 * where it would be written — that one tree may expand to when the
 * Workspace's git writes it to the working tree: `checkout` (with or
 * without paths), `clone`'s checkout, `merge`, `reset`, `pull`, `branch`
 * with `checkout`, and `stash` (its trees are read with the same bound). A
 * bigger tree is refused before anything is written, with `GitError`
 * `E<OP>FAIL` (`ECHECKOUTFAIL`, `ECLONEFAIL`, …): `tree too large: commit
 * <oid> expands to more than 100000 files and directories (the limit,
 * GIT_MAX_TREE_ENTRIES); the Workspace's git does not write a tree this
 * large`.
 *
 * The count follows what the tree expands to, not the size of its objects:
 * a "git bomb" whose trees all name one subtree (10 entries, 8 levels:
 * 10^8 files from about 1 KB of objects) is refused after reading a handful
 * of small trees. Real git has no such limit; a Workspace file costs a
 * SQLite row and about 2 ms to write, and a Durable Object has a CPU and
 * storage budget (issue 20, thirteenth attack run).
 * @defaultValue 100,000 paths
 */
export const GIT_MAX_TREE_ENTRIES = 100_000;

/**
 * Most bytes of one response a git server may send the Workspace's git:
 * the pack a `clone`, `fetch` or `pull` downloads (with its side-band
 * framing and progress messages), and equally the ref list before it and a
 * `push`'s report.
 *
 * Why 16 MiB: isomorphic-git holds a download whole before it reads a byte
 * of it — the side-band packets, the pack joined into one buffer, a copy of
 * that buffer, then its index, and the pack again for the checkout — so a
 * clone's live memory peaks at about 5× its pack (measured on Node, heap +
 * array buffers: 16 MiB → 86 MiB, 24 MiB → 112 MiB, 32 MiB → 153 MiB), and a
 * Durable Object has 128 MB. A refused download costs about 3× the limit
 * (a hostile server's 120 MB pack, unbounded ~470 MB, now stays well under
 * 128 MiB; issue 20, fifteenth attack run).
 *
 * A response that declares a larger `content-length` is refused before its
 * body is read; one that keeps sending is cut at the limit. The operation
 * fails with `GitError` `E<OP>FAIL` (`ECLONEFAIL`, `EFETCHFAIL`,
 * `EPULLFAIL`, `EPUSHFAIL`): `git clone failed: response too large: <url>
 * sent more than 16777216 bytes (the limit: maxResponseBytes, default GIT_MAX_PACK_BYTES); the
 * Workspace's git holds a download in memory several times over and does
 * not take one this large: clone with depth: 1, or a smaller repository (or
 * raise maxResponseBytes where memory allows)`. The per-call option
 * `maxResponseBytes` replaces this default.
 * Nothing is kept: a clone removes what it made, a fetch or pull leaves the
 * refs as they were. Real git has no such limit; a shallow clone
 * (`depth: 1`) of most repositories fits. See docs/git.md "Performance and
 * limits".
 * @defaultValue 16 MiB (16,777,216 bytes)
 */
export const GIT_MAX_PACK_BYTES = 16 * 1024 * 1024;

/**
 * Largest pack file (`.git/objects/pack/*.pack`, bytes on disk) the
 * Workspace's git reads. isomorphic-git reads a pack whole — and copies it
 * once on the way in — before it checks or indexes a byte of it, so any
 * operation that reads an object from a bigger pack (`log`, `status`,
 * `checkout`, `show`, …) fails with `GitError` `E<OP>FAIL` before reading
 * it: `git log failed: pack file too large: <path> is <n> bytes, over the
 * limit of 16777216 bytes (GIT_MAX_PACK_FILE_BYTES); the Workspace's git
 * reads a pack file whole and does not read one this large: clone or fetch
 * with depth: 1, or split the pack outside the Workspace (git repack
 * --max-pack-size=16m)`. A pack written by `clone`, `fetch` or `pull` is
 * within it (a download is at most {@link GIT_MAX_PACK_BYTES}); for those
 * operations the bound is their `maxResponseBytes` when that is larger, so
 * a download taken with a raised bound can be checked out; the other
 * operations read up to `createGitClient({ maxPackFileBytes })`, which
 * replaces this default for a client (raise both where memory allows). A
 * bigger pack otherwise comes only from elsewhere (an upload of a
 * repository, a run's write into `.git`). Real git has no such limit.
 * See docs/git.md "Performance and limits".
 * @defaultValue 16 MiB (16,777,216 bytes)
 */
export const GIT_MAX_PACK_FILE_BYTES = 16 * 1024 * 1024;

/** The message of a refused pack file (see {@link GIT_MAX_PACK_FILE_BYTES}). */
export function packFileTooLarge(path: string, size: number, limit: number): string {
  return (
    `pack file too large: ${path} is ${size} bytes, over the limit of ${limit} bytes (GIT_MAX_PACK_FILE_BYTES); ` +
    "the Workspace's git reads a pack file whole and does not read one this large: clone or fetch with depth: 1, " +
    "or split the pack outside the Workspace (git repack --max-pack-size=16m)"
  );
}

/**
 * Most bytes of objects a `push` packs (the commits, trees and files it
 * sends): each counted once — a loose object by its stored (compressed)
 * size, one read from a pack file by its inflated size; the commits and
 * trees it only walks to choose them (the merge base's, the remote HEAD's)
 * do not count. isomorphic-git builds the whole pack in memory
 * and sends it as one request body, so a push's memory grows about 2.5× its
 * pack (measured on Node: a 16 MiB pack → 47 MiB, 32 MiB → 80 MiB, 64 MiB →
 * 147–175 MiB; a Durable Object has 128 MB). A push that would read more
 * fails with `GitError` `EPUSHFAIL` before the object that passes the bound
 * is read, and before anything is sent: `git push failed: pack too large:
 * the objects to push take more than 33554432 bytes (the limit:
 * maxPushBytes, default GIT_MAX_PUSH_BYTES); the Workspace's git builds the
 * pack it sends in memory and does not build one this large: push fewer or
 * smaller commits (or raise maxPushBytes where memory allows)`. The per-call option `maxPushBytes`
 * replaces this default. Real git has no such limit. See docs/git.md
 * "Performance and limits".
 * @defaultValue 32 MiB (33,554,432 bytes)
 */
export const GIT_MAX_PUSH_BYTES = 32 * 1024 * 1024;

/** The message of a refused push (see {@link GIT_MAX_PUSH_BYTES}). */
export function pushTooLarge(limit: number): string {
  return (
    `pack too large: the objects to push take more than ${limit} bytes (the limit: maxPushBytes, default GIT_MAX_PUSH_BYTES); ` +
    "the Workspace's git builds the pack it sends in memory and does not build one this large: " +
    "push fewer or smaller commits (or raise maxPushBytes where memory allows)"
  );
}

/**
 * Most bytes of pack files (`.git/objects/pack/*.pack`, whole, as read) a
 * git client keeps between its operations, most recently used first: an
 * operation that reads an object from a pack the client kept — the same
 * path, Workspace inode, size and modification time as when it was read,
 * and the checksum its index names — uses the kept bytes instead of reading
 * and checking the pack again (a clean `status` of a repository with a
 * 12 MiB pack read and checked it whole on every call: 110–175 ms instead of
 * 26–30 ms; issue 20, sixteenth attack run). A pack is kept only once it
 * passed its checksum; one whose file changed is read again; the least
 * recently used packs go once the sum would pass this bound (a pack larger
 * than the bound is not kept). Every operation still reads at most
 * {@link GIT_MAX_PACK_FILE_BYTES} per pack file, and what it reads beyond
 * the kept packs goes when it ends. ONE operation holds at most
 * {@link GIT_MAX_PACK_FILE_BYTES} of the packs it read, besides those a read
 * is using: past it the least recently used go, each read (and checked)
 * again when next needed — a `log` over eight 12 MiB packs held all 96 MiB
 * and grew memory by 156–168 MiB (issue 20, seventeenth attack run); holding
 * up to this bound (32 MiB) it still grew 97–139 MiB, holding 16 MiB 61–73 MiB. See docs/git.md
 * "Performance and limits".
 * @defaultValue 32 MiB (33,554,432 bytes)
 */
export const GIT_PACK_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * Most bytes indexing one downloaded pack may make: `clone`, `fetch` and
 * `pull` index the pack they download (isomorphic-git's
 * `GitPackIndex.fromPack`), inflating every object and resolving every
 * delta, and each inflated object and each resolved delta counts its size
 * (bytes, inflated). A pack of tiny deltas ("copy all of the object before,
 * add one byte") makes an object of its base's size from a dozen bytes: 40
 * such deltas on an 8 MiB blob, a 9 KB download, made 330 MiB and grew
 * memory by 397 MiB (issue 20, seventeenth attack run). Past the bound the
 * operation fails with `GitError` `E<OP>FAIL` (`ECLONEFAIL`, `EFETCHFAIL`,
 * `EPULLFAIL`) — `git clone failed: pack expands too much: indexing it
 * made more than 536870912 bytes of objects (the limit,
 * GIT_MAX_INDEX_INFLATE_BYTES); …` — and keeps nothing (a clone removes
 * what it made; a fetch or pull leaves the refs as they were). Indexing
 * also stops at the operation's `signal` (`ECANCELED`) between objects.
 * What it costs is time, not memory (what indexing keeps is bounded by
 * {@link GIT_PACK_DELTA_CACHE_BYTES}): each object made is hashed, about
 * 5 s per 256 MiB measured on Node (1 GiB: 15 s), and a Durable Object has
 * 30 s of CPU per request. An ordinary pack makes a few times its size;
 * one whose history makes more is cloned with `depth: 1`. Real git has no
 * such limit. See docs/git.md "Performance and limits".
 * @defaultValue 512 MiB (536,870,912 bytes)
 */
export const GIT_MAX_INDEX_INFLATE_BYTES = 512 * 1024 * 1024;

/** The message of a pack whose indexing passed {@link GIT_MAX_INDEX_INFLATE_BYTES}. */
export function packExpandsTooMuch(limit: number): string {
  return (
    `pack expands too much: indexing it made more than ${limit} bytes of objects (the limit, GIT_MAX_INDEX_INFLATE_BYTES); ` +
    "the Workspace's git does not index a pack whose objects and deltas inflate to this much: clone or fetch with depth: 1, " +
    "or fewer commits at a time"
  );
}

/**
 * Most bytes of resolved objects (inflated, deltas applied) one pack index
 * keeps to resolve later deltas on them (isomorphic-git's `offsetCache`),
 * least recently used first; an object larger than the bound is not kept.
 * Unbounded, it kept every resolved object of a delta chain for the
 * operation's life (issue 20, seventeenth attack run: 397 MiB for a 9 KB
 * pack). While a downloaded pack is indexed it keeps each object it
 * resolves, so a chain of deltas is resolved once per link. See docs/git.md
 * "Performance and limits".
 * @defaultValue 16 MiB (16,777,216 bytes)
 */
export const GIT_PACK_DELTA_CACHE_BYTES = 16 * 1024 * 1024;
