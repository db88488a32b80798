/**
 * GET /markets/info (docs/protocol/public-api.md "Market"; api-decisions §10): markets, channel names,
 * candle periods. `source` is `external` for reference price streams; any other value names the
 * exchange whose own markets these are (`service` in the interface, `cantex` on the live service).
 */
import { arrayField, objectField, type ParseOptions, type ShapeNode, ShapeReader } from './shape.js';

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

const strings = arrayField((r, v, path) => (typeof v === 'string' ? v : r.fail(path, 'a string', v)));

const MARKET = {
  symbol: 'nonEmptyString',
  source: (r: ShapeReader, node: ShapeNode, key: string): string => {
    const source = r.string(node, key);
    if (!EXCHANGE_SOURCE.test(source))
      r.fail(
        r.pathOf(node, key),
        '"external" or an exchange name (1-64 letters, digits, ".", "_", "-")',
        source,
      );
    return source;
  },
  kinds: strings,
  channels: objectField({ ticker: 'nonEmptyString', candles: strings }),
} as const;

const DATA = {
  updated_at: 'timestamp',
  websocket: objectField({
    endpoint: 'nonEmptyString',
    channel_formats: objectField({ ticker: 'string', candles: 'string' }),
  }),
  candle_periods: arrayField((r, v, path) =>
    typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0 ? r.fail(path, 'a positive integer', v) : v,
  ),
  markets: arrayField((r, v, path) => r.fields(v, path, MARKET)),
} as const;

/** Validates a /markets/info body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseMarketsInfoResponse(json: unknown, options: ParseOptions = {}): MarketsInfoResponse {
  return new ShapeReader(options).fields(json, '', { data: objectField(DATA) });
}
