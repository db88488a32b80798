/**
 * `--auditor-party` (docs/decisions/server.md "The auditor party"): the simulator mints every
 * reserve contract with that party as its one observer (a non-signatory stakeholder). The observer
 * is an input of the unicum, so the contract IDs differ from those of the same ledger without it,
 * and they still recompute (verifyContractId with the fixture type file) for v10, v11 and v12; the
 * create argument, the signatories and everything else the blob holds are unchanged. Without the
 * option nothing changes (the minted contracts of the other tests and fixtures stay as they are).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob } from '../../src/core/codec/index.js';
import { verifyContractId } from '../../src/core/hash/index.js';
import { createTypeEnv } from '../../src/core/types/type-env.js';
import { parseTypeFile } from '../../src/core/types/type-file.js';
import { createManualClock } from '../../src/sim/clock.js';
import { createExchange } from '../../src/sim/ledger.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { openServerDb } from '../../src/sim/store/connection.js';
import { openTestLedger, SEED_MARKET, T0, TRADER } from './helpers.js';

const fixtureTypes = createTypeEnv(
  parseTypeFile(readFileSync(new URL('../../fixtures/types/amm-pools.json', import.meta.url), 'utf8'))
    .packages,
);
const AUDITOR = 'auditor::12200000000000000000000000000000000000000000000000000000000000000abc';

describe.each(['v10', 'v11', 'v12'] as const)('the auditor party as an observer (%s)', (version) => {
  const seed = `auditor-${version}`;
  const plain = openTestLedger({ version, seed });
  const observed = openTestLedger({ version, seed, auditorParty: AUDITOR });
  for (const { exchange } of [plain, observed]) {
    expect(
      exchange.transfer({ sender: TRADER, instrument: exchange.cc(), amount: '1000', memo: 'USDCx' }).status,
    ).toBe('executed');
  }
  const rows = (l: typeof plain) =>
    l.exchange.pools().flatMap((p) => l.exchange.reserveContracts(p.poolId, 10));

  it('every contract recomputes, with the auditor among its stakeholders', () => {
    const all = rows(observed);
    expect(all.length).toBeGreaterThan(observed.exchange.pools().length);
    expect(all.length).toBe(rows(plain).length);
    for (const row of all) {
      const v = verifyContractId({ contractId: row.contractId, blob: row.blob, types: fixtureTypes });
      expect(v.reasons).toEqual([]);
      expect(v.status).toBe('verified');
      expect(v.version).toBe(version);
      const c = decodeCreatedEventBlob(row.blob);
      expect(c.signatories).toEqual([observed.exchange.operatorParty()]);
      expect(c.nonSignatoryStakeholders).toEqual([AUDITOR]);
      expect([...c.stakeholders].sort()).toEqual([AUDITOR, observed.exchange.operatorParty()].sort());
    }
  });

  it('the same ledger without it has other contract IDs and the very same create arguments', () => {
    const a = rows(plain);
    const b = rows(observed);
    expect(b.map((r) => r.poolId)).toEqual(a.map((r) => r.poolId));
    a.forEach((ra, i) => {
      const rb = b[i]!;
      expect(rb.contractId).not.toBe(ra.contractId);
      // the discriminator and salt come from the same seeded draws: only the suffix differs
      expect(rb.contractId.slice(0, 66)).toBe(ra.contractId.slice(0, 66));
      const ca = decodeCreatedEventBlob(ra.blob);
      const cb = decodeCreatedEventBlob(rb.blob);
      expect(ca.nonSignatoryStakeholders).toEqual([]);
      expect(cb.nonSignatoryStakeholders).toEqual([AUDITOR]);
      expect(cb.createdAt).toBe(ca.createdAt);
      expect(cb.authenticationData).toEqual(ca.authenticationData);
      // a successor's `previous` names its predecessor's (different) ID: compare the rest
      if (ra.previous === null) expect(cb.createArg).toEqual(ca.createArg);
      expect([rb.reserveA, rb.reserveB, rb.totalLpSupply, rb.sequence]).toEqual([
        ra.reserveA,
        ra.reserveB,
        ra.totalLpSupply,
        ra.sequence,
      ]);
    });
  });
});

describe('the auditor party on a ledger that outlives a restart', () => {
  it('contracts minted before keep their stakeholders; the next ones have the observer; offsets continue', () => {
    const dir = mkdtempSync(join(tmpdir(), 'auditor-restart-'));
    const path = join(dir, 'ledger.db');
    try {
      const first = openTestLedger({ path, seed: 'restart' });
      const pool = first.exchange.pools()[0]!.poolId;
      const before = first.exchange.pools()[0]!.reserveContract.contractId;
      const end1 = first.exchange.ledgerEnd();
      first.db.close();

      const second = openTestLedger({ path, seed: 'restart', auditorParty: AUDITOR });
      expect(second.exchange.ledgerEnd()).toBe(end1);
      expect(
        second.exchange.transfer({
          sender: TRADER,
          instrument: second.exchange.cc(),
          amount: '1000',
          memo: 'USDCx',
        }).status,
      ).toBe('executed');
      expect(second.exchange.ledgerEnd()).toBe(end1 + 1);
      const after = second.exchange.pools().find((p) => p.poolId === pool)!.reserveContract.contractId;
      expect(after).not.toBe(before);
      const old = second.exchange.reserveContract(before)!;
      const next = second.exchange.reserveContract(after)!;
      expect(old.observers).toEqual([]);
      expect(old.archived?.offset).toBe(end1 + 1);
      expect(next.observers).toEqual([AUDITOR]);
      expect(next.created.offset).toBe(end1 + 1);
      expect(next.created.nodeId).toBe(old.archived!.nodeId + 1);
      const v = verifyContractId({ contractId: after, blob: next.createdEventBlob, types: fixtureTypes });
      expect(v.status).toBe('verified');
      second.db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the auditor party option', () => {
  it('is refused when it is no Daml party id', () => {
    const db = openServerDb(':memory:');
    try {
      expect(() =>
        createExchange({
          db,
          clock: createManualClock(T0),
          rng: createSeededRng('x'),
          seedMarket: SEED_MARKET,
          auditorParty: 'not a party!',
        }),
      ).toThrow(/SIMULATOR_OPTION_INVALID/);
    } finally {
      db.close();
    }
  });
});
