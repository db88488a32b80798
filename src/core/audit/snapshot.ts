/**
 * What the auditor read from the exchange (docs/protocol/public-api.md "Resources", api-decisions §2–§6),
 * normalised to the few fields the checks use. The io layer (src/run/audit.ts) fills it from the
 * parsed API responses; unit tests build it by hand. Every section is a `Fetched<T>`: either the
 * value or the reason it could not be obtained — a missing section makes its checks
 * could-not-check, never a pass.
 *
 * Amounts are decimal strings as published; aggregator numbers stay JS numbers (the API publishes
 * them as numbers and they are only compared within a tolerance).
 */
import type { ExchangePolicy } from '../amm/types.js';
import type { MalformedEntry } from '../wire/shape.js';
import type { ProbeQuote } from '../wire/snapshot.js';
import type { ResponseTiming } from './market-time.js';

export type { MalformedEntry, ProbeQuote };

/** Pool entries set aside because they did not have the documented shape (each one pool's finding). */
export interface MalformedEntries {
  /** /pools/proof entries of either fetch, one per (pool or index, path) */
  readonly proofs: readonly MalformedEntry[];
  readonly state: readonly MalformedEntry[];
  /** /pools/info entries (absent in hand-built snapshots: none) */
  readonly info?: readonly MalformedEntry[];
}

export type Fetched<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: string };

export interface TokenKey {
  readonly admin: string;
  readonly id: string;
}

export interface TemplateIdentity {
  readonly packageId: string;
  readonly packageName: string;
  readonly moduleName: string;
  readonly entityName: string;
}

/** One element of /pools/proof data.pools[]. */
export interface ProofEntry {
  readonly poolId: string;
  readonly poolCid: string;
  readonly tokenA: TokenKey;
  readonly tokenB: TokenKey;
  readonly contractId: string;
  readonly updateId: string;
  readonly template: TemplateIdentity;
  readonly ledgerCreatedAt: string;
  readonly createdEventBlob: string;
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
}

/** One element of /pools/state data.pools[]. */
export interface StateEntry {
  readonly poolId: string;
  readonly contractId: string;
  readonly symbol: string;
  readonly tokenA: TokenKey & { readonly symbol: string };
  readonly tokenB: TokenKey & { readonly symbol: string };
  readonly feeRate: string;
  readonly reserveA: string;
  readonly reserveB: string;
  readonly price: string | null;
  readonly tvlCc: string;
}

/** One element of /pools/info pools[]. */
export interface PoolInfoEntry {
  readonly contractId: string;
  readonly poolId: string;
  readonly tokenA: TokenKey;
  readonly tokenB: TokenKey;
  readonly feeRate: string;
  readonly adminFeeShare: string;
}

export interface TokenInfoEntry extends TokenKey {
  readonly name: string;
  readonly symbol: string;
}

export interface MarketEntry {
  readonly symbol: string;
  readonly source: string;
}

export interface PairEntry {
  readonly tickerId: string;
  readonly base: string;
  readonly target: string;
  readonly poolId: string | null;
}

export interface TickerEntry {
  readonly tickerId: string;
  readonly poolId: string | null;
  /** null: no price published (the deepest pool has no reserves) */
  readonly lastPrice: number | null;
  readonly bid: number | null;
  readonly ask: number | null;
  /** the reserve contract the ticker names (the `?include_proof=true` extension), when it does */
  readonly contractId?: string | null;
}

/** /aggregator/orderbook for one ticker: [price, base amount] levels, best first. */
export interface OrderbookEntry {
  readonly tickerId: string;
  /** the book's own `timestamp` (ms, exchange clock), when published */
  readonly timestampMs?: number;
  readonly bids: readonly (readonly [number, number])[];
  readonly asks: readonly (readonly [number, number])[];
}

export interface VolumeWindow {
  readonly startTime: string;
  readonly endTime: string;
  readonly swapCount: string;
  readonly volumeCc: string;
  readonly feesCc: string;
  readonly lpFeesCc: string;
  readonly protocolFeesCc: string;
}

export interface StatsSummary {
  readonly ccVolume24h: string;
  readonly count24h: number;
  readonly tvlCc: string;
  /** `pool_tvl.updated_at` (ms, exchange clock): the pool snapshot the total names, when published */
  readonly tvlUpdatedAtMs?: number;
}

/** A consecutive-window probe of /volume: the default window, a closed window and its two halves. */
export interface VolumeSplit {
  readonly default: VolumeWindow;
  readonly whole: VolumeWindow;
  readonly parts: readonly VolumeWindow[];
  /** the windows bounding the /stats 24 h figures (stats-bounds.ts); absent when not fetched */
  readonly statsOuter?: VolumeWindow;
  readonly statsInner?: VolumeWindow;
}

/** One /pools/proof response: its snapshot time (exchange clock, `updated_at`) and entries. */
export interface ProofSet {
  readonly updatedAtMs: number;
  readonly entries: readonly ProofEntry[];
}

/** Fetch times and cache headers of the cached market-data responses (docs/decisions/audit.md). */
export interface MarketTiming {
  readonly tickers: ResponseTiming | null;
  readonly pairs?: ResponseTiming | null;
  /** by ticker id */
  readonly orderbooks: ReadonlyMap<string, ResponseTiming>;
  readonly stats: ResponseTiming | null;
  readonly volumeDefault: ResponseTiming | null;
  /** /pools/state Cache-Control max-age: how old the pool snapshot behind aggregator data may be */
  readonly poolsMaxAgeSeconds: number | null;
}

export interface AuditSnapshot {
  readonly baseUrl: string;
  /** ISO time the snapshot started (injected by io) */
  readonly fetchedAt: string;
  /** /pools/proof, first fetch */
  readonly proofs: Fetched<readonly ProofEntry[]>;
  /** /pools/proof, fetched again after /pools/state (the proof-state-proof sandwich) */
  readonly proofsAfter: Fetched<readonly ProofEntry[]>;
  readonly state: Fetched<readonly StateEntry[]>;
  readonly poolsInfo: Fetched<readonly PoolInfoEntry[]>;
  readonly tokens: Fetched<readonly TokenInfoEntry[]>;
  readonly markets: Fetched<readonly MarketEntry[]>;
  readonly pairs: Fetched<readonly PairEntry[]>;
  readonly tickers: Fetched<readonly TickerEntry[]>;
  /** one per pair (by ticker id) */
  readonly orderbooks: Fetched<readonly OrderbookEntry[]>;
  readonly volume: Fetched<VolumeSplit>;
  readonly stats: Fetched<StatsSummary>;
  /** /exchange/info policy, with the published Connect fee rule (0.20 %, 2 CC network fee) */
  readonly policy: Fetched<ExchangePolicy>;
  /** null when --probe-quotes was not given */
  readonly quotes: Fetched<readonly ProbeQuote[]> | null;
  /** the CC token (instrument id / admin), as identified by the exchange (/swap/info network_fee) */
  readonly cc: TokenKey | null;
  /** malformed pool entries of /pools/proof and /pools/state (absent: none) */
  readonly malformed?: MalformedEntries;
  /**
   * every /pools/proof response that parsed, in fetch order (before, after, the closing bracket and
   * re-fetch rounds); absent in hand-built snapshots
   */
  readonly proofSets?: readonly ProofSet[];
  /** absent: no timing known (hand-built snapshots) — cached data is then compared strictly */
  readonly timing?: MarketTiming;
}
