/**
 * Market symbols and aggregator ticker ids (docs/protocol/api-decisions.md §2, §6): `<BASE>-<QUOTE>` in
 * upper case, ticker id with `_` for the separating `-`. Token symbols may themselves contain `-`
 * and `.`, so parsing works from the right: the quote is the last segment.
 */
import { AmmError } from '../../errors/amm.js';
import { formatGot } from '../../errors/base.js';
import type { PoolState } from './types.js';

export interface MarketSymbol {
  readonly base: string;
  readonly quote: string;
}

/** "CC" + "USDCX" → "CC-USDCX" (upper case). */
export function formatMarketSymbol(base: string, quote: string): string {
  return `${base.toUpperCase()}-${quote.toUpperCase()}`;
}

/** The market symbol of a pool: token a's symbol, '-', token b's symbol. */
export function formatPoolMarketSymbol(pool: Pick<PoolState, 'tokenA' | 'tokenB'>): string {
  return formatMarketSymbol(pool.tokenA.symbol, pool.tokenB.symbol);
}

/** Aggregator ticker id: "TF-USDT-CC" → "TF-USDT_CC" (only the separator becomes '_'). */
export function formatTickerId(base: string, quote: string): string {
  return `${base.toUpperCase()}_${quote.toUpperCase()}`;
}

function split(text: unknown, sep: '-' | '_', what: string): MarketSymbol {
  if (typeof text !== 'string') {
    throw new AmmError(
      'AMM_INVALID_MARKET_SYMBOL',
      `"${what}" expected <BASE>${sep}<QUOTE>, got ${formatGot(text)}`,
    );
  }
  const i = text.lastIndexOf(sep);
  if (i <= 0 || i === text.length - 1) {
    throw new AmmError(
      'AMM_INVALID_MARKET_SYMBOL',
      `"${what}" expected <BASE>${sep}<QUOTE>, got ${formatGot(text)}`,
    );
  }
  return { base: text.slice(0, i), quote: text.slice(i + 1) };
}

/**
 * Parses "<BASE>-<QUOTE>" from the right: "TF-USDT-CC" → {base "TF-USDT", quote "CC"}. Case is
 * kept (compare case-insensitively). Throws `AMM_INVALID_MARKET_SYMBOL`. Note: a quote symbol
 * that itself contains '-' cannot be told apart; match against known markets when that matters
 * (`findMarketPools`).
 */
export function parseMarketSymbol(text: unknown): MarketSymbol {
  return split(text, '-', 'symbol');
}

/** Parses "<BASE>_<QUOTE>" from the right (the aggregator ticker_id). Throws `AMM_INVALID_MARKET_SYMBOL`. */
export function parseTickerId(text: unknown): MarketSymbol {
  return split(text, '_', 'ticker_id');
}

/**
 * Active pools whose market symbol equals `symbol` case-insensitively (exact match against the
 * pools' own symbols, so symbols containing '-' on either side resolve without ambiguity).
 */
export function findMarketPools(pools: readonly PoolState[], symbol: string): PoolState[] {
  const wanted = symbol.toUpperCase();
  return pools.filter((p) => p.active && formatPoolMarketSymbol(p) === wanted);
}
