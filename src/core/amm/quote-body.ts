/**
 * Computes the body of POST /connect/quote and POST /pools/quote from a `SwapPlan`
 * (docs/protocol/api-decisions.md §1, §4, §4b; shape and number formatting of ../recordings). Keys are
 * emitted in the recorded (alphabetical) order; amounts/prices as 10-decimal strings,
 * network_fee.amount trimmed, estimated_time_seconds with two decimals. The body is the wire type
 * `QuoteResponse` (src/core/wire/quote.ts) the auditor parses.
 */
import { AmmError } from '../../errors/amm.js';
import type { QuoteAmount, QuoteHop, QuoteResponse } from '../wire/quote.js';
import {
  addFx,
  cmpFx,
  divFx,
  type Fixed,
  FX_ONE,
  FX_ZERO,
  formatFixedPlaces,
  formatFixedTrimmed,
  mulFx,
  subFx,
  toFx,
} from './exact.js';
import { computeReserveOfExact, isSameToken, parsePoolExact } from './swap-math.js';
import type { SwapHopPlan, SwapPlan } from './swap-plan-types.js';
import { computeSwapHopExact, computeSwapPlanExact } from './swap-plan-view.js';
import type { PoolState, TokenRef } from './types.js';

export interface QuoteBodyInput {
  readonly plan: SwapPlan;
  readonly cc: TokenRef;
  readonly connectFeeRate: string;
  /** the request's sellAmount string, echoed unchanged */
  readonly sellAmountText: string;
  /** average execution seconds of recent swaps, or null → "12.00" */
  readonly avgExecutionSeconds: string | null;
  /** connect only: the request's affiliateCode (null if absent) and the memo */
  readonly connect?: { readonly affiliateCode: string | null; readonly memo: string };
}

function amountOf(token: TokenRef, amount: string): QuoteAmount {
  return { amount, instrument_admin: token.admin, instrument_id: token.id };
}

/** 10 places, half-up */
const fmt = (f: Fixed): string => formatFixedPlaces(f);

/** num/den HALF-UP to 10 places, rendered; "0.0000000000" when the divisor is 0 */
function price(num: Fixed, den: Fixed): string {
  return fmt(den.n === 0n ? FX_ZERO : divFx(num, den, 'half-up'));
}

/** TVL in CC of a pool (2 × its CC reserve), exact */
function tvlCc(pool: PoolState, cc: TokenRef): Fixed {
  const r = computeReserveOfExact(pool, parsePoolExact(pool), cc);
  return r === null ? FX_ZERO : addFx(r, r);
}

function renderHop(h: SwapHopPlan, cc: TokenRef): QuoteHop {
  const e = computeSwapHopExact(h);
  const p = parsePoolExact(h.pool);
  const sellIsA = isSameToken(h.pool.tokenA, h.sell);
  const newIn = sellIsA ? e.newReserveA : e.newReserveB;
  const newOut = sellIsA ? e.newReserveB : e.newReserveA;
  // 1 − trade_no_fees / pool_before of this hop with both unrounded: the fee-free output is
  // in·rOut/(rIn + in), so the ratio is rIn/(rIn + in) and the slippage in/(rIn + in). The paid-out
  // no-fee amount is rounded down to 10 places; using it instead would be off by up to
  // 1e-10 / (in·mid), i.e. visibly for small sells into a low-priced token.
  const slippage =
    e.reserveIn.n <= 0n || e.amountIn.n <= 0n
      ? FX_ZERO
      : divFx(e.amountIn, addFx(e.reserveIn, e.amountIn), 'half-up');
  // pool orientation: token b per token a, whatever the trade direction
  const [a, b] = sellIsA ? [e.amountIn, e.amountOut] : [e.amountOut, e.amountIn];
  const [a0, b0] = sellIsA ? [e.amountIn, e.amountOutNoFees] : [e.amountOutNoFees, e.amountIn];
  return {
    buy: amountOf(h.buy, fmt(e.amountOut)),
    contract_id: h.pool.reserveContract.contractId,
    fees: {
      admin: amountOf(h.sell, fmt(e.protocolFee)),
      fee_percentage: fmt(p.feeRate),
      liquidity: amountOf(h.sell, fmt(e.lpFee)),
    },
    pool_id: h.pool.poolId,
    pool_price_after: price(e.newReserveB, e.newReserveA),
    pool_price_before: price(p.reserveB, p.reserveA),
    prices: {
      pool_after: price(newOut, newIn),
      pool_before: price(e.reserveOut, e.reserveIn),
      slippage: fmt(slippage),
      trade: price(e.amountOut, e.amountIn),
      trade_no_fees: price(e.amountOutNoFees, e.amountIn),
    },
    sell: amountOf(h.sell, fmt(e.amountIn)),
    size: amountOf(cc, fmt(tvlCc(h.pool, cc))),
    trade_price: price(b, a),
    trade_price_no_fees: price(b0, a0),
  };
}

/**
 * Computes the quote body. Route prices are buy-per-sell: pool_before/after = product of the hops'
 * mid prices; trade_no_fees = amountOutNoFees / S; trade = amountOut / S; the top-level slippage is
 * `1 − trade_no_fees / pool_before` on the two rendered (10-place) values, as the live service
 * reports it; each hop's slippage is the same formula on that hop's unrounded values,
 * `in / (R_in + in)`. All HALF-UP to 10 places.
 */
export function computeQuoteBody(x: QuoteBodyInput): QuoteResponse {
  const { plan, cc } = x;
  const first = plan.hops[0];
  if (first === undefined) throw new AmmError('AMM_INVALID_POOL', '"plan" expected at least one hop, got 0');
  const pe = computeSwapPlanExact(plan);
  // route mid prices as exact fractions: Π rOut / Π rIn (0 if a hop's mid is 0)
  let beforeNum = FX_ONE;
  let beforeDen = FX_ONE;
  let afterNum = FX_ONE;
  let afterDen = FX_ONE;
  let shallowest = first;
  let shallowestTvl = tvlCc(first.pool, cc);
  let feePercentage = plan.mode === 'connect' ? toFx(x.connectFeeRate, 'connectFeeRate') : FX_ZERO;
  for (const h of plan.hops) {
    const e = computeSwapHopExact(h);
    const sellIsA = isSameToken(h.pool.tokenA, h.sell);
    const zeroBefore = e.reserveIn.n === 0n;
    beforeNum = mulFx(beforeNum, zeroBefore ? FX_ZERO : e.reserveOut);
    beforeDen = mulFx(beforeDen, zeroBefore ? FX_ONE : e.reserveIn);
    const newIn = sellIsA ? e.newReserveA : e.newReserveB;
    const newOut = sellIsA ? e.newReserveB : e.newReserveA;
    const zeroAfter = newIn.n === 0n;
    afterNum = mulFx(afterNum, zeroAfter ? FX_ZERO : newOut);
    afterDen = mulFx(afterDen, zeroAfter ? FX_ONE : newIn);
    const tvl = tvlCc(h.pool, cc);
    if (cmpFx(tvl, shallowestTvl) < 0) {
      shallowest = h;
      shallowestTvl = tvl;
    }
    feePercentage = addFx(feePercentage, parsePoolExact(h.pool).feeRate);
  }
  const poolBeforeFx = divFx(beforeNum, beforeDen, 'half-up');
  const tradeNoFeesFx = divFx(pe.amountOutNoFees, pe.sellAmount, 'half-up');
  const poolBefore = fmt(poolBeforeFx);
  const poolAfter = fmt(divFx(afterNum, afterDen, 'half-up'));
  const tradeNoFees = fmt(tradeNoFeesFx);
  const trade = fmt(divFx(pe.amountOut, pe.sellAmount, 'half-up'));
  // on the two rendered (10-place) values, as the live service reports it
  const slippage = fmt(
    poolBeforeFx.n === 0n ? FX_ZERO : divFx(subFx(poolBeforeFx, tradeNoFeesFx), poolBeforeFx, 'half-up'),
  );
  const sent: QuoteResponse['sent'] =
    x.connect === undefined
      ? {
          buy_instrument_admin: plan.buy.admin,
          buy_instrument_id: plan.buy.id,
          sell_amount: x.sellAmountText,
          sell_instrument_admin: plan.sell.admin,
          sell_instrument_id: plan.sell.id,
        }
      : {
          affiliate_code: x.connect.affiliateCode,
          buy_instrument_admin: plan.buy.admin,
          buy_instrument_id: plan.buy.id,
          sell_amount: x.sellAmountText,
          sell_instrument_admin: plan.sell.admin,
          sell_instrument_id: plan.sell.id,
        };
  const body: QuoteResponse = {
    estimated_time_seconds: formatFixedPlaces(toFx(x.avgExecutionSeconds ?? '12', 'avgExecutionSeconds'), 2),
    fees: {
      amount_admin: fmt(computeSwapHopExact(first).protocolFee),
      amount_liquidity: fmt(computeSwapHopExact(first).lpFee),
      fee_percentage: fmt(feePercentage),
      instrument_admin: first.sell.admin,
      instrument_id: first.sell.id,
      network_fee: amountOf(cc, formatFixedTrimmed(pe.networkFee)),
    },
    ...(x.connect === undefined ? {} : { memo: x.connect.memo }),
    pool_price_after_trade: poolAfter,
    pool_price_before_trade: poolBefore,
    pool_size: amountOf(cc, fmt(tvlCc(shallowest.pool, cc))),
    pools: plan.hops.map((h) => renderHop(h, cc)),
    prices: { pool_after: poolAfter, pool_before: poolBefore, slippage, trade, trade_no_fees: tradeNoFees },
    returned: amountOf(plan.buy, fmt(pe.amountOut)),
    sent,
    slippage,
    trade_price: trade,
  };
  return body;
}

/**
 * @deprecated use `computeQuoteBody` (renamed: it computes the body, it renders no text); removed in
 * the next version.
 * @alias
 */
export const renderQuoteBody: typeof computeQuoteBody = computeQuoteBody;
/** @deprecated use `QuoteBodyInput`; removed in the next version */
export type RenderQuoteInput = QuoteBodyInput;
