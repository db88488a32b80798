/**
 * Child process for the crash-safety tests (not a test file). Usage:
 *   node --import tsx test/store/crash-child.ts <db> hold    — commits snapshot 1, then blocks inside
 *                                                             the transaction of snapshot 2 (prints markers)
 *   node --import tsx test/store/crash-child.ts <db> loop    — records snapshots forever (prints each id)
 * <db> is a SQLite file or a postgres:// URL (the mirror's two backends).
 */
import { openMirrorStore } from '../../src/io/store/index.js';
import { type FixturePool, fixtureContractId, makeSnapshot } from './snapshot-fixture.js';

const [dbPath, mode] = process.argv.slice(2);
if (dbPath === undefined) throw new Error('usage: crash-child <db> hold|loop');
const T = Date.UTC(2026, 10, 1, 12, 0, 0);
const pools = (n: number, v: number): FixturePool[] =>
  Array.from({ length: n }, (_, i) => ({
    poolId: String(i),
    contractId: fixtureContractId(v * 100_000 + i),
    reserveA: `${v}.0000000000`,
    reserveB: `${i}.0000000000`,
    createdAtMs: T + v * 1000 + i,
  }));

const mirror = await openMirrorStore(dbPath);
if (mode === 'hold') {
  await mirror.recordSnapshot(makeSnapshot(T, pools(3, 1)));
  process.stdout.write('committed\n');
  await mirror.recordSnapshot(makeSnapshot(T + 1, pools(500, 2)), new Map(), {
    beforeCommit: () => {
      process.stdout.write('in-transaction\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
    },
  });
} else {
  // continue after what earlier (killed) runs committed, so every snapshot is a new one
  let v = (await mirror.countSnapshots()) + 1;
  for (;;) {
    const r = await mirror.recordSnapshot(makeSnapshot(T + v, pools(200, v)));
    process.stdout.write(`${r.snapshotId}\n`);
    v++;
  }
}
