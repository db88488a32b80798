/**
 * GET /volume (docs/protocol/public-api.md "GET /volume", docs/protocol/api-decisions.md §2): swap count, CC
 * volume and CC fees over a half-open window [startMs, endMs) of swap events. Sums are exact (event values
 * have 10 places); fees_cc = lp_fees_cc + protocol_fees_cc. Returns the wire type `VolumeTotals`
 * (src/core/wire/volume.ts); the route adds start_time and end_time.
 */

import { ZERO } from '../money/decimal.js';
import type { VolumeTotals } from '../wire/volume.js';
import { formatAmount } from './format.js';
import { toDec } from './state-decimal.js';
import type { SwapEvent } from './types.js';

export interface VolumeWindowInput {
  readonly events: readonly SwapEvent[];
  /** inclusive */
  readonly startMs: number;
  /** exclusive */
  readonly endMs: number;
}

/** Sums events with startMs ≤ tsMs < endMs. One event = one pool swap (a two-hop swap counts twice). */
export function computeVolumeWindow(x: VolumeWindowInput): VolumeTotals {
  let count = 0;
  let volume = ZERO;
  let lp = ZERO;
  let protocol = ZERO;
  for (const e of x.events) {
    if (e.tsMs < x.startMs || e.tsMs >= x.endMs) continue;
    count++;
    volume = volume.add(toDec(e.volumeCc, 'volumeCc'));
    lp = lp.add(toDec(e.lpFeeCc, 'lpFeeCc'));
    protocol = protocol.add(toDec(e.protocolFeeCc, 'protocolFeeCc'));
  }
  return {
    swap_count: String(count),
    volume_cc: formatAmount(volume),
    fees_cc: formatAmount(lp.add(protocol)),
    lp_fees_cc: formatAmount(lp),
    protocol_fees_cc: formatAmount(protocol),
  };
}
