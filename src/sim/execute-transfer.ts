/**
 * Connect swap execution (api-decisions §5): a transfer to the swap party with a memo is priced by
 * the very function that answers POST /connect/quote (`quoteConnectSwap`, src/core/amm) — same
 * validation, route, fee order and rounding — then executed: every touched pool's reserve contract
 * is archived and re-created with the plan's new reserves, one `SwapEvent` per hop is recorded, and
 * the plan's output is paid out. A transfer that cannot execute is refunded in full (no fee).
 *
 * Refund reasons: `invalid transfer amount`, `unknown instrument`, `invalid memo`,
 * `memo names no reachable token`, `memo names an ambiguous instrument id`, or the quote's own
 * error text (`MOD is not supported for connect swaps`, `minimum ticket size is …`,
 * `insufficient liquidity`, `sell and buy instrument are the same`, …).
 *
 * Event valuation: fees and volume in CC at the hop pool's mid price BEFORE the hop
 * (its reserves at execution), HALF-UP to 10 places. `executionSeconds` = 3.00–15.00 s from the RNG.
 */

import { formatAmount } from '../core/amm/format.js';
import { quoteConnectSwapPlan } from '../core/amm/quote.js';
import { computeCcValue } from '../core/amm/route.js';
import { toDec } from '../core/amm/state-decimal.js';
import { computePriceAfter, computeReserveOf, isSameToken } from '../core/amm/swap-math.js';
import type { SwapHopPlan } from '../core/amm/swap-plan.js';
import type { PoolState, SwapEvent, Token, TokenRef } from '../core/amm/types.js';
import { Dec, roundHalfUp10 } from '../core/money/decimal.js';
import type { SimTransfer, SimTransferResult } from './exchange.js';
import type { LedgerContext } from './ledger-context.js';
import { parseMemo } from './memo.js';

const PLAIN_AMOUNT = /^\d{1,28}(\.\d{1,10})?$/;

/** Executes or refunds one transfer (one SQLite transaction for an execution). */
export function executeTransfer(ctx: LedgerContext, t: SimTransfer): SimTransferResult {
  const ms = ctx.ledgerTimeMs();
  const refund = (reason: string): SimTransferResult => {
    const amount = typeof t.amount === 'string' ? t.amount : String(t.amount);
    ctx.store.transaction(() => {
      ctx.store.insertTransfer({
        tsMs: ms,
        sender: String(t.sender),
        instrumentAdmin: String(t.instrument?.admin),
        instrumentId: String(t.instrument?.id),
        amount,
        memo: String(t.memo),
        status: 'refunded',
        reason,
        outAdmin: String(t.instrument?.admin),
        outId: String(t.instrument?.id),
        outAmount: amount,
        updateId: null,
      });
    });
    return { status: 'refunded', reason, refund: { instrument: t.instrument, amount } };
  };

  if (typeof t.sender !== 'string' || t.sender.length === 0) return refund('invalid sender');
  if (typeof t.amount !== 'string' || !PLAIN_AMOUNT.test(t.amount) || !new Dec(t.amount).gt(0)) {
    return refund('invalid transfer amount');
  }
  if (typeof t.instrument !== 'object' || t.instrument === null || !ctx.isKnownToken(t.instrument)) {
    return refund('unknown instrument');
  }
  const memo = typeof t.memo === 'string' ? parseMemo(t.memo) : null;
  if (memo === null) return refund('invalid memo');
  const reachable = ctx.tradableTokensWithId(memo.buyInstrumentId);
  if (reachable.length === 0) return refund('memo names no reachable token');
  if (reachable.length > 1) return refund('memo names an ambiguous instrument id');
  const buy = reachable[0] as Token;

  const q = quoteConnectSwapPlan({
    request: {
      sellAmount: t.amount,
      sellInstrumentId: t.instrument.id,
      sellInstrumentAdmin: t.instrument.admin,
      buyInstrumentId: buy.id,
      buyInstrumentAdmin: buy.admin,
      affiliateCode: memo.affiliateCode,
    },
    pools: ctx.pools(),
    tokens: ctx.tokens(),
    cc: ctx.market.cc,
    policy: ctx.market.policy,
    avgExecutionSeconds: null,
  });
  if (!q.ok) return refund(q.error);
  const plan = q.plan;
  const executionSeconds = ((300 + ctx.rng.int(1201)) / 100).toFixed(2);
  const payout = { instrument: { admin: buy.admin, id: buy.id }, amount: formatAmount(plan.amountOut) };

  const committed = ctx.store.transaction(() => {
    const updateId = ctx.beginUpdate('swap', ms);
    const micros = ctx.nextCreatedAtMicros(ms);
    const transferSeq = ctx.store.insertTransfer({
      tsMs: ms,
      sender: t.sender,
      instrumentAdmin: t.instrument.admin,
      instrumentId: t.instrument.id,
      amount: t.amount,
      memo: t.memo,
      status: 'executed',
      reason: null,
      outAdmin: payout.instrument.admin,
      outId: payout.instrument.id,
      outAmount: payout.amount,
      updateId,
    });
    const states: PoolState[] = [];
    const events: SwapEvent[] = [];
    for (const hop of plan.hops) {
      const pool = ctx.pool(hop.pool.poolId);
      const next = ctx.replaceReserve(pool, updateId, micros, {
        reserveA: hop.newReserveA,
        reserveB: hop.newReserveB,
        totalLpSupply: pool.totalLpSupply,
      });
      states.push(next.state);
      const event = computeSwapEvent(ctx, hop, pool, t.sender, ms, executionSeconds);
      ctx.store.insertSwapEvent(event, updateId, transferSeq);
      events.push(event);
    }
    ctx.saveMeta(ms);
    return { states, events };
  });
  ctx.commitPools(committed.states, ms);
  ctx.commitEvents(committed.events);
  ctx.emit({ type: 'swap', events: committed.events, pools: committed.states });
  return { status: 'executed', payout, events: committed.events };
}

function computeSwapEvent(
  ctx: LedgerContext,
  hop: SwapHopPlan,
  pool: PoolState,
  trader: string,
  tsMs: number,
  executionSeconds: string,
): SwapEvent {
  const inCc = (amount: Dec, token: TokenRef): Dec => valueInCc(ctx, amount, token, pool);
  const sellIsA = isSameToken(pool.tokenA, hop.sell);
  return {
    seq: ctx.nextEventSeq(),
    tsMs,
    poolId: pool.poolId,
    trader,
    sell: { admin: hop.sell.admin, id: hop.sell.id },
    buy: { admin: hop.buy.admin, id: hop.buy.id },
    sellAmount: formatAmount(hop.amountIn),
    buyAmount: formatAmount(hop.amountOut),
    poolFee: formatAmount(hop.poolFee),
    protocolFee: formatAmount(hop.protocolFee),
    lpFee: formatAmount(hop.lpFee),
    volumeCc: formatAmount(inCc(hop.amountIn, hop.sell)),
    feeCc: formatAmount(inCc(hop.poolFee, hop.sell)),
    protocolFeeCc: formatAmount(inCc(hop.protocolFee, hop.sell)),
    lpFeeCc: formatAmount(inCc(hop.lpFee, hop.sell)),
    baseAmount: formatAmount(sellIsA ? hop.amountIn : hop.amountOut),
    quoteAmount: formatAmount(sellIsA ? hop.amountOut : hop.amountIn),
    priceAfter: formatAmount(computePriceAfter(hop.newReserveA, hop.newReserveB) ?? '0'),
    executionSeconds,
  };
}

/** CC value of `amount` of `token` at `pool`'s mid price (or the token's deepest CC pool), HALF-UP. */
function valueInCc(ctx: LedgerContext, amount: Dec, token: TokenRef, pool: PoolState): Dec {
  const cc = ctx.market.cc;
  if (isSameToken(token, cc)) return amount;
  const rCc = computeReserveOf(pool, cc);
  const rToken = computeReserveOf(pool, token);
  if (rCc && rToken?.gt(0)) return roundHalfUp10(amount.mul(rCc).div(rToken));
  return computeCcValue(amount, token, ctx.pools(), cc) ?? toDec('0');
}
