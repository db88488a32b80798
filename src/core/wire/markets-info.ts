/** GET /markets/info (spec/public-api.md "Market"): markets, channel names, candle periods. */
import { type ParseOptions, ShapeReader } from './shape.js';

export interface MarketInfo {
  readonly symbol: string;
  /** "service" or "external" */
  readonly source: string;
  readonly kinds: readonly string[];
  readonly channels: { readonly ticker: string; readonly candles: readonly string[] };
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
  const root = r.object(json, '', ['data']);
  const data = r.child(root, 'data', ['updated_at', 'websocket', 'candle_periods', 'markets']);
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
    if (source !== 'service' && source !== 'external')
      r.fail(r.pathOf(m, 'source'), '"service" or "external"', source);
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
