/**
 * POST /connect/quote (public-api.md "Quote request and response", api-decisions §4) and the
 * extension POST /pools/quote (§4b). The body is parsed as JSON whatever the Content-Type
 * (api-decisions §8), limited to 64 KiB (413), and handed to the pure quote functions of
 * src/core/amm, which validate it in the documented order with the documented messages.
 * Quotes read the live pools (not the 5-second snapshot): they are indicative of current liquidity.
 */
import { quoteConnectSwap, quotePoolSwap } from '../../core/amm/quote.js';
import type { RouteDeps } from '../app.js';
import { HttpError, jsonReply, parseJsonObject, type Reply, readBody } from '../http.js';
import type { RequestContext } from '../router.js';
import { averageExecutionSeconds } from './stats.js';

export async function connectQuote(deps: RouteDeps, ctx: RequestContext): Promise<Reply> {
  return runQuote(deps, ctx, 'connect');
}

export async function poolsQuote(deps: RouteDeps, ctx: RequestContext): Promise<Reply> {
  return runQuote(deps, ctx, 'pool');
}

async function runQuote(deps: RouteDeps, ctx: RequestContext, mode: 'connect' | 'pool'): Promise<Reply> {
  const request = parseJsonObject(await readBody(ctx.req));
  const ex = deps.exchange;
  const input = {
    request,
    pools: ex.pools(),
    tokens: ex.tokens(),
    cc: ex.cc(),
    policy: ex.policy(),
    avgExecutionSeconds: averageExecutionSeconds(deps),
  };
  const result = mode === 'connect' ? quoteConnectSwap(input) : quotePoolSwap(input);
  if (!result.ok) throw new HttpError(result.status, result.error);
  return jsonReply(200, result.body);
}
