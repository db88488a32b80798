/**
 * GET /volume: half-open windows (consecutive windows add up to the whole), defaults, offsets and
 * fractional seconds, the 32-day limit, descriptive 400s, and the cache rule (closed windows 1 h,
 * rolling default 30 s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeExchange, type FakeExchange, T0 } from './helpers/fake-exchange.js';
import { expectShape } from './helpers/shape.js';
import { getJson, startTestServer, type TestServer } from './helpers/start.js';
import { VOLUME } from './schemas.js';

let ex: FakeExchange;
let srv: TestServer;
const HOUR = 3_600_000;
const iso = (ms: number): string => new Date(ms).toISOString();

beforeAll(async () => {
  ex = createFakeExchange(T0 - 48 * HOUR);
  // 40 swaps, one every 37 minutes, one exactly on an hour boundary
  for (let i = 0; i < 40; i++) {
    ex.swap('2820898830768735469', 100 + i, i % 2 === 1);
    ex.advance(37 * 60_000);
  }
  ex.setNow(T0 - 24 * HOUR);
  ex.swap('1001', 5);
  ex.setNow(T0);
  srv = await startTestServer({ exchange: ex });
});
afterAll(async () => {
  await srv.close();
  expect(srv.loggedErrors).toEqual([]);
});

type Vol = {
  data: {
    start_time: string;
    end_time: string;
    swap_count: string;
    volume_cc: string;
    fees_cc: string;
    lp_fees_cc: string;
    protocol_fees_cc: string;
  };
};
const vol = async (q: string): Promise<{ status: number; body: unknown; headers: Headers }> =>
  getJson(`${srv.base}/volume${q}`);

describe('/volume', () => {
  it('defaults to the trailing 24 hours', async () => {
    const r = await vol('');
    expect(r.status).toBe(200);
    expectShape(r.body, VOLUME);
    const d = (r.body as Vol).data;
    expect(d.end_time).toBe('2026-11-22T03:00:00.000+00:00');
    expect(d.start_time).toBe('2026-11-21T03:00:00.000+00:00');
    expect(Number(d.swap_count)).toBe(ex.swapEvents(T0 - 24 * HOUR, T0).length);
    expect(r.headers.get('cache-control')).toBe('public, max-age=30');
  });

  it('is half-open: consecutive windows add up to the whole (counts, volumes, fees)', async () => {
    const start = T0 - 48 * HOUR;
    const whole = (await vol(`?start_time=${iso(start)}&end_time=${iso(T0)}`)).body as Vol;
    let count = 0;
    let volume = 0n;
    let fees = 0n;
    const toUnits = (s: string): bigint => BigInt(s.replace('.', ''));
    for (let t = start; t < T0; t += 4 * HOUR) {
      const part = (await vol(`?start_time=${iso(t)}&end_time=${iso(t + 4 * HOUR)}`)).body as Vol;
      count += Number(part.data.swap_count);
      volume += toUnits(part.data.volume_cc);
      fees += toUnits(part.data.fees_cc);
      expect(toUnits(part.data.fees_cc)).toBe(
        toUnits(part.data.lp_fees_cc) + toUnits(part.data.protocol_fees_cc),
      );
    }
    expect(count).toBe(Number(whole.data.swap_count));
    expect(count).toBe(41);
    expect(volume).toBe(toUnits(whole.data.volume_cc));
    expect(fees).toBe(toUnits(whole.data.fees_cc));
  });

  it('an event exactly at start_time is in, one exactly at end_time is out', async () => {
    const at = T0 - 24 * HOUR; // the swap on pool 1001
    const incl = (await vol(`?start_time=${iso(at)}&end_time=${iso(at + 1)}`)).body as Vol;
    const excl = (await vol(`?start_time=${iso(at - 1000)}&end_time=${iso(at)}`)).body as Vol;
    expect(incl.data.swap_count).toBe('1');
    expect(excl.data.swap_count).toBe('0');
  });

  it('accepts ±hh:mm offsets and fractional seconds; answers in +00:00', async () => {
    const r = await vol(
      '?start_time=2026-11-21T05:30:00.5%2B02:30&end_time=2026-11-21T01:00:00.123456-03:00',
    );
    expect(r.status).toBe(200);
    const d = (r.body as Vol).data;
    expect(d.start_time).toBe('2026-11-21T03:00:00.500+00:00');
    expect(d.end_time).toBe('2026-11-21T04:00:00.124+00:00');
  });

  it('an unencoded + in the offset (read as a space) still means +hh:mm', async () => {
    const r = await vol('?start_time=2026-11-21T05:00:00+02:00&end_time=2026-11-21T04:00:00Z');
    expect(r.status).toBe(200);
    expect((r.body as Vol).data.start_time).toBe('2026-11-21T03:00:00.000+00:00');
  });

  it('only start_time: end = now; only end_time: start = end − 24 h', async () => {
    const a = (await vol(`?start_time=${iso(T0 - HOUR)}`)).body as Vol;
    expect(a.data.end_time).toBe('2026-11-22T03:00:00.000+00:00');
    const b = (await vol(`?end_time=${iso(T0 - HOUR)}`)).body as Vol;
    expect(b.data.start_time).toBe('2026-11-21T02:00:00.000+00:00');
  });

  it('allows exactly 32 days and rejects more', async () => {
    const ok = await vol(`?start_time=${iso(T0 - 32 * 24 * HOUR)}&end_time=${iso(T0)}`);
    expect(ok.status).toBe(200);
    const bad = await vol(`?start_time=${iso(T0 - 32 * 24 * HOUR - 1)}&end_time=${iso(T0)}`);
    expect([bad.status, bad.body]).toEqual([
      400,
      { error: 'window exceeds the maximum of 32 days; fetch longer ranges in chunks' },
    ]);
  });

  it('closed windows are cached for an hour', async () => {
    const r = await vol(`?start_time=${iso(T0 - 2 * HOUR)}&end_time=${iso(T0 - HOUR)}`);
    expect(r.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  const bad: [string, string][] = [
    [
      '?start_time=yesterday',
      'invalid start_time: expected an ISO 8601 timestamp such as 2026-11-22T03:10:00Z, got "yesterday"',
    ],
    [
      '?start_time=2026-11-21T00:00:00',
      'invalid start_time: a UTC offset is required (Z or ±hh:mm), got "2026-11-21T00:00:00"',
    ],
    [
      '?end_time=2026-02-30T00:00:00Z',
      'invalid end_time: day 30 is out of range, got "2026-02-30T00:00:00Z"',
    ],
    [
      '?end_time=2026-11-21T24:00:00Z',
      'invalid end_time: hour 24 is out of range, got "2026-11-21T24:00:00Z"',
    ],
    [
      '?start_time=',
      'invalid start_time: expected an ISO 8601 timestamp such as 2026-11-22T03:10:00Z, got ""',
    ],
    ['?start_time=2026-11-21T00:00:00Z&start_time=2026-11-21T01:00:00Z', 'start_time given more than once'],
    ['?start_time=2026-11-21T00:00:00Z&end_time=2026-11-21T00:00:00Z', 'start_time must be before end_time'],
    ['?start_time=2026-11-21T01:00:00Z&end_time=2026-11-21T00:00:00Z', 'start_time must be before end_time'],
    [
      '?end_time=2026-11-21T00:00:00%2B25:00',
      'invalid end_time: offset +25:00 is out of range, got "2026-11-21T00:00:00+25:00"',
    ],
  ];
  it.each(bad)('400 for %s', async (q, message) => {
    const r = await vol(q);
    expect([r.status, r.body]).toEqual([400, { error: message }]);
  });
});
