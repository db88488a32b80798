/**
 * Slow: iterateContracts streams ≥ 100,000 stored contracts (600-byte blobs) at ≥ 30,000/s.
 * The mirror is filled with direct inserts in one transaction (recording speed is not measured here).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { iterateContracts, openMirror, recordSnapshot } from '../../src/io/store/index.js';
import { mirrorDb } from '../../src/io/store/mirror-db.js';
import { fixtureContractId, makeSnapshot } from '../store/snapshot-fixture.js';

describe('replay throughput', () => {
  it('iterates 100,000 contracts at ≥ 30,000/s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ra-replay-'));
    const m = openMirror(join(dir, 'mirrorDb(m)'));
    try {
      const T = Date.UTC(2026, 10, 1);
      recordSnapshot(
        m,
        makeSnapshot(T, [
          {
            poolId: '0',
            contractId: fixtureContractId(0),
            reserveA: '1.0000000000',
            reserveB: '1.0000000000',
            createdAtMs: T,
          },
        ]),
      );
      mirrorDb(m)
        .prepare(
          "INSERT INTO templates (id, package_id, package_name, module_name, entity_name) VALUES (99, 'pkg', 'amm-pools', 'Amm.Pool', 'PoolReserve')",
        )
        .run();
      const ins = mirrorDb(m).prepare(
        `INSERT INTO contracts (contract_id, pool_id, blob, blob_sha256, update_id, template_key, reserve_a, reserve_b, total_lp_supply, ledger_created_at, created_at_ms, created_at_micros,
           fields_source, verification_status, verification_reason, first_seen_snapshot, last_seen_snapshot, first_seen_ms,
           last_seen_ms) VALUES (?, ?, ?, ?, ?, 99, '1.0000000000', '2.0000000000',
           '3.0000000000', '2026-11-01T00:00:00+00:00', ?, ?, 'blob', 'verified', NULL, 1, 1, 0, 0)`,
      );
      const N = 100_000;
      const blob = Buffer.alloc(600, 7);
      mirrorDb(m).transaction(() => {
        for (let i = 1; i <= N; i++) {
          ins.run(
            fixtureContractId(i),
            String(i % 100),
            blob,
            'ab'.repeat(32),
            `u${i}`,
            T + i,
            (T + i) * 1000,
          );
        }
      })();
      for (let round = 0; round < 3; round++) {
        const t0 = performance.now();
        let n = 0;
        let bytes = 0;
        for (const c of iterateContracts(m)) {
          n++;
          bytes += c.blob.length;
        }
        const rate = n / ((performance.now() - t0) / 1000);
        process.stderr.write(
          `iterateContracts: ${n} contracts, ${bytes} blob bytes, ${Math.round(rate)} contracts/s\n`,
        );
        expect(n).toBe(N + 1);
        if (rate >= 30_000) return;
      }
      throw new Error('iterateContracts stayed below 30,000 contracts/s in 3 rounds');
    } finally {
      m.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('records a 10,000-contract snapshot in one transaction (prints the rate)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ra-record-'));
    const m = openMirror(join(dir, 'mirrorDb(m)'));
    try {
      const T = Date.UTC(2026, 10, 1);
      const N = 10_000;
      const pools = Array.from({ length: N }, (_, i) => ({
        poolId: String(i % 100),
        contractId: fixtureContractId(20_000_000 + i),
        reserveA: '1.0000000000',
        reserveB: '2.0000000000',
        createdAtMs: T + i,
        blob: Buffer.alloc(600, i % 251).toString('base64'),
      }));
      const snap = makeSnapshot(T, pools);
      const t0 = performance.now();
      const r = recordSnapshot(m, snap);
      const secs = (performance.now() - t0) / 1000;
      process.stderr.write(
        `recordSnapshot: ${N} new contracts in ${secs.toFixed(2)} s = ${Math.round(N / secs)} contracts/s\n`,
      );
      expect(r.newContracts).toHaveLength(N);
    } finally {
      m.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
