/**
 * POST /connect/quote and POST /pools/quote (docs/protocol/public-api.md "Quote request and response",
 * docs/protocol/api-decisions.md §1, §4, §4b; shapes as in fixtures/recordings/). One parser for both,
 * with the differences of §4b: /pools/quote has no `memo` and no `sent.affiliate_code`.
 */
import { type ParseOptions, type ShapeNode, ShapeReader } from './shape.js';

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

const AMOUNT_KEYS = ['amount', 'instrument_id', 'instrument_admin'];
const PRICE_KEYS = ['pool_before', 'pool_after', 'trade', 'trade_no_fees', 'slippage'];
const HOP_KEYS = [
  'pool_id',
  'contract_id',
  'sell',
  'buy',
  'fees',
  'prices',
  'size',
  'pool_price_before',
  'pool_price_after',
  'trade_price',
  'trade_price_no_fees',
  'created_event_blob',
];
const TOP_KEYS = [
  'sent',
  'prices',
  'fees',
  'pools',
  'returned',
  'trade_price',
  'slippage',
  'pool_price_before_trade',
  'pool_price_after_trade',
  'pool_size',
  'estimated_time_seconds',
];

function readAmount(r: ShapeReader, node: ShapeNode, key: string, trimmed = false): QuoteAmount {
  const a = r.child(node, key, AMOUNT_KEYS);
  return {
    amount: trimmed ? r.decimal(a, 'amount') : r.decimal10(a, 'amount'),
    instrument_id: r.nonEmptyString(a, 'instrument_id'),
    instrument_admin: r.nonEmptyString(a, 'instrument_admin'),
  };
}

function readPrices(r: ShapeReader, node: ShapeNode, key: string): QuotePrices {
  const p = r.child(node, key, PRICE_KEYS);
  return {
    pool_before: r.decimal10(p, 'pool_before'),
    pool_after: r.decimal10(p, 'pool_after'),
    trade: r.decimal10(p, 'trade'),
    trade_no_fees: r.decimal10(p, 'trade_no_fees'),
    slippage: r.signedDecimal10(p, 'slippage'),
  };
}

function readQuote(r: ShapeReader, json: unknown, connect: boolean): QuoteResponse {
  const root = r.object(json, '', connect ? [...TOP_KEYS, 'memo'] : TOP_KEYS);
  const sentKeys = [
    'sell_instrument_id',
    'sell_instrument_admin',
    'buy_instrument_id',
    'buy_instrument_admin',
  ];
  const s = r.child(root, 'sent', [...sentKeys, 'sell_amount', 'affiliate_code']);
  const f = r.child(root, 'fees', [
    'network_fee',
    'fee_percentage',
    'instrument_id',
    'instrument_admin',
    'amount_admin',
    'amount_liquidity',
  ]);
  const pools = r.array(root, 'pools', (v, path) => {
    const h = r.object(v, path, HOP_KEYS);
    const hf = r.child(h, 'fees', ['admin', 'liquidity', 'fee_percentage']);
    return {
      pool_id: r.nonEmptyString(h, 'pool_id'),
      contract_id: r.hex(h, 'contract_id'),
      sell: readAmount(r, h, 'sell'),
      buy: readAmount(r, h, 'buy'),
      fees: {
        admin: readAmount(r, hf, 'admin'),
        liquidity: readAmount(r, hf, 'liquidity'),
        fee_percentage: r.decimal10(hf, 'fee_percentage'),
      },
      prices: readPrices(r, h, 'prices'),
      size: readAmount(r, h, 'size'),
      pool_price_before: r.decimal10(h, 'pool_price_before'),
      pool_price_after: r.decimal10(h, 'pool_price_after'),
      trade_price: r.decimal10(h, 'trade_price'),
      trade_price_no_fees: r.decimal10(h, 'trade_price_no_fees'),
      ...(r.has(h, 'created_event_blob') ? { created_event_blob: r.string(h, 'created_event_blob') } : {}),
    };
  });
  if (pools.length < 1 || pools.length > 2)
    r.fail(r.pathOf(root, 'pools'), 'a route of 1 or 2 pools', pools.length);
  const sent: QuoteResponse['sent'] = {
    sell_instrument_id: r.nonEmptyString(s, 'sell_instrument_id'),
    sell_instrument_admin: r.nonEmptyString(s, 'sell_instrument_admin'),
    buy_instrument_id: r.nonEmptyString(s, 'buy_instrument_id'),
    buy_instrument_admin: r.nonEmptyString(s, 'buy_instrument_admin'),
    sell_amount: r.string(s, 'sell_amount'),
    ...(connect ? { affiliate_code: r.nullableString(s, 'affiliate_code') } : {}),
  };
  const base: QuoteResponse = {
    sent,
    prices: readPrices(r, root, 'prices'),
    fees: {
      network_fee: readAmount(r, f, 'network_fee', true),
      fee_percentage: r.decimal10(f, 'fee_percentage'),
      instrument_id: r.nonEmptyString(f, 'instrument_id'),
      instrument_admin: r.nonEmptyString(f, 'instrument_admin'),
      amount_admin: r.decimal10(f, 'amount_admin'),
      amount_liquidity: r.decimal10(f, 'amount_liquidity'),
    },
    pools,
    returned: readAmount(r, root, 'returned'),
    trade_price: r.decimal10(root, 'trade_price'),
    slippage: r.signedDecimal10(root, 'slippage'),
    pool_price_before_trade: r.decimal10(root, 'pool_price_before_trade'),
    pool_price_after_trade: r.decimal10(root, 'pool_price_after_trade'),
    pool_size: readAmount(r, root, 'pool_size'),
    estimated_time_seconds: r.fixedDecimal(root, 'estimated_time_seconds', 2),
  };
  return connect ? { ...base, memo: r.string(root, 'memo') } : base;
}

/** Validates a POST /connect/quote 200 body; throws ApiShapeError (API_SHAPE_INVALID). */
export function parseConnectQuoteResponse(json: unknown, options: ParseOptions = {}): ConnectQuoteResponse {
  return readQuote(new ShapeReader(options), json, true) as ConnectQuoteResponse;
}

/** Validates a POST /pools/quote 200 body (api-decisions §4b); throws ApiShapeError (API_SHAPE_INVALID). */
export function parsePoolsQuoteResponse(json: unknown, options: ParseOptions = {}): QuoteResponse {
  return readQuote(new ShapeReader(options), json, false);
}
