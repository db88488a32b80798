/**
 * The chunked-layout prototype of bench/chunked-layout.ts (printed by `npm run bench:mirror`) on a
 * small mirror of the current schema: it rebuilds every contract and observation into chunks, checks
 * each chunk against its rows (it throws otherwise), and the file it writes is smaller. Kept here so
 * that the benchmark does not rot when the mirror's schema moves on.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { measureChunkedLayout } from '../../bench/chunked-layout.js';
import type { ContractVerificationInput } from '../../src/io/store/index.js';
import { openMirror, pruneRawResponses, vacuumMirror, wrapSqliteMirror } from '../../src/io/store/index.js';
import { type FixturePool, fixtureContractId, makeSnapshot, verifiedInputOf } from './snapshot-fixture.js';

const T = Date.UTC(2026, 10, 1);
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chunked-layout-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

it('rebuilds a mirror into chunks that give back every row, in a smaller file', async () => {
  const path = join(dir, 'mirror.db');
  const mirror = openMirror(path);
  const store = wrapSqliteMirror(mirror);
  let n = 0;
  const current = new Map<string, FixturePool>();
  for (let s = 1; s <= 40; s++) {
    const at = T + s * 30_000;
    const list: FixturePool[] = [];
    for (let i = 0; i < 5; i++) {
      const poolId = String(100 + i);
      let c = current.get(poolId);
      if (c === undefined || (s + i) % 3 === 0) {
        n += 1;
        c = {
          poolId,
          contractId: fixtureContractId(n),
          reserveA: `${1000 + n}.0000000000`,
          reserveB: `${2000 + n}.5000000000`,
          lp: '1000.0000000000',
          createdAtMs: at - 100,
        };
        current.set(poolId, c);
      }
      list.push(c);
    }
    const v = new Map<string, ContractVerificationInput>(list.map((c) => [c.contractId, verifiedInputOf(c)]));
    await store.recordSnapshot(makeSnapshot(at, list), v, { now: () => at });
  }
  pruneRawResponses(mirror, Number.MAX_SAFE_INTEGER);
  vacuumMirror(mirror);
  mirror.close();
  const r = measureChunkedLayout(path, join(dir, 'chunked.db'));
  expect(r.snapshots).toBe(40);
  expect(r.contracts).toBe(n);
  expect(r.observations).toBe(200);
  const names = r.trees.map(([name]) => name);
  expect(names).toEqual(expect.arrayContaining(['contract_chunks', 'contract_ids', 'observation_chunks']));
  expect(names).not.toContain('contracts');
  expect(names).not.toContain('observations');
  expect(r.fileBytes).toBeLessThan(statSync(path).size);
});
