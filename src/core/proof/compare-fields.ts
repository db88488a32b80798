/**
 * Comparing what a verified blob says with what someone claims about it: the reserves and LP
 * supply a /pools/proof entry published (the audit's proof check) or the mirror recorded (replay).
 * One comparison, so audit and replay cannot disagree on whether two amounts are the same
 * (numerically equal decimals: "1.50" = "1.5").
 */
import { isSameAmount } from '../audit/decimal-strings.js';
import type { ProvenFields } from './profile.js';

/** The amounts a blob holds, as claimed by a publication or a record (decimal strings). */
export interface ClaimedReserveAmounts {
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
}

/** One amount that differs: `expected` is the blob's value, `got` the claimed one. */
export interface AmountDifference {
  readonly field: 'reserve_a' | 'reserve_b' | 'total_lp_supply';
  readonly expected: string;
  readonly got: string;
}

/** The amounts on which the claim differs from the blob, in the order reserve_a, reserve_b, total_lp_supply. */
export function compareReserveAmounts(
  blob: ProvenFields,
  claimed: ClaimedReserveAmounts,
): AmountDifference[] {
  const out: AmountDifference[] = [];
  if (!isSameAmount(blob.reserveA, claimed.reserveA))
    out.push({ field: 'reserve_a', expected: blob.reserveA, got: claimed.reserveA });
  if (!isSameAmount(blob.reserveB, claimed.reserveB))
    out.push({ field: 'reserve_b', expected: blob.reserveB, got: claimed.reserveB });
  if (!isSameAmount(blob.totalLpSupply, claimed.totalLpSupply))
    out.push({ field: 'total_lp_supply', expected: blob.totalLpSupply, got: claimed.totalLpSupply });
  return out;
}
