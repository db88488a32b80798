/** GET /exchange/info (docs/protocol/public-api.md "Fee schedule and policy"). */
import { type ParseOptions, type ShapeNode, ShapeReader } from './shape.js';

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
  const r: ShapeReader = new ShapeReader(options);
  const data = r.envelope(json, 'data', ['updated_at', 'fees', 'policy']);
  const fees = r.child(data, 'fees', ['transfer', 'allocation']);
  const fee = (key: string): FeeAmount => {
    const f: ShapeNode = r.child(fees, key, ['amount', 'instrument_admin', 'instrument_id']);
    return {
      amount: r.decimal(f, 'amount'),
      instrument_admin: r.nonEmptyString(f, 'instrument_admin'),
      instrument_id: r.nonEmptyString(f, 'instrument_id'),
    };
  };
  const p = r.child(data, 'policy', [
    'free_transfers_per_day',
    'min_recommended_cc_balance',
    'min_swap_amount_for_fee_waiver',
    'min_swap_amount_size_cc',
    'min_connect_swap_amount_size_cc',
    'need_invite_code',
  ]);
  return {
    data: {
      updated_at: r.timestamp(data, 'updated_at'),
      fees: { transfer: fee('transfer'), allocation: fee('allocation') },
      policy: {
        free_transfers_per_day: r.integer(p, 'free_transfers_per_day'),
        min_recommended_cc_balance: r.decimal(p, 'min_recommended_cc_balance'),
        min_swap_amount_for_fee_waiver: r.decimal(p, 'min_swap_amount_for_fee_waiver'),
        min_swap_amount_size_cc: r.decimal(p, 'min_swap_amount_size_cc'),
        min_connect_swap_amount_size_cc: r.decimal(p, 'min_connect_swap_amount_size_cc'),
        need_invite_code: r.boolean(p, 'need_invite_code'),
      },
    },
  };
}
