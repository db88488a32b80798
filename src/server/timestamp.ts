/**
 * Response timestamps and /volume query timestamps (public-api.md "Conventions", api-decisions §8).
 * Responses: ISO 8601 in UTC with millisecond precision and the offset written `+00:00`
 * (`2026-11-22T03:10:00.123+00:00`). Queries: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±hh:mm)`; an offset
 * is required. Fractions finer than a millisecond round UP to the next millisecond, so a half-open
 * window over millisecond-stamped events keeps its meaning (see docs/decisions/server.md).
 */

const MAX_MS = 8.64e15;

/** `ms` since the epoch → `YYYY-MM-DDTHH:MM:SS.mmm+00:00`. */
export function formatTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, -1)}+00:00`;
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

export type ParsedTimestamp =
  | { readonly ok: true; readonly ms: number }
  | { readonly ok: false; readonly reason: string };

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Parses a query timestamp; never throws. */
export function parseTimestamp(text: string): ParsedTimestamp {
  const m = ISO_RE.exec(text);
  if (m === null) {
    if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(text)) {
      return { ok: false, reason: 'a UTC offset is required (Z or ±hh:mm)' };
    }
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
  let fracMs = 0;
  if (frac !== undefined) {
    const padded = frac.padEnd(9, '0');
    const whole = Number(padded.slice(0, 3));
    const rest = Number(padded.slice(3));
    fracMs = whole + (rest > 0 ? 1 : 0);
  }
  const base = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC maps years 0..99 to 1900..1999; fix them up
  const fixed = year < 100 ? new Date(base).setUTCFullYear(year) : base;
  const ms = fixed + fracMs - offsetMin * 60_000;
  if (!Number.isFinite(ms) || Math.abs(ms) > MAX_MS)
    return { ok: false, reason: 'timestamp is out of range' };
  return { ok: true, ms };
}
