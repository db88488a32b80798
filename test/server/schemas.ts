/**
 * Response schemas of every public endpoint (docs/protocol/public-api.md "Resources", api-decisions §1, §6):
 * the reference server's own number formatting (exactly 10 decimals everywhere it renders a decimal,
 * trimmed network fee, two-decimal seconds) and exact key sets. The wire contract itself — the
 * types the server builds and the auditor's parsers — is src/core/wire; every endpoint is parsed
 * with those parsers in test/wire/server-contract.test.ts and test/server/api-parsers.test.ts.
 */
import type { Schema } from './helpers/shape.js';

const ref = { instrument_admin: 'string', instrument_id: 'string' } as const;
const amountRef = { amount: 'dec10', ...ref } as const;

export const TOKENS_INFO: Schema = {
  tokens: [
    {
      info: {
        instrument_admin: 'string',
        instrument_id: 'string',
        instrument_name: 'string',
        instrument_symbol: 'string',
        price_aggregator_id: 'string|null',
        coingecko_id: 'string|null',
      },
    },
  ],
};

export const SWAP_INFO: Schema = {
  data: {
    fees: { network_fee: ref },
    tokens: [
      {
        instrument_admin: 'string',
        instrument_id: 'string',
        instrument_name: 'string',
        instrument_symbol: 'string',
      },
    ],
    updated_at: 'ts',
  },
};

export const MARKETS_INFO: Schema = {
  data: {
    updated_at: 'ts',
    websocket: { endpoint: 'string', channel_formats: { ticker: 'string', candles: 'string' } },
    candle_periods: ['int'],
    markets: [
      {
        symbol: 'string',
        source: 'string',
        kinds: ['string'],
        channels: { ticker: 'string', candles: ['string'] },
      },
    ],
  },
};

export const EXCHANGE_INFO: Schema = {
  data: {
    updated_at: 'ts',
    fees: { transfer: amountRef, allocation: amountRef },
    policy: {
      free_transfers_per_day: 'int',
      min_recommended_cc_balance: 'dec10',
      min_swap_amount_for_fee_waiver: 'dec10',
      min_swap_amount_size_cc: 'dec10',
      min_connect_swap_amount_size_cc: 'dec10',
      need_invite_code: 'bool',
    },
  },
};

export const POOLS_INFO: Schema = {
  pools: [
    {
      contract_id: 'hex',
      pool_id: 'string',
      token_a_instrument_id: 'string',
      token_a_instrument_admin: 'string',
      token_b_instrument_id: 'string',
      token_b_instrument_admin: 'string',
      fee_rate: 'dec10',
      admin_fee_share: 'dec10',
    },
  ],
};

export const POOLS_STATE: Schema = {
  data: {
    updated_at: 'ts',
    pools: [
      {
        pool_id: 'string',
        contract_id: 'hex',
        symbol: 'string',
        token_a_instrument: { id: 'string', admin: 'string', symbol: 'string' },
        token_b_instrument: { id: 'string', admin: 'string', symbol: 'string' },
        fee_rate: 'dec10',
        reserve_a: 'dec10',
        reserve_b: 'dec10',
        price: 'dec10|null',
        tvl_cc: 'dec10',
      },
    ],
  },
};

export const POOLS_PROOF: Schema = {
  data: {
    updated_at: 'ts',
    pools: [
      {
        pool_id: 'string',
        pool_cid: 'hex',
        token_a_instrument: { id: 'string', admin: 'string' },
        token_b_instrument: { id: 'string', admin: 'string' },
        reserve_contract: {
          contract_id: 'hex',
          update_id: 'string',
          template: {
            package_id: 'string',
            package_name: 'string',
            module_name: 'string',
            entity_name: 'string',
          },
          ledger_created_at: 'ts',
          created_event_blob: 'base64',
          reserve_a: 'dec10',
          reserve_b: 'dec10',
          total_lp_supply: 'dec10',
        },
      },
    ],
  },
};

export const STATS: Schema = {
  stats: {
    swaps: {
      count_1h: 'int',
      count_24h: 'int',
      count_7d: 'int',
      count_30d: 'int',
      cc_volume_1h: 'dec10',
      cc_volume_24h: 'dec10',
      cc_volume_7d: 'dec10',
      cc_volume_30d: 'dec10',
    },
    swap_performance: {
      chart_data: [{ seconds: 'int', count: 'int' }],
      avg_speed: 'number',
      consistency: 'number',
      fastest: 'number',
    },
    chart_volume: [{ day_bucket: 'ts', cc_volume_total: 'dec10' }],
    pool_tvl: { tvl_cc: 'dec10', updated_at: 'ts' },
    active_traders: { count_90d: 'int' },
  },
};

export const VOLUME: Schema = {
  data: {
    start_time: 'ts',
    end_time: 'ts',
    swap_count: 'intstr',
    volume_cc: 'dec10',
    fees_cc: 'dec10',
    lp_fees_cc: 'dec10',
    protocol_fees_cc: 'dec10',
  },
};

export const PAIRS: Schema = [{ ticker_id: 'string', base: 'string', target: 'string', pool_id: 'string' }];

export const TICKERS: Schema = [
  {
    ticker_id: 'string',
    base_currency: 'string',
    target_currency: 'string',
    pool_id: 'string',
    last_price: 'number|null',
    base_volume: 'number',
    target_volume: 'number',
    liquidity_in_usd: 'number',
    bid: 'number|null',
    ask: 'number|null',
    high: 'number|null',
    low: 'number|null',
  },
];

export const ORDERBOOK: Schema = {
  ticker_id: 'string',
  timestamp: 'int',
  bids: [['number']],
  asks: [['number']],
};

const quoteAmount = amountRef;
const prices = {
  pool_after: 'dec10',
  pool_before: 'dec10',
  slippage: 'sdec10',
  trade: 'dec10',
  trade_no_fees: 'dec10',
} as const;

export function quoteSchema(connect: boolean): Schema {
  return {
    estimated_time_seconds: 'sec2',
    fees: {
      amount_admin: 'dec10',
      amount_liquidity: 'dec10',
      fee_percentage: 'dec10',
      ...ref,
      network_fee: { amount: 'trimmed', ...ref },
    },
    ...(connect ? { memo: 'string' } : {}),
    pool_price_after_trade: 'dec10',
    pool_price_before_trade: 'dec10',
    pool_size: quoteAmount,
    pools: [
      {
        buy: quoteAmount,
        contract_id: 'hex',
        fees: { admin: quoteAmount, fee_percentage: 'dec10', liquidity: quoteAmount },
        pool_id: 'string',
        pool_price_after: 'dec10',
        pool_price_before: 'dec10',
        prices,
        sell: quoteAmount,
        size: quoteAmount,
        trade_price: 'dec10',
        trade_price_no_fees: 'dec10',
      },
    ],
    prices,
    returned: quoteAmount,
    sent: {
      ...(connect ? { affiliate_code: 'string|null' } : {}),
      buy_instrument_admin: 'string',
      buy_instrument_id: 'string',
      sell_amount: 'string',
      sell_instrument_admin: 'string',
      sell_instrument_id: 'string',
    },
    slippage: 'sdec10',
    trade_price: 'dec10',
  };
}
