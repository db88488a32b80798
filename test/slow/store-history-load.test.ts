/**
 * Slow: readObservationsForHistoryChecks over 100,000 observations (1,000 pools × 100 snapshots,
 * 600-byte blobs in the contracts table) — one set-based query; prints the time. The mirror is
 * filled with direct inserts in one transaction (recording speed is not measured here).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openMirror, readObservationsForHistoryChecks } from '../../src/io/store/index.js';
import { mirrorDb } from '../../src/io/store/mirror-db.js';
import { fixtureContractId } from '../store/snapshot-fixture.js';

describe('history-check load', () => {
  it('loads 100,000 observations joined with their contracts in < 10 s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ra-history-'));
    const m = openMirror(join(dir, 'mirrorDb(m)'));
    try {
      const T = Date.UTC(2026, 10, 1);
      const POOLS = 1000;
      const SNAPS = 100;
      const snap = mirrorDb(m).prepare(
        `INSERT INTO snapshots (id, snapshot_key, base_url, started_at_ms, finished_at_ms, recorded_at_ms, pool_count,
           new_contracts, failed_sections) VALUES (?, ?, 'http://x', ?, ?, ?, ${POOLS}, ${POOLS}, '[]')`,
      );
      mirrorDb(m)
        .prepare(
          "INSERT INTO templates (id, package_id, package_name, module_name, entity_name) VALUES (99, 'pkg', 'amm-pools', 'Amm.Pool', 'PoolReserve')",
        )
        .run();
      const ins = mirrorDb(m).prepare(
        `INSERT INTO contracts (contract_id, pool_id, blob, blob_sha256, update_id, template_key, reserve_a, reserve_b, total_lp_supply, ledger_created_at, created_at_ms, created_at_micros,
           fields_source, verification_status, verification_reason, first_seen_snapshot, last_seen_snapshot, first_seen_ms,
           last_seen_ms, ckey) VALUES (?, ?, ?, ?, ?, 99, ?, '2.0000000000',
           '3.0000000000', '2026-11-01T00:00:00+00:00', ?, ?, 'blob', 'verified', NULL, ?, ?, 0, 0, ?)`,
      );
      const obs = mirrorDb(m).prepare(
        `INSERT INTO observations (snapshot_id, pool_id, observed_at_ms, contract_key, reserve_a, reserve_b, total_lp_supply,
           ledger_created_at) VALUES (?, ?, ?, ?, ?, '2.0000000000', '3.0000000000', '2026-11-01T00:00:00+00:00')`,
      );
      const blob = Buffer.alloc(600, 7);
      mirrorDb(m).transaction(() => {
        for (let s = 1; s <= SNAPS; s++) {
          snap.run(s, `k${s}`, T + s * 1000, T + s * 1000, T + s * 1000);
          for (let p = 0; p < POOLS; p++) {
            const n = s * POOLS + p;
            const cid = fixtureContractId(n);
            const ra = `${n}.0000000000`;
            ins.run(cid, `pool-${p}`, blob, 'ab'.repeat(32), `u${n}`, ra, T + n, (T + n) * 1000, s, s, n);
            obs.run(s, `pool-${p}`, T + s * 1000, n, ra);
          }
        }
      })();
      const t0 = performance.now();
      const h = readObservationsForHistoryChecks(m, { limitPerPool: Number.MAX_SAFE_INTEGER });
      const secs = (performance.now() - t0) / 1000;
      const t1 = performance.now();
      const h10 = readObservationsForHistoryChecks(m, { limitPerPool: 10 });
      const secs10 = (performance.now() - t1) / 1000;
      process.stderr.write(
        `readObservationsForHistoryChecks: ${POOLS * SNAPS} observations in ${secs.toFixed(2)} s; newest 10 per pool in ${secs10.toFixed(2)} s\n`,
      );
      expect(h.size).toBe(POOLS);
      const p7 = h.get('pool-7') ?? [];
      expect(p7).toHaveLength(SNAPS);
      expect(p7[SNAPS - 1]?.contractReserveA).toBe(`${SNAPS * POOLS + 7}.0000000000`);
      expect(p7[0]?.proven).toBe(true);
      expect(h10.get('pool-7')?.map((o) => o.snapshotId)).toEqual([91, 92, 93, 94, 95, 96, 97, 98, 99, 100]);
      expect(secs).toBeLessThan(10);
    } finally {
      m.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
