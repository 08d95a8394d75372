/**
 * Storage integrity of a Workspace's tables, for the third attack run of
 * issue 20: every chunk's `refs` equals the references that exist (inode
 * rows and chunk lists), every reference names a chunk that exists, every
 * large chunk's blob exists and every blob belongs to a chunk, every chunk
 * list belongs to a file, every node's parent is a directory, every node is
 * reachable from the root (no cycle cut off by renames), and a file's size
 * is the sum of its chunks. Returns the list of problems (empty: sound).
 */
type Sql = { exec(query: string, ...bindings: unknown[]): { toArray(): object[] } };

const CHECKS: Record<string, string> = {
  "refs differ from references": `
    SELECT c.id, c.refs,
      (SELECT count(*) FROM __ws_file_chunks f WHERE f.chunk = c.id) + (SELECT count(*) FROM __ws_nodes n WHERE n.chunk = c.id) AS actual
    FROM __ws_chunks c WHERE c.refs <> actual`,
  "chunk list names a missing chunk": `SELECT f.ino, f.idx, f.chunk FROM __ws_file_chunks f WHERE NOT EXISTS (SELECT 1 FROM __ws_chunks c WHERE c.id = f.chunk)`,
  "inode names a missing chunk": `SELECT n.ino, n.chunk FROM __ws_nodes n WHERE n.chunk IS NOT NULL AND NOT EXISTS (SELECT 1 FROM __ws_chunks c WHERE c.id = n.chunk)`,
  "chunk list of a missing inode": `SELECT DISTINCT f.ino FROM __ws_file_chunks f WHERE NOT EXISTS (SELECT 1 FROM __ws_nodes n WHERE n.ino = f.ino)`,
  "chunk without its bytes": `SELECT c.id FROM __ws_chunks c WHERE c.data IS NULL AND (c.blob IS NULL OR NOT EXISTS (SELECT 1 FROM __ws_blobs b WHERE b.id = c.blob))`,
  "blob of no chunk": `SELECT b.id FROM __ws_blobs b WHERE NOT EXISTS (SELECT 1 FROM __ws_chunks c WHERE c.blob = b.id)`,
  "parent missing or not a directory": `
    SELECT n.ino, n.parent, n.name FROM __ws_nodes n WHERE n.ino <> n.parent AND n.ino <> 1
      AND NOT EXISTS (SELECT 1 FROM __ws_nodes p WHERE p.ino = n.parent AND p.kind = (SELECT kind FROM __ws_nodes WHERE ino = 1))`,
  "file size differs from its chunks": `
    SELECT n.ino, n.size, (SELECT coalesce(sum(c.size), 0) FROM __ws_file_chunks f JOIN __ws_chunks c ON c.id = f.chunk WHERE f.ino = n.ino) AS listed
    FROM __ws_nodes n WHERE n.chunk IS NULL AND EXISTS (SELECT 1 FROM __ws_file_chunks f WHERE f.ino = n.ino) AND n.size <> listed`,
  "node not reachable from the root": `
    WITH RECURSIVE reach(ino) AS (SELECT 1 UNION SELECT n.ino FROM __ws_nodes n JOIN reach r ON n.parent = r.ino WHERE n.ino <> 1)
    SELECT n.ino, n.parent, n.name FROM __ws_nodes n WHERE n.ino NOT IN (SELECT ino FROM reach)`,
  "one-chunk file size differs from its chunk": `
    SELECT n.ino, n.size, c.size AS chunk FROM __ws_nodes n JOIN __ws_chunks c ON c.id = n.chunk WHERE n.size <> c.size`,
};

export function integrityProblems(sql: Sql): string[] {
  const problems: string[] = [];
  for (const [what, query] of Object.entries(CHECKS)) {
    const rows = sql.exec(query).toArray();
    if (rows.length > 0) problems.push(`${what}: ${JSON.stringify(rows.slice(0, 5))}${rows.length > 5 ? ` (+${rows.length - 5})` : ""}`);
  }
  return problems;
}

/** Unreferenced chunks with no live lease (what a sweep would reclaim now). */
export function unleasedOrphans(sql: Sql, now = Date.now()): number {
  const [row] = sql.exec(
    `SELECT count(*) AS n FROM __ws_chunks c WHERE c.refs <= 0 AND (c.lease IS NULL OR c.lease <= ?)
       AND NOT EXISTS (SELECT 1 FROM __ws_chunk_leases l WHERE l.chunk = c.id AND l.until > ?)`,
    now,
    now,
  ).toArray() as { n: number }[];
  return row!.n;
}
