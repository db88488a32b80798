/**
 * The one timestamp parser/formatter of the wire contract (src/core/wire/timestamp.ts): a table of
 * impossible calendar values every view rejects (month 13, Feb 29 of a non-leap year, hour 24, …),
 * the offset rules of each view, the rounding of each view, and the recorded formats round-trip.
 */
import { describe, expect, it } from 'vitest';
import {
  formatApiTimestamp,
  formatApiTimestampMicros,
  formatApiTimestampSeconds,
  formatInstantMs,
  parseApiTimestampMicros,
  parseApiTimestampMs,
  parseQueryTimestamp,
  parseTimestamp,
  parseTimestampMicros,
} from '../../src/core/wire/timestamp.js';
import { parseVolumeResponse } from '../../src/core/wire/volume.js';

/** [text, the rule it breaks (part of the parser's reason)] */
const IMPOSSIBLE: readonly (readonly [string, string])[] = [
  ['2026-13-01T00:00:00+00:00', 'month 13'],
  ['2026-00-10T00:00:00+00:00', 'month 00'],
  ['2026-01-00T00:00:00+00:00', 'day 00'],
  ['2026-01-32T00:00:00+00:00', 'day 32'],
  ['2026-04-31T00:00:00+00:00', 'day 31'],
  ['2026-06-31T00:00:00+00:00', 'day 31'],
  ['2026-09-31T00:00:00+00:00', 'day 31'],
  ['2026-11-31T00:00:00+00:00', 'day 31'],
  ['2026-02-29T00:00:00+00:00', 'day 29'],
  ['2025-02-29T12:00:00+00:00', 'day 29'],
  ['2100-02-29T00:00:00+00:00', 'day 29'],
  ['1900-02-29T00:00:00+00:00', 'day 29'],
  ['2024-02-30T00:00:00+00:00', 'day 30'],
  ['2026-11-22T24:00:00+00:00', 'hour 24'],
  ['2026-11-22T99:00:00+00:00', 'hour 99'],
  ['2026-11-22T03:60:00+00:00', 'minute 60'],
  ['2026-11-22T03:10:60+00:00', 'second 60'],
  ['2026-11-22T03:10:00+24:00', 'offset +24:00'],
  ['2026-11-22T03:10:00-02:60', 'offset -02:60'],
];

/** Not the grammar at all. */
const MALFORMED: readonly string[] = [
  '',
  '2026-11-22',
  '2026-11-22 03:10:00+00:00',
  '2026-11-22T03:10+00:00',
  '2026-11-22T03:10:00.+00:00',
  '2026-11-22T03:10:00.1234567890+00:00',
  '2026-11-22T03:10:00+0000',
  '2026-11-22t03:10:00z',
  '2026-11-22T03:10:00 +00:00',
  '+02026-11-22T03:10:00+00:00',
  '26-11-22T03:10:00+00:00',
  '２026-11-22T03:10:00+00:00',
  '1795319403237',
  '2026-11-22T03:10:00+00:00\n',
];

describe('impossible calendar values are rejected by every view', () => {
  it.each(IMPOSSIBLE)('%s (%s)', (text, rule) => {
    const p = parseTimestamp(text);
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.reason).toContain(rule);
    expect(parseTimestampMicros(text)).toBeNull();
    expect(parseApiTimestampMs(text)).toBeNull();
    expect(parseApiTimestampMicros(text)).toBeNull();
    expect(parseQueryTimestamp(text).ok).toBe(false);
    expect(parseQueryTimestamp(text.replace('+00:00', 'Z')).ok).toBe(false);
  });

  it.each(MALFORMED)('malformed %j', (text) => {
    expect(parseTimestamp(text).ok).toBe(false);
    expect(parseTimestampMicros(text)).toBeNull();
    expect(parseApiTimestampMs(text)).toBeNull();
    expect(parseQueryTimestamp(text).ok).toBe(false);
  });

  it('a missing offset is named as such', () => {
    const p = parseTimestamp('2026-11-22T03:10:00.5');
    expect(p.ok === false && p.reason).toBe('a UTC offset is required (Z or ±hh:mm)');
  });

  it('a response parser rejects month 13 in a timestamp field (API_SHAPE_INVALID)', () => {
    const body = {
      data: {
        start_time: '2026-13-01T00:00:00.000+00:00',
        end_time: '2026-11-22T03:10:00.000+00:00',
        swap_count: '0',
        volume_cc: '0.0000000000',
        fees_cc: '0.0000000000',
        lp_fees_cc: '0.0000000000',
        protocol_fees_cc: '0.0000000000',
      },
    };
    expect(() => parseVolumeResponse(body)).toThrow(expect.objectContaining({ code: 'API_SHAPE_INVALID' }));
  });
});

describe('valid edges are accepted', () => {
  it.each([
    ['2024-02-29T00:00:00+00:00', Date.UTC(2024, 1, 29)],
    ['2000-02-29T23:59:59+00:00', Date.UTC(2000, 1, 29, 23, 59, 59)],
    ['2026-12-31T23:59:59+00:00', Date.UTC(2026, 11, 31, 23, 59, 59)],
    ['1970-01-01T00:00:00+00:00', 0],
    ['0099-01-01T00:00:00+00:00', new Date('0099-01-01T00:00:00Z').getTime()],
  ])('%s', (text, ms) => {
    expect(parseApiTimestampMs(text)).toBe(ms);
    expect(parseTimestampMicros(text)).toBe(BigInt(ms) * 1000n);
  });
});

describe('offsets: responses only +00:00, queries and CLI any offset', () => {
  const at = Date.UTC(2026, 10, 22, 3, 10);
  it.each(['2026-11-22T03:10:00Z', '2026-11-22T05:40:00+02:30', '2026-11-21T23:10:00-04:00'])('%s', (t) => {
    expect(parseTimestampMicros(t)).toBe(BigInt(at) * 1000n);
    expect(parseQueryTimestamp(t)).toEqual({ ok: true, ms: at });
    expect(parseApiTimestampMs(t)).toBeNull();
    expect(parseApiTimestampMicros(t)).toBeNull();
  });
});

describe('rounding of each view', () => {
  const t = '2026-11-22T03:10:00.123456789+00:00';
  const s = BigInt(Date.UTC(2026, 10, 22, 3, 10)) * 1000n;
  it('responses and µs views truncate; queries round sub-ms UP', () => {
    expect(parseApiTimestampMs(t)).toBe(Date.UTC(2026, 10, 22, 3, 10, 0, 123));
    expect(parseApiTimestampMicros(t)).toBe(s + 123_456n);
    expect(parseTimestampMicros(t)).toBe(s + 123_456n);
    expect(parseQueryTimestamp(t)).toEqual({ ok: true, ms: Date.UTC(2026, 10, 22, 3, 10, 0, 124) });
    expect(parseQueryTimestamp('2026-11-22T03:10:00.123Z')).toEqual({
      ok: true,
      ms: Date.UTC(2026, 10, 22, 3, 10, 0, 123),
    });
  });
  it('fractions that binary floating point cannot hold are exact', () => {
    for (let i = 0; i < 1000; i++) {
      const frac = String(i).padStart(3, '0');
      expect(parseApiTimestampMs(`2026-11-22T03:10:00.${frac}+00:00`)).toBe(
        Date.UTC(2026, 10, 22, 3, 10) + i,
      );
    }
  });
  it('instants before the epoch floor, as µs arithmetic does', () => {
    expect(parseTimestampMicros('1969-12-31T23:59:59.9999999+00:00')).toBe(-1n);
    expect(formatApiTimestampMicros(-1n)).toBe('1969-12-31T23:59:59.999999+00:00');
  });
});

describe('the recorded formats round-trip', () => {
  it.each([
    // response timestamps (updated_at, /volume start_time/end_time): milliseconds
    ['2026-11-22T03:10:00.123+00:00', 'ms'],
    ['2026-11-01T12:00:00.000+00:00', 'ms'],
    // /stats chart_volume day_bucket: whole seconds
    ['2026-06-28T00:00:00+00:00', 's'],
    // ledger_created_at: microseconds
    ['2026-11-22T03:50:03.237364+00:00', 'us'],
    ['2026-11-22T03:50:03.000004+00:00', 'us'],
  ] as const)('%s (%s)', (text, unit) => {
    if (unit === 'us') {
      const micros = parseApiTimestampMicros(text);
      expect(micros).not.toBeNull();
      expect(formatApiTimestampMicros(micros ?? 0n)).toBe(text);
      return;
    }
    const ms = parseApiTimestampMs(text);
    expect(ms).not.toBeNull();
    expect((unit === 'ms' ? formatApiTimestamp : formatApiTimestampSeconds)(ms ?? 0)).toBe(text);
  });

  it('formats every ms of a day and parses it back', () => {
    const base = Date.UTC(2028, 1, 29);
    for (let ms = base; ms < base + 86_400_000; ms += 86_399_997 / 997) {
      const whole = Math.floor(ms);
      expect(parseApiTimestampMs(formatApiTimestamp(whole))).toBe(whole);
      expect(parseApiTimestampMicros(formatApiTimestampMicros(BigInt(whole) * 1000n + 7n))).toBe(
        BigInt(whole) * 1000n + 7n,
      );
    }
  });

  it('evidence instants: µs precision, non-instants as the number', () => {
    expect(formatInstantMs(Date.UTC(2026, 10, 22, 3, 10, 0, 5))).toBe('2026-11-22T03:10:00.005000+00:00');
    expect(formatInstantMs(1.5)).toBe('1.5');
  });
});
