/**
 * The simulation interface (docs/protocol/api-decisions.md §5): drives the simulated ledger over HTTP. Off by
 * default (`enableSimulation`), mounted under /v1/sim — never under /v1/public — and without CORS,
 * so a web page elsewhere cannot drive it. Every body is a JSON object, validated here; bad input
 * is a 4xx `{"error"}`, as on the public API.
 *
 *   POST /v1/sim/transfer          {sender, instrument_id, instrument_admin, amount, memo}
 *   POST /v1/sim/liquidity/add     {pool_id, amount_a, amount_b, provider}
 *   POST /v1/sim/liquidity/remove  {pool_id, lp_amount, provider}
 *   POST /v1/sim/advance           {ms}   (only when the simulation's clock can be advanced)
 */
import { formatAmount, parseAmount } from '../../core/amm/format.js';
import type { PoolState } from '../../core/amm/types.js';
import { isReserveAuditError } from '../../errors/base.js';
import { RequestRejectedError } from '../../errors/server.js';
import type { ExchangeSimulation } from '../../sim/exchange.js';
import { jsonReply, parseJsonObject, type Reply, readBody } from '../http.js';
import type { Router } from '../router.js';

const MAX_TEXT = 512;

function text(body: Record<string, unknown>, field: string, allowEmpty = false): string {
  const v = Object.hasOwn(body, field) ? body[field] : undefined;
  if (v === undefined || v === null) throw new RequestRejectedError('REQUEST_INVALID', `missing ${field}`);
  if (typeof v !== 'string' || v.length > MAX_TEXT)
    throw new RequestRejectedError('REQUEST_INVALID', `invalid ${field}`);
  if (v === '' && !allowEmpty) throw new RequestRejectedError('REQUEST_INVALID', `missing ${field}`);
  return v;
}

function amount(body: Record<string, unknown>, field: string): string {
  const v = Object.hasOwn(body, field) ? body[field] : undefined;
  if (v === undefined || v === null || v === '')
    throw new RequestRejectedError('REQUEST_INVALID', `missing ${field}`);
  try {
    return formatAmount(parseAmount(v, field));
  } catch {
    throw new RequestRejectedError('REQUEST_INVALID', `invalid ${field}`);
  }
}

/** Maps a simulator error to a 4xx; anything else is re-thrown (500 by the guard). */
function simError(e: unknown): never {
  if (isReserveAuditError(e)) {
    switch (e.code) {
      case 'POOL_NOT_FOUND':
        throw new RequestRejectedError('NOT_FOUND', 'pool not found');
      case 'POOL_INACTIVE':
        throw new RequestRejectedError('CONFLICT', 'pool is inactive');
      case 'LIQUIDITY_AMOUNT_INVALID':
      case 'SIMULATOR_OPTION_INVALID':
        throw new RequestRejectedError('REQUEST_INVALID', e.shortMessage);
    }
  }
  throw e;
}

function poolBody(p: PoolState): Record<string, unknown> {
  return {
    pool_id: p.poolId,
    contract_id: p.reserveContract.contractId,
    reserve_a: formatAmount(p.reserveA),
    reserve_b: formatAmount(p.reserveB),
    total_lp_supply: formatAmount(p.totalLpSupply),
    sequence: p.sequence.toString(),
  };
}

export function addSimulationRoutes(router: Router, prefix: string, sim: ExchangeSimulation): void {
  const post = (path: string, run: (body: Record<string, unknown>) => unknown): void => {
    router.add({
      method: 'POST',
      path: `${prefix}${path}`,
      cors: false,
      handler: async (ctx): Promise<Reply> => {
        const body = parseJsonObject(await readBody(ctx.req));
        let out: unknown;
        try {
          out = run(body);
        } catch (e) {
          if (e instanceof RequestRejectedError) throw e;
          simError(e);
        }
        return jsonReply(200, out);
      },
    });
  };

  post('/transfer', (b) => {
    const sender = text(b, 'sender');
    const instrument = { id: text(b, 'instrument_id'), admin: text(b, 'instrument_admin') };
    const amt = amount(b, 'amount');
    const memo = text(b, 'memo', true);
    const r = sim.transfer({ sender, instrument, amount: amt, memo });
    if (r.status === 'executed') {
      return {
        status: 'executed',
        payout: {
          instrument_id: r.payout.instrument.id,
          instrument_admin: r.payout.instrument.admin,
          amount: r.payout.amount,
        },
        hops: r.events.length,
      };
    }
    return {
      status: 'refunded',
      reason: r.reason,
      refund: {
        instrument_id: r.refund.instrument.id,
        instrument_admin: r.refund.instrument.admin,
        amount: r.refund.amount,
      },
    };
  });

  post('/liquidity/add', (b) => {
    const poolId = text(b, 'pool_id');
    const a = amount(b, 'amount_a');
    const bb = amount(b, 'amount_b');
    const provider = text(b, 'provider');
    return { pool: poolBody(sim.addLiquidity(poolId, a, bb, provider)) };
  });

  post('/liquidity/remove', (b) => {
    const poolId = text(b, 'pool_id');
    const lp = amount(b, 'lp_amount');
    const provider = text(b, 'provider');
    return { pool: poolBody(sim.removeLiquidity(poolId, lp, provider)) };
  });

  const advance = sim.advanceMs?.bind(sim);
  if (advance !== undefined) {
    post('/advance', (b) => {
      const ms = Object.hasOwn(b, 'ms') ? b.ms : undefined;
      if (ms === undefined) throw new RequestRejectedError('REQUEST_INVALID', 'missing ms');
      if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0 || ms > 366 * 86_400_000) {
        throw new RequestRejectedError('REQUEST_INVALID', 'invalid ms');
      }
      advance(ms);
      return { advanced_ms: ms };
    });
  }
}
