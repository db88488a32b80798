/**
 * The snapshot plan (src/io/store/plan/snapshot-plan.ts) is pure: what rows a snapshot writes is a
 * function of the snapshot, the verifications and what the mirror holds, with no database. These
 * cases pin the decisions both appliers then only execute: new vs seen contracts, a settled
 * verification, reusable bodies, the first blob of a pool as its dictionary, compact observations.
 */
import { describe, expect, it } from 'vitest';
import {
  computeSnapshotPlan,
  readPlanContractIds,
  type StoredContract,
} from '../../src/io/store/plan/snapshot-plan.js';
import { fixtureContractId, makeSnapshot, verifiedInputOf } from './snapshot-fixture.js';

const T = Date.UTC(2026, 10, 1, 12, 0, 0);
const pools = [
  {
    poolId: '1000',
    contractId: fixtureContractId(1),
    reserveA: '10.0000000000',
    reserveB: '20.0000000000',
    createdAtMs: T - 5,
  },
  {
    poolId: '1001',
    contractId: fixtureContractId(2),
    reserveA: '30.0000000000',
    reserveB: '40.0000000000',
    createdAtMs: T - 9,
  },
];
const snapshot = makeSnapshot(T, pools);
const digest = (b64: string): string => `d:${b64.length}`;
const plan = (
  stored: ReadonlyMap<string, StoredContract>,
  reusable: ReadonlySet<string> = new Set(),
  verified = false,
) =>
  computeSnapshotPlan({
    snapshot,
    snapshotKey: 'k',
    recordedAtMs: 7,
    verifications: new Map(verified ? pools.map((p) => [p.contractId, verifiedInputOf(p)] as const) : []),
    blobDigest: digest,
    stored,
    reusableBodies: reusable,
  });

describe('snapshot plan', () => {
  it('an empty mirror: every contract new, every body stored, one observation per pool', () => {
    const p = plan(new Map());
    expect(readPlanContractIds(snapshot).sort()).toEqual(pools.map((x) => x.contractId).sort());
    expect(p.newContracts.map((c) => c.contractId).sort()).toEqual(pools.map((x) => x.contractId).sort());
    expect(p.newContracts.every((c) => c.status === 'unchecked' && c.fieldsSource === 'published')).toBe(
      true,
    );
    expect(p.snapshot).toMatchObject({ snapshotKey: 'k', recordedAtMs: 7, poolCount: 2, newContracts: 2 });
    expect([...p.dictionaryCandidates.keys()].sort()).toEqual(['1000', '1001']);
    expect(p.seenContracts).toEqual([]);
    expect(p.bodies.map((b) => b.sha256)).toEqual([...new Set(snapshot.raw.map((r) => r.sha256))]);
    expect(p.responses.map((r) => r.seq)).toEqual(snapshot.raw.map((_r, i) => i));
    expect(p.observations.map((o) => o.poolId).sort()).toEqual(['1000', '1001']);
    // compact: what the contract row holds is omitted
    for (const o of p.observations) {
      expect(o).toMatchObject({
        stateIsContract: true,
        stateContractId: null,
        blobSha256: null,
        ledgerCreatedAt: null,
      });
    }
  });

  it('a mirror holding the contracts: last seen moves; a verification settles an unchecked one; bodies reused', () => {
    const stored = new Map(
      p0().newContracts.map((c) => [
        c.contractId,
        {
          status: 'unchecked',
          fieldsSource: 'published',
          blobSha256: c.blobSha256,
          ledgerCreatedAt: c.ledgerCreatedAt,
        },
      ]),
    );
    const p = plan(stored, new Set(snapshot.raw.map((r) => r.sha256)), true);
    expect(p.newContracts).toEqual([]);
    expect(p.dictionaryCandidates.size).toBe(0);
    expect([...p.seenContracts].sort()).toEqual(pools.map((x) => x.contractId).sort());
    expect(p.verificationUpdates.map((u) => [u.status, u.fieldsSource, u.reserveA])).toEqual(
      expect.arrayContaining([
        ['verified', 'blob', '10.0000000000'],
        ['verified', 'blob', '30.0000000000'],
      ]),
    );
    expect(p.bodies).toEqual([]);
    expect(p.snapshot.newContracts).toBe(0);
  });

  it('a stored row with another digest: the observation keeps what it was served', () => {
    const stored = new Map(
      p0().newContracts.map((c) => [
        c.contractId,
        { status: 'verified', fieldsSource: 'blob', blobSha256: 'other', ledgerCreatedAt: c.ledgerCreatedAt },
      ]),
    );
    const p = plan(stored);
    expect(p.verificationUpdates).toEqual([]);
    for (const o of p.observations) expect(o.blobSha256).not.toBeNull();
  });
});

function p0() {
  return plan(new Map());
}
