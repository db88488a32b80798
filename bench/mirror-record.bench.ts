/**
 * Mirror record and size benchmark (`npm run bench:mirror`; results in docs/bench/audit.md
 * "Contract keys and the record phase" and docs/bench/mirror.md, schema 6): takes BENCH_RECORD_SNAPSHOTS (500) snapshots of the bundled
 * server with BENCH_RECORD_POOLS (200) pools under BENCH_RECORD_SWAPS_PER_MIN (600) swaps a minute
 * (the server's clock advanced 30 s between snapshots, as the audit series does) into one SQLite
 * mirror, and prints:
 * - the time of the record phase alone (MirrorStore.recordSnapshot: one transaction) around
 *   snapshot N for N in BENCH_RECORD_MARKS ("10,100,500"; median of the 5 snapshots ending at N),
 *   wall and CPU (user + system of this process: less sensitive to other jobs on the machine; the
 *   SQLite write path is synchronous), and their ratios to the first mark: flat means the write
 *   path does not grow with the file;
 * - after `mirror prune --keep-raw 0` and VACUUM, bytes per pool per snapshot and the bytes of
 *   every table and index (SQLite's dbstat), and a month of 30 s snapshots at that rate.
 * - the same data after `mirror prune --keep-raw 0 --archive` (everything it may move) and VACUUM.
 * BENCH_RECORD_WAL=1 also prints, for the snapshot 5 before each mark, the distinct pages its record
 * phase wrote to the WAL by b-tree (WAL truncated before it; pages mapped with dbstat): the pages the
 * checkpoint then writes back into the file (docs/bench/mirror.md "Time-clustered keys").
 * BENCH_RECORD_KEEP=<path> keeps the mirror there with every raw response (the sizes are measured
 * on a copy: `VACUUM INTO`, then pruned and vacuumed). The demo exchange's rate:
 * `BENCH_RECORD_POOLS=8 BENCH_RECORD_SWAPS_PER_MIN=60` (`serve --traffic 60`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadTypesOrDefault } from '../src/io/files/default-types.js';
import {
  archiveMirror,
  type MirrorStore,
  openMirror,
  pruneRawResponses,
  readMirrorStats,
  vacuumMirror,
} from '../src/io/store/index.js';
import { wrapSqliteMirror } from '../src/io/store/sqlite-store.js';
import { takeSnapshot } from '../src/run/snapshot.js';
import { createSeededRng } from '../src/sim/rng.js';
import { simulateRandomSwap } from '../src/sim/traffic.js';
import { startAuditServer } from '../test/helpers/tamper.js';

const POOLS = Number(process.env.BENCH_RECORD_POOLS ?? 200);
const SWAPS_PER_MIN = Number(process.env.BENCH_RECORD_SWAPS_PER_MIN ?? 600);
const SNAPSHOTS = Number(process.env.BENCH_RECORD_SNAPSHOTS ?? 500);
const MARKS = (process.env.BENCH_RECORD_MARKS ?? '10,100,500')
  .split(',')
  .filter((x) => x !== '')
  .map(Number)
  .filter((n) => n <= SNAPSHOTS);
const SNAPSHOTS_PER_MONTH = (30 * 86_400) / 30;
const WAL = process.env.BENCH_RECORD_WAL === '1';

/** Empties the WAL of the mirror at `path` (a second connection; the mirror's stays open). */
function truncateWal(path: string): void {
  const db = new Database(path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** The distinct pages in the WAL of `path`, counted by the b-tree that owns them now. */
function countWalPagesByTree(path: string): { pages: number; byTree: [string, number][] } {
  const buf = readFileSync(`${path}-wal`);
  const pageSize = buf.length >= 32 ? buf.readUInt32BE(8) : 0;
  const pages = new Set<number>();
  for (let off = 32; pageSize > 0 && off + 24 + pageSize <= buf.length; off += 24 + pageSize)
    pages.add(buf.readUInt32BE(off));
  const db = new Database(path, { readonly: true });
  const counts = new Map<string, number>();
  for (const [name, pageno] of db.prepare('SELECT name, pageno FROM dbstat').raw(true).iterate() as Iterable<
    [string, number]
  >)
    if (pages.has(pageno)) counts.set(name, (counts.get(name) ?? 0) + 1);
  db.close();
  return { pages: pages.size, byTree: [...counts].sort((a, b) => b[1] - a[1]) };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

console.log(
  `node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; ${new Date().toISOString()}, load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
const s = await startAuditServer({ version: 'v12', extraPools: Math.max(0, POOLS - 8), seed: 'record' });
const dir = mkdtempSync(join(tmpdir(), 'mirror-record-'));
const path = process.env.BENCH_RECORD_KEEP ?? join(dir, 'mirror.db');
try {
  const pools = s.ex.pools().filter((p) => p.active).length;
  const rng = createSeededRng('record-traffic');
  const types = await loadTypesOrDefault({});
  const mirror = openMirror(path);
  const inner = wrapSqliteMirror(mirror);
  const recordMs: number[] = [];
  const recordCpuMs: number[] = [];
  const store: MirrorStore = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop !== 'recordSnapshot') return Reflect.get(target, prop, receiver);
      return async (...args: Parameters<MirrorStore['recordSnapshot']>) => {
        const t = performance.now();
        const cpu = process.cpuUsage();
        const r = await target.recordSnapshot(...args);
        const used = process.cpuUsage(cpu);
        recordMs.push(performance.now() - t);
        recordCpuMs.push((used.user + used.system) / 1000);
        return r;
      };
    },
  });
  console.log(`record: ${pools} pools, ${SWAPS_PER_MIN} swaps/min, 30 s between snapshots`);
  const first: number[] = [];
  const firstCpu: number[] = [];
  let walLine = '';
  for (let n = 1; n <= SNAPSHOTS; n++) {
    for (let i = 0; i < SWAPS_PER_MIN / 2; i++) simulateRandomSwap(s.ex, rng);
    s.clock.advanceMs(30_000);
    // outside the 5 snapshots of a mark's median: its checkpoint state is changed here
    const countWal = WAL && MARKS.includes(n + 5);
    if (countWal) truncateWal(path);
    // unpaced: the bench measures the mirror, not the auditor's politeness towards an exchange
    await takeSnapshot({ mirror: store, baseUrl: s.directBase, types, maxRps: Number.POSITIVE_INFINITY });
    if (countWal) {
      const w = countWalPagesByTree(path);
      walLine = `record: snapshot ${n}: ${w.pages} distinct pages written to the WAL: ${w.byTree.map(([t, c]) => `${t} ${c}`).join(', ')}`;
    }
    if (MARKS.includes(n)) {
      const m = median(recordMs.slice(-5));
      const cpu = median(recordCpuMs.slice(-5));
      if (first.length === 0) first.push(m);
      if (firstCpu.length === 0) firstCpu.push(cpu);
      const st = readMirrorStats(mirror);
      console.log(
        `record: snapshot ${n}: record phase ${m.toFixed(1)} ms wall (median of the last 5; ×${(m / (first[0] ?? m)).toFixed(2)} of snapshot ${MARKS[0]}), ${cpu.toFixed(1)} ms CPU (×${(cpu / (firstCpu[0] ?? cpu)).toFixed(2)}), file ${st.fileBytes} bytes, ${st.contracts} contracts; load ${loadavg()[0]?.toFixed(2)}`,
      );
      if (walLine !== '') console.log(walLine);
      walLine = '';
    }
  }
  // sizes on a copy, so a kept mirror keeps its raw responses (a realistic file for the record phase)
  const copyPath = join(dir, 'pruned.db');
  mirror.close();
  const raw = new Database(path);
  raw.prepare('VACUUM INTO ?').run(copyPath);
  raw.close();
  const pruned = openMirror(copyPath);
  const p = pruneRawResponses(pruned, Number.MAX_SAFE_INTEGER);
  vacuumMirror(pruned);
  const st = readMirrorStats(pruned);
  pruned.close();
  const perPool = st.fileBytes / (pools * st.snapshots);
  const perSnapshot = st.fileBytes / st.snapshots;
  console.log(
    `size: after mirror prune --keep-raw 0 (${p.bodies} bodies removed) and VACUUM: ${st.fileBytes} bytes, ${st.snapshots} snapshots, ${st.contracts} contracts = ${Math.round(perPool)} bytes per pool per snapshot (goal ≤ 1,200), ${Math.round(perSnapshot)} bytes per snapshot → a month of 30 s snapshots ≈ ${((perSnapshot * SNAPSHOTS_PER_MONTH) / 1e6).toFixed(0)} MB`,
  );
  const db = new Database(copyPath, { readonly: true });
  const rows = db
    .prepare(
      `SELECT s.name, coalesce(m.type, 'table'), sum(s.pgsize) FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name
       GROUP BY s.name ORDER BY 3 DESC`,
    )
    .raw(true)
    .all() as [string, string, number][];
  db.close();
  for (const [name, type, bytes] of rows) {
    if (bytes < 8192) continue;
    console.log(
      `size: ${type.padEnd(5)} ${name.padEnd(36)} ${String(bytes).padStart(11)} bytes ${(bytes / (pools * st.snapshots)).toFixed(0).padStart(6)} per pool per snapshot`,
    );
  }
  // the product's archive (mirror prune --keep-raw 0 --archive): everything it may move, moved
  const archivedPath = join(dir, 'archived.db');
  const src = new Database(copyPath, { readonly: true });
  src.prepare('VACUUM INTO ?').run(archivedPath);
  src.close();
  const am = openMirror(archivedPath);
  const a = archiveMirror(am, Number.MAX_SAFE_INTEGER);
  vacuumMirror(am);
  const ast = readMirrorStats(am);
  am.close();
  const archivedPerSnapshot = ast.fileBytes / ast.snapshots;
  console.log(
    `size: after mirror prune --keep-raw 0 --archive (${a.contracts} contracts in ${a.contractChunks} chunks, ${a.observations} observations in ${a.observationChunks} chunks) and VACUUM: ${ast.fileBytes} bytes = ${Math.round(ast.fileBytes / (pools * ast.snapshots))} bytes per pool per snapshot, ${Math.round(archivedPerSnapshot)} bytes per snapshot → a month of 30 s snapshots ≈ ${((archivedPerSnapshot * SNAPSHOTS_PER_MONTH) / 1e6).toFixed(0)} MB (goal < 300 MB)`,
  );
} finally {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
}
