/**
 * The aggregator endpoints (docs/protocol/public-api.md "Aggregator endpoints", api-decisions §6):
 * GET /aggregator/pairs, /aggregator/tickers, /aggregator/orderbook. Values are plain JSON numbers.
 * The server builds these types (src/core/amm/tickers.ts, orderbook.ts) and the auditor parses them.
 *
 * A pair whose deepest pool has no reserves has no price: `last_price`, `bid` and `ask` are null
 * (the spec is silent; like `price` of /pools/state, "null while the pool has no reserves") and its
 * order book has empty sides.
 */
import { type ParseOptions, ShapeReader } from './shape.js';

/**
 * Where an exchange serves its aggregator data, below its base URL: `/aggregator` (the
 * interface's namespace) or `/coingecko` (the live service's, api-decisions §10). The auditor
 * tries them in this order and reports which one answered.
 */
export const AGGREGATOR_PATHS = ['/aggregator', '/coingecko'] as const;
export type AggregatorPath = (typeof AGGREGATOR_PATHS)[number];

/** Whether `path` (below the base URL) is the aggregator endpoint `name` under either namespace. */
export function isAggregatorEndpoint(path: string, name: 'pairs' | 'tickers' | 'orderbook'): boolean {
  return AGGREGATOR_PATHS.some((ns) => path === `${ns}/${name}`);
}

export interface AggregatorPair {
  readonly ticker_id: string;
  readonly base: string;
  readonly target: string;
  readonly pool_id: string;
}

export interface AggregatorTicker {
  readonly ticker_id: string;
  readonly base_currency: string;
  readonly target_currency: string;
  readonly pool_id: string;
  /** mid of the deepest pool; null while that pool has no reserves */
  readonly last_price: number | null;
  readonly base_volume: number;
  readonly target_volume: number;
  readonly liquidity_in_usd: number;
  /** mid × (1 − fee rate); null while the deepest pool has no reserves */
  readonly bid: number | null;
  /** mid × (1 + fee rate); null while the deepest pool has no reserves */
  readonly ask: number | null;
  /** null when the pair had no swap in the trailing 24 h */
  readonly high: number | null;
  readonly low: number | null;
  /**
   * extension (`?include_proof=true`, docs/decisions/server.md "Tickers"): the reserve contract of
   * `pool_id` the ticker was computed from, and its created_event_blob (the bytes /pools/proof
   * serves for it), so the price can be checked against proven reserves whatever happened since
   */
  readonly contract_id?: string;
  readonly created_event_blob?: string;
}

/** [price, base amount] */
export type OrderbookLevel = readonly [number, number];

export interface AggregatorOrderbook {
  readonly ticker_id: string;
  /** milliseconds since the epoch */
  readonly timestamp: number;
  readonly bids: readonly OrderbookLevel[];
  readonly asks: readonly OrderbookLevel[];
}

export type AggregatorPairsResponse = readonly AggregatorPair[];
export type AggregatorTickersResponse = readonly AggregatorTicker[];
export type AggregatorOrderbookResponse = AggregatorOrderbook;

/** Validates a /aggregator/pairs body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseAggregatorPairsResponse(
  json: unknown,
  options: ParseOptions = {},
): AggregatorPairsResponse {
  const r: ShapeReader = new ShapeReader(options);
  return r.arrayValue(json, '', (v, path) =>
    r.fields(v, path, {
      ticker_id: 'nonEmptyString',
      base: 'nonEmptyString',
      target: 'nonEmptyString',
      pool_id: 'nonEmptyString',
    }),
  );
}

const TICKER = {
  ticker_id: 'nonEmptyString',
  base_currency: 'nonEmptyString',
  target_currency: 'nonEmptyString',
  pool_id: 'nonEmptyString',
  last_price: 'nullableNumber',
  base_volume: 'number',
  target_volume: 'number',
  liquidity_in_usd: 'number',
  bid: 'nullableNumber',
  ask: 'nullableNumber',
  high: 'nullableNumber',
  low: 'nullableNumber',
} as const;

/** Validates a /aggregator/tickers body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseAggregatorTickersResponse(
  json: unknown,
  options: ParseOptions = {},
): AggregatorTickersResponse {
  const r: ShapeReader = new ShapeReader(options);
  return r.arrayValue(json, '', (v, path) => {
    const t = r.object(v, path, [...Object.keys(TICKER), 'contract_id', 'created_event_blob']);
    return {
      ...r.readFields(t, TICKER),
      ...(r.has(t, 'contract_id') ? { contract_id: r.nonEmptyString(t, 'contract_id') } : {}),
      ...(r.has(t, 'created_event_blob') ? { created_event_blob: r.base64(t, 'created_event_blob') } : {}),
    };
  });
}

/** Validates a /aggregator/orderbook body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseAggregatorOrderbookResponse(
  json: unknown,
  options: ParseOptions = {},
): AggregatorOrderbookResponse {
  const r: ShapeReader = new ShapeReader(options);
  const root = r.object(json, '', ['ticker_id', 'timestamp', 'bids', 'asks']);
  const level = (v: unknown, path: string): OrderbookLevel => {
    if (!Array.isArray(v) || v.length !== 2) r.fail(path, 'a [price, amount] pair', v);
    const [p, a] = v as unknown[];
    if (typeof p !== 'number' || !Number.isFinite(p)) return r.fail(`${path}[0]`, 'a finite number', p);
    if (typeof a !== 'number' || !Number.isFinite(a)) return r.fail(`${path}[1]`, 'a finite number', a);
    return [p, a];
  };
  return {
    ticker_id: r.nonEmptyString(root, 'ticker_id'),
    timestamp: r.integer(root, 'timestamp'),
    bids: r.array(root, 'bids', level),
    asks: r.array(root, 'asks', level),
  };
}
