/**
 * Unit tests of the small pieces under the HTTP layer: query timestamps, response timestamps,
 * channel names, frame trimming, the aligned window cache and the token bucket.
 */
import { describe, expect, it } from 'vitest';
import {
  formatApiTimestamp,
  formatApiTimestampMicros,
  parseQueryTimestamp,
} from '../../src/core/wire/timestamp.js';
import { WindowCache } from '../../src/server/cache.js';
import { RateLimiter } from '../../src/server/rate-limit.js';
import { formatBusinessFrame, parseChannel } from '../../src/server/ws/protocol.js';

describe('timestamps', () => {
  it('formats with milliseconds and +00:00; ledger time with microseconds', () => {
    expect(formatApiTimestamp(Date.UTC(2026, 10, 22, 3, 10, 0, 123))).toBe('2026-11-22T03:10:00.123+00:00');
    expect(formatApiTimestampMicros(1_795_319_403_237_364n)).toBe('2026-11-22T03:50:03.237364+00:00');
    expect(formatApiTimestampMicros(1_795_319_403_000_004n)).toBe('2026-11-22T03:50:03.000004+00:00');
  });

  it('parses offsets, fractions (rounding sub-ms up) and rejects impossible dates', () => {
    const ok = (s: string): number => {
      const r = parseQueryTimestamp(s);
      if (!r.ok) throw new Error(r.reason);
      return r.ms;
    };
    expect(ok('2026-11-22T03:10:00Z')).toBe(Date.UTC(2026, 10, 22, 3, 10));
    expect(ok('2026-11-22T05:40:00+02:30')).toBe(Date.UTC(2026, 10, 22, 3, 10));
    expect(ok('2026-11-21T23:10:00-04:00')).toBe(Date.UTC(2026, 10, 22, 3, 10));
    expect(ok('2026-11-22T03:10:00.5Z')).toBe(Date.UTC(2026, 10, 22, 3, 10, 0, 500));
    expect(ok('2026-11-22T03:10:00.000000001Z')).toBe(Date.UTC(2026, 10, 22, 3, 10, 0, 1));
    expect(ok('2028-02-29T00:00:00Z')).toBe(Date.UTC(2028, 1, 29));
    expect(ok('0099-01-01T00:00:00Z')).toBe(new Date('0099-01-01T00:00:00Z').getTime());
    for (const bad of [
      '2026-02-29T00:00:00Z',
      '2026-11-22 03:10:00Z',
      '2026-11-22T03:10Z',
      '2026-11-22T03:10:00.Z',
      '2026-11-22T03:10:00+0200',
      '2026-11-22t03:10:00z',
      '1795319403237',
    ]) {
      expect(parseQueryTimestamp(bad).ok, bad).toBe(false);
    }
  });
});

describe('websocket protocol pieces', () => {
  const markets = new Set(['CC-USDCX', 'TF-USDT-CC', 'USDC.B-CC', 'CC-USD']);
  const candles = new Set(['CC-USDCX', 'TF-USDT-CC', 'USDC.B-CC']);
  const periods = [60, 300, 600, 3600];
  it('parses channel names from the right, case-insensitively', () => {
    expect(parseChannel('market.tf-usdt-cc.candles.300', markets, candles, periods)).toEqual({
      kind: 'candles',
      symbol: 'TF-USDT-CC',
      period: 300,
      key: 'market.TF-USDT-CC.candles.300',
    });
    expect(parseChannel('MARKET.usdc.b-cc.TICKER', markets, candles, periods)?.key).toBe(
      'market.USDC.B-CC.ticker',
    );
    for (const bad of [
      'market.CC-USD.candles.60',
      'market.CC-USDCX.candles.060',
      'market.CC-USDCX.candles.61',
      'market.CC-USDCX',
      'CC-USDCX.ticker',
      'market..ticker',
      `market.${'A'.repeat(300)}.ticker`,
    ]) {
      expect(parseChannel(bad, markets, candles, periods), bad).toBeNull();
    }
  });

  it('trims a candle frame to the frame limit, keeping the newest bars', () => {
    const bars = Array.from({ length: 1000 }, (_, i) => ({
      start_ts: i * 60_000,
      open: '1.0000000000',
      high: '1.0000000000',
      low: '1.0000000000',
      close: '1.0000000000',
      volume: '1.0000000000',
    }));
    const text = formatBusinessFrame(
      { channel: 'c', event_type: 'snapshot', ts: 1, data: { market: 'X', period: 60, bars } },
      64 * 1024,
    );
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024);
    const kept = (JSON.parse(text) as { data: { bars: { start_ts: number }[] } }).data.bars;
    expect(kept.length).toBeGreaterThan(300);
    expect(kept.at(-1)?.start_ts).toBe(999 * 60_000);
    const small = formatBusinessFrame(
      { channel: 'c', event_type: 'update', ts: 1, data: { bars: bars.slice(0, 2) } },
      64 * 1024,
    );
    expect((JSON.parse(small) as { data: { bars: unknown[] } }).data.bars).toHaveLength(2);
  });
});

describe('WindowCache', () => {
  it('serves one value per aligned window and evicts the oldest past its bound', () => {
    let now = 10_000;
    const c = new WindowCache<number>({ now: () => now, maxEntries: 2 });
    let n = 0;
    const get = (k: string): number => c.get(k, 5_000, () => ++n);
    expect(get('a')).toBe(1);
    now = 14_999;
    expect(get('a')).toBe(1);
    now = 15_000;
    expect(get('a')).toBe(2);
    get('b');
    get('c');
    expect(c.size).toBe(2);
    expect(get('a')).toBe(5);
  });
});

describe('RateLimiter', () => {
  it('allows a burst, then refills at the rate, per client', () => {
    let now = 0;
    const r = new RateLimiter({ perSecond: 2, burst: 2 }, () => now);
    expect(r.take('a').allowed).toBe(true);
    expect(r.take('a').allowed).toBe(true);
    expect(r.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(r.take('b').allowed).toBe(true);
    now = 500;
    expect(r.take('a').allowed).toBe(true);
    expect(r.take('a').allowed).toBe(false);
    expect(() => new RateLimiter({ perSecond: 0 }, () => 0)).toThrow(/perSecond/);
  });

  it('stays bounded in clients', () => {
    let now = 0;
    const r = new RateLimiter({ perSecond: 1, maxClients: 100 }, () => now);
    for (let i = 0; i < 1000; i++) {
      now += 1;
      r.take(`client-${i}`);
    }
    expect(r.size).toBeGreaterThan(0);
    expect(r.size).toBeLessThanOrEqual(100);
  });
});
