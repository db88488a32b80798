/**
 * A hostile exchange for the auditor's tests (issue 30): tamper functions for the reference server's
 * proxy (./tamper.ts) that attack the auditor itself rather than its verdict — exchange text with
 * terminal escapes and bidirectional overrides, JSON nested past any sane depth, and thousands of
 * malformed pool entries.
 */
import type { Tamper } from './tamper.js';

/** ESC ] 0 ; … BEL (retitles a terminal), ESC [ 2 J (clears it), NUL, a C1 CSI and U+202E. */
export const HOSTILE_TEXT = '\u001b]0;pwned\u0007\u001b[2J\u0000\u009b\u202eDSU';

/** Appends HOSTILE_TEXT to every instrument name and symbol of /tokens/info. */
export const hostileTokenText: Tamper = (ctx) => {
  if (ctx.path !== '/tokens/info') return undefined;
  const b = ctx.json as { tokens: { info: { instrument_name: string; instrument_symbol: string } }[] };
  for (const t of b.tokens) {
    t.info.instrument_name += HOSTILE_TEXT;
    t.info.instrument_symbol += HOSTILE_TEXT;
  }
  return { json: b };
};

/** Every 200 answer replaced by `depth` opening brackets and as many closing ones. */
export const deepJson =
  (depth: number): Tamper =>
  (ctx) =>
    ctx.status === 200 ? { raw: '['.repeat(depth) + ']'.repeat(depth) } : undefined;

/** `n` malformed entries (a reserve sent as a JSON number) added to /pools/proof and /pools/state. */
export const malformedEntries =
  (n: number): Tamper =>
  (ctx) => {
    if (ctx.path !== '/pools/proof' && ctx.path !== '/pools/state') return undefined;
    const b = ctx.json as { data: { pools: unknown[] } };
    for (let i = 0; i < n; i++) b.data.pools.push({ pool_id: `bad${i}`, reserve_contract: { reserve_a: 1 } });
    return { json: b };
  };
