/**
 * The wire parsers read both spellings of the API (api-decisions §10): the token aggregator id as
 * `price_aggregator_id`, `coingecko_id` or both (equal), and any exchange name as the `source` of
 * the exchange's own markets.
 */
import { describe, expect, it } from 'vitest';
import {
  isAggregatorEndpoint,
  isOwnMarketSource,
  parseMarketsInfoResponse,
  parseTokensInfoResponse,
} from '../../src/core/wire/index.js';
import { ApiShapeError } from '../../src/errors/api.js';

const token = (ids: Record<string, string | null>) => ({
  tokens: [
    {
      info: {
        instrument_admin: 'DSO::1220aa',
        instrument_id: 'Amulet',
        instrument_name: 'Canton Coin',
        instrument_symbol: 'CC',
        ...ids,
      },
    },
  ],
});

describe('token aggregator id spellings', () => {
  it('neutral only, live only, both equal', () => {
    expect(parseTokensInfoResponse(token({ price_aggregator_id: 'canton-network' })).tokens[0]?.info).toEqual(
      expect.objectContaining({ price_aggregator_id: 'canton-network' }),
    );
    const live = parseTokensInfoResponse(token({ coingecko_id: 'canton-network' })).tokens[0]?.info;
    expect(live?.price_aggregator_id).toBe('canton-network');
    expect(live?.coingecko_id).toBe('canton-network');
    const both = parseTokensInfoResponse(token({ price_aggregator_id: null, coingecko_id: null })).tokens[0]
      ?.info;
    expect(both?.price_aggregator_id).toBeNull();
  });

  it('both present but different, or neither: a shape error naming the field', () => {
    expect(() => parseTokensInfoResponse(token({ price_aggregator_id: 'a', coingecko_id: 'b' }))).toThrow(
      /tokens\[0\]\.info\.coingecko_id expected the same id as price_aggregator_id \("a"\), got "b"/,
    );
    expect(() => parseTokensInfoResponse(token({}))).toThrow(ApiShapeError);
    expect(() => parseTokensInfoResponse(token({}))).toThrow(/price_aggregator_id/);
  });
});

describe('market source and aggregator paths', () => {
  const markets = (source: string) => ({
    data: {
      updated_at: '2026-11-22T03:50:04.465+00:00',
      websocket: { endpoint: '/v1/ws/public', channel_formats: { ticker: 't', candles: 'c' } },
      candle_periods: [60],
      markets: [{ symbol: 'CC-USDCX', source, kinds: ['ticker'], channels: { ticker: 'x', candles: [] } }],
    },
  });

  it('any exchange name is an own market; external is not', () => {
    for (const s of ['service', 'cantex', 'my.exchange-2']) {
      expect(parseMarketsInfoResponse(markets(s)).data.markets[0]?.source).toBe(s);
      expect(isOwnMarketSource(s)).toBe(true);
    }
    expect(isOwnMarketSource('external')).toBe(false);
    for (const bad of ['', 'two words', 'x'.repeat(65)])
      expect(() => parseMarketsInfoResponse(markets(bad))).toThrow(ApiShapeError);
  });

  it('aggregator endpoints under either namespace', () => {
    expect(isAggregatorEndpoint('/aggregator/tickers', 'tickers')).toBe(true);
    expect(isAggregatorEndpoint('/coingecko/tickers', 'tickers')).toBe(true);
    expect(isAggregatorEndpoint('/coingecko/pairs', 'tickers')).toBe(false);
    expect(isAggregatorEndpoint('/other/tickers', 'tickers')).toBe(false);
  });
});
