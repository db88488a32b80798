/**
 * Crash safety of the mirror: a child process killed with SIGKILL inside the transaction of a
 * snapshot leaves the previously committed state intact and the database consistent — the SQLite
 * file, and a PostgreSQL mirror (the server rolls back the dead connection's transaction).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  countContracts,
  openMirror,
  openMirrorStore,
  readSnapshots,
  recordSnapshot,
} from '../../src/io/store/index.js';
import { mirrorDb } from '../../src/io/store/mirror-db.js';
import { createTestDatabase, pgSkipReason } from '../helpers/postgres.js';
import { killed, spawnUntil } from './crash-helpers.js';
import { fixtureContractId, makeSnapshot } from './snapshot-fixture.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ra-crash-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('kill -9 during a snapshot', () => {
  it('leaves the previous snapshot intact and the database consistent', async () => {
    const db = join(dir, 'mirrorDb(m)');
    const child = await spawnUntil(db, 'hold', /in-transaction/);
    await killed(child);
    const m = openMirror(db);
    try {
      expect(mirrorDb(m).pragma('integrity_check', { simple: true })).toBe('ok');
      expect(mirrorDb(m).pragma('foreign_key_check')).toEqual([]);
      const snaps = readSnapshots(m);
      expect(snaps).toHaveLength(1);
      expect(snaps[0]?.poolCount).toBe(3);
      expect(countContracts(m)).toBe(3);
      expect(Number(mirrorDb(m).prepare('SELECT count(*) FROM observations').pluck().get())).toBe(3);
      // the mirror keeps working after the crash
      const r = recordSnapshot(
        m,
        makeSnapshot(Date.UTC(2026, 10, 2), [
          {
            poolId: '0',
            contractId: fixtureContractId(9),
            reserveA: '1.0000000000',
            reserveB: '1.0000000000',
            createdAtMs: 1,
          },
        ]),
      );
      expect(r.created).toBe(true);
      expect(readSnapshots(m)).toHaveLength(2);
    } finally {
      m.close();
    }
  }, 20_000);
});

describe('kill -9 during a snapshot, PostgreSQL', () => {
  it.skipIf(pgSkipReason() !== null)(
    'the server rolls the open transaction back: no half snapshot, the mirror keeps working',
    async () => {
      const db = await createTestDatabase('crash');
      try {
        const child = await spawnUntil(db.url, 'hold', /in-transaction/);
        // the child is inside the transaction of a 500-pool snapshot, its rows written but not committed
        await killed(child);
        const m = await openMirrorStore(db.url);
        try {
          const snaps = await m.readSnapshots();
          expect(snaps).toHaveLength(1);
          expect(snaps[0]?.poolCount).toBe(3);
          expect(await m.countContracts()).toBe(3);
          expect((await m.readLatestObservations()).length).toBe(3);
          // the killed writer's advisory lock went with its connection: the next snapshot commits
          const r = await m.recordSnapshot(
            makeSnapshot(Date.UTC(2026, 10, 2), [
              {
                poolId: '0',
                contractId: fixtureContractId(9),
                reserveA: '1.0000000000',
                reserveB: '1.0000000000',
                createdAtMs: 1,
              },
            ]),
          );
          expect(r.created).toBe(true);
          expect(await m.countSnapshots()).toBe(2);
          expect(await m.readHistoryPast(new Map(), 0)).not.toBeNull();
        } finally {
          await m.close();
        }
      } finally {
        await db.drop();
      }
    },
    30_000,
  );
});
