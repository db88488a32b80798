/**
 * Every reserve contract the simulator mints decodes (src/core/codec) and verifies
 * (src/core/hash verifyContractId; V12 with the fixture type file) for v10, v11 and v12, and its
 * suffix matches an independent recomputation (./independent-hash.ts); decoded reserves equal the
 * pool state; archived contracts are kept and chained by `previous` (docs/protocol/api-decisions.md §3).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob } from '../../src/core/codec/index.js';
import { verifyContractId } from '../../src/core/hash/index.js';
import { createTypeEnv } from '../../src/core/types/type-env.js';
import { formatTypeFile, parseTypeFile } from '../../src/core/types/type-file.js';
import type { SimulatedExchange } from '../../src/sim/ledger.js';
import {
  decodeReserveCreateArg,
  RESERVE_PACKAGE_ID,
  RESERVE_PACKAGE_ID_PREIMAGE,
  RESERVE_PACKAGE_TYPES,
} from '../../src/sim/reserve-template.js';
import { openTestLedger, TRADER, tokenBySymbol } from './helpers.js';
import { computeSuffixIndependently } from './independent-hash.js';

const typeFileText = readFileSync(new URL('../../fixtures/types/amm-pools.json', import.meta.url), 'utf8');
const fixtureTypes = createTypeEnv(parseTypeFile(typeFileText).packages);

/** A few swaps (direct and cross) and a liquidity change, so contracts have predecessors. */
function exercise(ex: SimulatedExchange): void {
  const cc = ex.cc();
  expect(ex.transfer({ sender: TRADER, instrument: cc, amount: '1000', memo: 'USDCx' }).status).toBe(
    'executed',
  );
  expect(
    ex.transfer({
      sender: TRADER,
      instrument: tokenBySymbol(ex, 'TF-USDT'),
      amount: '100',
      memo: 'USDC.B ref:abc',
    }).status,
  ).toBe('executed');
  const mod = ex.pools().find((p) => p.tokenA.id === 'MOD')!;
  ex.addLiquidity(mod.poolId, '1000', '500', TRADER);
}

describe('reserve template', () => {
  it('has the documented package id and the fixture type file', () => {
    expect(createHash('sha256').update(RESERVE_PACKAGE_ID_PREIMAGE).digest('hex')).toBe(RESERVE_PACKAGE_ID);
    expect(formatTypeFile([RESERVE_PACKAGE_TYPES], parseTypeFile(typeFileText).provenance)).toBe(
      typeFileText,
    );
  });
});

describe.each(['v10', 'v11', 'v12'] as const)('minted reserve contracts (%s)', (version) => {
  const { exchange: ex, db } = openTestLedger({ version, seed: `verify-${version}` });
  exercise(ex);
  const rows = ex.pools().flatMap((p) => ex.reserveContracts(p.poolId, 100));

  it('has archived and active contracts', () => {
    expect(rows.length).toBe(ex.pools().length + 3 + 1);
    expect(rows.filter((r) => r.archivedBy === null).length).toBe(ex.pools().length);
  });

  it('every contract decodes and verifies (own core and independent recomputation)', () => {
    for (const row of rows) {
      expect(row.contractId.slice(66, 70)).toBe(`ca${version.slice(1)}`);
      const res = verifyContractId({ contractId: row.contractId, blob: row.blob, types: fixtureTypes });
      expect(res.reasons).toEqual([]);
      expect(res.status).toBe('verified');
      const c = decodeCreatedEventBlob(row.blob);
      expect(Buffer.from(c.contractId).toString('hex')).toBe(row.contractId);
      expect(c.packageName).toBe('amm-pools');
      expect(c.templateId).toEqual({
        packageId: RESERVE_PACKAGE_ID,
        module: ['Amm', 'Pool'],
        entity: ['PoolReserve'],
      });
      expect(c.signatories).toEqual([ex.operatorParty()]);
      expect(c.nonSignatoryStakeholders).toEqual([]);
      expect(c.createdAt).toBe(row.createdAtMicros);
      expect(c.authenticationData.version).toBe(30);
      const fields = decodeReserveCreateArg(c.createArg)!;
      expect(fields).not.toBeNull();
      expect([fields.reserveA, fields.reserveB, fields.totalLpSupply, fields.feeRate]).toEqual([
        row.reserveA,
        row.reserveB,
        row.totalLpSupply,
        row.feeRate,
      ]);
      for (const amount of [fields.reserveA, fields.reserveB, fields.totalLpSupply, fields.feeRate]) {
        expect(amount).toMatch(/^\d+\.\d{10}$/);
      }
      expect(fields.sequence).toBe(row.sequence);
      expect(fields.previous === null ? null : Buffer.from(fields.previous).toString('hex')).toBe(
        row.previous,
      );
      const trailing = c.createArg.kind === 'record' && c.createArg.fields.length === 10;
      // v10 keeps the trailing None of a genesis contract; v11/v12 drop it (normal form)
      if (row.previous === null) expect(trailing).toBe(version === 'v10');
      const suffix = computeSuffixIndependently(version, {
        fields,
        trailingNone: trailing && fields.previous === null,
        packageId: RESERVE_PACKAGE_ID,
        salt: c.authenticationData.salt!.bytes,
        createdAtMicros: c.createdAt,
      });
      expect(suffix).toBe(row.contractId.slice(66));
    }
  });

  it('the current contract of each pool matches its state (reserves, base64 blob, sequence)', () => {
    for (const p of ex.pools()) {
      const c = decodeCreatedEventBlob(p.reserveContract.createdEventBlob);
      const f = decodeReserveCreateArg(c.createArg)!;
      expect(f.poolId).toBe(p.poolId);
      expect(f.reserveA).toBe(p.reserveA);
      expect(f.reserveB).toBe(p.reserveB);
      expect(f.totalLpSupply).toBe(p.totalLpSupply);
      expect(f.sequence).toBe(p.sequence);
      expect(f.tokenA).toEqual({ admin: p.tokenA.admin, id: p.tokenA.id });
      expect(BigInt(p.reserveContract.createdAtMicros)).toBe(c.createdAt);
      expect(p.reserveContract.updateId).toMatch(/^1220[0-9a-f]{64}$/);
    }
  });

  it('archives are kept and chained by previous, sequence +1, archived by the successor update', () => {
    for (const p of ex.pools()) {
      const chain = ex.reserveContracts(p.poolId, 100);
      expect(chain[0]!.contractId).toBe(p.reserveContract.contractId);
      for (let i = 0; i + 1 < chain.length; i++) {
        expect(chain[i]!.previous).toBe(chain[i + 1]!.contractId);
        expect(chain[i]!.sequence).toBe(chain[i + 1]!.sequence + 1n);
        expect(chain[i + 1]!.archivedBy).toBe(chain[i]!.updateId);
        expect(chain[i]!.createdAtMicros > chain[i + 1]!.createdAtMicros).toBe(true);
      }
      expect(chain[chain.length - 1]!.sequence).toBe(0n);
      expect(chain[chain.length - 1]!.previous).toBeNull();
      const history = ex.reserveHistory(p.poolId, 100);
      expect(history.map((h) => h.reserveContract.contractId)).toEqual(chain.map((c) => c.contractId));
    }
    const n = (db.prepare('SELECT COUNT(*) AS n FROM reserve_contracts').get() as { n: number }).n;
    expect(n).toBe(rows.length);
  });
});
