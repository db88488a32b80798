/**
 * Slow: SIGKILL a child that records snapshots in a tight loop, at random moments, several times
 * over the same mirror; after every kill the database must be consistent and hold only whole
 * snapshots (each with its pools' observations and its three responses).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openMirror, readSnapshots } from '../../src/io/store/index.js';
import { mirrorDb } from '../../src/io/store/mirror-db.js';
import { killed, spawnUntil } from '../store/crash-helpers.js';

describe('kill -9 at random points of a snapshot loop', () => {
  it('never leaves a partial snapshot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ra-crash-loop-'));
    const db = join(dir, 'mirrorDb(m)');
    try {
      let previous = 0;
      for (let round = 0; round < 8; round++) {
        const child = await spawnUntil(db, 'loop', /\d+\n/);
        await new Promise((r) => setTimeout(r, 20 + Math.floor(Math.random() * 300)));
        await killed(child);
        const m = openMirror(db);
        try {
          expect(mirrorDb(m).pragma('integrity_check', { simple: true })).toBe('ok');
          expect(mirrorDb(m).pragma('foreign_key_check')).toEqual([]);
          const snaps = readSnapshots(m);
          expect(snaps.length).toBeGreaterThan(previous);
          previous = snaps.length;
          for (const s of snaps) {
            const obs = Number(
              mirrorDb(m)
                .prepare('SELECT count(*) FROM observations WHERE snapshot_id = ?')
                .pluck()
                .get(s.id),
            );
            const resp = Number(
              mirrorDb(m).prepare('SELECT count(*) FROM responses WHERE snapshot_id = ?').pluck().get(s.id),
            );
            expect(obs).toBe(s.poolCount);
            expect(resp).toBe(3);
          }
          const orphans = mirrorDb(m)
            .prepare(
              'SELECT count(*) FROM responses r LEFT JOIN bodies b ON b.sha256 = r.body_sha256 WHERE b.sha256 IS NULL',
            )
            .pluck()
            .get();
          expect(Number(orphans)).toBe(0);
        } finally {
          m.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
