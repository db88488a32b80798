/**
 * GET /swap/info (docs/protocol/public-api.md "Tradable token", "Endpoints"): tokens in at least one live
 * pool.
 */
import { arrayField, objectField, type ParseOptions, ShapeReader } from './shape.js';

export interface TradableToken {
  readonly instrument_admin: string;
  readonly instrument_id: string;
  readonly instrument_name: string;
  readonly instrument_symbol: string;
}

export interface SwapInfoResponse {
  readonly data: {
    readonly fees: {
      readonly network_fee: { readonly instrument_admin: string; readonly instrument_id: string };
    };
    readonly tokens: readonly TradableToken[];
    readonly updated_at: string;
  };
}

const TRADABLE_TOKEN = {
  instrument_admin: 'nonEmptyString',
  instrument_id: 'nonEmptyString',
  instrument_name: 'string',
  instrument_symbol: 'nonEmptyString',
} as const;

/** Validates a /swap/info body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseSwapInfoResponse(json: unknown, options: ParseOptions = {}): SwapInfoResponse {
  const data = objectField({
    fees: objectField({
      network_fee: objectField({ instrument_admin: 'nonEmptyString', instrument_id: 'nonEmptyString' }),
    }),
    tokens: arrayField((r, v, path): TradableToken => r.fields(v, path, TRADABLE_TOKEN)),
    updated_at: 'timestamp',
  });
  return new ShapeReader(options).fields(json, '', { data });
}
