/**
 * The public websocket protocol (docs/protocol/api-decisions.md §7): parsing client frames and channel names.
 * Client ops: subscribe / unsubscribe (with `channels`), ping, pong. Channel names
 * `market.<SYMBOL>.ticker` and `market.<SYMBOL>.candles.<PERIOD>` match case-insensitively; a symbol
 * may itself contain `.` and `-`, so names are parsed from the right. `market.CC-USDC.*` (the older
 * name of the CC/USDCx market, still used by live bots) is an alias of `market.CC-USDCX.*`
 * (api-decisions §10): same channel key, frames echo the spelling the client subscribed with.
 */

type ClientOp =
  | { readonly op: 'subscribe'; readonly channels: readonly string[] }
  | { readonly op: 'unsubscribe'; readonly channels: readonly string[] }
  | { readonly op: 'ping' }
  | { readonly op: 'pong' };

export type ParsedFrame =
  | { readonly ok: true; readonly frame: ClientOp }
  | { readonly ok: false; readonly error: string };

/** Longest channel name accepted (longer names are unknown channels, not echoed in full). */
const MAX_CHANNEL_NAME = 200;

/** Parses one text frame; never throws. */
export function parseClientFrame(text: string): ParsedFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'invalid JSON' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'expected a JSON object with an "op" field' };
  }
  const obj = value as Record<string, unknown>;
  const op = Object.hasOwn(obj, 'op') ? obj.op : undefined;
  if (op === undefined) return { ok: false, error: 'missing op' };
  if (typeof op !== 'string') return { ok: false, error: 'op must be a string' };
  switch (op) {
    case 'ping':
    case 'pong':
      return { ok: true, frame: { op } };
    case 'subscribe':
    case 'unsubscribe': {
      const channels = Object.hasOwn(obj, 'channels') ? obj.channels : undefined;
      if (channels === undefined) return { ok: false, error: 'missing channels' };
      if (!Array.isArray(channels) || !channels.every((c) => typeof c === 'string')) {
        return { ok: false, error: 'channels must be an array of strings' };
      }
      return { ok: true, frame: { op, channels: channels as string[] } };
    }
    default:
      return { ok: false, error: `unknown op: ${clip(op, 40)}` };
  }
}

/** Older market symbols still used by clients → the market they name (docs/protocol/api-decisions.md §10). */
const MARKET_ALIASES: ReadonlyMap<string, string> = new Map([['CC-USDC', 'CC-USDCX']]);

/** A requested symbol (upper case) → the market it names: itself when listed, else its alias. */
function resolveSymbol(symbol: string, markets: ReadonlySet<string>): string {
  if (markets.has(symbol)) return symbol;
  return MARKET_ALIASES.get(symbol) ?? symbol;
}

export type ChannelRef =
  | { readonly kind: 'ticker'; readonly symbol: string; readonly key: string }
  | { readonly kind: 'candles'; readonly symbol: string; readonly period: number; readonly key: string };

/**
 * Resolves a channel name against the known market symbols (upper case) and candle periods.
 * `key` is the canonical spelling (upper-case symbol), used to match case-insensitively.
 * `candleMarkets` lists the markets that have candle channels. null = unknown channel.
 */
export function parseChannel(
  name: string,
  markets: ReadonlySet<string>,
  candleMarkets: ReadonlySet<string>,
  periods: readonly number[],
): ChannelRef | null {
  if (name.length > MAX_CHANNEL_NAME) return null;
  const lower = name.toLowerCase();
  if (!lower.startsWith('market.')) return null;
  const rest = name.slice('market.'.length);
  if (lower.endsWith('.ticker')) {
    const symbol = resolveSymbol(rest.slice(0, -'.ticker'.length).toUpperCase(), markets);
    if (!markets.has(symbol)) return null;
    return { kind: 'ticker', symbol, key: `market.${symbol}.ticker` };
  }
  const m = /^(.+)\.candles\.([0-9]{1,6})$/i.exec(rest);
  if (m === null) return null;
  const symbol = resolveSymbol((m[1] ?? '').toUpperCase(), candleMarkets);
  const period = Number(m[2]);
  if (!candleMarkets.has(symbol) || !periods.includes(period) || String(period) !== m[2]) return null;
  return { kind: 'candles', symbol, period, key: `market.${symbol}.candles.${period}` };
}

/** Shortens a client-chosen string for an error message. */
export function clip(s: string, max = 80): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/**
 * Serializes a business frame, keeping it within `maxBytes` (api-decisions §7: 64 KiB per frame):
 * a candle frame that would pass the limit drops its oldest bars (about 10 % per step) until it fits.
 */
export function formatBusinessFrame(
  frame: {
    readonly channel: string;
    readonly event_type: string;
    readonly ts: number;
    readonly data: Record<string, unknown>;
  },
  maxBytes: number,
): string {
  let text = JSON.stringify(frame);
  const bars = frame.data.bars;
  if (!Array.isArray(bars) || Buffer.byteLength(text) <= maxBytes) return text;
  let kept: unknown[] = bars;
  while (Buffer.byteLength(text) > maxBytes && kept.length > 0) {
    kept = kept.slice(Math.max(1, Math.floor(kept.length / 10)));
    text = JSON.stringify({ ...frame, data: { ...frame.data, bars: kept } });
  }
  return text;
}
