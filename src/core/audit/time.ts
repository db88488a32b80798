/**
 * ISO 8601 timestamps ↔ microseconds since the epoch, without a clock (spec/public-api.md
 * "Conventions": timestamps carry a UTC offset; blobs carry microseconds, contract-id.md §4).
 */

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Parses an ISO 8601 timestamp with an offset to microseconds (fractions beyond µs truncated); null when malformed. */
export function parseIsoMicros(s: string): bigint | null {
  const m = ISO_RE.exec(s);
  if (m === null) return null;
  const [, y, mo, d, h, mi, se, frac, off] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se));
  if (!Number.isFinite(ms)) return null;
  let micros = BigInt(ms) * 1000n + BigInt(((frac ?? '') + '000000').slice(0, 6));
  if (off !== undefined && off !== 'Z') {
    const sign = off.startsWith('-') ? -1n : 1n;
    const offMin = BigInt(Number(off.slice(1, 3)) * 60 + Number(off.slice(4, 6)));
    micros -= sign * offMin * 60_000_000n;
  }
  return micros;
}

/** Formats microseconds since the epoch as `YYYY-MM-DDTHH:MM:SS.ffffff+00:00`. */
export function formatMicrosIso(micros: bigint): string {
  const ms = micros / 1000n - (micros % 1000n < 0n ? 1n : 0n);
  const sub = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const base = new Date(Number(ms)).toISOString().slice(0, 19);
  return `${base}.${sub.toString().padStart(6, '0')}+00:00`;
}
