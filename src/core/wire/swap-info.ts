/**
 * GET /swap/info (docs/protocol/public-api.md "Tradable token", "Endpoints"): tokens in at least one live
 * pool.
 */
import { type ParseOptions, ShapeReader } from './shape.js';

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

/** Validates a /swap/info body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseSwapInfoResponse(json: unknown, options: ParseOptions = {}): SwapInfoResponse {
  const r: ShapeReader = new ShapeReader(options);
  const data = r.envelope(json, 'data', ['fees', 'tokens', 'updated_at']);
  const fees = r.child(data, 'fees', ['network_fee']);
  const nf = r.child(fees, 'network_fee', ['instrument_admin', 'instrument_id']);
  const tokens = r.array(data, 'tokens', (v, path) => {
    const t = r.object(v, path, [
      'instrument_admin',
      'instrument_id',
      'instrument_name',
      'instrument_symbol',
    ]);
    return {
      instrument_admin: r.nonEmptyString(t, 'instrument_admin'),
      instrument_id: r.nonEmptyString(t, 'instrument_id'),
      instrument_name: r.string(t, 'instrument_name'),
      instrument_symbol: r.nonEmptyString(t, 'instrument_symbol'),
    };
  });
  return {
    data: {
      fees: {
        network_fee: {
          instrument_admin: r.nonEmptyString(nf, 'instrument_admin'),
          instrument_id: r.nonEmptyString(nf, 'instrument_id'),
        },
      },
      tokens,
      updated_at: r.timestamp(data, 'updated_at'),
    },
  };
}
