/**
 * THE timestamp parser and formatters of the wire contract (docs/protocol/public-api.md "Conventions":
 * timestamps are ISO 8601 with a UTC offset written `+00:00`; api-decisions §8: /volume queries
 * accept `Z` or `±hh:mm` and fractional seconds; docs/protocol/contract-id.md §4: ledger times are
 * microseconds). The server, the simulator, the auditor and the mirror all read and write timestamps here.
 *
 * One grammar, `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±hh:mm)`, and one range check: month 1–12, day
 * within the month (leap years by the Gregorian rule), hour 0–23, minute 0–59, second 0–59 (no leap
 * second), offset hour 0–23 and minute 0–59. Each view states its offset rule and its rounding.
 *
 * Output formats (as the recordings and earlier releases render them; `ms`/`micros` since the epoch):
 *   formatApiTimestamp(ms)            2026-11-22T03:10:00.123+00:00     (response timestamps)
 *   formatApiTimestampSeconds(ms)     2026-06-28T00:00:00+00:00         (/stats chart_volume day_bucket)
 *   formatApiTimestampMicros(micros)  2026-11-22T03:50:03.237364+00:00  (ledger_created_at, evidence)
 */

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;
const NO_OFFSET_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/;

/** The ECMAScript time range: ±8.64e15 ms around the epoch. */
const MAX_MS = 8.64e15;
const NS_PER_MS = 1_000_000n;
const NS_PER_US = 1_000n;

/** A parsed timestamp: nanoseconds since the epoch (exact: fractions have at most 9 digits). */
export type ParsedTimestamp =
  | {
      readonly ok: true;
      readonly nanos: bigint;
      /** the offset as written: `Z`, `+00:00`, `-04:00`, … */
      readonly offset: string;
    }
  | { readonly ok: false; readonly reason: string };

/** Gregorian leap year. */
function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_DAYS: readonly number[] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (MONTH_DAYS[month - 1] ?? 0);
}

/** Floor division of bigints (toward −∞), so instants before the epoch round the same way. */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/**
 * Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±hh:mm)` with every range checked; never throws. The
 * failure `reason` names the rule ("month 13 is out of range", "a UTC offset is required …").
 */
export function parseTimestamp(text: string): ParsedTimestamp {
  const m = ISO_RE.exec(text);
  if (m === null) {
    if (NO_OFFSET_RE.test(text)) return { ok: false, reason: 'a UTC offset is required (Z or ±hh:mm)' };
    return { ok: false, reason: 'expected an ISO 8601 timestamp such as 2026-11-22T03:10:00Z' };
  }
  const [, y, mo, d, h, mi, s, frac, off] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string | undefined,
    string,
  ];
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12) return { ok: false, reason: `month ${mo} is out of range` };
  if (day < 1 || day > daysInMonth(year, month)) return { ok: false, reason: `day ${d} is out of range` };
  if (hour > 23) return { ok: false, reason: `hour ${h} is out of range` };
  if (minute > 59) return { ok: false, reason: `minute ${mi} is out of range` };
  if (second > 59) return { ok: false, reason: `second ${s} is out of range` };
  let offsetMin = 0;
  if (off !== 'Z') {
    const oh = Number(off.slice(1, 3));
    const om = Number(off.slice(4, 6));
    if (oh > 23 || om > 59) return { ok: false, reason: `offset ${off} is out of range` };
    offsetMin = (off[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years 0..99 as written
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const ms = date.getTime() - offsetMin * 60_000;
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_MS)
    return { ok: false, reason: 'timestamp is out of range' };
  const fracNanos = frac === undefined ? 0n : BigInt(frac.padEnd(9, '0'));
  return { ok: true, nanos: BigInt(ms) * NS_PER_MS + fracNanos, offset: off };
}

/** Microseconds since the epoch of a timestamp with any offset (finer fractions truncated); null when invalid. */
export function parseTimestampMicros(text: string): bigint | null {
  const p = parseTimestamp(text);
  return p.ok ? floorDiv(p.nanos, NS_PER_US) : null;
}

/**
 * A /volume query timestamp (api-decisions §8): any offset; a fraction finer than a millisecond
 * rounds UP to the next millisecond, so a half-open window over millisecond-stamped events keeps
 * its meaning (docs/decisions/server.md). Never throws.
 */
export function parseQueryTimestamp(
  text: string,
): { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly reason: string } {
  const p = parseTimestamp(text);
  if (!p.ok) return p;
  return { ok: true, ms: Number(-floorDiv(-p.nanos, NS_PER_MS)) };
}

/** A response timestamp (offset exactly `+00:00`) → ms since the epoch (finer fractions truncated); null when invalid. */
export function parseApiTimestampMs(text: string): number | null {
  const p = parseTimestamp(text);
  return p.ok && p.offset === '+00:00' ? Number(floorDiv(p.nanos, NS_PER_MS)) : null;
}

/** A response timestamp (offset exactly `+00:00`) → µs since the epoch (finer fractions truncated); null when invalid. */
export function parseApiTimestampMicros(text: string): bigint | null {
  const p = parseTimestamp(text);
  return p.ok && p.offset === '+00:00' ? floorDiv(p.nanos, NS_PER_US) : null;
}

/** ms since the epoch → `YYYY-MM-DDTHH:MM:SS.mmm+00:00` (every response timestamp). */
export function formatApiTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, -1)}+00:00`;
}

/** ms since the epoch → `YYYY-MM-DDTHH:MM:SS+00:00`, milliseconds dropped (/stats day buckets). */
export function formatApiTimestampSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** µs since the epoch → `YYYY-MM-DDTHH:MM:SS.ffffff+00:00` (ledger_created_at: the blob's exact time). */
export function formatApiTimestampMicros(micros: bigint): string {
  const ms = floorDiv(micros, 1000n);
  const sub = micros - floorDiv(micros, 1_000_000n) * 1_000_000n;
  const base = new Date(Number(ms)).toISOString().slice(0, 19);
  return `${base}.${sub.toString().padStart(6, '0')}+00:00`;
}

/**
 * An instant in ms at µs precision (`formatApiTimestampMicros`), for audit evidence; a value that
 * is not a safe integer (no instant) is rendered as the number.
 */
export function formatInstantMs(ms: number): string {
  return Number.isSafeInteger(ms) ? formatApiTimestampMicros(BigInt(ms) * 1000n) : String(ms);
}
