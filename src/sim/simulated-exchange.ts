/**
 * The whole surface of the simulated exchange (api-decisions §3, §5): the read side the HTTP layer
 * uses (`ExchangeView`), the simulation interface (`ExchangeSimulation`), the ledger as a
 * participant sees it (`ReserveLedgerView`, the Ledger API's source), and what only tests, the
 * traffic generator and the composition root (server/serve.ts) need — retiring a pool, raw reserve
 * contracts, pinned ledger time, history prefill. `createExchange` (ledger.ts) implements it; the
 * traffic generator (traffic.ts) drives it. The server's routes never see more than exchange.ts.
 */
import type { Amount, PoolState } from '../core/amm/types.js';
import type { ContractIdVersion } from '../core/hash/contract-id-version.js';
import type { ExchangeSimulation, ExchangeView, ReserveLedgerView } from './exchange.js';
import type { SimRng } from './rng.js';
import type { ReserveContractRow } from './store/ledger-store.js';

export interface PrefillOptions {
  /** length of the trailing window to fill, ms */
  readonly duration: number;
  readonly swapsPerMinute: number;
  /** called about every 1 % of the swaps and after the last: swaps run so far, and in all */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface PrefillResult {
  readonly executed: number;
  readonly refunded: number;
  readonly fromMs: number;
  readonly toMs: number;
}

export interface SimulatedExchange extends ExchangeView, ExchangeSimulation, ReserveLedgerView {
  /** the contract ID version of newly minted reserve contracts */
  contractIdVersion(): ContractIdVersion;
  /**
   * Retires a pool: one ledger update archives its reserve contract without a successor and marks
   * it inactive (absent from /pools/proof; its last contract stays its `reserveContract`).
   */
  retirePool(poolId: string): PoolState;
  /**
   * A misbehaving operator (tamper tests): one ledger update replaces the pool's reserve contract with
   * one holding these reserves and the same LP supply — reserves taken out (a drain) or put back
   * without burning or minting LP units. The chain of contracts stays intact; the LP-share value moves.
   */
  moveReserves(poolId: string, reserveA: Amount, reserveB: Amount): PoolState;
  /** the reserve-contract signatory */
  operatorParty(): string;
  /** raw rows of a pool's reserve contracts, newest first (archived ones have `archivedBy`) */
  reserveContracts(poolId: string, limit: number): readonly ReserveContractRow[];
  /** runs `fn` with the ledger time pinned at `tsMs` (≥ the last ledger time); used by prefill */
  runAt<T>(tsMs: number, fn: () => T): T;
  /** the simulated CC-USD reference price at `tsMs` (ccUsdPrice() is its value now) */
  ccUsdPriceAt(tsMs: number): Amount;
  /** the last ledger time, ms */
  lastLedgerTimeMs(): number;
  /** simulates swaps over the trailing `duration` ms (events time-stamped in the past) */
  prefillHistory(o: PrefillOptions): PrefillResult;
  readonly rng: SimRng;
}
