/**
 * Probe-quote checks (the issue "probe quotes"; docs/protocol/public-api.md "POST /connect/quote" rules and
 * memo rule, api-decisions §4): each probe is recomputed with the same quote function the reference
 * server uses (quoteConnectSwap) over the PROVEN reserves, the published fee rates and policy.
 * A quote that pays out more than the recomputation is QUOTE_TOO_GENEROUS; any other difference in
 * the returned amount, fee percentage, network fee or route is QUOTE_MISMATCH; a wrong memo, a
 * wrongly accepted/rejected request or a bad echo is QUOTE_RULE_VIOLATION. A quote names the
 * reserve contract of each hop: it is recomputed from exactly that contract when the auditor has
 * it proven (any proof of this audit, before or after the quote, or the mirror), whatever happened
 * since; a contract the auditor never saw makes the probe could-not-check (the pipeline re-quotes).
 */
import { formatMemo, quoteConnectSwap } from '../amm/index.js';
import type { ExchangePolicy, PoolState, Token } from '../amm/types.js';
import { isSameAmount, parseDecimal } from './decimal-strings.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import { CLOCK_SLACK_MS, type ReserveTimeline } from './market-time.js';
import type { PoolInfoEntry, ProbeQuote, TokenInfoEntry, TokenKey } from './snapshot.js';
import type { PoolReserves } from './state-checks.js';

/** Amounts may differ by one unit in the 10th place (rounding of the last digit). */
const AMOUNT_TOLERANCE = '0.0000000001';

export interface QuoteCheckInput {
  readonly quotes: readonly ProbeQuote[];
  readonly reserves: ReadonlyMap<string, PoolReserves>;
  /** proven reserve contract per pool */
  readonly contracts: ReadonlyMap<string, string>;
  /** every proven contract the auditor knows (this audit's proof sets, the mirror) → its reserves */
  readonly known?: ReadonlyMap<string, KnownContractReserves>;
  /**
   * true when some pool moved during the audit: the other pools' states when a quote was priced
   * are then unknown, so the route is taken as quoted (its own pools recomputed exactly)
   */
  readonly poolsMoved?: boolean;
  /**
   * the newest pool snapshot (`updated_at`, the exchange's clock) of the audit's proof sets: a
   * quote priced live is judged against every pool's state only when a snapshot taken after it
   * (with the clock slack) shows that no pool moved; otherwise its route is taken as quoted
   */
  readonly latestProofAtMs?: number | null;
  readonly poolsInfo: readonly PoolInfoEntry[] | null;
  readonly tokens: readonly TokenInfoEntry[];
  readonly cc: TokenKey;
  readonly policy: ExchangePolicy;
}

export interface KnownContractReserves {
  readonly poolId: string;
  readonly reserveA: string;
  readonly reserveB: string;
}

/** contract id → pool and proven reserves, from the known reserve states. */
export function computeKnownContracts(timeline: ReserveTimeline): Map<string, KnownContractReserves> {
  const out = new Map<string, KnownContractReserves>();
  for (const [poolId, list] of timeline)
    for (const s of list) out.set(s.contractId, { poolId, reserveA: s.reserveA, reserveB: s.reserveB });
  return out;
}

function toToken(k: TokenKey & { readonly symbol?: string }, tokens: readonly TokenInfoEntry[]): Token {
  const t = tokens.find((x) => x.admin === k.admin && x.id === k.id);
  return {
    admin: k.admin,
    id: k.id,
    name: t?.name ?? k.id,
    symbol: (t?.symbol ?? k.symbol ?? k.id).toUpperCase(),
    priceAggregatorId: null,
  };
}

/**
 * Rebuilds the pool states the quote function needs from the audited reserves; `at` replaces a
 * pool's reserves by those of a named proven contract (pool id → contract id).
 */
function toPoolStates(x: QuoteCheckInput, at: ReadonlyMap<string, string> = new Map()): PoolState[] {
  const share = new Map((x.poolsInfo ?? []).map((i) => [i.poolId, i.adminFeeShare]));
  return [...x.reserves.values()].map((r) => ({
    poolId: r.poolId,
    tokenA: toToken(r.tokenA, x.tokens),
    tokenB: toToken(r.tokenB, x.tokens),
    reserveA: x.known?.get(at.get(r.poolId) ?? '')?.reserveA ?? r.reserveA,
    reserveB: x.known?.get(at.get(r.poolId) ?? '')?.reserveB ?? r.reserveB,
    totalLpSupply: '1',
    feeRate: r.feeRate,
    adminFeeShare: share.get(r.poolId) ?? '0',
    active: true,
    reserveContract: {
      contractId: at.get(r.poolId) ?? x.contracts.get(r.poolId) ?? '',
      updateId: '',
      createdAtMicros: 0n,
      createdEventBlob: '',
      packageId: '',
      packageName: '',
      moduleName: '',
      entityName: '',
    },
    sequence: 0n,
  }));
}

/** Records probe `q`'s check as could-not-check with a QUOTE_UNAVAILABLE finding. */
function recordUnavailable(
  c: AuditCollector,
  q: ProbeQuote,
  message: string,
  evidence: Finding['evidence'],
): void {
  c.couldNotCheck(
    'quote',
    `quote.${q.kind}`,
    q.poolId,
    makeFinding('QUOTE_UNAVAILABLE', q.poolId, message, evidence),
  );
}

/**
 * True for the quote endpoints' documented rule answers (docs/protocol/public-api.md "Errors"): 400 or 404
 * with an `{error}` body — missing/invalid field, MOD, minimum ticket size, no route, no pools,
 * insufficient liquidity. Only these can support QUOTE_RULE_VIOLATION.
 */
function isRuleAnswer(q: Pick<ProbeQuote, 'status' | 'error'>): boolean {
  return (q.status === 400 || q.status === 404) && q.error !== null;
}

function checkOne(c: AuditCollector, q: ProbeQuote, pools: PoolState[], x: QuoteCheckInput): void {
  const name = `quote.${q.kind}`;
  const pool = q.poolId;
  let expected: ReturnType<typeof quoteConnectSwap>;
  try {
    expected = quoteConnectSwap({
      request: q.request,
      pools,
      tokens: pools.flatMap((p) => [p.tokenA, p.tokenB]),
      cc: x.cc,
      policy: x.policy,
      avgExecutionSeconds: null,
    });
  } catch (e) {
    recordUnavailable(
      c,
      q,
      `probe ${q.kind} could not be recomputed: ${e instanceof Error ? e.message : String(e)}`,
      {},
    );
    return;
  }
  const f: Finding[] = [];
  const accepted = q.status === 200;
  // a refusal is the exchange's statement only in the documented rule-answer shape: a failed
  // request (429, 5xx, any other status, a body that is not `{error}`) says nothing about the rules
  if (!accepted && !isRuleAnswer(q)) {
    recordUnavailable(
      c,
      q,
      `probe ${q.kind} got no rule answer (status ${q.status}${q.error === null ? '' : ` ${JSON.stringify(q.error)}`}); a ${q.status} is not evidence`,
      { probe: q.kind, got: { status: q.status, error: q.error } },
    );
    return;
  }
  if (q.expect === 'reject' && accepted)
    f.push(
      makeFinding(
        'QUOTE_RULE_VIOLATION',
        pool,
        `probe ${q.kind} (sell ${q.request.sellAmount}) should be rejected, got a quote`,
        { expected: expected.ok ? 'quote' : expected.error, got: 200 },
      ),
    );
  if (q.expect === 'accept' && !accepted && expected.ok)
    f.push(
      makeFinding(
        'QUOTE_RULE_VIOLATION',
        pool,
        `probe ${q.kind} was rejected (${q.status} ${q.error ?? ''}) although the verified reserves allow it`,
        { expected: 200, got: { status: q.status, error: q.error } },
      ),
    );
  if (!accepted || !expected.ok) {
    if (accepted && !expected.ok && q.expect === 'accept')
      f.push(
        makeFinding(
          'QUOTE_RULE_VIOLATION',
          pool,
          `probe ${q.kind} was quoted, the recomputation rejects it (${expected.error})`,
          { expected: expected.error, got: 200 },
        ),
      );
    c.record('quote', name, pool, f);
    return;
  }
  const got = q.quote;
  if (got === null) {
    recordUnavailable(
      c,
      q,
      `probe ${q.kind}: 200 response without the quote shape (${q.shapeError ?? 'unknown'})`,
      {},
    );
    return;
  }
  const want = expected.body;
  const memo = formatMemo(q.request.buyInstrumentId, q.request.affiliateCode ?? null);
  if (got.memo !== memo)
    f.push(
      makeFinding(
        'QUOTE_RULE_VIOLATION',
        pool,
        `memo is ${JSON.stringify(got.memo)}, the rule gives ${JSON.stringify(memo)}`,
        { field: 'memo', expected: memo, got: got.memo },
      ),
    );
  if (got.sent.sell_amount !== q.request.sellAmount)
    f.push(
      makeFinding('QUOTE_RULE_VIOLATION', pool, 'sent.sell_amount does not echo the request', {
        field: 'sent.sell_amount',
        expected: q.request.sellAmount,
        got: got.sent.sell_amount,
      }),
    );
  const route = (b: { readonly pools: readonly { readonly pool_id: string }[] }): string =>
    b.pools.map((p) => p.pool_id).join('>');
  if (route(got) !== route(want))
    f.push(
      makeFinding('QUOTE_MISMATCH', pool, `route ${route(got)} differs from ${route(want)}`, {
        field: 'route',
        expected: route(want),
        got: route(got),
        // the states the recomputation chose between (the pools of both routes)
        pools: pools
          .filter((p) => [...want.pools, ...got.pools].some((h) => h.pool_id === p.poolId))
          .map((p) => ({
            poolId: p.poolId,
            contractId: p.reserveContract.contractId,
            tokenA: p.tokenA.id,
            tokenB: p.tokenB.id,
            reserveA: p.reserveA,
            reserveB: p.reserveB,
            feeRate: p.feeRate,
          })),
        quoted: got.pools.map((h) => ({
          poolId: h.pool_id,
          contractId: h.contract_id,
          poolPriceBefore: h.pool_price_before,
        })),
      }),
    );
  const r = parseDecimal(got.returned.amount);
  const e = parseDecimal(want.returned.amount);
  const label = [...x.reserves.values()].every((p) => p.label === 'proven') ? 'proven' : 'asserted';
  if (r === null || e === null) {
    f.push(
      makeFinding('QUOTE_MISMATCH', pool, 'returned.amount is not a decimal', {
        field: 'returned.amount',
        expected: want.returned.amount,
        got: got.returned.amount,
      }),
    );
  } else if (r.sub(e).gt(AMOUNT_TOLERANCE)) {
    f.push(
      makeFinding(
        'QUOTE_TOO_GENEROUS',
        pool,
        `quote returns ${got.returned.amount}, the verified reserves pay at most ${want.returned.amount}`,
        {
          field: 'returned.amount',
          expected: want.returned.amount,
          got: got.returned.amount,
          request: q.request,
        },
        { label },
      ),
    );
  } else if (e.sub(r).gt(AMOUNT_TOLERANCE)) {
    f.push(
      makeFinding(
        'QUOTE_MISMATCH',
        pool,
        `quote returns ${got.returned.amount}, recomputation gives ${want.returned.amount}`,
        { field: 'returned.amount', expected: want.returned.amount, got: got.returned.amount },
        { label },
      ),
    );
  }
  if (!isSameAmount(got.fees.fee_percentage, want.fees.fee_percentage))
    f.push(
      makeFinding(
        'QUOTE_MISMATCH',
        pool,
        `fee_percentage is ${got.fees.fee_percentage}, expected ${want.fees.fee_percentage}`,
        { field: 'fees.fee_percentage', expected: want.fees.fee_percentage, got: got.fees.fee_percentage },
      ),
    );
  if (!isSameAmount(got.fees.network_fee.amount, want.fees.network_fee.amount))
    f.push(
      makeFinding(
        'QUOTE_MISMATCH',
        pool,
        `network fee is ${got.fees.network_fee.amount}, expected ${want.fees.network_fee.amount}`,
        {
          field: 'fees.network_fee.amount',
          expected: want.fees.network_fee.amount,
          got: got.fees.network_fee.amount,
        },
      ),
    );
  c.record('quote', name, pool, f);
}

/** Checks every probe quote; records one check per probe (quote.<kind> per pool). */
export function checkQuotes(c: AuditCollector, x: QuoteCheckInput): void {
  const pools = toPoolStates(x);
  for (const q of x.quotes) {
    if (q.transportError !== undefined) {
      recordUnavailable(c, q, `probe ${q.kind}: ${q.transportError}`, {
        probe: q.kind,
        transport: q.transportError,
      });
      continue;
    }
    // a quote names the reserve contract of every hop: recompute with exactly those reserves
    const at = new Map<string, string>();
    const unknown: { pool_id: string; contract_id: string }[] = [];
    for (const h of q.status === 200 ? (q.quote?.pools ?? []) : []) {
      if (x.contracts.get(h.pool_id) === h.contract_id) continue;
      if (x.known?.get(h.contract_id)?.poolId === h.pool_id) at.set(h.pool_id, h.contract_id);
      else if (x.contracts.has(h.pool_id)) unknown.push(h);
    }
    if (unknown.length > 0) {
      recordUnavailable(
        c,
        q,
        `probe ${q.kind}: the quote was computed from reserve contract(s) no proof of this audit showed (${unknown.map((h) => h.contract_id.slice(0, 16)).join(', ')}…)`,
        {
          probe: q.kind,
          expected: unknown.map((h) => x.contracts.get(h.pool_id)),
          got: unknown.map((h) => h.contract_id),
        },
      );
      continue;
    }
    // priced on contracts older or newer than the proven ones: the other pools' states at that
    // moment are unknown, so the route is taken as quoted and only its own pools are recomputed
    const route = new Set((q.quote?.pools ?? []).map((h) => h.pool_id));
    // the other pools' live states are known only when a pool snapshot taken after the quote
    // shows none moved (proof sets served from one cached snapshot all predate the quote)
    const bracketed =
      q.receivedAtMs === undefined ||
      (x.latestProofAtMs != null && x.latestProofAtMs >= q.receivedAtMs + CLOCK_SLACK_MS);
    const own = at.size > 0 || x.poolsMoved === true || !bracketed;
    checkOne(c, q, own && route.size > 0 ? toPoolStates(x, at).filter((p) => route.has(p.poolId)) : pools, x);
  }
}
