/**
 * Tickers that name the reserve contract they were computed from (the `?include_proof=true`
 * extension of /aggregator/tickers, docs/decisions/server.md "Tickers"; docs/findings.md
 * "Soundness", `market.ticker`). A ticker is cached for 10 s over the 5 s pool snapshot, so under
 * traffic it usually describes a contract that was superseded before the audit's first proof,
 * which no proof of the audit (and no mirror that was not recording at that moment) shows. A
 * ticker that names its contract and carries its created_event_blob proves that state itself:
 *   - the blob goes through the one proof step (src/core/proof); a blob that definitely fails is
 *     `TICKER_PROOF_INVALID` (`checkTickerProofs`), exactly as it would be in /pools/proof;
 *   - a proven contract of the ticker's pool (`computeTickerProvenContracts`) is a genuine state
 *     of that pool, current at its ledger creation. When that instant lies inside the ticker's
 *     state window, the contract joins the known states the cached-data rule reads for THAT
 *     ticker only (`computeTimelineWithContracts`), so a ticker computed from it is matched there.
 *     A named contract created before the window proves nothing about the window (it may have
 *     been superseded long before), so it is not added: a frozen ticker naming an old genuine
 *     contract stays undecided, as it was without the extension;
 *   - the ticker's last price, bid and ask must be that contract's (`market-checks.ts`): an honest
 *     exchange computes them from the contract it names, so a mismatch is an error whatever
 *     happened since.
 */

import type { ReserveProof } from '../proof/reserve-proof.js';
import { checkCarriedProofs } from './carried-proofs.js';
import type { AuditCollector } from './finding.js';
import type { KnownReserveState, ReserveTimeline } from './market-time.js';
import { isProofOfPool, type ProvenPool } from './proof-checks.js';

/** contract id → the ticker's pool and the proof step's result for the blob it carried */
export type TickerReserveProofs = ReadonlyMap<
  string,
  { readonly poolId: string; readonly proof: ReserveProof }
>;

/** A reserve contract a ticker named, with its proven values. */
export interface NamedReserveContract {
  readonly contractId: string;
  readonly poolId: string;
  /** ledger creation time, ms */
  readonly createdAtMs: number;
  readonly reserveA: string;
  readonly reserveB: string;
  /** null when the reserve profile does not read the fee rate */
  readonly feeRate: string | null;
}

const microsToMs = (m: bigint | null): number | null => (m === null ? null : Number(m / 1000n));

/**
 * The contracts tickers may name, by contract id: the blobs tickers carried that the proof step
 * proved as a contract of the ticker's pool, and the audit's first proofs (a ticker computed from
 * the pool's current contract carries no new blob to prove).
 */
export function computeTickerProvenContracts(
  tickerProofs: TickerReserveProofs,
  proven: ReadonlyMap<string, ProvenPool>,
): Map<string, NamedReserveContract> {
  const out = new Map<string, NamedReserveContract>();
  for (const p of proven.values()) {
    const at = microsToMs(p.ledgerCreatedAtMicros);
    if (p.status !== 'proven' || p.fields === null || at === null) continue;
    out.set(p.contractId, {
      contractId: p.contractId,
      poolId: p.poolId,
      createdAtMs: at,
      reserveA: p.fields.reserveA,
      reserveB: p.fields.reserveB,
      feeRate: p.fields.feeRate,
    });
  }
  for (const [contractId, { poolId, proof }] of tickerProofs) {
    const pool = proven.get(poolId);
    const f = proof.provenFields;
    const at = microsToMs(proof.createdAtMicros);
    if (pool === undefined || pool.status !== 'proven' || pool.fields === null) continue;
    if (proof.status !== 'proven' || f === null || at === null || proof.contractId !== contractId) continue;
    if (!isProofOfPool(f, pool.entry, poolId) || out.has(contractId)) continue;
    out.set(contractId, {
      contractId,
      poolId,
      createdAtMs: at,
      reserveA: f.reserveA,
      reserveB: f.reserveB,
      feeRate: f.feeRate,
    });
  }
  return out;
}

/**
 * `timeline` with the named contracts it does not hold, each known current at its creation
 * instant only (what its blob proves; when it stopped being current is not known).
 */
export function computeTimelineWithContracts(
  timeline: ReserveTimeline,
  contracts: Iterable<NamedReserveContract>,
): ReserveTimeline {
  const out = new Map<string, KnownReserveState[]>();
  for (const [poolId, list] of timeline) out.set(poolId, [...list]);
  let added = false;
  for (const k of contracts) {
    const list = out.get(k.poolId) ?? [];
    if (list.some((s) => s.contractId === k.contractId)) continue;
    list.push({
      contractId: k.contractId,
      createdAtMs: k.createdAtMs,
      seenUntilMs: k.createdAtMs,
      reserveA: k.reserveA,
      reserveB: k.reserveB,
    });
    out.set(k.poolId, list);
    added = true;
  }
  if (!added) return timeline;
  for (const list of out.values())
    list.sort((a, b) => a.createdAtMs - b.createdAtMs || a.seenUntilMs - b.seenUntilMs);
  return out;
}

/** The blobs tickers carried: one `ticker.proof` check each (./carried-proofs.ts). */
export function checkTickerProofs(c: AuditCollector, tickerProofs: TickerReserveProofs): void {
  checkCarriedProofs(c, tickerProofs, {
    area: 'market',
    name: 'ticker.proof',
    code: 'TICKER_PROOF_INVALID',
    carrier: 'a ticker',
  });
}
