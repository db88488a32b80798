/**
 * Which of the two spellings of the exchange's API a snapshot met (docs/protocol/api-decisions.md §10): the
 * interface's neutral names (`price_aggregator_id`, `/aggregator/*`, `source: "service"`) or the
 * live service's (`coingecko_id`, `/coingecko/*`, `source: "cantex"`). The auditor reads both;
 * the audit report says which it found, so a reader knows what was audited.
 */
import type { AggregatorPath } from './aggregator.js';
import { isOwnMarketSource } from './markets-info.js';
import type { ApiSnapshot } from './snapshot.js';

export interface ApiDialect {
  /** where the aggregator data answered (null: neither path, or not fetched) */
  readonly aggregatorPath: AggregatorPath | null;
  /** the distinct `source` values of the exchange's own markets, sorted (empty: none or unreadable) */
  readonly exchangeNames: readonly string[];
  /** the token aggregator id's field: `coingecko_id` when /tokens/info carried it (alone or with the neutral one) */
  readonly tokenIdField: 'price_aggregator_id' | 'coingecko_id' | null;
}

export function computeApiDialect(s: ApiSnapshot): ApiDialect {
  const names = new Set<string>();
  if (s.markets.ok)
    for (const m of s.markets.value.data.markets) if (isOwnMarketSource(m.source)) names.add(m.source);
  let tokenIdField: ApiDialect['tokenIdField'] = null;
  if (s.tokens.ok && s.tokens.value.tokens.length > 0) {
    const live = s.tokens.value.tokens.some((t) => t.info.coingecko_id !== undefined);
    tokenIdField = live ? 'coingecko_id' : 'price_aggregator_id';
  }
  return { aggregatorPath: s.aggregatorPath ?? null, exchangeNames: [...names].sort(), tokenIdField };
}
