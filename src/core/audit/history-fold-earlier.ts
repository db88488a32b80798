/**
 * A pool's history fold (history-checks.ts) after a point that lies before the pool's last one —
 * an observation recorded out of order, e.g. by a second watcher of the same mirror whose snapshot
 * started earlier but committed later — computed from the fold and three facts about the pool
 * instead of from its whole series. The series order is the observation time; where the answer
 * would depend on the order of two points observed in the same millisecond, or on points the facts
 * do not describe, it declines (null) and the caller re-folds the whole series. As in the mirror,
 * the points of one contract ID agree on what comes from the contract row (proven, reserves, LP
 * supply, template); a contract whose stored verification changes is re-folded anyway.
 *
 * Why the facts suffice: `newest` is the first point reaching the highest ledger time (an earlier
 * point takes it with a higher time, or with the same time); `lastTemplate` is the template of the
 * last point that has one (an earlier point with the same template, or none, cannot change it);
 * `lastProven` is the last proven point among the first points of their contract IDs (an earlier
 * point is a first point only if its ID was not seen before it, and then it is the last such
 * point only if it lies after the current one's first point; an earlier point of the last one's
 * own contract hands the place to the last proven first point between the two, if any).
 */
import type { HistoryFold, HistoryPoint } from './history-checks.js';

/** What the fold does not hold but an earlier point needs, as the mirror knows it now. */
export interface EarlierPointFacts {
  /** the pool's first point of `p`'s contract ID before `p` is added (anywhere in the series), if any */
  readonly prior: HistoryPoint | undefined;
  /** when the first point of the contract of `fold.lastProven` was observed (null: no lastProven) */
  readonly lastProvenFirstAtMs: number | null;
  /**
   * Needed only when `p` takes the first place of `fold.lastProven`'s contract from a later point:
   * the last proven first point of another contract observed after `p` and not after that later
   * point (null: there is none); undefined when not known (then the fold declines).
   */
  readonly provenFirstBetween?: HistoryPoint | null | undefined;
}

/**
 * The fold of the series with `p` added, where `p.observedAtMs` is before the pool's last point;
 * null when the facts cannot tell (then re-fold the whole series).
 */
export function computeFoldWithEarlierPoint(
  fold: HistoryFold,
  p: HistoryPoint,
  facts: EarlierPointFacts,
): HistoryFold | null {
  const id = p.contractId;
  if (id === null) return fold;
  // the template of the last point that has one: whether or not `p` is that point now, the same
  if (p.template !== null && p.template !== fold.lastTemplate) return null;
  const { newest, lastProven } = fold;
  let nextNewest = newest;
  if (p.ledgerCreatedAtMicros !== null) {
    if (newest === null || p.ledgerCreatedAtMicros > newest.ledgerCreatedAtMicros)
      nextNewest = {
        contractId: id,
        ledgerCreatedAtMicros: p.ledgerCreatedAtMicros,
        observedAtMs: p.observedAtMs,
      };
    else if (p.ledgerCreatedAtMicros === newest.ledgerCreatedAtMicros) {
      if (p.observedAtMs === newest.observedAtMs) return null;
      if (p.observedAtMs < newest.observedAtMs)
        nextNewest = {
          contractId: id,
          ledgerCreatedAtMicros: p.ledgerCreatedAtMicros,
          observedAtMs: p.observedAtMs,
        };
    }
  }
  let nextProven = lastProven;
  const prior = facts.prior;
  if (prior !== undefined) {
    if (prior.observedAtMs === p.observedAtMs) return null;
    // a later first point of the same ID gives its place to `p`: if it was the last proven one, the
    // last proven first point is now the last one between them, or still this contract (now at `p`)
    if (prior.observedAtMs > p.observedAtMs && lastProven !== null && lastProven.contractId === id) {
      const b = facts.provenFirstBetween;
      if (b === undefined) return null;
      // observed in the same millisecond as the later point: their order is not known here
      if (b !== null && b.observedAtMs === prior.observedAtMs) return null;
      if (b !== null) {
        if (b.contractId === null || b.reserveA === null || b.reserveB === null || b.totalLpSupply === null)
          return null;
        nextProven = {
          contractId: b.contractId,
          reserveA: b.reserveA,
          reserveB: b.reserveB,
          totalLpSupply: b.totalLpSupply,
        };
      }
    }
  } else if (p.proven && p.reserveA !== null && p.reserveB !== null && p.totalLpSupply !== null) {
    // a new contract ID: the last proven first point if it lies after the current one's
    const at = facts.lastProvenFirstAtMs;
    if (lastProven !== null && at === null) return null;
    if (at === p.observedAtMs) return null;
    if (lastProven === null || (at !== null && p.observedAtMs > at))
      nextProven = {
        contractId: id,
        reserveA: p.reserveA,
        reserveB: p.reserveB,
        totalLpSupply: p.totalLpSupply,
      };
  }
  return { newest: nextNewest, lastProven: nextProven, lastTemplate: fold.lastTemplate };
}
