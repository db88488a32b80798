/**
 * What one ledger change needs from the exchange (api-decisions §3, §5): the store, the RNG, the
 * market, the in-memory pool and token views, ledger time, and the steps every change shares —
 * begin a ledger update, archive a reserve contract and mint its successor, save the clock and RNG
 * position, install the committed state, notify listeners. `createExchange` (ledger.ts) builds it;
 * the operation modules (execute-transfer.ts, liquidity-ops.ts) use it. Nothing here imports them.
 */

import type { PoolState, SwapEvent, Token, TokenRef } from '../core/amm/types.js';
import type { ContractIdVersion } from '../core/hash/contract-id-version.js';
import type { Sha256 } from '../core/hash/sha256.js';
import type { Dec } from '../core/money/decimal.js';
import type { ExchangeChange } from './exchange.js';
import type { MarketMeta } from './genesis.js';
import type { NextReserve } from './ledger-model.js';
import type { SimRng } from './rng.js';
import type { LedgerStore, LedgerUpdateKind } from './store/ledger-store.js';

export interface LedgerContext {
  readonly store: LedgerStore;
  readonly rng: SimRng;
  readonly sha256: Sha256;
  readonly version: ContractIdVersion;
  readonly market: MarketMeta;
  pools(): readonly PoolState[];
  pool(poolId: string): PoolState;
  tokens(): readonly Token[];
  /** tokens with instrument id `id` that are in at least one active pool (cached until a pool retires) */
  tradableTokensWithId(id: string): readonly Token[];
  /** whether `t` is a known token (O(1)) */
  isKnownToken(t: TokenRef): boolean;
  /** ledger time of the change in ms, and a strictly increasing creation time in µs */
  ledgerTimeMs(): number;
  nextCreatedAtMicros(ms: number): bigint;
  nextEventSeq(): number;
  /** a new ledger update id, recorded in ledger_updates */
  beginUpdate(kind: LedgerUpdateKind, ms: number): string;
  /** archives the pool's current contract and mints its successor (inside the caller's transaction) */
  replaceReserve(
    pool: PoolState,
    updateId: string,
    micros: bigint,
    r: { reserveA: Dec | string; reserveB: Dec | string; totalLpSupply: Dec | string },
  ): NextReserve;
  /** saves the clock and RNG position with the change (inside the caller's transaction) */
  saveMeta(ms: number): void;
  /** installs committed pool states and records the ledger time (after the transaction) */
  commitPools(states: readonly PoolState[], ms: number): void;
  commitEvents(events: readonly SwapEvent[]): void;
  emit(change: ExchangeChange): void;
}
