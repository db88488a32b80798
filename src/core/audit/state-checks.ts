/**
 * Proof ↔ state checks (the issue "Proof ↔ state"; docs/protocol/public-api.md "Pool state", "Pool",
 * docs/protocol/api-decisions.md §2): /pools/state reserves equal the proven reserves when both name the same
 * contract; every active pool has a proof; price = reserve_b / reserve_a (half-up, 10 places);
 * tvl_cc = 2 × the CC-side reserve; /pools/info agrees on tokens, fee rate and contract.
 */
import { formatFixed, isSameAmount, parseDecimal } from './decimal-strings.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import type { ProvenPool } from './proof-checks.js';
import type { PoolInfoEntry, ProofEntry, StateEntry, TokenKey } from './snapshot.js';

/** Tolerance on published prices: one unit in the 10th place (the rounding of the last digit). */
const PRICE_ABS_TOLERANCE = '0.0000000001';

const sameToken = (a: TokenKey, b: TokenKey): boolean => a.admin === b.admin && a.id === b.id;

/**
 * A finding per token (a, b) that a listing (`/pools/state`, `/pools/info`) gives otherwise than the
 * proof: the verified contract's fields, else the proof entry.
 */
function computeTokenFindings(
  code: 'STATE_FIELD_MISMATCH' | 'POOLS_INFO_MISMATCH',
  p: ProvenPool,
  listed: { readonly poolId: string; readonly tokenA: TokenKey; readonly tokenB: TokenKey },
  field: (side: 'a' | 'b') => string,
): Finding[] {
  return (['a', 'b'] as const).flatMap((side) => {
    const key = side === 'a' ? 'tokenA' : 'tokenB';
    const [expected, got] = [p.fields?.[key] ?? p.entry[key], listed[key]];
    const message = `token ${side} differs from the proof`;
    return sameToken(expected, got)
      ? []
      : [makeFinding(code, listed.poolId, message, { field: field(side), expected, got })];
  });
}

/** reserve_b / reserve_a rounded half-up to 10 places; null when reserve_a is 0 (api-decisions §1, §2). */
export function computePoolPrice(reserveA: string, reserveB: string): string | null {
  const a = parseDecimal(reserveA);
  const b = parseDecimal(reserveB);
  if (a === null || b === null || a.isZero()) return null;
  return formatFixed(b.div(a), 10);
}

/** 2 × the CC-side reserve (exact), or null when neither token is CC. */
export function computePoolTvlCc(
  tokenA: TokenKey,
  tokenB: TokenKey,
  reserveA: string,
  reserveB: string,
  cc: TokenKey,
): string | null {
  const r = sameToken(tokenA, cc) ? reserveA : sameToken(tokenB, cc) ? reserveB : null;
  const d = r === null ? null : parseDecimal(r);
  return d === null ? null : formatFixed(d.mul(2), 10);
}

export interface StateCheckInput {
  readonly proven: ReadonlyMap<string, ProvenPool>;
  readonly proofsAfter: readonly ProofEntry[] | null;
  readonly state: readonly StateEntry[];
  readonly cc: TokenKey | null;
  /** pools whose /pools/proof entry was malformed (already that pool's finding, see entry-checks.ts) */
  readonly malformedProofPools?: ReadonlySet<string>;
  /** pools whose /pools/state entry was malformed (not missing from the state: unreadable) */
  readonly malformedStatePools?: ReadonlySet<string>;
  /**
   * proven contracts of other proof responses of this audit (contract → pool and reserves): a
   * state naming one of them is compared with exactly that contract
   */
  readonly known?: ReadonlyMap<
    string,
    { readonly poolId: string; readonly reserveA: string; readonly reserveB: string }
  >;
}

/** The reserves each pool's market data must be recomputed from (proven when comparable). */
export interface PoolReserves {
  readonly poolId: string;
  readonly tokenA: TokenKey;
  readonly tokenB: TokenKey;
  readonly reserveA: string;
  readonly reserveB: string;
  readonly feeRate: string;
  readonly symbol: string;
  readonly label: 'proven' | 'asserted';
  /**
   * the reserve contract these proven reserves were read from (/pools/state may name a later or
   * earlier contract than the first proof, docs/findings.md "Soundness"); absent when asserted
   */
  readonly contractId?: string;
}

const isEmptyPool = (s: StateEntry): boolean =>
  s.price === null && (parseDecimal(s.reserveA)?.isZero() ?? false);

function checkPrice(c: AuditCollector, s: StateEntry, r: PoolReserves): void {
  const expected = computePoolPrice(r.reserveA, r.reserveB);
  const f: Finding[] = [];
  const label = r.label;
  if (expected === null || s.price === null) {
    if (expected !== s.price)
      f.push(
        makeFinding(
          'PRICE_MISMATCH',
          s.poolId,
          `price is ${s.price}, expected ${expected}`,
          { expected, got: s.price },
          { label },
        ),
      );
  } else {
    const got = parseDecimal(s.price);
    if (got === null || got.sub(expected).abs().gt(PRICE_ABS_TOLERANCE))
      f.push(
        makeFinding(
          'PRICE_MISMATCH',
          s.poolId,
          `price is ${s.price}, reserve_b / reserve_a = ${expected}`,
          {
            expected,
            got: s.price,
            reserveA: r.reserveA,
            reserveB: r.reserveB,
          },
          { label },
        ),
      );
  }
  c.record('state', 'state.price', s.poolId, f);
}

function checkTvl(c: AuditCollector, s: StateEntry, r: PoolReserves, cc: TokenKey | null): void {
  if (cc === null) {
    c.couldNotCheck(
      'state',
      'state.tvl',
      s.poolId,
      makeFinding(
        'FETCH_FAILED',
        s.poolId,
        'the CC token is unknown (/swap/info unavailable), tvl_cc cannot be checked',
        {},
      ),
    );
    return;
  }
  const expected = computePoolTvlCc(r.tokenA, r.tokenB, r.reserveA, r.reserveB, cc);
  const f: Finding[] = [];
  if (expected === null || !isSameAmount(expected, s.tvlCc))
    f.push(
      makeFinding(
        'TVL_MISMATCH',
        s.poolId,
        expected === null ? 'neither pool token is CC' : `tvl_cc is ${s.tvlCc}, 2 × CC reserve = ${expected}`,
        {
          expected,
          got: s.tvlCc,
        },
        { label: r.label },
      ),
    );
  c.record('state', 'state.tvl', s.poolId, f);
}

/** The reserves /pools/state asserts (used when the proofs are unavailable; label `asserted`). */
export function computeStateReserves(state: readonly StateEntry[]): Map<string, PoolReserves> {
  return new Map(state.map((s) => [s.poolId, assertedReserves(s)]));
}

function assertedReserves(s: StateEntry): PoolReserves {
  return {
    poolId: s.poolId,
    tokenA: s.tokenA,
    tokenB: s.tokenB,
    reserveA: s.reserveA,
    reserveB: s.reserveB,
    feeRate: s.feeRate,
    symbol: s.symbol,
    label: 'asserted',
  };
}

/**
 * Runs the proof ↔ state checks; returns the reserves (proven where possible) each pool's market
 * data is to be checked against.
 */
export function checkState(c: AuditCollector, input: StateCheckInput): Map<string, PoolReserves> {
  const out = new Map<string, PoolReserves>();
  const after = new Map((input.proofsAfter ?? []).map((p) => [p.poolId, p]));
  const seen = new Set<string>();
  for (const s of input.state) {
    seen.add(s.poolId);
    const p = input.proven.get(s.poolId);
    if (p === undefined && input.malformedProofPools?.has(s.poolId) === true) {
      // the malformed proof entry is this pool's finding already; its state is the exchange's word
      c.skip('state', 'state.has-proof', s.poolId, 'its /pools/proof entry is malformed (proof.entry)');
      const r = assertedReserves(s);
      checkPrice(c, s, r);
      checkTvl(c, s, r, input.cc);
      out.set(s.poolId, r);
      continue;
    }
    if (p === undefined) {
      if (isEmptyPool(s)) {
        c.skip('state', 'state.has-proof', s.poolId, 'pool has no reserves (inactive)');
        continue;
      }
      c.record('state', 'state.has-proof', s.poolId, [
        makeFinding(
          'POOL_MISSING_PROOF',
          s.poolId,
          `pool ${s.poolId} (${s.symbol}) is in /pools/state but has no proof`,
          { contractId: s.contractId },
        ),
      ]);
      continue;
    }
    c.record('state', 'state.has-proof', s.poolId, []);
    // reserves: compare only when state names the proven contract
    let reserves: PoolReserves | null = null;
    const pf = p.fields;
    if (p.status !== 'proven' || pf === null) {
      c.skip('state', 'state.reserves', s.poolId, `proof ${p.status}`);
    } else if (s.contractId === p.contractId || input.known?.get(s.contractId)?.poolId === s.poolId) {
      const f: Finding[] = [];
      const k = s.contractId === p.contractId ? pf : (input.known?.get(s.contractId) ?? pf);
      for (const [name, exp, got] of [
        ['reserve_a', k.reserveA, s.reserveA],
        ['reserve_b', k.reserveB, s.reserveB],
      ] as const)
        if (!isSameAmount(exp, got))
          f.push(
            makeFinding(
              'STATE_PROOF_MISMATCH',
              s.poolId,
              `/pools/state ${name} is ${got}, the ID-verified contract holds ${exp}`,
              { field: name, expected: exp, got, contractId: s.contractId },
            ),
          );
      c.record('state', 'state.reserves', s.poolId, f);
      reserves = {
        poolId: s.poolId,
        tokenA: pf.tokenA ?? p.entry.tokenA,
        tokenB: pf.tokenB ?? p.entry.tokenB,
        reserveA: k.reserveA,
        reserveB: k.reserveB,
        feeRate: pf.feeRate ?? s.feeRate,
        symbol: s.symbol,
        label: 'proven',
        contractId: s.contractId,
      };
    } else {
      const moved = after.get(s.poolId)?.contractId !== p.contractId;
      c.couldNotCheck(
        'state',
        'state.reserves',
        s.poolId,
        makeFinding(
          'STATE_NOT_COMPARABLE',
          s.poolId,
          moved
            ? 'the pool changed between the proof and state fetches'
            : '/pools/state names a contract that is not the latest proof (stale cache or false state)',
          {
            expected: p.contractId,
            got: s.contractId,
            moved,
          },
        ),
      );
    }
    // fields: tokens, fee rate, symbol
    const ff = computeTokenFindings('STATE_FIELD_MISMATCH', p, s, (side) => `token_${side}_instrument`);
    if (pf?.feeRate != null && !isSameAmount(pf.feeRate, s.feeRate))
      ff.push(
        makeFinding(
          'STATE_FIELD_MISMATCH',
          s.poolId,
          `fee_rate is ${s.feeRate}, the ID-verified contract says ${pf.feeRate}`,
          { field: 'fee_rate', expected: pf.feeRate, got: s.feeRate },
        ),
      );
    const sym = `${s.tokenA.symbol}-${s.tokenB.symbol}`.toUpperCase();
    if (s.symbol !== sym)
      ff.push(
        makeFinding(
          'STATE_FIELD_MISMATCH',
          s.poolId,
          `symbol is ${s.symbol}, tokens say ${sym}`,
          { field: 'symbol', expected: sym, got: s.symbol },
          { label: 'asserted' },
        ),
      );
    c.record('state', 'state.fields', s.poolId, ff);
    const r: PoolReserves = reserves ?? assertedReserves(s);
    checkPrice(c, s, r);
    checkTvl(c, s, r, input.cc);
    out.set(s.poolId, r);
  }
  const missing: Finding[] = [];
  for (const [id, p] of input.proven)
    if (!seen.has(id) && input.malformedStatePools?.has(id) !== true)
      missing.push(
        makeFinding(
          'STATE_FIELD_MISMATCH',
          id,
          `pool ${id} has a proof but is absent from /pools/state`,
          { field: 'presence', contractId: p.contractId },
          { label: 'asserted' },
        ),
      );
  c.record('state', 'state.complete', null, missing);
  return out;
}

/** /pools/info ↔ proofs and state: every proven pool listed, same tokens, fee rate and contract. */
export function checkPoolsInfo(
  c: AuditCollector,
  info: readonly PoolInfoEntry[],
  proven: ReadonlyMap<string, ProvenPool>,
  reserves: ReadonlyMap<string, PoolReserves>,
  proofsAfter: readonly ProofEntry[] | null,
  /** pools whose /pools/info entry was malformed: that entry is their finding already */
  malformedInfoPools: ReadonlySet<string> = new Set(),
): void {
  const byId = new Map(info.map((i) => [i.poolId, i]));
  // every contract a proof of this audit showed for the pool (before, after, closing, re-fetches)
  const seen = new Map<string, Set<string>>();
  for (const e of proofsAfter ?? []) seen.set(e.poolId, (seen.get(e.poolId) ?? new Set()).add(e.contractId));
  for (const [id, p] of proven) {
    const i = byId.get(id);
    const f: Finding[] = [];
    if (i === undefined && malformedInfoPools.has(id)) continue;
    if (i === undefined) {
      f.push(
        makeFinding('POOLS_INFO_MISMATCH', id, `pool ${id} is missing from /pools/info`, {
          field: 'presence',
        }),
      );
    } else {
      f.push(...computeTokenFindings('POOLS_INFO_MISMATCH', p, i, (side) => `token_${side}`));
      const fee = p.fields?.feeRate ?? reserves.get(id)?.feeRate ?? null;
      if (fee !== null && !isSameAmount(fee, i.feeRate))
        f.push(
          makeFinding('POOLS_INFO_MISMATCH', id, `fee_rate is ${i.feeRate}, expected ${fee}`, {
            field: 'fee_rate',
            expected: fee,
            got: i.feeRate,
          }),
        );
      const share = parseDecimal(i.adminFeeShare);
      if (share === null || share.lt(0) || share.gt(1))
        f.push(
          makeFinding(
            'POOLS_INFO_MISMATCH',
            id,
            `admin_fee_share ${i.adminFeeShare} is not a fraction in [0, 1]`,
            { field: 'admin_fee_share', got: i.adminFeeShare },
            { label: 'asserted' },
          ),
        );
      const seenHere = seen.get(id) ?? new Set<string>();
      if (i.contractId !== p.contractId && !seenHere.has(i.contractId) && i.contractId !== p.entry.poolCid) {
        if (seenHere.size > 1 || (seenHere.size === 1 && !seenHere.has(p.contractId))) {
          // the pool moved during the audit: /pools/info may name a contract current in between
          c.skipWithFinding(
            'state',
            'state.pools-info',
            id,
            makeFinding(
              'STATE_NOT_COMPARABLE',
              id,
              '/pools/info names a reserve contract no proof of this audit showed, and the pool moved during the audit: contract not compared',
              { field: 'contract_id', expected: [...seenHere], got: i.contractId },
            ),
          );
          continue;
        }
        f.push(
          makeFinding(
            'POOLS_INFO_MISMATCH',
            id,
            '/pools/info contract_id is not the ID-verified reserve contract',
            { field: 'contract_id', expected: p.contractId, got: i.contractId },
          ),
        );
      }
    }
    c.record('state', 'state.pools-info', id, f);
  }
}
