/**
 * GET /tokens/info (docs/protocol/public-api.md "Token"; api-decisions §10): every known token, tradable or
 * not. The aggregator id has two spellings: `price_aggregator_id` (the interface's name) and
 * `coingecko_id` (the live service's name, which its clients read). The reference server sends
 * both, always equal; the parser accepts either or both (equal) and normalises to
 * `price_aggregator_id`, remembering which spellings were present.
 */
import { type ParseOptions, type ShapeNode, ShapeReader } from './shape.js';

export interface TokenInfo {
  readonly instrument_admin: string;
  readonly instrument_id: string;
  readonly instrument_name: string;
  readonly instrument_symbol: string;
  /** the aggregator id, whichever spelling carried it */
  readonly price_aggregator_id: string | null;
  /** the same id under the live service's name, when the response carried that spelling */
  readonly coingecko_id?: string | null;
}

export interface TokensInfoResponse {
  readonly tokens: readonly { readonly info: TokenInfo }[];
}

const TOKEN = {
  instrument_admin: 'nonEmptyString',
  instrument_id: 'nonEmptyString',
  instrument_name: 'string',
  instrument_symbol: 'nonEmptyString',
} as const;

/** Validates a /tokens/info body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseTokensInfoResponse(json: unknown, options: ParseOptions = {}): TokensInfoResponse {
  const r: ShapeReader = new ShapeReader(options);
  const root = r.object(json, '', ['tokens']);
  const tokens = r.array(root, 'tokens', (v, path) => {
    const el = r.object(v, path, ['info']);
    const t = r.child(el, 'info', [...Object.keys(TOKEN), 'price_aggregator_id', 'coingecko_id']);
    return { info: { ...r.readFields(t, TOKEN), ...readAggregatorId(r, t) } };
  });
  return { tokens };
}

/** `price_aggregator_id` and/or `coingecko_id`: at least one, equal when both are present. */
function readAggregatorId(
  r: ShapeReader,
  t: ShapeNode,
): { price_aggregator_id: string | null; coingecko_id?: string | null } {
  const hasNeutral = r.has(t, 'price_aggregator_id');
  const hasLive = r.has(t, 'coingecko_id');
  if (!hasLive) return { price_aggregator_id: r.nullableString(t, 'price_aggregator_id') };
  const live = r.nullableString(t, 'coingecko_id');
  if (!hasNeutral) return { price_aggregator_id: live, coingecko_id: live };
  const neutral = r.nullableString(t, 'price_aggregator_id');
  if (neutral !== live)
    r.fail(
      r.pathOf(t, 'coingecko_id'),
      `the same id as price_aggregator_id (${JSON.stringify(neutral)})`,
      live,
    );
  return { price_aggregator_id: neutral, coingecko_id: live };
}
