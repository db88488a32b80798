/** Orderbook, pairs, tickers, candles, volume windows, stats and market symbols (api-decisions §2, §5, §6, §7). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeCandles,
  computeOrderbook,
  computeOrderbookLevels,
  computePairActivity,
  computePairs,
  computeStats,
  computeTickers,
  computeVolumeWindow,
  Dec,
  findMarketPools,
  formatTickerId,
  parseOrderbookDepth,
  type SwapEvent,
} from '../../src/core/amm/index.js';
import { formatMarketSymbol, parseMarketSymbol, parseTickerId } from '../../src/core/amm/market-symbol.js';
import { CC, GOLD, makeEvent, makePool, seedPools, TFUSDT, USDCX } from './fixtures.js';

const NOW = Date.UTC(2026, 5, 28, 12, 30, 0);
const H = 3_600_000;
const DAY = 24 * H;

describe('orderbook (§6 formulas)', () => {
  const pool = makePool('1', CC, USDCX, '1000000.0000000000', '150000.0000000000', '0.0005');

  it('N = depth/2 levels per side at m(1 ± 0.02 i/N), amounts per the formula (independent float check)', () => {
    for (const depth of [2, 10, 100, 200]) {
      const ob = computeOrderbook({ pool, tickerId: 'CC_USDCX', depth, nowMs: NOW });
      const n = depth / 2;
      expect(ob.ticker_id).toBe('CC_USDCX');
      expect(ob.timestamp).toBe(NOW);
      expect(ob.asks).toHaveLength(n);
      expect(ob.bids).toHaveLength(n);
      const m = 0.15;
      const x = 1_000_000;
      for (let i = 1; i <= n; i++) {
        const [ap, aa] = ob.asks[i - 1]!;
        const [bp, ba] = ob.bids[i - 1]!;
        expect(ap).toBeCloseTo(m * (1 + (0.02 * i) / n), 12);
        expect(bp).toBeCloseTo(m * (1 - (0.02 * i) / n), 12);
        const askWant = x * (1 / Math.sqrt(1 + (0.02 * (i - 1)) / n) - 1 / Math.sqrt(1 + (0.02 * i) / n));
        const bidWant = x * (1 / Math.sqrt(1 - (0.02 * i) / n) - 1 / Math.sqrt(1 - (0.02 * (i - 1)) / n));
        expect(Math.abs(aa - askWant) / askWant).toBeLessThan(1e-9);
        expect(Math.abs(ba - bidWant) / bidWant).toBeLessThan(1e-9);
      }
    }
  });

  it('levels are constant-product fills: after taking the cumulative ask amount the pool price is the level price', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 9 }),
        fc.integer({ min: 1, max: 10 ** 9 }),
        fc.integer({ min: 1, max: 100 }),
        (a, b, half) => {
          const p = makePool('z', CC, USDCX, `${a}.0000000000`, `${b}.0000000000`);
          const lv = computeOrderbookLevels(p, half * 2);
          const k = new Dec(a).mul(b);
          let cumAsk = new Dec(0);
          let cumBid = new Dec(0);
          for (let i = 0; i < half; i++) {
            cumAsk = cumAsk.add(lv.asks[i]![1]);
            cumBid = cumBid.add(lv.bids[i]![1]);
            const askPrice = k.div(new Dec(a).sub(cumAsk).pow(2));
            const bidPrice = k.div(new Dec(a).add(cumBid).pow(2));
            expect(askPrice.sub(lv.asks[i]![0]).abs().div(lv.asks[i]![0]).lt('1e-40')).toBe(true);
            expect(bidPrice.sub(lv.bids[i]![0]).abs().div(lv.bids[i]![0]).lt('1e-40')).toBe(true);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('the binary64 response levels are within a few ulps of the exact 80-digit levels', () => {
    let worst = 0;
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 28n }),
        fc.bigInt({ min: 1n, max: 10n ** 28n }),
        fc.integer({ min: 1, max: 100 }),
        (a, b, half) => {
          const units = (u: bigint): string =>
            `${u / 10_000_000_000n}.${(u % 10_000_000_000n).toString().padStart(10, '0')}`;
          const p = makePool('z', CC, USDCX, units(a), units(b));
          const exact = computeOrderbookLevels(p, half * 2);
          const ob = computeOrderbook({ pool: p, tickerId: 't', depth: half * 2, nowMs: NOW });
          for (const side of ['bids', 'asks'] as const) {
            expect(ob[side]).toHaveLength(half);
            exact[side].forEach(([ep, ea], i) => {
              const [gp, ga] = ob[side][i]!;
              for (const [e, g] of [
                [ep, gp],
                [ea, ga],
              ] as const) {
                const rel = e.sub(g).abs().div(e).toNumber();
                worst = Math.max(worst, rel);
                expect(rel).toBeLessThan(1e-14);
              }
            });
          }
        },
      ),
      { numRuns: 25 },
    );
    expect(worst).toBeGreaterThan(0); // binary64, not exact: the bound above is what is promised
  });

  it('empty pool → empty sides; depth parsing', () => {
    const empty = makePool('e', CC, USDCX, '0', '0');
    expect(computeOrderbook({ pool: empty, tickerId: 'CC_USDCX', nowMs: NOW })).toEqual({
      ticker_id: 'CC_USDCX',
      timestamp: NOW,
      bids: [],
      asks: [],
    });
    expect(computeOrderbook({ pool, tickerId: 't', nowMs: NOW }).asks).toHaveLength(50);
    expect(parseOrderbookDepth(undefined)).toBe(100);
    expect(parseOrderbookDepth('2')).toBe(2);
    expect(parseOrderbookDepth('200')).toBe(200);
    for (const bad of ['0', '1', '3', '202', '-2', '2.0', 'abc', '', ' 4', '1e2']) {
      expect(() => parseOrderbookDepth(bad), bad).toThrow(/AMM_INVALID_DEPTH/);
    }
    expect(() => computeOrderbook({ pool, tickerId: 't', depth: 7, nowMs: NOW })).toThrow(
      /AMM_INVALID_DEPTH/,
    );
  });
});

describe('pairs and tickers', () => {
  const pools = seedPools();
  const events: SwapEvent[] = [
    makeEvent({ seq: 1, tsMs: NOW - DAY - 1, baseAmount: '999.0000000000', priceAfter: '9.0000000000' }), // too old
    makeEvent({
      seq: 2,
      tsMs: NOW - DAY,
      poolId: '1',
      baseAmount: '100.0000000000',
      quoteAmount: '15.0000000000',
      priceAfter: '0.1490000000',
    }),
    makeEvent({
      seq: 3,
      tsMs: NOW - H,
      poolId: '2',
      baseAmount: '10.0000000000',
      quoteAmount: '1.5000000000',
      priceAfter: '0.1520000000',
    }),
    makeEvent({ seq: 4, tsMs: NOW, poolId: '1', baseAmount: '5.0000000000', priceAfter: '1.0000000000' }), // now: excluded
    makeEvent({
      seq: 5,
      tsMs: NOW - H,
      poolId: '3',
      baseAmount: '7.0000000000',
      quoteAmount: '45.5000000000',
      priceAfter: '6.5000000000',
    }),
  ];

  it('pairs: one per pair, ticker id from the right-parsed symbols, deepest pool', () => {
    expect(computePairs(pools, CC)).toEqual([
      { ticker_id: 'CC_USDCX', base: 'CC', target: 'USDCX', pool_id: '1' },
      { ticker_id: 'GOLD_CC', base: 'GOLD', target: 'CC', pool_id: '4' },
      { ticker_id: 'MOD_CC', base: 'MOD', target: 'CC', pool_id: '5' },
      { ticker_id: 'TF-USDT_CC', base: 'TF-USDT', target: 'CC', pool_id: '3' },
    ]);
  });

  it('tickers: mid of the deepest pool, bid/ask by its fee, 24 h volumes across pools, high/low, USD liquidity', () => {
    const t = computeTickers({ pools, events, cc: CC, ccUsdPrice: '0.16', nowMs: NOW });
    const cc = t.find((x) => x.ticker_id === 'CC_USDCX');
    expect(cc).toEqual({
      ticker_id: 'CC_USDCX',
      base_currency: 'CC',
      target_currency: 'USDCX',
      pool_id: '1',
      last_price: 0.15,
      base_volume: 110,
      target_volume: 16.5,
      liquidity_in_usd: (2_000_000 + 20_000) * 0.16,
      bid: 0.15 * (1 - 0.0005),
      ask: 0.15 * (1 + 0.0005),
      high: 0.152,
      low: 0.149,
    });
    const gold = t.find((x) => x.ticker_id === 'GOLD_CC');
    expect([gold?.high, gold?.low, gold?.base_volume, gold?.last_price]).toEqual([null, null, 0, 4000]);
  });
});

describe('tickers over a long history', () => {
  it('bucketing the events per pair gives what filtering every event per pair gives', () => {
    const pools = seedPools();
    const ids = [...new Set(pools.map((p) => p.poolId)), 'retired-elsewhere'];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            pool: fc.nat({ max: ids.length - 1 }),
            dt: fc.integer({ min: -2 * DAY, max: H }),
            base: fc.nat({ max: 10 ** 9 }),
            price: fc.integer({ min: 1, max: 10 ** 6 }),
          }),
          { maxLength: 60 },
        ),
        (raw) => {
          const events = raw.map((r, i) =>
            makeEvent({
              seq: i + 1,
              tsMs: NOW + r.dt,
              poolId: ids[r.pool] ?? '1',
              baseAmount: `${r.base}.0000000001`,
              quoteAmount: `${r.base % 977}.5000000000`,
              volumeCc: `${r.base % 131}.2500000000`,
              priceAfter: `${r.price}.0000000003`,
            }),
          );
          const got = computeTickers({ pools, events, cc: CC, ccUsdPrice: '0.16', nowMs: NOW });
          // the reference: every pair filters all events (the definition, O(pairs × events))
          for (const t of got) {
            const pairIds = new Set(
              pools.filter((p) => computePairs([p], CC)[0]?.ticker_id === t.ticker_id).map((p) => p.poolId),
            );
            const act = computePairActivity(events, pairIds, NOW - DAY, NOW);
            expect([t.base_volume, t.target_volume, t.high, t.low]).toEqual([
              act.baseVolume.toNumber(),
              act.quoteVolume.toNumber(),
              act.high?.toNumber() ?? null,
              act.low?.toNumber() ?? null,
            ]);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('candles', () => {
  it('epoch-aligned bars, OHLC in event order, volume in base, limit keeps the most recent', () => {
    const base = Date.UTC(2026, 0, 1);
    const ev = [
      makeEvent({ seq: 3, tsMs: base + 61_000, priceAfter: '3.0000000000', baseAmount: '1.0000000000' }),
      makeEvent({ seq: 1, tsMs: base + 1_000, priceAfter: '1.0000000000', baseAmount: '1.5000000000' }),
      makeEvent({ seq: 2, tsMs: base + 59_999, priceAfter: '0.5000000000', baseAmount: '2.0000000000' }),
      makeEvent({ seq: 4, tsMs: base + 61_000, priceAfter: '2.0000000000', baseAmount: '1.0000000000' }),
      makeEvent({ seq: 5, tsMs: base + 600_000, priceAfter: '9.0000000000', baseAmount: '1.0000000000' }),
    ];
    const bars = computeCandles({ events: ev, periodSeconds: 60, nowMs: base + 120_000 });
    expect(bars).toEqual([
      {
        start_ts: base,
        open: '1.0000000000',
        high: '1.0000000000',
        low: '0.5000000000',
        close: '0.5000000000',
        volume: '3.5000000000',
      },
      {
        start_ts: base + 60_000,
        open: '3.0000000000',
        high: '3.0000000000',
        low: '2.0000000000',
        close: '2.0000000000',
        volume: '2.0000000000',
      },
    ]);
    expect(
      computeCandles({ events: ev, periodSeconds: 60, nowMs: base + DAY, limit: 1 }).map((b) => b.start_ts),
    ).toEqual([base + 600_000]);
    expect(() => computeCandles({ events: ev, periodSeconds: 0, nowMs: base })).toThrow(/AMM_INVALID_PERIOD/);
  });

  it('property: every bar is aligned and the volumes add up to the events', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ t: fc.integer({ min: 0, max: 10 * DAY }), v: fc.integer({ min: 1, max: 10 ** 6 }) }),
          {
            maxLength: 60,
          },
        ),
        fc.constantFrom(60, 300, 600, 3600),
        (raw, period) => {
          const ev = raw.map((r, i) =>
            makeEvent({ seq: i, tsMs: NOW + r.t, baseAmount: `${r.v}.0000000000` }),
          );
          const bars = computeCandles({
            events: ev,
            periodSeconds: period,
            nowMs: NOW + 11 * DAY,
            limit: 10_000,
          });
          let total = new Dec(0);
          let prev = -1;
          for (const b of bars) {
            expect(b.start_ts % (period * 1000)).toBe(0);
            expect(b.start_ts).toBeGreaterThan(prev);
            prev = b.start_ts;
            total = total.add(b.volume);
          }
          expect(total.eq(raw.reduce((s, r) => s + r.v, 0))).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('volume windows', () => {
  it('half-open windows: consecutive windows add up to the whole', () => {
    const dec = fc.integer({ min: 0, max: 10 ** 9 }).map((n) => new Dec(n).div(10 ** 4).toFixed(10));
    fc.assert(
      fc.property(
        fc.array(fc.record({ t: fc.integer({ min: 0, max: 1000 }), v: dec, lp: dec, pr: dec }), {
          maxLength: 50,
        }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        (raw, x, y) => {
          const [a, b] = x <= y ? [x, y] : [y, x];
          const ev = raw.map((r, i) =>
            makeEvent({ seq: i, tsMs: r.t, volumeCc: r.v, lpFeeCc: r.lp, protocolFeeCc: r.pr }),
          );
          const w1 = computeVolumeWindow({ events: ev, startMs: 0, endMs: a });
          const w2 = computeVolumeWindow({ events: ev, startMs: a, endMs: b });
          const w3 = computeVolumeWindow({ events: ev, startMs: b, endMs: 1001 });
          const all = computeVolumeWindow({ events: ev, startMs: 0, endMs: 1001 });
          expect(Number(w1.swap_count) + Number(w2.swap_count) + Number(w3.swap_count)).toBe(raw.length);
          expect(all.swap_count).toBe(String(raw.length));
          for (const k of ['volume_cc', 'fees_cc', 'lp_fees_cc', 'protocol_fees_cc'] as const) {
            expect(new Dec(w1[k]).add(w2[k]).add(w3[k]).toFixed(10)).toBe(all[k]);
            expect(all[k]).toMatch(/^\d+\.\d{10}$/);
          }
          expect(new Dec(all.lp_fees_cc).add(all.protocol_fees_cc).toFixed(10)).toBe(all.fees_cc);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('stats', () => {
  it('counts, CC volumes, 30 daily buckets, TVL, traders, performance', () => {
    const ev = [
      makeEvent({
        seq: 1,
        tsMs: NOW - 10 * 60_000,
        trader: 'a',
        volumeCc: '10.0000000000',
        executionSeconds: '4.20',
      }),
      makeEvent({
        seq: 2,
        tsMs: NOW - 5 * H,
        trader: 'b',
        volumeCc: '20.0000000000',
        executionSeconds: '6.00',
      }),
      makeEvent({
        seq: 3,
        tsMs: NOW - 3 * DAY,
        trader: 'a',
        volumeCc: '30.0000000000',
        executionSeconds: '4.90',
      }),
      makeEvent({
        seq: 4,
        tsMs: NOW - 20 * DAY,
        trader: 'c',
        volumeCc: '40.0000000000',
        executionSeconds: '14.00',
      }),
      makeEvent({
        seq: 5,
        tsMs: NOW - 60 * DAY,
        trader: 'd',
        volumeCc: '50.0000000000',
        executionSeconds: '1.00',
      }),
      makeEvent({
        seq: 6,
        tsMs: NOW - 100 * DAY,
        trader: 'e',
        volumeCc: '60.0000000000',
        executionSeconds: '1.00',
      }),
    ];
    const s = computeStats({ events: ev, pools: seedPools(), cc: CC, nowMs: NOW });
    expect(s.swaps).toEqual({
      count_1h: 1,
      count_24h: 2,
      count_7d: 3,
      count_30d: 4,
      cc_volume_1h: '10.0000000000',
      cc_volume_24h: '30.0000000000',
      cc_volume_7d: '60.0000000000',
      cc_volume_30d: '100.0000000000',
    });
    expect(s.chart_volume).toHaveLength(30);
    expect(s.chart_volume[29]).toEqual({
      day_bucket: '2026-06-28T00:00:00+00:00',
      cc_volume_total: '30.0000000000',
    });
    expect(s.chart_volume[26]).toEqual({
      day_bucket: '2026-06-25T00:00:00+00:00',
      cc_volume_total: '30.0000000000',
    });
    expect(s.chart_volume.reduce((t, d) => t.add(d.cc_volume_total), new Dec(0)).toFixed(10)).toBe(
      '100.0000000000',
    );
    // 2 × (1e6 + 1e4 + 130000 + 400000 + 5000) CC
    expect(s.pool_tvl).toEqual({ tvl_cc: '3090000.0000000000' });
    expect(s.active_traders).toEqual({ count_90d: 4 });
    // over 30 days: 4.2, 6.0, 4.9, 14.0 → avg 7.275 → 7.28; within 7.28: 3 of 4
    expect(s.swap_performance).toEqual({
      chart_data: [
        { seconds: 4, count: 2 },
        { seconds: 6, count: 1 },
        { seconds: 14, count: 1 },
      ],
      avg_speed: 7.28,
      consistency: 0.75,
      fastest: 4.2,
    });
    const none = computeStats({ events: [], pools: [], cc: CC, nowMs: NOW });
    expect(none.swap_performance).toEqual({ chart_data: [], avg_speed: 0, consistency: 0, fastest: 0 });
  });
});

describe('market symbols', () => {
  it('formats upper case and parses from the right', () => {
    expect(formatMarketSymbol('cc', 'usdcx')).toBe('CC-USDCX');
    expect(formatTickerId('TF-USDT', 'CC')).toBe('TF-USDT_CC');
    expect(parseMarketSymbol('TF-USDT-CC')).toEqual({ base: 'TF-USDT', quote: 'CC' });
    expect(parseMarketSymbol('USDC.B-CC')).toEqual({ base: 'USDC.B', quote: 'CC' });
    expect(parseTickerId('A.B_CC')).toEqual({ base: 'A.B', quote: 'CC' });
    for (const bad of ['CC', '-CC', 'CC-', '', 5, null]) {
      expect(() => parseMarketSymbol(bad), String(bad)).toThrow(/AMM_INVALID_MARKET_SYMBOL/);
    }
  });
  it('finds a market case-insensitively', () => {
    const pools = [...seedPools(), makePool('7', GOLD, CC, '1', '1', '0.003', { active: false })];
    expect(findMarketPools(pools, 'cc-usdcx').map((p) => p.poolId)).toEqual(['1', '2']);
    expect(findMarketPools(pools, 'tf-usdt-cc').map((p) => p.tokenA.id)).toEqual([TFUSDT.id]);
    expect(findMarketPools(pools, 'GOLD-CC').map((p) => p.poolId)).toEqual(['4']);
  });
});
