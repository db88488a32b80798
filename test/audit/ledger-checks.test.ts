/**
 * The pure ledger checks and assurance levels (src/core/audit/ledger-checks.ts, assurance.ts): the
 * cases the end-to-end suite cannot build from one simulated exchange — two live reserve contracts
 * of one pool, an archive after the ledger end read before the fetch, a hidden pool newer than the
 * snapshots — and the level table.
 */
import { describe, expect, it } from 'vitest';
import {
  AuditCollector,
  checkLedger,
  computePoolAssurance,
  computeRunAssurance,
  type LedgerEvidence,
} from '../../src/core/audit/index.js';
import type { ProvenPool } from '../../src/core/audit/proof-checks.js';
import type { ProofEntry } from '../../src/core/audit/snapshot.js';
import type { ReserveProof } from '../../src/core/proof/reserve-proof.js';

const FETCH = Date.parse('2026-11-22T03:00:00Z');
const fields = (poolId: string) => ({
  poolId,
  tokenA: null,
  tokenB: null,
  reserveA: '1.0',
  reserveB: '2.0',
  totalLpSupply: '1.0',
  feeRate: null,
});
const entry = (poolId: string, contractId: string): ProofEntry =>
  ({ poolId, contractId, createdEventBlob: `blob-${contractId}` }) as unknown as ProofEntry;
const pool = (poolId: string, contractId: string): ProvenPool =>
  ({
    poolId,
    contractId,
    status: 'proven',
    fields: fields(poolId),
    template: null,
    ledgerCreatedAtMicros: BigInt(FETCH - 7_200_000) * 1000n,
    entry: entry(poolId, contractId),
  }) as ProvenPool;
const proof = (poolId: string): ReserveProof =>
  ({ status: 'proven', provenFields: fields(poolId), reasons: [] }) as unknown as ReserveProof;

function evidence(over: Partial<LedgerEvidence> = {}): LedgerEvidence {
  return {
    participant: 'http://participant',
    party: 'auditor::1',
    endBeforeFetch: 100,
    contracts: new Map([
      [
        'c1',
        { kind: 'found', contractId: 'c1', createdEventBlob: 'blob-c1', createdOffset: 5, archived: null },
      ],
    ]),
    active: {
      ok: true,
      offset: 120,
      contracts: [{ contractId: 'c1', createdOffset: 5, createdAtMs: FETCH - 3_600_000, proof: proof('p1') }],
    },
    ...over,
  };
}

const run = (e: LedgerEvidence) => {
  const c = new AuditCollector();
  const r = checkLedger(
    c,
    e,
    new Map([['p1', pool('p1', 'c1')]]),
    [{ updatedAtMs: FETCH, entries: [] }],
    FETCH,
  );
  return { r, codes: c.findings.map((f) => f.code), c };
};

describe('checkLedger', () => {
  it('confirms a contract the ledger shows created with the same blob and not archived', () => {
    const { r, codes } = run(evidence());
    expect(r.get('p1')).toBe('confirmed');
    expect(codes).toEqual([]);
  });

  it('a second live reserve contract of one pool is LEDGER_RESERVE_UNLISTED', () => {
    const e = evidence();
    const active = e.active.ok ? e.active.contracts : [];
    const { codes, c } = run({
      ...e,
      active: {
        ok: true,
        offset: 120,
        contracts: [
          ...active,
          { contractId: 'c9', createdOffset: 6, createdAtMs: FETCH - 1000, proof: proof('p1') },
        ],
      },
    });
    expect(codes).toEqual(['LEDGER_RESERVE_UNLISTED']);
    expect(c.findings[0]!.evidence.kind).toBe('second-contract');
  });

  it('a hidden pool newer than the ledger end before the fetch, or than the snapshot, is not counted', () => {
    const e = evidence();
    const active = e.active.ok ? e.active.contracts : [];
    const extra = (createdOffset: number, createdAtMs: number) => ({
      ...e,
      active: {
        ok: true as const,
        offset: 120,
        contracts: [...active, { contractId: 'h1', createdOffset, createdAtMs, proof: proof('hidden') }],
      },
    });
    expect(run(extra(110, FETCH - 3_600_000)).codes).toEqual([]);
    expect(run(extra(50, FETCH - 1000)).codes).toEqual([]);
    expect(run(extra(50, FETCH - 3_600_000)).codes).toEqual(['LEDGER_RESERVE_UNLISTED']);
  });

  it('an archive after the ledger end read before the fetch is never PROOF_ARCHIVED, whatever its time', () => {
    const archived = (offset: number) =>
      evidence({
        contracts: new Map([
          [
            'c1',
            {
              kind: 'found',
              contractId: 'c1',
              createdEventBlob: 'blob-c1',
              createdOffset: 5,
              archived: { offset, effectiveAtMs: FETCH - 86_400_000, reason: null },
            },
          ],
        ]),
      });
    expect(run(archived(101)).codes).toEqual(['LEDGER_PROOF_SUPERSEDED']);
    expect(run(archived(100)).codes).toEqual(['PROOF_ARCHIVED']);
  });

  it('another blob under the served contract ID is PROOF_LEDGER_BLOB_MISMATCH', () => {
    const { codes } = run(
      evidence({
        contracts: new Map([
          [
            'c1',
            { kind: 'found', contractId: 'c1', createdEventBlob: 'other', createdOffset: 5, archived: null },
          ],
        ]),
      }),
    );
    expect(codes).toEqual(['PROOF_LEDGER_BLOB_MISMATCH']);
  });

  it('a not-found is an accusation only for a stakeholder reading an unpruned participant', () => {
    const nf = (readerIsStakeholder: boolean | null, prunedUpTo: number | null) =>
      run(
        evidence({
          contracts: new Map([
            ['c1', { kind: 'not-found', readerIsStakeholder, prunedUpTo, message: 'not found' }],
          ]),
        }),
      ).codes;
    expect(nf(true, 0)).toEqual(['PROOF_NOT_ON_LEDGER']);
    expect(nf(false, 0)).toEqual(['LEDGER_UNAVAILABLE']);
    expect(nf(null, 0)).toEqual(['LEDGER_UNAVAILABLE']);
    expect(nf(true, 3)).toEqual(['LEDGER_UNAVAILABLE']);
    expect(nf(true, null)).toEqual(['LEDGER_UNAVAILABLE']);
  });

  it('a not-found contract no older than what the participant has shown may not have reached it: no accusation', () => {
    const e = evidence({
      contracts: new Map([
        ['c1', { kind: 'not-found', readerIsStakeholder: true, prunedUpTo: 0, message: 'not found' }],
      ]),
    });
    const newest = (createdAtMs: number): LedgerEvidence => ({
      ...e,
      active: {
        ok: true,
        offset: 120,
        contracts: [{ contractId: 'c2', createdOffset: 6, createdAtMs, proof: proof('p1') }],
      },
    });
    // served contract created 2 h before the fetch; the participant's newest reserve contract 1 h 59.5 min before
    expect(run(newest(FETCH - 7_170_000)).codes).toEqual(['LEDGER_UNAVAILABLE']);
    expect(run(newest(FETCH - 7_000_000)).codes).toContain('PROOF_NOT_ON_LEDGER');
    expect(run({ ...e, active: { ok: false, reason: 'down' } }).codes).toEqual([
      'LEDGER_UNAVAILABLE',
      'LEDGER_UNAVAILABLE',
    ]);
  });
});

describe('assurance levels', () => {
  it('per pool, from the proof status and the ledger result', () => {
    expect(computePoolAssurance('proven', 'confirmed')).toBe('ledger-confirmed');
    expect(computePoolAssurance('proven', 'not-run')).toBe('id-verified');
    expect(computePoolAssurance('proven', 'could-not-check')).toBe('id-verified');
    expect(computePoolAssurance('proven', 'superseded')).toBe('ledger-confirmed');
    expect(computePoolAssurance('proven', 'contradicted')).toBe('asserted');
    expect(computePoolAssurance('failed', 'not-run')).toBe('asserted');
    expect(computePoolAssurance('missing', 'not-run')).toBe('asserted');
    expect(computePoolAssurance('unverifiable', 'not-run')).toBe('unverifiable');
  });

  it('the run takes the weakest pool', () => {
    expect(computeRunAssurance(['ledger-confirmed', 'id-verified'])).toBe('id-verified');
    expect(computeRunAssurance(['ledger-confirmed'])).toBe('ledger-confirmed');
    expect(computeRunAssurance(['id-verified', 'asserted', 'ledger-confirmed'])).toBe('asserted');
    expect(computeRunAssurance([])).toBe('unverifiable');
  });
});
