/** GET /exchange/info (docs/protocol/public-api.md "Fee schedule and policy"). */
import { objectField, type ParseOptions, ShapeReader } from './shape.js';

export interface FeeAmount {
  /** plain decimal string (fees and policy values are read as published, any number of decimals) */
  readonly amount: string;
  readonly instrument_admin: string;
  readonly instrument_id: string;
}

export interface ExchangePolicyInfo {
  readonly free_transfers_per_day: number;
  readonly min_recommended_cc_balance: string;
  readonly min_swap_amount_for_fee_waiver: string;
  readonly min_swap_amount_size_cc: string;
  readonly min_connect_swap_amount_size_cc: string;
  readonly need_invite_code: boolean;
}

export interface ExchangeInfoResponse {
  readonly data: {
    readonly updated_at: string;
    readonly fees: { readonly transfer: FeeAmount; readonly allocation: FeeAmount };
    readonly policy: ExchangePolicyInfo;
  };
}

/** Validates a /exchange/info body; throws ApiShapeError (API_SHAPE_INVALID) naming the bad path. */
export function parseExchangeInfoResponse(json: unknown, options: ParseOptions = {}): ExchangeInfoResponse {
  const fee = objectField({
    amount: 'decimal',
    instrument_admin: 'nonEmptyString',
    instrument_id: 'nonEmptyString',
  });
  const data = objectField({
    updated_at: 'timestamp',
    fees: objectField({ transfer: fee, allocation: fee }),
    policy: objectField({
      free_transfers_per_day: 'integer',
      min_recommended_cc_balance: 'decimal',
      min_swap_amount_for_fee_waiver: 'decimal',
      min_swap_amount_size_cc: 'decimal',
      min_connect_swap_amount_size_cc: 'decimal',
      need_invite_code: 'boolean',
    }),
  });
  return new ShapeReader(options).fields(json, '', { data });
}
