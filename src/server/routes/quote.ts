/**
 * POST /connect/quote (public-api.md "Quote request and response", api-decisions §4) and the
 * extension POST /pools/quote (§4b). The body is parsed as JSON whatever the Content-Type
 * (api-decisions §8), limited to 64 KiB (413), and handed to the pure quote functions of
 * src/core/amm, which validate it in the documented order with the documented messages.
 * Quotes read the live pools (not the 5-second snapshot): they are indicative of current liquidity.
 *
 * A quote is a pure function of (body, pools, tokens, policy, average execution time), so an
 * identical body against the very same ledger state (the same `pools()` array — the exchange hands
 * out a new one on every change) is answered from a small memo instead of being recomputed. The
 * response is byte-identical to a fresh computation; nothing is reserved or persisted.
 */
import { quoteConnectSwap, quotePoolSwap } from '../../core/amm/quote.js';
import { RequestRejectedError } from '../../errors/server.js';
import type { RequestContext, RouteDeps } from '../deps.js';
import { jsonReply, parseJsonObject, type Reply, readBody } from '../http.js';
import { averageExecutionSeconds } from './stats.js';

export async function connectQuote(deps: RouteDeps, ctx: RequestContext): Promise<Reply> {
  return runQuote(deps, ctx, 'connect');
}

export async function poolsQuote(deps: RouteDeps, ctx: RequestContext): Promise<Reply> {
  return runQuote(deps, ctx, 'pool');
}

interface MemoEntry {
  readonly state: readonly unknown[];
  readonly reply: Reply;
}

const MEMO_MAX = 512;
const MEMO_MAX_BODY = 2048;
const memos = new WeakMap<RouteDeps, Map<string, MemoEntry>>();

async function runQuote(deps: RouteDeps, ctx: RequestContext, mode: 'connect' | 'pool'): Promise<Reply> {
  const raw = await readBody(ctx.req);
  const ex = deps.exchange;
  const pools = ex.pools();
  const tokens = ex.tokens();
  const policy = ex.policy();
  const avgExecutionSeconds = averageExecutionSeconds(deps);
  const state: readonly unknown[] = [pools, tokens, policy, avgExecutionSeconds];
  let memo = memos.get(deps);
  if (memo === undefined) {
    memo = new Map();
    memos.set(deps, memo);
  }
  const key = raw.length <= MEMO_MAX_BODY ? `${mode}|${raw.toString('latin1')}` : undefined;
  const hit = key === undefined ? undefined : memo.get(key);
  if (hit?.state.every((x, i) => x === state[i])) return hit.reply;

  const request = parseJsonObject(raw);
  const input = { request, pools, tokens, cc: ex.cc(), policy, avgExecutionSeconds };
  const result = mode === 'connect' ? quoteConnectSwap(input) : quotePoolSwap(input);
  if (!result.ok) {
    throw new RequestRejectedError(result.status === 404 ? 'NOT_FOUND' : 'REQUEST_INVALID', result.error);
  }
  const reply = jsonReply(200, result.body);
  if (key !== undefined) {
    memo.delete(key);
    memo.set(key, { state, reply });
    if (memo.size > MEMO_MAX) {
      const oldest = memo.keys().next();
      if (oldest.done !== true) memo.delete(oldest.value);
    }
  }
  return reply;
}
