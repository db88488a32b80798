/**
 * The boundary between the simulated ledger (src/sim) and the HTTP/websocket layer
 * (src/server/routes, src/server/ws). Routes read state ONLY through `ExchangeView`; the simulation
 * interface (docs/protocol/api-decisions.md §5) acts through `ExchangeSimulation`. The clock is injected.
 */
import type { SwapEventLog } from '../core/amm/swap-event-index.js';
import type { Amount, ExchangePolicy, PoolState, SwapEvent, Token, TokenRef } from '../core/amm/types.js';

export interface ExchangeView {
  /** the injected clock, ms since the epoch */
  nowMs(): number;
  /** every known token, including non-tradable ones (/tokens/info) */
  tokens(): readonly Token[];
  /** the network's native coin */
  cc(): Token;
  /** all pools, current state (active and inactive) */
  pools(): readonly PoolState[];
  policy(): ExchangePolicy;
  /** party that receives Connect swap transfers */
  swapParty(): string;
  /** external CC-USD reference price (source "external" market CC-USD) */
  ccUsdPrice(): Amount;
  /** swap events with fromMs <= tsMs < toMs, oldest first */
  swapEvents(fromMs: number, toMs: number): readonly SwapEvent[];
  /** unique traders with a swap in [fromMs, toMs) */
  countTraders(fromMs: number, toMs: number): number;
  /** the swap events with their window indexes (O(log n) sums, counts and extremes per window) */
  swapEventLog(): SwapEventLog;
  /** archived + active reserve contracts of a pool, newest first (history; for tests and the mirror) */
  reserveHistory(poolId: string, limit: number): readonly PoolState[];
  /** subscribe to ledger changes (swaps, liquidity); returns an unsubscribe function */
  onChange(listener: (change: ExchangeChange) => void): () => void;
}

export type ExchangeChange =
  | { readonly type: 'swap'; readonly events: readonly SwapEvent[]; readonly pools: readonly PoolState[] }
  | { readonly type: 'liquidity'; readonly pool: PoolState };

/** A ledger transfer to the swap party (docs/protocol/api-decisions.md §5). */
export interface SimTransfer {
  readonly sender: string;
  readonly instrument: TokenRef;
  readonly amount: Amount;
  readonly memo: string;
}

export type SimTransferResult =
  | {
      readonly status: 'executed';
      readonly payout: { readonly instrument: TokenRef; readonly amount: Amount };
      readonly events: readonly SwapEvent[];
    }
  | {
      readonly status: 'refunded';
      readonly reason: string;
      readonly refund: { readonly instrument: TokenRef; readonly amount: Amount };
    };

export interface ExchangeSimulation {
  transfer(t: SimTransfer): SimTransferResult;
  addLiquidity(poolId: string, amountA: Amount, amountB: Amount, provider: string): PoolState;
  removeLiquidity(poolId: string, lpAmount: Amount, provider: string): PoolState;
  /** advances the injected clock (deterministic tests) */
  advanceMs?(ms: number): void;
}

/**
 * One reserve contract as the ledger knows it (docs/decisions/server.md "Ledger API"): what a
 * Canton participant serves of it — its created event (offset, node, the exact `created_event_blob`
 * `/pools/proof` serves) and, once archived, its archive event.
 */
export interface LedgerReserveContract {
  /** lower-case hex */
  readonly contractId: string;
  readonly poolId: string;
  /** `packageId:Module:Entity` (the package-id reference format) */
  readonly templateId: string;
  readonly packageName: string;
  /** the create argument in the Daml-LF JSON encoding (record fields by name, numerics and int64 as strings) */
  readonly createArgument: unknown;
  readonly signatories: readonly string[];
  /** the non-signatory stakeholders */
  readonly observers: readonly string[];
  readonly createdEventBlob: Uint8Array;
  /** ledger effective time of the creating update, µs since the epoch */
  readonly createdAtMicros: bigint;
  readonly created: LedgerEventPosition;
  /** null while the contract is active */
  readonly archived: LedgerEventPosition | null;
}

/** Where an event sits: its update's offset and id, and its node in that update. */
export interface LedgerEventPosition {
  /** the ledger offset of the update (1, 2, 3, … in ledger order) */
  readonly offset: number;
  readonly updateId: string;
  readonly nodeId: number;
}

/** One ledger update that creates or archives reserve contracts, with its events in node order. */
export interface LedgerReserveUpdate {
  readonly offset: number;
  readonly updateId: string;
  /** record time, µs since the epoch */
  readonly recordMicros: bigint;
  readonly events: readonly LedgerReserveEvent[];
}

export type LedgerReserveEvent =
  | { readonly kind: 'created'; readonly contract: LedgerReserveContract }
  | { readonly kind: 'archived'; readonly contract: LedgerReserveContract };

/**
 * The simulated ledger as a participant sees it: offsets, and every reserve contract ever created
 * or archived (the reference server's Ledger API, src/server/ledger-api/). Offsets are the ledger
 * updates' sequence numbers: every update has one, strictly increasing, none reused.
 */
export interface ReserveLedgerView {
  /** the templates the ledger's packages define (`packageId:Module:Entity`, package name) */
  ledgerTemplates(): readonly { readonly templateId: string; readonly packageName: string }[];
  /** the offset of the last ledger update (0 for an empty ledger) */
  ledgerEnd(): number;
  /** the reserve contract with this ID, or null when the ledger never created it */
  reserveContract(contractId: string): LedgerReserveContract | null;
  /** the reserve contracts active at `offset` (≤ ledgerEnd()), in pool order */
  activeReserveContracts(offset: number): readonly LedgerReserveContract[];
  /**
   * the updates with `after` < offset ≤ `upTo` that create or archive reserve contracts, oldest
   * first, stopping once `accept` has taken `max` of them (`accept` says whether a reader sees it)
   */
  reserveUpdates(
    after: number,
    upTo: number,
    max: number,
    accept: (u: LedgerReserveUpdate) => boolean,
  ): readonly LedgerReserveUpdate[];
}
