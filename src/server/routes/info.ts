/**
 * GET /tokens/info, /swap/info, /markets/info, /exchange/info (docs/protocol/public-api.md "Resources":
 * Token, Tradable token, Market, Fee schedule and policy; docs/protocol/api-decisions.md §1, §2, §7).
 */
import { formatAmount } from '../../core/amm/format.js';
import type {
  ExchangeInfoResponse,
  MarketsInfoResponse,
  SwapInfoResponse,
  TokensInfoResponse,
} from '../../core/wire/index.js';
import { formatApiTimestamp } from '../../core/wire/timestamp.js';
import type { RouteDeps } from '../deps.js';
import type { Reply } from '../http.js';
import { CACHE_SECONDS, cachedJson, instrumentRef, poolSymbol, tokenInfo, tokenKey } from './common.js';

/** Candle periods in seconds (docs/protocol/public-api.md "Limits"). */
export const CANDLE_PERIODS: readonly number[] = [60, 300, 600, 3600];

/** The external reference price stream (docs/protocol/api-decisions.md §2). */
export const EXTERNAL_MARKET = 'CC-USD';

export function tokensInfo(deps: RouteDeps): Reply {
  return cachedJson(
    deps,
    'tokens',
    CACHE_SECONDS.tokensInfo,
    (): TokensInfoResponse => ({
      tokens: deps.exchange.tokens().map((t) => ({
        // §10: both spellings of the aggregator id, always equal
        info: {
          ...tokenInfo(t),
          price_aggregator_id: t.priceAggregatorId,
          coingecko_id: t.priceAggregatorId,
        },
      })),
    }),
  );
}

export function swapInfo(deps: RouteDeps): Reply {
  return cachedJson(deps, 'swap-info', CACHE_SECONDS.swapInfo, (): SwapInfoResponse => {
    const seen = new Set<string>();
    for (const p of deps.exchange.pools()) {
      if (!p.active) continue;
      seen.add(tokenKey(p.tokenA));
      seen.add(tokenKey(p.tokenB));
    }
    return {
      data: {
        fees: { network_fee: instrumentRef(deps.exchange.cc()) },
        tokens: deps.exchange
          .tokens()
          .filter((t) => seen.has(tokenKey(t)))
          .map(tokenInfo),
        updated_at: formatApiTimestamp(deps.clock.nowMs()),
      },
    };
  });
}

/** The `source` of the external reference streams (docs/protocol/api-decisions.md §2). */
export const EXTERNAL_SOURCE = 'external';

/**
 * The default `source` of the service's own markets (docs/protocol/public-api.md "Market";
 * docs/protocol/api-decisions.md §10).
 */
export const DEFAULT_EXCHANGE_NAME = 'service';

interface MarketEntry {
  readonly symbol: string;
  /** true for the service's own markets (source = the exchange's name), false for `external` */
  readonly own: boolean;
}

/** Service markets (one per distinct pool pair of the active pools, sorted) + the external stream. */
function listMarkets(deps: RouteDeps): readonly MarketEntry[] {
  const symbols = new Set<string>();
  for (const p of deps.exchange.pools()) if (p.active) symbols.add(poolSymbol(p));
  const out: MarketEntry[] = [...symbols].sort().map((symbol) => ({ symbol, own: true }));
  if (!symbols.has(EXTERNAL_MARKET)) out.push({ symbol: EXTERNAL_MARKET, own: false });
  return out;
}

function tickerChannel(symbol: string): string {
  return `market.${symbol}.ticker`;
}

function candleChannel(symbol: string, period: number): string {
  return `market.${symbol}.candles.${period}`;
}

/**
 * `source` of the service's own markets is the exchange's name (`exchangeName`, default `service`;
 * `serve --exchange-name cantex` for clients of the live service, docs/protocol/api-decisions.md §10).
 */
export function marketsInfo(deps: RouteDeps, wsPath: string, exchangeName: string): Reply {
  return cachedJson(
    deps,
    'markets',
    CACHE_SECONDS.marketsInfo,
    (): MarketsInfoResponse => ({
      data: {
        updated_at: formatApiTimestamp(deps.clock.nowMs()),
        websocket: {
          endpoint: wsPath,
          channel_formats: {
            ticker: 'market.<SYMBOL>.ticker',
            candles: 'market.<SYMBOL>.candles.<PERIOD>',
          },
        },
        candle_periods: CANDLE_PERIODS,
        markets: listMarkets(deps).map((m) =>
          m.own
            ? {
                symbol: m.symbol,
                source: exchangeName,
                kinds: ['ticker', 'candles'],
                channels: {
                  ticker: tickerChannel(m.symbol),
                  candles: CANDLE_PERIODS.map((p) => candleChannel(m.symbol, p)),
                },
              }
            : {
                symbol: m.symbol,
                source: EXTERNAL_SOURCE,
                kinds: ['ticker'],
                channels: { ticker: tickerChannel(m.symbol), candles: [] },
              },
        ),
      },
    }),
  );
}

export function exchangeInfo(deps: RouteDeps): Reply {
  return cachedJson(deps, 'exchange', CACHE_SECONDS.exchangeInfo, (): ExchangeInfoResponse => {
    const p = deps.exchange.policy();
    const cc = instrumentRef(deps.exchange.cc());
    return {
      data: {
        updated_at: formatApiTimestamp(deps.clock.nowMs()),
        fees: {
          transfer: { amount: formatAmount(p.transferFeeCc), ...cc },
          allocation: { amount: formatAmount(p.allocationFeeCc), ...cc },
        },
        policy: {
          free_transfers_per_day: p.freeTransfersPerDay,
          min_recommended_cc_balance: formatAmount(p.minRecommendedCcBalance),
          min_swap_amount_for_fee_waiver: formatAmount(p.minSwapAmountForFeeWaiverCc),
          min_swap_amount_size_cc: formatAmount(p.minSwapAmountSizeCc),
          min_connect_swap_amount_size_cc: formatAmount(p.minConnectSwapAmountSizeCc),
          need_invite_code: p.needInviteCode,
        },
      },
    };
  });
}
