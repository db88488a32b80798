/**
 * POST /connect/quote (docs/protocol/public-api.md "Quote request and response", api-decisions §4) and the
 * extension POST /pools/quote (§4b). The body is parsed as JSON whatever the Content-Type
 * (docs/protocol/api-decisions.md §8), limited to 64 KiB (413), and handed to the pure quote functions of
 * src/core/amm, which validate it in the documented order with the documented messages.
 * Quotes read the live pools (not the 5-second snapshot): they are indicative of current liquidity.
 * Asked with `?include_proof=true`, each hop also carries the created_event_blob of the reserve
 * contract it was priced on (an extension, docs/decisions/server.md "Quotes"), so the quote can be
 * checked against proven reserves; without it the body is exactly the live service's.
 *
 * A quote is a pure function of (body, pools, tokens, policy, average execution time), so an
 * identical body against the very same ledger state (the same `pools()` array — the exchange hands
 * out a new one on every change) is answered from a small memo instead of being recomputed. The
 * response is byte-identical to a fresh computation; nothing is reserved or persisted.
 */
import { quoteConnectSwap, quotePoolSwap } from '../../core/amm/quote.js';
import type { PoolState } from '../../core/amm/types.js';
import { RequestRejectedError } from '../../errors/server.js';
import type { RequestContext, RouteDeps } from '../deps.js';
import { jsonReply, parseJsonObject, type Reply, readBody } from '../http.js';
import { singleParam } from './common.js';
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
  // the extension is asked for (`?include_proof=true`): without it the body is exactly the live one
  const withProof = singleParam(ctx.query, 'include_proof') === 'true';
  const key = raw.length <= MEMO_MAX_BODY ? `${mode}|${withProof}|${raw.toString('latin1')}` : undefined;
  const hit = key === undefined ? undefined : memo.get(key);
  if (hit?.state.every((x, i) => x === state[i])) return hit.reply;

  const request = parseJsonObject(raw);
  const input = { request, pools, tokens, cc: ex.cc(), policy, avgExecutionSeconds };
  const result = mode === 'connect' ? quoteConnectSwap(input) : quotePoolSwap(input);
  if (!result.ok) {
    throw new RequestRejectedError(result.status === 404 ? 'NOT_FOUND' : 'REQUEST_INVALID', result.error);
  }
  const reply = jsonReply(200, withProof ? withReserveBlobs(result.body, pools) : result.body);
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

/**
 * The quote with the created_event_blob of each hop's reserve contract beside its `contract_id`
 * (docs/decisions/server.md "Quotes"): the very contract the quote was priced on, so a verifier
 * can recompute the quote from proven reserves whatever happened since.
 */
function withReserveBlobs<
  T extends { readonly pools: readonly { readonly pool_id: string; readonly contract_id: string }[] },
>(body: T, pools: readonly PoolState[]): T {
  return {
    ...body,
    pools: body.pools.map((h) => {
      const rc = pools.find((p) => p.poolId === h.pool_id)?.reserveContract;
      return rc === undefined || rc.contractId !== h.contract_id
        ? h
        : { ...h, created_event_blob: rc.createdEventBlob };
    }),
  };
}
