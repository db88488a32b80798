/** GET /tokens/info (spec/public-api.md "Token"): every known token, tradable or not. */
import { type ParseOptions, ShapeReader } from './shape.js';

export interface TokenInfo {
  readonly instrument_admin: string;
  readonly instrument_id: string;
  readonly instrument_name: string;
  readonly instrument_symbol: string;
  readonly price_aggregator_id: string | null;
}

export interface TokensInfoResponse {
  readonly tokens: readonly { readonly info: TokenInfo }[];
}

const TOKEN_KEYS = [
  'instrument_admin',
  'instrument_id',
  'instrument_name',
  'instrument_symbol',
  'price_aggregator_id',
];

/** Validates a /tokens/info body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseTokensInfoResponse(json: unknown, options: ParseOptions = {}): TokensInfoResponse {
  const r: ShapeReader = new ShapeReader(options);
  const root = r.object(json, '', ['tokens']);
  const tokens = r.array(root, 'tokens', (v, path) => {
    const el = r.object(v, path, ['info']);
    const t = r.child(el, 'info', TOKEN_KEYS);
    return {
      info: {
        instrument_admin: r.nonEmptyString(t, 'instrument_admin'),
        instrument_id: r.nonEmptyString(t, 'instrument_id'),
        instrument_name: r.string(t, 'instrument_name'),
        instrument_symbol: r.nonEmptyString(t, 'instrument_symbol'),
        price_aggregator_id: r.nullableString(t, 'price_aggregator_id'),
      },
    };
  });
  return { tokens };
}
