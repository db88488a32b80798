/**
 * GET /markets/info (docs/protocol/public-api.md "Market"; api-decisions §10): markets, channel names,
 * candle periods. `source` is `external` for reference price streams; any other value names the
 * exchange whose own markets these are (`service` in the interface, `cantex` on the live service).
 */
import { type ParseOptions, ShapeReader } from './shape.js';

export interface MarketInfo {
  readonly symbol: string;
  /** "external", or the exchange's name for its own markets ("service", "cantex", …) */
  readonly source: string;
  readonly kinds: readonly string[];
  readonly channels: { readonly ticker: string; readonly candles: readonly string[] };
}

/** A market source: `external` or an exchange name. */
const EXCHANGE_SOURCE = /^[A-Za-z0-9._-]{1,64}$/;

/** The source of reference price streams; every other source is an exchange's own market. */
const EXTERNAL_MARKET_SOURCE = 'external';

/** Whether a market of this `source` is one of the exchange's own (not a reference stream). */
export function isOwnMarketSource(source: string): boolean {
  return source !== EXTERNAL_MARKET_SOURCE;
}

export interface MarketsInfoResponse {
  readonly data: {
    readonly updated_at: string;
    readonly websocket: {
      readonly endpoint: string;
      readonly channel_formats: { readonly ticker: string; readonly candles: string };
    };
    readonly candle_periods: readonly number[];
    readonly markets: readonly MarketInfo[];
  };
}

/** Validates a /markets/info body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseMarketsInfoResponse(json: unknown, options: ParseOptions = {}): MarketsInfoResponse {
  const r: ShapeReader = new ShapeReader(options);
  const data = r.envelope(json, 'data', ['updated_at', 'websocket', 'candle_periods', 'markets']);
  const ws = r.child(data, 'websocket', ['endpoint', 'channel_formats']);
  const cf = r.child(ws, 'channel_formats', ['ticker', 'candles']);
  const candlePeriods = r.array(data, 'candle_periods', (v, path) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0)
      return r.fail(path, 'a positive integer', v);
    return v;
  });
  const markets = r.array(data, 'markets', (v, path) => {
    const m = r.object(v, path, ['symbol', 'source', 'kinds', 'channels']);
    const source = r.string(m, 'source');
    if (!EXCHANGE_SOURCE.test(source))
      r.fail(
        r.pathOf(m, 'source'),
        '"external" or an exchange name (1-64 letters, digits, ".", "_", "-")',
        source,
      );
    const ch = r.child(m, 'channels', ['ticker', 'candles']);
    return {
      symbol: r.nonEmptyString(m, 'symbol'),
      source,
      kinds: r.array(m, 'kinds', (k, p) => (typeof k === 'string' ? k : r.fail(p, 'a string', k))),
      channels: {
        ticker: r.nonEmptyString(ch, 'ticker'),
        candles: r.array(ch, 'candles', (k, p) => (typeof k === 'string' ? k : r.fail(p, 'a string', k))),
      },
    };
  });
  return {
    data: {
      updated_at: r.timestamp(data, 'updated_at'),
      websocket: {
        endpoint: r.nonEmptyString(ws, 'endpoint'),
        channel_formats: { ticker: r.string(cf, 'ticker'), candles: r.string(cf, 'candles') },
      },
      candle_periods: candlePeriods,
      markets,
    },
  };
}
