/**
 * Hand-built audit inputs for unit tests of the pure checks (src/core/audit): an honest
 * two-pool snapshot whose numbers are consistent by construction, and a verified proof
 * verification for each proof (the create argument laid out as the bundled server's template).
 */

import type { AuditSnapshot, ProofEntry, StateEntry } from '../../src/core/audit/index.js';
import type { ProofVerification } from '../../src/core/audit/proof-checks.js';
import type { Value } from '../../src/core/codec/value.js';
import { DEFAULT_RESERVE_PROFILE } from '../../src/core/proof/index.js';
import { assessReserveProof, type ReserveProof } from '../../src/core/proof/reserve-proof.js';

const CC = { admin: 'DSO::1220cc', id: 'Amulet' };
const USD = { admin: 'usd::1220dd', id: 'USDCx' };
const FOO = { admin: 'foo::1220ee', id: 'FOO' };
export const TEMPLATE = {
  packageId: 'ab'.repeat(32),
  packageName: 'amm-pools',
  moduleName: 'Amm.Pool',
  entityName: 'PoolReserve',
};

export const cid = (n: number): string =>
  `00${n.toString(16).padStart(2, '0')}${'11'.repeat(31)}ca121220${'22'.repeat(32)}`;

export interface PoolSpec {
  readonly poolId: string;
  readonly a: { admin: string; id: string; symbol: string };
  readonly b: { admin: string; id: string; symbol: string };
  readonly reserveA: string;
  readonly reserveB: string;
  readonly lp: string;
  readonly fee: string;
  readonly n: number;
  readonly createdAt: string;
}

export const POOLS: readonly PoolSpec[] = [
  {
    poolId: 'p1',
    a: { ...CC, symbol: 'CC' },
    b: { ...USD, symbol: 'USDCX' },
    reserveA: '1000.0000000000',
    reserveB: '150.0000000000',
    lp: '387.2983346207',
    fee: '0.0005000000',
    n: 1,
    createdAt: '2026-11-22T02:00:00.000001+00:00',
  },
  {
    poolId: 'p2',
    a: { ...FOO, symbol: 'FOO' },
    b: { ...CC, symbol: 'CC' },
    reserveA: '200.0000000000',
    reserveB: '800.0000000000',
    lp: '400.0000000000',
    fee: '0.0030000000',
    n: 2,
    createdAt: '2026-11-22T02:30:00+00:00',
  },
];

function proofOf(p: PoolSpec): ProofEntry {
  return {
    poolId: p.poolId,
    poolCid: `pool-${p.poolId}`,
    tokenA: { admin: p.a.admin, id: p.a.id },
    tokenB: { admin: p.b.admin, id: p.b.id },
    contractId: cid(p.n),
    updateId: `u${p.n}`,
    template: TEMPLATE,
    ledgerCreatedAt: p.createdAt,
    createdEventBlob: 'AAAA',
    reserveA: p.reserveA,
    reserveB: p.reserveB,
    totalLpSupply: p.lp,
  };
}

function stateOf(p: PoolSpec): StateEntry {
  const price = (Number(p.reserveB) / Number(p.reserveA)).toFixed(10);
  const ccSide = p.a.id === CC.id ? p.reserveA : p.reserveB;
  return {
    poolId: p.poolId,
    contractId: cid(p.n),
    symbol: `${p.a.symbol}-${p.b.symbol}`,
    tokenA: p.a,
    tokenB: p.b,
    feeRate: p.fee,
    reserveA: p.reserveA,
    reserveB: p.reserveB,
    price,
    tvlCc: (Number(ccSide) * 2).toFixed(10),
  };
}

const inst = (t: { admin: string; id: string }): Value => ({
  kind: 'record',
  fields: [
    { kind: 'party', value: t.admin },
    { kind: 'text', value: t.id },
  ],
});

export function createArgOf(p: PoolSpec, over: Partial<{ reserveA: string; lp: string }> = {}): Value {
  return {
    kind: 'record',
    fields: [
      { kind: 'party', value: 'operator::1220ff' },
      { kind: 'text', value: p.poolId },
      inst(p.a),
      inst(p.b),
      { kind: 'numeric', value: over.reserveA ?? p.reserveA },
      { kind: 'numeric', value: p.reserveB },
      { kind: 'numeric', value: over.lp ?? p.lp },
      { kind: 'numeric', value: p.fee },
      { kind: 'int64', value: 1n },
      { kind: 'optional', value: null },
    ],
  };
}

export function micros(iso: string): bigint {
  const ms = Date.parse(iso);
  const frac = /\.(\d+)/.exec(iso)?.[1] ?? '';
  return BigInt(ms) * 1000n + BigInt((frac + '000000').slice(3, 6));
}

export function verifiedOf(p: PoolSpec): ProofVerification {
  return {
    idStatus: 'verified',
    reasons: [],
    recomputedContractId: null,
    decoded: {
      embeddedContractId: cid(p.n),
      template: TEMPLATE,
      createdAtMicros: micros(p.createdAt),
      createArg: createArgOf(p),
      fieldLabels: null,
    },
    decodeError: null,
  };
}

/** An honest snapshot of POOLS (no aggregator/quotes detail beyond what is consistent). */
export function honestSnapshot(): AuditSnapshot {
  const fail = { ok: false as const, reason: 'not fetched in this test' };
  const zero = {
    startTime: '2026-11-21T03:00:00+00:00',
    endTime: '2026-11-22T03:00:00+00:00',
    swapCount: '0',
    volumeCc: '0.0000000000',
    feesCc: '0.0000000000',
    lpFeesCc: '0.0000000000',
    protocolFeesCc: '0.0000000000',
  };
  return {
    baseUrl: 'http://127.0.0.1:1/v1/public',
    fetchedAt: '2026-11-22T03:00:00.000000+00:00',
    proofs: { ok: true, value: POOLS.map(proofOf) },
    proofsAfter: { ok: true, value: POOLS.map(proofOf) },
    state: { ok: true, value: POOLS.map(stateOf) },
    poolsInfo: {
      ok: true,
      value: POOLS.map((p) => ({
        contractId: cid(p.n),
        poolId: p.poolId,
        tokenA: { admin: p.a.admin, id: p.a.id },
        tokenB: { admin: p.b.admin, id: p.b.id },
        feeRate: p.fee,
        adminFeeShare: '0.1',
      })),
    },
    tokens: {
      ok: true,
      value: [
        { ...CC, name: 'Canton Coin', symbol: 'CC' },
        { ...USD, name: 'USDCx', symbol: 'USDCX' },
        { ...FOO, name: 'Foo', symbol: 'FOO' },
      ],
    },
    markets: {
      ok: true,
      value: [
        { symbol: 'CC-USDCX', source: 'service' },
        { symbol: 'FOO-CC', source: 'service' },
        { symbol: 'CC-USD', source: 'external' },
      ],
    },
    pairs: {
      ok: true,
      value: [
        { tickerId: 'CC_USDCX', base: 'CC', target: 'USDCX', poolId: 'p1' },
        { tickerId: 'FOO_CC', base: 'FOO', target: 'CC', poolId: 'p2' },
      ],
    },
    tickers: {
      ok: true,
      value: [
        {
          tickerId: 'CC_USDCX',
          poolId: 'p1',
          lastPrice: 0.15,
          bid: 0.15 * (1 - 0.0005),
          ask: 0.15 * (1 + 0.0005),
        },
        { tickerId: 'FOO_CC', poolId: 'p2', lastPrice: 4, bid: 4 * 0.997, ask: 4 * 1.003 },
      ],
    },
    orderbooks: { ok: true, value: [] },
    volume: { ok: true, value: { default: zero, whole: zero, parts: [zero, zero] } },
    stats: { ok: true, value: { ccVolume24h: '0.0000000000', count24h: 0, tvlCc: '3600.0000000000' } },
    policy: fail,
    quotes: null,
    cc: CC,
  };
}

/**
 * Completes hand-built evidence with the one proof step (src/core/proof), as the audit pipeline
 * does: `evidence[i]` belongs to the snapshot's i-th proof entry.
 */
export function proofsOf(snapshot: AuditSnapshot, evidence: readonly ProofVerification[]): ReserveProof[] {
  const entries = snapshot.proofs.ok ? snapshot.proofs.value : [];
  return evidence.map((v, i) => assessReserveProof(entries[i]?.contractId ?? '', v, DEFAULT_RESERVE_PROFILE));
}
