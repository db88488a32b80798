/**
 * POST /connect/quote and POST /pools/quote (docs/protocol/public-api.md "Quote request and response",
 * docs/protocol/api-decisions.md §1, §4, §4b; shapes as in fixtures/recordings/). One parser for both,
 * with the differences of §4b: /pools/quote has no `memo` and no `sent.affiliate_code`.
 */
import { objectField, type ParseOptions, type ShapeNode, ShapeReader } from './shape.js';

/** The request body, field names as on the wire (camelCase). */
export interface QuoteRequest {
  readonly sellAmount: string;
  readonly sellInstrumentId: string;
  readonly sellInstrumentAdmin: string;
  readonly buyInstrumentId: string;
  readonly buyInstrumentAdmin: string;
  readonly affiliateCode?: string;
}

export interface QuoteAmount {
  readonly amount: string;
  readonly instrument_id: string;
  readonly instrument_admin: string;
}

export interface QuotePrices {
  readonly pool_before: string;
  readonly pool_after: string;
  readonly trade: string;
  readonly trade_no_fees: string;
  /** signed: 1 − trade_no_fees / pool_before */
  readonly slippage: string;
}

export interface QuoteHop {
  readonly pool_id: string;
  readonly contract_id: string;
  readonly sell: QuoteAmount;
  readonly buy: QuoteAmount;
  readonly fees: {
    readonly admin: QuoteAmount;
    readonly liquidity: QuoteAmount;
    readonly fee_percentage: string;
  };
  readonly prices: QuotePrices;
  readonly size: QuoteAmount;
  /** pool orientation: token b per token a, whatever the trade direction */
  readonly pool_price_before: string;
  readonly pool_price_after: string;
  readonly trade_price: string;
  readonly trade_price_no_fees: string;
  /**
   * an extension of the reference server (docs/decisions/server.md "Quotes"): the
   * created_event_blob of `contract_id`, the same bytes /pools/proof serves for it, so the quote
   * carries the proof of the reserves it was priced on; absent on exchanges that do not publish it
   * (read as a plain string: whether it proves anything is the proof step's call)
   */
  readonly created_event_blob?: string;
}

export interface QuoteResponse {
  readonly sent: {
    readonly sell_instrument_id: string;
    readonly sell_instrument_admin: string;
    readonly buy_instrument_id: string;
    readonly buy_instrument_admin: string;
    /** the request string echoed unchanged */
    readonly sell_amount: string;
    /** /connect/quote only; null when no code was supplied */
    readonly affiliate_code?: string | null;
  };
  readonly prices: QuotePrices;
  readonly fees: {
    /** amount is trimmed ("2", "0.7948", "0"), docs/protocol/api-decisions.md §1 */
    readonly network_fee: QuoteAmount;
    readonly fee_percentage: string;
    readonly instrument_id: string;
    readonly instrument_admin: string;
    readonly amount_admin: string;
    readonly amount_liquidity: string;
  };
  readonly pools: readonly QuoteHop[];
  readonly returned: QuoteAmount;
  readonly trade_price: string;
  readonly slippage: string;
  readonly pool_price_before_trade: string;
  readonly pool_price_after_trade: string;
  readonly pool_size: QuoteAmount;
  /** two decimals, e.g. "12.40" */
  readonly estimated_time_seconds: string;
  /** /connect/quote only */
  readonly memo?: string;
}

/** A /connect/quote response: `memo` and `sent.affiliate_code` are present. */
export interface ConnectQuoteResponse extends QuoteResponse {
  readonly memo: string;
}

const amountOf = (amount: 'decimal10' | 'decimal') =>
  objectField({ amount, instrument_id: 'nonEmptyString', instrument_admin: 'nonEmptyString' });
const AMOUNT = amountOf('decimal10');
/** the network fee's amount is trimmed ("2", "0.7948", "0") */
const TRIMMED_AMOUNT = amountOf('decimal');
const PRICES = objectField({
  pool_before: 'decimal10',
  pool_after: 'decimal10',
  trade: 'decimal10',
  trade_no_fees: 'decimal10',
  slippage: 'signedDecimal10',
});

const HOP = {
  pool_id: 'nonEmptyString',
  contract_id: 'hex',
  sell: AMOUNT,
  buy: AMOUNT,
  fees: objectField({ admin: AMOUNT, liquidity: AMOUNT, fee_percentage: 'decimal10' }),
  prices: PRICES,
  size: AMOUNT,
  pool_price_before: 'decimal10',
  pool_price_after: 'decimal10',
  trade_price: 'decimal10',
  trade_price_no_fees: 'decimal10',
} as const;

function readHop(r: ShapeReader, v: unknown, path: string): QuoteHop {
  const h = r.object(v, path, [...Object.keys(HOP), 'created_event_blob']);
  return {
    ...r.readFields(h, HOP),
    ...(r.has(h, 'created_event_blob') ? { created_event_blob: r.string(h, 'created_event_blob') } : {}),
  };
}

const SENT = {
  sell_instrument_id: 'nonEmptyString',
  sell_instrument_admin: 'nonEmptyString',
  buy_instrument_id: 'nonEmptyString',
  buy_instrument_admin: 'nonEmptyString',
  sell_amount: 'string',
} as const;

/** The /pools/quote body; /connect/quote adds `memo` and `sent.affiliate_code`. */
const QUOTE = {
  // a /pools/quote echoing an affiliate_code is not rejected for it
  sent: objectField(SENT, ['affiliate_code']),
  prices: PRICES,
  fees: objectField({
    network_fee: TRIMMED_AMOUNT,
    fee_percentage: 'decimal10',
    instrument_id: 'nonEmptyString',
    instrument_admin: 'nonEmptyString',
    amount_admin: 'decimal10',
    amount_liquidity: 'decimal10',
  }),
  pools: (r: ShapeReader, node: ShapeNode, key: string): QuoteHop[] => {
    const pools = r.array(node, key, (v, path) => readHop(r, v, path));
    if (pools.length < 1 || pools.length > 2)
      r.fail(r.pathOf(node, key), 'a route of 1 or 2 pools', pools.length);
    return pools;
  },
  returned: AMOUNT,
  trade_price: 'decimal10',
  slippage: 'signedDecimal10',
  pool_price_before_trade: 'decimal10',
  pool_price_after_trade: 'decimal10',
  pool_size: AMOUNT,
  estimated_time_seconds: (r: ShapeReader, node: ShapeNode, key: string) => r.fixedDecimal(node, key, 2),
} as const;
const CONNECT_QUOTE = { ...QUOTE, sent: objectField({ ...SENT, affiliate_code: 'nullableString' }) } as const;

function readQuote(r: ShapeReader, json: unknown, connect: boolean): QuoteResponse {
  if (!connect) return r.fields(json, '', QUOTE);
  const root = r.object(json, '', [...Object.keys(CONNECT_QUOTE), 'memo']);
  return { ...r.readFields(root, CONNECT_QUOTE), memo: r.string(root, 'memo') };
}

/** Validates a POST /connect/quote 200 body; throws ApiShapeError (API_SHAPE_INVALID). */
export function parseConnectQuoteResponse(json: unknown, options: ParseOptions = {}): ConnectQuoteResponse {
  return readQuote(new ShapeReader(options), json, true) as ConnectQuoteResponse;
}

/** Validates a POST /pools/quote 200 body (api-decisions §4b); throws ApiShapeError (API_SHAPE_INVALID). */
export function parsePoolsQuoteResponse(json: unknown, options: ParseOptions = {}): QuoteResponse {
  return readQuote(new ShapeReader(options), json, false);
}
