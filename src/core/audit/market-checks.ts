/**
 * Market-data checks (the issue "Market data"; docs/protocol/public-api.md "Aggregator endpoints",
 * api-decisions §2, §6): /markets/info lists a service market per pool symbol; aggregator pairs ↔
 * markets (deepest pool = largest CC-side reserve); tickers' last price, bid and ask ↔ the proven
 * reserves and fee rate of the deepest pool. Order books: orderbook-checks.ts.
 * Aggregator values are JSON numbers: compared with a relative tolerance of 1e-9. A pool without
 * reserves has no price: the ticker of a pair whose deepest pool is empty must publish null
 * (and one whose deepest pool has reserves must publish numbers).
 * Tickers and order books are cached server-side: a mismatch with the newest reserves is decided
 * by market-cache.ts against the reserve states current within the response's cache window.
 */
import { computeMidPriceExact, formatTickerId } from '../amm/index.js';
import { Dec } from '../money/decimal.js';
import { isOwnMarketSource } from '../wire/markets-info.js';
import { formatInstantMs } from '../wire/timestamp.js';
import { parseDecimal } from './decimal-strings.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import { computeAggregatorStateWindow, type MarketCacheContext, recordCachedCheck } from './market-cache.js';
import { clipToLatestSeen, findStateAt, type ReserveTimeline, type TimeWindow } from './market-time.js';
import type { MarketEntry, PairEntry, TickerEntry, TokenKey } from './snapshot.js';
import type { PoolReserves } from './state-checks.js';
import { computeTimelineWithContracts, type NamedReserveContract } from './ticker-proofs.js';

/** Relative tolerance on aggregator JSON numbers (a double holds ~15.9 significant digits). */
const AGGREGATOR_REL_TOLERANCE = 1e-9;

const sameToken = (a: TokenKey, b: TokenKey): boolean => a.admin === b.admin && a.id === b.id;

function symbolsOf(r: PoolReserves): [string, string] {
  const i = r.symbol.lastIndexOf('-');
  return i < 0 ? [r.symbol, ''] : [r.symbol.slice(0, i), r.symbol.slice(i + 1)];
}

/** Pools grouped by pair ticker id, deepest first (largest CC-side reserve). */
export function computePairPools(
  reserves: ReadonlyMap<string, PoolReserves>,
  cc: TokenKey | null,
): Map<string, PoolReserves[]> {
  const out = new Map<string, PoolReserves[]>();
  for (const r of reserves.values()) {
    const [b, q] = symbolsOf(r);
    const id = formatTickerId(b, q);
    const list = out.get(id) ?? [];
    list.push(r);
    out.set(id, list);
  }
  const depth = new Map<string, Dec>();
  for (const r of reserves.values())
    depth.set(
      r.poolId,
      parseDecimal(cc !== null && sameToken(r.tokenB, cc) ? r.reserveB : r.reserveA) ?? new Dec(0),
    );
  const d = (r: PoolReserves): Dec => depth.get(r.poolId) ?? new Dec(0);
  for (const list of out.values()) list.sort((x, y) => d(y).cmp(d(x)) || x.poolId.localeCompare(y.poolId));
  return out;
}

export function checkMarkets(
  c: AuditCollector,
  markets: readonly MarketEntry[],
  reserves: ReadonlyMap<string, PoolReserves>,
): void {
  // the exchange's own markets: any source but `external` (`service`, or the exchange's name, §10)
  const service = new Set(
    markets.filter((m) => isOwnMarketSource(m.source)).map((m) => m.symbol.toUpperCase()),
  );
  const symbols = new Set([...reserves.values()].map((r) => r.symbol.toUpperCase()));
  const f: Finding[] = [];
  for (const s of symbols)
    if (!service.has(s))
      f.push(
        makeFinding('MARKET_MISMATCH', null, `market ${s} of a pool is not in /markets/info`, {
          expected: s,
          got: null,
        }),
      );
  for (const s of service)
    if (!symbols.has(s))
      f.push(
        makeFinding('MARKET_MISMATCH', null, `service market ${s} has no pool in /pools/state`, {
          expected: null,
          got: s,
        }),
      );
  c.record('market', 'market.markets', null, f);
}

/** What the aggregator checks (pairs, tickers, order books) read besides their entries. */
export interface MarketCheckContext {
  /** the audited pools' reserves by aggregator ticker id */
  readonly groups: ReadonlyMap<string, PoolReserves[]>;
  /** the cache timeline the aggregator answers are judged against (null: judged at the audit's own moment) */
  readonly cache: MarketCacheContext | null;
  readonly cc: TokenKey | null;
}

export function checkPairs(c: AuditCollector, pairs: readonly PairEntry[], m: MarketCheckContext): void {
  const { groups, cache, cc } = m;
  const f: Finding[] = [];
  // pairs are cached (60 s) over the 5 s pool snapshot: "deepest" is decided like a ticker
  const window = computeAggregatorStateWindow(cache, cache?.timing.pairs);
  const got = new Map(pairs.map((p) => [p.tickerId, p]));
  for (const [id, list] of groups) {
    const p = got.get(id);
    const deepest = list[0];
    if (p === undefined || deepest === undefined) {
      f.push(
        makeFinding(
          'PAIR_MISMATCH',
          deepest?.poolId ?? null,
          `pair ${id} is missing from /aggregator/pairs`,
          { expected: id, got: null },
        ),
      );
      continue;
    }
    const [b, q] = symbolsOf(deepest);
    if (p.base.toUpperCase() !== b.toUpperCase() || p.target.toUpperCase() !== q.toUpperCase())
      f.push(
        makeFinding('PAIR_MISMATCH', deepest.poolId, `pair ${id} has base/target ${p.base}/${p.target}`, {
          expected: { base: b, target: q },
          got: { base: p.base, target: p.target },
        }),
      );
    if (p.poolId !== null && list.length > 0 && !list.some((r) => r.poolId === p.poolId))
      f.push(
        makeFinding('PAIR_MISMATCH', p.poolId, `pair ${id} names pool ${p.poolId}, which does not serve it`, {
          expected: list.map((r) => r.poolId),
          got: p.poolId,
        }),
      );
    else if (p.poolId !== null && p.poolId !== deepest.poolId) {
      const named = p.poolId;
      const deepestFinding = (d: PoolReserves): Finding[] =>
        d.poolId === named
          ? []
          : [
              makeFinding(
                'PAIR_MISMATCH',
                named,
                `pair ${id} names pool ${named}, the deepest pool is ${d.poolId}`,
                { expected: d.poolId, got: named },
                { label: d.label },
              ),
            ];
      recordCachedCheck(c, cache, {
        area: 'market',
        name: 'market.pairs',
        pool: named,
        findings: deepestFinding(deepest),
        window,
        pools: list.map((x) => x.poolId),
        what: `pair ${id}`,
        evalAt: (at, timeline) => {
          const d = deepestAt(list, timeline, cc, at);
          return d === null ? null : deepestFinding(d);
        },
      });
    }
  }
  for (const p of pairs)
    if (!groups.has(p.tickerId))
      f.push(
        makeFinding('PAIR_MISMATCH', p.poolId, `pair ${p.tickerId} has no pool`, {
          expected: null,
          got: p.tickerId,
        }),
      );
  c.record('market', 'market.pairs', null, f);
}

/** Whether a published price matches the expected one; null (no price) matches only null. */
function isSamePrice(expected: number | null, got: number | null): boolean {
  return expected === null || got === null ? expected === got : nearFloat(expected, got);
}

/**
 * Ticker findings of pair `id` against the deepest pool `r` (no reserves → no price expected:
 * last_price, bid and ask null); null when the pool's fee rate is unreadable.
 */
function computeTickerFindings(id: string, t: TickerEntry, r: PoolReserves): Finding[] | null {
  const mid = computeMidPriceExact(r);
  const fee = parseDecimal(r.feeRate);
  if (fee === null) return null;
  const f: Finding[] = [];
  // aggregator values are binary64: compare in binary64 (relative error ~1e-16 ≪ 1e-9)
  const m = mid === null ? null : mid.toNumber();
  const fr = fee.toNumber();
  const exp =
    m === null
      ? { last_price: null, bid: null, ask: null }
      : { last_price: m, bid: m * (1 - fr), ask: m * (1 + fr) };
  const got = { last_price: t.lastPrice, bid: t.bid, ask: t.ask };
  for (const k of ['last_price', 'bid', 'ask'] as const)
    if (!isSamePrice(exp[k], got[k]))
      f.push(
        makeFinding(
          'TICKER_MISMATCH',
          r.poolId,
          `ticker ${id} ${k} is ${got[k]}, the reserves give ${exp[k]}`,
          { field: k, expected: exp[k], got: got[k], tickerId: id },
          { label: r.label },
        ),
      );
  return f;
}

/**
 * The deepest pool of `list` with the known reserves current at `atMs` (null when one of them
 * has no known state then).
 */
export function deepestAt(
  list: readonly PoolReserves[],
  timeline: ReserveTimeline,
  cc: TokenKey | null,
  atMs: number,
): PoolReserves | null {
  const m = new Map<string, PoolReserves>();
  for (const r of list) {
    const s = findStateAt(timeline, r.poolId, atMs);
    if (s === null) return null;
    m.set(r.poolId, { ...r, reserveA: s.reserveA, reserveB: s.reserveB });
  }
  return [...computePairPools(m, cc).values()][0]?.[0] ?? null;
}

export function checkTickers(
  c: AuditCollector,
  tickers: readonly TickerEntry[],
  m: MarketCheckContext,
  named: ReadonlyMap<string, NamedReserveContract> = new Map(),
): void {
  const { groups, cache, cc } = m;
  const byId = new Map(tickers.map((t) => [t.tickerId, t]));
  const window = computeAggregatorStateWindow(cache, cache?.timing.tickers);
  for (const [id, list] of groups) {
    const r = list[0];
    if (r === undefined) continue;
    const t = byId.get(id);
    if (t === undefined) {
      c.record('market', 'market.ticker', r.poolId, [
        makeFinding(
          'TICKER_MISMATCH',
          r.poolId,
          `no ticker for pair ${id}`,
          { expected: id, got: null },
          { label: 'asserted' },
        ),
      ]);
      continue;
    }
    const f = computeTickerFindings(id, t, r);
    if (f === null) {
      c.skip('market', 'market.ticker', r.poolId, 'fee rate unreadable');
      continue;
    }
    const wrong = computeNamedContractFindings(id, t, list, named);
    if (wrong !== null) {
      c.record('market', 'market.ticker', r.poolId, wrong);
      continue;
    }
    recordCachedCheck(c, computeNamedContractContext(cache, window, t, list, named), {
      area: 'market',
      name: 'market.ticker',
      pool: r.poolId,
      findings: f,
      window,
      pools: list.map((x) => x.poolId),
      what: `ticker ${id}`,
      evalAt: (at, timeline) => {
        const d = deepestAt(list, timeline, cc, at);
        return d === null ? null : computeTickerFindings(id, t, d);
      },
    });
  }
}

/**
 * A ticker that names the reserve contract it was computed from (`contract_id`, a contract of its
 * `pool_id` proven by a proof of the audit or by the blob the ticker carried): its last price, bid
 * and ask must be that contract's, whatever happened since (docs/findings.md "Soundness"). The
 * error findings when they are not; null when they are, or when the ticker names no such contract
 * (then the cached-data rule decides).
 */
function computeNamedContractFindings(
  id: string,
  t: TickerEntry,
  list: readonly PoolReserves[],
  named: ReadonlyMap<string, NamedReserveContract>,
): Finding[] | null {
  const k = t.contractId === undefined || t.contractId === null ? undefined : named.get(t.contractId);
  if (k === undefined || k.poolId !== t.poolId || k.feeRate === null) return null;
  const pool = list.find((x) => x.poolId === k.poolId);
  if (pool === undefined) return null;
  const f = computeTickerFindings(id, t, {
    ...pool,
    reserveA: k.reserveA,
    reserveB: k.reserveB,
    feeRate: k.feeRate,
    label: 'proven',
    contractId: k.contractId,
  });
  if (f === null || !f.some((x) => x.severity === 'error')) return null;
  return f.map((x) => ({
    ...x,
    message: `${x.message} of the reserve contract it names (${k.contractId.slice(0, 16)}…, created ${formatInstantMs(k.createdAtMs)})`,
    evidence: {
      ...x.evidence,
      namedContract: k.contractId,
      namedContractCreatedAt: formatInstantMs(k.createdAtMs),
    },
  }));
}

/**
 * The cache context for one ticker: with the contract it names added to the known states when
 * that contract was created inside the ticker's state window (it was current then, so the ticker
 * may have been computed from it; docs/findings.md "Soundness"); else `cache` unchanged.
 */
function computeNamedContractContext(
  cache: MarketCacheContext | null,
  window: TimeWindow | null,
  t: TickerEntry,
  list: readonly PoolReserves[],
  named: ReadonlyMap<string, NamedReserveContract>,
): MarketCacheContext | null {
  if (cache === null || window === null || t.contractId === undefined || t.contractId === null) return cache;
  const k = named.get(t.contractId);
  if (k === undefined || k.poolId !== t.poolId || !list.some((x) => x.poolId === k.poolId)) return cache;
  const w = clipToLatestSeen(window, cache.latestSeenMs ?? null);
  if (k.createdAtMs < w.loMs || k.createdAtMs > w.hiMs) return cache;
  return { ...cache, timeline: computeTimelineWithContracts(cache.timeline, [k]) };
}

/** |got − expected| within the aggregator tolerance (relative 1e-9, absolute 1e-10 near 0). */
export function nearFloat(expected: number, got: number): boolean {
  return (
    Number.isFinite(got) &&
    Math.abs(got - expected) <= Math.max(1e-10, Math.abs(expected) * AGGREGATOR_REL_TOLERANCE)
  );
}
