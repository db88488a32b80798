/**
 * Order book checks (api-decisions §6; docs/protocol/public-api.md "GET /aggregator/orderbook"): every level
 * of the book of a pair ↔ the constant-product formula over the deepest pool's reserves, within ±2 %
 * of the mid. The formula is evaluated in binary64 (docs/decisions/audit.md). Books are cached:
 * a mismatch is decided by market-cache.ts at the book's own `timestamp` / cache window.
 */
import { computeMidPriceExact } from '../amm/index.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import { computeAggregatorStateWindow, recordCachedCheck } from './market-cache.js';
import { deepestAt, type MarketCheckContext, nearFloat } from './market-checks.js';
import type { OrderbookEntry } from './snapshot.js';
import type { PoolReserves } from './state-checks.js';

/**
 * The docs/protocol/api-decisions.md §6 levels in binary64: for N = depth/2, ask i = [m(1 + 0.02 i/N),
 * X(1/√(1 + 0.02(i−1)/N) − 1/√(1 + 0.02 i/N))], bid i = [m(1 − 0.02 i/N),
 * X(1/√(1 − 0.02 i/N) − 1/√(1 − 0.02(i−1)/N))]. Display/comparison only, never money.
 */
export function computeOrderbookLevelsFast(
  reserveA: string,
  mid: string,
  depth: number,
): { bids: [number, number][]; asks: [number, number][] } {
  const x = Number(reserveA);
  const m = Number(mid);
  const n = depth / 2;
  const bids: [number, number][] = [];
  const asks: [number, number][] = [];
  for (let i = 1; i <= n; i++) {
    const up = 1 + (0.02 * i) / n;
    const upPrev = 1 + (0.02 * (i - 1)) / n;
    const down = 1 - (0.02 * i) / n;
    const downPrev = 1 - (0.02 * (i - 1)) / n;
    asks.push([m * up, x * (1 / Math.sqrt(upPrev) - 1 / Math.sqrt(up))]);
    bids.push([m * down, x * (1 / Math.sqrt(down) - 1 / Math.sqrt(downPrev))]);
  }
  return { bids, asks };
}

/** Order book findings of `b` against the pool `r` (the deepest of its pair). */
function computeOrderbookFindings(b: OrderbookEntry, r: PoolReserves): Finding[] {
  const depth = 2 * Math.max(b.bids.length, b.asks.length);
  const mid = computeMidPriceExact(r);
  const f: Finding[] = [];
  if (mid === null || depth === 0) {
    if ((mid === null) !== (depth === 0))
      f.push(
        makeFinding(
          'ORDERBOOK_MISMATCH',
          r.poolId,
          `orderbook ${b.tickerId} has ${depth} levels, the pool mid is ${mid}`,
          { expected: mid === null ? 0 : 'levels', got: depth },
          { label: r.label },
        ),
      );
    return f;
  }
  const exp = computeOrderbookLevelsFast(r.reserveA, mid.toString(), depth);
  const m = Number(mid.toString());
  const sides = [
    ['bid', b.bids, exp.bids],
    ['ask', b.asks, exp.asks],
  ] as const;
  for (const [side, got, want] of sides) {
    if (got.length !== want.length) {
      f.push(
        makeFinding(
          'ORDERBOOK_MISMATCH',
          r.poolId,
          `orderbook ${b.tickerId} has ${got.length} ${side} levels, expected ${want.length}`,
          { side, expected: want.length, got: got.length },
          { label: 'asserted' },
        ),
      );
      continue;
    }
    for (let i = 0; i < got.length; i++) {
      const [gp, ga] = got[i] ?? [Number.NaN, Number.NaN];
      const [wp, wa] = want[i] ?? [];
      if (wp === undefined || wa === undefined) continue;
      const inBand = Number.isFinite(gp) && Math.abs(gp - m) <= m * 0.0200000001;
      const ok = inBand && nearFloat(wp, gp) && nearFloat(wa, ga);
      if (!ok) {
        f.push(
          makeFinding(
            'ORDERBOOK_MISMATCH',
            r.poolId,
            `orderbook ${b.tickerId} ${side} level ${i + 1} is [${gp}, ${ga}], the formula gives [${wp}, ${wa}]${inBand ? '' : ' (outside ±2 % of mid)'}`,
            {
              side,
              level: i + 1,
              expected: [wp, wa],
              got: [gp, ga],
            },
            { label: r.label },
          ),
        );
        break;
      }
    }
  }
  return f;
}

export function checkOrderbooks(
  c: AuditCollector,
  books: readonly OrderbookEntry[],
  m: MarketCheckContext,
): void {
  const { groups, cache, cc } = m;
  for (const b of books) {
    const list = groups.get(b.tickerId);
    const r = list?.[0];
    if (list === undefined || r === undefined) {
      c.record('market', 'market.orderbook', null, [
        makeFinding(
          'ORDERBOOK_MISMATCH',
          null,
          `orderbook for unknown pair ${b.tickerId}`,
          { got: b.tickerId },
          { label: 'asserted' },
        ),
      ]);
      continue;
    }
    const timing = cache?.timing.orderbooks.get(b.tickerId);
    const window = computeAggregatorStateWindow(cache, timing, b.timestampMs ?? null);
    recordCachedCheck(c, cache, {
      area: 'market',
      name: 'market.orderbook',
      pool: r.poolId,
      findings: computeOrderbookFindings(b, r),
      window,
      pools: list.map((x) => x.poolId),
      what: `orderbook ${b.tickerId}`,
      evidence: { tickerId: b.tickerId, depth: 2 * Math.max(b.bids.length, b.asks.length) },
      evalAt: (at, timeline) => {
        const d = deepestAt(list, timeline, cc, at);
        return d === null ? null : computeOrderbookFindings(b, d);
      },
    });
  }
}
