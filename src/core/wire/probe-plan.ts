/**
 * Which probe quotes an audit sends (docs/protocol/public-api.md "POST /connect/quote" rules 1–2,
 * api-decisions §4): per pool, selling CC for the pool's other token, one quote at exactly the
 * published Connect minimum, one mid-size quote (1 % of the pool's CC reserve, at least 2 × the
 * minimum), one with an affiliate code longer than 20 characters (memo truncation), one at half the
 * minimum (must be rejected); and per pool holding MOD, one quote selling MOD (must be rejected).
 * Pure: amounts are computed with the one money instance (src/core/money), rounded DOWN to 10 places
 * (they are halves, hundredths and small multiples of 10-place amounts, so every step is exact).
 */
import { Dec } from '../money/decimal.js';
import type { ExchangeInfoResponse } from './exchange-info.js';
import type { PoolsStateResponse } from './pools-state.js';
import type { QuoteRequest } from './quote.js';
import type { ProbeKind } from './snapshot.js';

/** The affiliate code the probes send: 28 characters, so the memo must show the first 20. */
export const PROBE_AFFILIATE_CODE = 'reserveauditprobe-affiliate';

export interface PlannedProbe {
  readonly kind: ProbeKind;
  readonly poolId: string;
  readonly request: QuoteRequest;
  readonly expect: 'accept' | 'reject';
}

export interface TokenRefLike {
  readonly instrument_id: string;
  readonly instrument_admin: string;
}

function plain(d: Dec): string {
  return d.toDecimalPlaces(10, Dec.ROUND_DOWN).toFixed();
}

/** Plans the probe quotes for the pools of `state` (active pools with a CC side and reserves). */
export function computeProbePlan(
  state: PoolsStateResponse,
  exchangeInfo: ExchangeInfoResponse,
  cc: TokenRefLike,
): PlannedProbe[] {
  const min = new Dec(exchangeInfo.data.policy.min_connect_swap_amount_size_cc);
  const out: PlannedProbe[] = [];
  for (const p of state.data.pools) {
    const a = p.token_a_instrument;
    const b = p.token_b_instrument;
    const aIsCc = a.id === cc.instrument_id && a.admin === cc.instrument_admin;
    const bIsCc = b.id === cc.instrument_id && b.admin === cc.instrument_admin;
    if (aIsCc === bIsCc) continue;
    const other = aIsCc ? b : a;
    const ccReserve = new Dec(aIsCc ? p.reserve_a : p.reserve_b);
    if (ccReserve.lte(0)) continue;
    const base = {
      sellInstrumentId: cc.instrument_id,
      sellInstrumentAdmin: cc.instrument_admin,
      buyInstrumentId: other.id,
      buyInstrumentAdmin: other.admin,
    };
    const probe = (kind: ProbeKind, amount: Dec, expect: 'accept' | 'reject', affiliate?: string): void => {
      out.push({
        kind,
        poolId: p.pool_id,
        expect,
        request: {
          sellAmount: plain(amount),
          ...base,
          ...(affiliate === undefined ? {} : { affiliateCode: affiliate }),
        },
      });
    };
    if (min.gt(0) && min.lt(ccReserve.div(2))) {
      probe('minimum', min, 'accept');
      const mid = Dec.max(ccReserve.div(100), min.mul(2));
      if (mid.lt(ccReserve.div(2))) probe('mid', mid, 'accept');
      probe('affiliate', min.mul(2).lt(ccReserve.div(2)) ? min.mul(2) : min, 'accept', PROBE_AFFILIATE_CODE);
      probe('below-minimum', min.div(2), 'reject');
    }
    if (other.symbol.toUpperCase() === 'MOD' || other.id.toUpperCase() === 'MOD') {
      out.push({
        kind: 'mod',
        poolId: p.pool_id,
        expect: 'reject',
        request: {
          sellAmount: plain(Dec.max(min.mul(4), new Dec(1000))),
          sellInstrumentId: other.id,
          sellInstrumentAdmin: other.admin,
          buyInstrumentId: cc.instrument_id,
          buyInstrumentAdmin: cc.instrument_admin,
        },
      });
    }
  }
  return out;
}
