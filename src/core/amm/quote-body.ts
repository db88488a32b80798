/**
 * Renders a `SwapPlan` as the body of POST /connect/quote and POST /pools/quote
 * (spec/api-decisions.md §1, §4, §4b; shape and number formatting of ../recordings). Keys are
 * emitted in the recorded (alphabetical) order; amounts/prices as 10-decimal strings,
 * network_fee.amount trimmed, estimated_time_seconds with two decimals.
 */
import { AmmError } from '../../errors/amm.js';
import { type Dec, ONE, roundHalfUp10, toDec, ZERO } from './decimal.js';
import { formatAmount, formatSeconds, formatTrimmed } from './format.js';
import { computeTvlCc, isSameToken } from './swap-math.js';
import { computeFeePercentage, computeHopMid, type SwapHopPlan, type SwapPlan } from './swap-plan.js';
import type { TokenRef } from './types.js';

export interface QuoteAmount {
  readonly amount: string;
  readonly instrument_admin: string;
  readonly instrument_id: string;
}

export interface QuotePrices {
  readonly pool_after: string;
  readonly pool_before: string;
  readonly slippage: string;
  readonly trade: string;
  readonly trade_no_fees: string;
}

export interface QuotePoolEntry {
  readonly buy: QuoteAmount;
  readonly contract_id: string;
  readonly fees: {
    readonly admin: QuoteAmount;
    readonly fee_percentage: string;
    readonly liquidity: QuoteAmount;
  };
  readonly pool_id: string;
  readonly pool_price_after: string;
  readonly pool_price_before: string;
  readonly prices: QuotePrices;
  readonly sell: QuoteAmount;
  readonly size: QuoteAmount;
  readonly trade_price: string;
  readonly trade_price_no_fees: string;
}

export interface QuoteSent {
  /** only in /connect/quote (public-api.md: string or null) */
  readonly affiliate_code?: string | null;
  readonly buy_instrument_admin: string;
  readonly buy_instrument_id: string;
  readonly sell_amount: string;
  readonly sell_instrument_admin: string;
  readonly sell_instrument_id: string;
}

export interface QuoteBody {
  readonly estimated_time_seconds: string;
  readonly fees: {
    readonly amount_admin: string;
    readonly amount_liquidity: string;
    readonly fee_percentage: string;
    readonly instrument_admin: string;
    readonly instrument_id: string;
    readonly network_fee: QuoteAmount;
  };
  /** only in /connect/quote */
  readonly memo?: string;
  readonly pool_price_after_trade: string;
  readonly pool_price_before_trade: string;
  readonly pool_size: QuoteAmount;
  readonly pools: readonly QuotePoolEntry[];
  readonly prices: QuotePrices;
  readonly returned: QuoteAmount;
  readonly sent: QuoteSent;
  readonly slippage: string;
  readonly trade_price: string;
}

export interface RenderQuoteInput {
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

/** ratio, HALF-UP to 10 places; 0 when the divisor is 0 */
function price(num: Dec, den: Dec): string {
  return formatAmount(den.isZero() ? ZERO : roundHalfUp10(num.div(den)));
}

function slippageOf(tradeNoFees: Dec, poolBefore: Dec): Dec {
  return poolBefore.isZero() ? ZERO : ONE.sub(tradeNoFees.div(poolBefore));
}

function renderHop(h: SwapHopPlan, cc: TokenRef): QuotePoolEntry {
  const sellIsA = isSameToken(h.pool.tokenA, h.sell);
  const midBefore = computeHopMid(h.reserveInBefore, h.reserveOutBefore);
  const newIn = sellIsA ? h.newReserveA : h.newReserveB;
  const newOut = sellIsA ? h.newReserveB : h.newReserveA;
  const midAfter = computeHopMid(newIn, newOut);
  const tradeNoFees = h.amountOutNoFees.div(h.amountIn);
  const ra = toDec(h.pool.reserveA, 'reserveA');
  const rb = toDec(h.pool.reserveB, 'reserveB');
  // pool orientation: token b per token a, whatever the trade direction
  const [a, b] = sellIsA ? [h.amountIn, h.amountOut] : [h.amountOut, h.amountIn];
  const [a0, b0] = sellIsA ? [h.amountIn, h.amountOutNoFees] : [h.amountOutNoFees, h.amountIn];
  return {
    buy: amountOf(h.buy, formatAmount(h.amountOut)),
    contract_id: h.pool.reserveContract.contractId,
    fees: {
      admin: amountOf(h.sell, formatAmount(h.protocolFee)),
      fee_percentage: formatAmount(toDec(h.pool.feeRate, 'feeRate')),
      liquidity: amountOf(h.sell, formatAmount(h.lpFee)),
    },
    pool_id: h.pool.poolId,
    pool_price_after: price(h.newReserveB, h.newReserveA),
    pool_price_before: price(rb, ra),
    prices: {
      pool_after: formatAmount(roundHalfUp10(midAfter)),
      pool_before: formatAmount(roundHalfUp10(midBefore)),
      slippage: formatAmount(roundHalfUp10(slippageOf(tradeNoFees, midBefore))),
      trade: price(h.amountOut, h.amountIn),
      trade_no_fees: formatAmount(roundHalfUp10(tradeNoFees)),
    },
    sell: amountOf(h.sell, formatAmount(h.amountIn)),
    size: amountOf(cc, formatAmount(computeTvlCc(h.pool, cc))),
    trade_price: price(b, a),
    trade_price_no_fees: price(b0, a0),
  };
}

/**
 * Builds the quote body. Route prices are buy-per-sell: pool_before/after = product of the hops'
 * mid prices; trade_no_fees = amountOutNoFees / S; trade = amountOut / S; the top-level slippage is
 * `1 − trade_no_fees / pool_before` on the two rendered (10-place) values, as the live service
 * reports it; each hop's slippage uses unrounded values. All HALF-UP to 10 places.
 */
export function renderQuoteBody(x: RenderQuoteInput): QuoteBody {
  const { plan, cc } = x;
  const first = plan.hops[0];
  if (first === undefined) throw new AmmError('AMM_INVALID_POOL', '"plan" expected at least one hop, got 0');
  let before = ONE;
  let after = ONE;
  let shallowest = first;
  for (const h of plan.hops) {
    const sellIsA = isSameToken(h.pool.tokenA, h.sell);
    before = before.mul(computeHopMid(h.reserveInBefore, h.reserveOutBefore));
    after = after.mul(
      computeHopMid(sellIsA ? h.newReserveA : h.newReserveB, sellIsA ? h.newReserveB : h.newReserveA),
    );
    if (computeTvlCc(h.pool, cc).lt(computeTvlCc(shallowest.pool, cc))) shallowest = h;
  }
  const poolBefore = formatAmount(roundHalfUp10(before));
  const poolAfter = formatAmount(roundHalfUp10(after));
  const tradeNoFees = formatAmount(roundHalfUp10(plan.amountOutNoFees.div(plan.sellAmount)));
  const trade = formatAmount(roundHalfUp10(plan.amountOut.div(plan.sellAmount)));
  const slippage = formatAmount(roundHalfUp10(slippageOf(toDec(tradeNoFees), toDec(poolBefore))));
  const sent: QuoteSent =
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
  const body: QuoteBody = {
    estimated_time_seconds: formatSeconds(x.avgExecutionSeconds ?? '12'),
    fees: {
      amount_admin: formatAmount(first.protocolFee),
      amount_liquidity: formatAmount(first.lpFee),
      fee_percentage: formatAmount(computeFeePercentage(plan, x.connectFeeRate)),
      instrument_admin: first.sell.admin,
      instrument_id: first.sell.id,
      network_fee: amountOf(cc, formatTrimmed(plan.networkFee)),
    },
    ...(x.connect === undefined ? {} : { memo: x.connect.memo }),
    pool_price_after_trade: poolAfter,
    pool_price_before_trade: poolBefore,
    pool_size: amountOf(cc, formatAmount(computeTvlCc(shallowest.pool, cc))),
    pools: plan.hops.map((h) => renderHop(h, cc)),
    prices: { pool_after: poolAfter, pool_before: poolBefore, slippage, trade, trade_no_fees: tradeNoFees },
    returned: amountOf(plan.buy, formatAmount(plan.amountOut)),
    sent,
    slippage,
    trade_price: trade,
  };
  return body;
}
