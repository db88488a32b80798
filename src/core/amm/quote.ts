/**
 * POST /connect/quote and POST /pools/quote as pure functions (docs/protocol/api-decisions.md §4, §4b;
 * docs/protocol/public-api.md "Errors"): request validation in the documented order with the exact messages,
 * routing, the fee plan and the rendered body. Failures are returned, not thrown.
 *
 * Order: body not an object → missing fields (body order) → invalid sellAmount / field types →
 * MOD (connect only) → same token → no pools / instrument not found → minimum size (connect only) →
 * insufficient liquidity.
 */
import { isAmmError } from '../../errors/amm.js';
import type { Dec } from '../money/decimal.js';
import type { QuoteResponse } from '../wire/quote.js';
import { cmpFx, type Fixed, formatFixed, parseFixed, toFx } from './exact.js';
import { formatTrimmed, isAmountText, parseAmount } from './format.js';
import { computeQuoteBody } from './quote-body.js';
import { computeCcValueFx, findRoute, isTokenInPools } from './route.js';
import { isSameToken } from './swap-math.js';
import { computeSwapPlan, type SwapPlan, type SwapPlanMode } from './swap-plan.js';
import type { Amount, ExchangePolicy, PoolState, Token, TokenRef } from './types.js';

/** Maximum affiliate code length kept in the memo (docs/protocol/public-api.md "Limits"). */
const AFFILIATE_CODE_MAX = 20;

/** The one token that cannot be sold through Connect (docs/protocol/public-api.md rule 2). */
const UNSUPPORTED_CONNECT_SYMBOL = 'MOD';

export interface QuoteInput {
  /** the parsed JSON body, untrusted */
  readonly request: unknown;
  readonly pools: readonly PoolState[];
  readonly tokens: readonly Token[];
  readonly cc: TokenRef;
  readonly policy: ExchangePolicy;
  /** /stats swap_performance.avg_speed as a decimal string, or null when there is no history ("12.00") */
  readonly avgExecutionSeconds: Amount | null;
}

export type QuoteResult =
  | { readonly ok: true; readonly body: QuoteResponse; readonly plan: SwapPlan }
  | { readonly ok: false; readonly status: 400 | 404; readonly error: string };

/** A quote without its rendered body: what executing a swap needs. */
export type QuotePlanResult =
  | { readonly ok: true; readonly plan: SwapPlan }
  | { readonly ok: false; readonly status: 400 | 404; readonly error: string };

/** The validated request (exported for the simulated ledger and the routes). */
export interface QuoteRequest {
  readonly sellAmount: Dec;
  readonly sellAmountText: string;
  readonly sell: TokenRef;
  readonly buy: TokenRef;
  readonly affiliateCode: string | null;
}

/** C0 controls (incl. NUL, tab, newline), DEL and C1 controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to match control characters
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

const REQUIRED_FIELDS = [
  'sellAmount',
  'sellInstrumentId',
  'sellInstrumentAdmin',
  'buyInstrumentId',
  'buyInstrumentAdmin',
] as const;

type Fail = { readonly ok: false; readonly status: 400 | 404; readonly error: string };
const fail = (status: 400 | 404, error: string): Fail => ({ ok: false, status, error });

/**
 * Validates a quote body: a JSON object; each required field present in body order (`missing
 * <field>` means absent — a present `""` or `null` is a value, and an invalid one); then
 * sellAmount a plain positive decimal, the other fields strings (`invalid <field>`),
 * affiliateCode (connect only) a string or null.
 */
function parseQuoteRequest(
  request: unknown,
  mode: SwapPlanMode,
): { readonly ok: true; readonly value: QuoteRequest } | Fail {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return fail(400, 'invalid JSON body');
  }
  const body = request as Record<string, unknown>;
  const has = (k: string): boolean => Object.hasOwn(body, k);
  for (const f of REQUIRED_FIELDS) {
    if (!has(f) || body[f] === undefined) return fail(400, `missing ${f}`);
  }
  if (!isAmountText(body.sellAmount)) return fail(400, 'invalid sellAmount');
  for (const f of REQUIRED_FIELDS) {
    if (typeof body[f] !== 'string') return fail(400, `invalid ${f}`);
  }
  let affiliateCode: string | null = null;
  if (mode === 'connect' && has('affiliateCode')) {
    const a = body.affiliateCode;
    if (a !== null && a !== undefined && typeof a !== 'string') return fail(400, 'invalid affiliateCode');
    // the code is copied into a ledger memo: no NUL or other control character (C0, DEL, C1)
    if (typeof a === 'string' && CONTROL_CHARACTER.test(a)) return fail(400, 'invalid affiliateCode');
    affiliateCode = typeof a === 'string' ? a : null;
  }
  const text = body.sellAmount;
  let sellAmount: Dec | undefined;
  return {
    ok: true,
    value: {
      // built on first read: quoting itself reads the exact text
      get sellAmount(): Dec {
        sellAmount ??= parseAmount(text, 'sellAmount');
        return sellAmount;
      },
      sellAmountText: text,
      sell: { admin: body.sellInstrumentAdmin as string, id: body.sellInstrumentId as string },
      buy: { admin: body.buyInstrumentAdmin as string, id: body.buyInstrumentId as string },
      affiliateCode,
    },
  };
}

/**
 * The transfer memo (docs/protocol/public-api.md "Memo rule"): the buy instrument ID; with a non-empty
 * affiliate code, `<id> ref:<code>` with the code cut to its first 20 characters (Unicode code points).
 */
export function formatMemo(buyInstrumentId: string, affiliateCode: string | null): string {
  if (affiliateCode === null || affiliateCode === '') return buyInstrumentId;
  return `${buyInstrumentId} ref:${Array.from(affiliateCode).slice(0, AFFILIATE_CODE_MAX).join('')}`;
}

/** Whether `token` is the token Connect refuses to sell (instrument id or symbol MOD). */
function isUnsupportedConnectToken(token: TokenRef, tokens: readonly Token[]): boolean {
  if (token.id === UNSUPPORTED_CONNECT_SYMBOL) return true;
  const t = tokens.find((x) => isSameToken(x, token));
  return t !== undefined && t.symbol.toUpperCase() === UNSUPPORTED_CONNECT_SYMBOL;
}

/**
 * The minimum CC value of a swap the ledger executes: `min_connect_swap_amount_size_cc`, or
 * `min_swap_amount_size_cc` when that is larger (docs/protocol/public-api.md "Limits": both apply to swaps).
 */
export function computeExecutedSwapMinimum(
  policy: Pick<ExchangePolicy, 'minConnectSwapAmountSizeCc' | 'minSwapAmountSizeCc'>,
): Amount {
  const connect = toFx(policy.minConnectSwapAmountSizeCc, 'minConnectSwapAmountSizeCc');
  const swap = toFx(policy.minSwapAmountSizeCc, 'minSwapAmountSizeCc');
  return cmpFx(swap, connect) > 0 ? policy.minSwapAmountSizeCc : policy.minConnectSwapAmountSizeCc;
}

function planQuote(
  x: QuoteInput,
  mode: SwapPlanMode,
): { readonly ok: true; readonly plan: SwapPlan; readonly req: QuoteRequest } | Fail {
  const parsed = parseQuoteRequest(x.request, mode);
  if (!parsed.ok) return parsed;
  const req = parsed.value;
  if (mode === 'connect' && isUnsupportedConnectToken(req.sell, x.tokens)) {
    return fail(400, 'MOD is not supported for connect swaps');
  }
  if (isSameToken(req.sell, req.buy)) return fail(400, 'sell and buy instrument are the same');
  const active = x.pools.filter((p) => p.active);
  if (active.length === 0) return fail(404, 'no pools found');
  if (!isTokenInPools(active, req.sell) || !isTokenInPools(active, req.buy)) {
    return fail(404, 'instrument not found in pool');
  }
  const route = findRoute(active, req.sell, req.buy, x.cc);
  if (route === null) return fail(404, 'instrument not found in pool');

  // the request text is a validated plain decimal: read it exactly, without a Dec round trip
  const sellAmountExact = parseFixed(req.sellAmountText, 'sellAmount');
  let valueCc: Fixed | null;
  try {
    valueCc = computeCcValueFx(sellAmountExact, req.sell, active, x.cc);
  } catch {
    valueCc = null;
  }
  if (valueCc === null) return fail(400, 'insufficient liquidity');
  // §4b (revised): the pre-trade pool quote is indicative and has no minimum. A Connect quote —
  // and so every swap the ledger executes — needs the larger of the Connect and swap minimums.
  if (mode === 'connect') {
    const minimumText = computeExecutedSwapMinimum(x.policy);
    if (cmpFx(valueCc, toFx(minimumText, 'minimum')) < 0) {
      return fail(
        400,
        `minimum ticket size is ${formatTrimmed(minimumText)} CC, or equivalent in other instruments`,
      );
    }
  }

  let plan: SwapPlan;
  try {
    plan = computeSwapPlan({
      route,
      sellAmount: req.sellAmountText,
      cc: x.cc,
      pools: active,
      policy: x.policy,
      mode,
      sellAmountCc: formatFixed(valueCc),
    });
  } catch (e) {
    if (isAmmError(e) && e.code === 'AMM_AMOUNT_BELOW_FEES')
      return fail(400, 'sell amount does not cover the fees');
    if (isAmmError(e)) return fail(400, 'insufficient liquidity');
    throw e;
  }
  return { ok: true, plan, req };
}

function quote(x: QuoteInput, mode: SwapPlanMode): QuoteResult {
  const planned = planQuote(x, mode);
  if (!planned.ok) return planned;
  const { plan, req } = planned;
  const body = computeQuoteBody({
    plan,
    cc: x.cc,
    connectFeeRate: x.policy.connectFeeRate,
    sellAmountText: req.sellAmountText,
    avgExecutionSeconds: x.avgExecutionSeconds,
    ...(mode === 'connect'
      ? { connect: { affiliateCode: req.affiliateCode, memo: formatMemo(req.buy.id, req.affiliateCode) } }
      : {}),
  });
  return { ok: true, body, plan };
}

/** POST /connect/quote (§4): Connect fee, network fee from the route, Connect minimum, memo. */
export function quoteConnectSwap(x: QuoteInput): QuoteResult {
  return quote(x, 'connect');
}

/**
 * `quoteConnectSwap` without rendering the body: the same validation, route and plan (for
 * executing a Connect swap, where only the plan is used).
 */
export function quoteConnectSwapPlan(x: QuoteInput): QuotePlanResult {
  const planned = planQuote(x, 'connect');
  return planned.ok ? { ok: true, plan: planned.plan } : planned;
}

/** POST /pools/quote (§4b): no Connect fee, network fee on top, no minimum (indicative), no memo. */
export function quotePoolSwap(x: QuoteInput): QuoteResult {
  return quote(x, 'pool');
}
