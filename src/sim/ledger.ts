/**
 * The simulated ledger of the reference server (api-decisions §3, §5): `createExchange` returns
 * one object that is both the read side the HTTP layer uses (`ExchangeView`) and the simulation
 * interface (`ExchangeSimulation`). State lives in SQLite (src/sim/store); the current pools, the
 * tokens and the swap events are mirrored in memory for the read side. Every ledger change
 * (swap, liquidity add/remove) is one SQLite transaction that archives the touched pools' reserve
 * contracts and creates their successors; listeners fire after the commit.
 *
 * Ledger time = max(clock, last ledger time), so time never runs backwards across a restart with
 * a manual clock; during `prefillHistory` it is the simulated past instant (`runAt`).
 *
 * Arrows point one way: this file builds the `LedgerContext` (ledger-context.ts) that the operation
 * modules (execute-transfer.ts, liquidity-ops.ts) work on, and the `SimulatedExchange`
 * (simulated-exchange.ts) that the traffic generator (traffic.ts) drives; none of them imports this.
 */
import { SwapEventIndex } from '../core/amm/swap-event-index.js';
import type { Amount, ExchangePolicy, PoolState, Token } from '../core/amm/types.js';
import { isPartyId } from '../core/codec/validate.js';
import type { ContractIdVersion } from '../core/hash/contract-id-version.js';
import { HashContext } from '../core/hash/hash-context.js';
import type { Sha256 } from '../core/hash/sha256.js';
import { ServerError } from '../errors/server.js';
import { sha256Node } from '../io/node-sha256.js';
import type { SimClock } from './clock.js';
import type { ExchangeChange, SimTransfer, SimTransferResult } from './exchange.js';
import { executeTransfer } from './execute-transfer.js';
import { loadLedger, seedLedger } from './genesis.js';
import type { LedgerContext } from './ledger-context.js';
import { mintNextReserve, mintUpdateId, tokenKey } from './ledger-model.js';
import { addLiquidityTo, moveReservesIn, removeLiquidityFrom, retirePoolIn } from './liquidity-ops.js';
import { computeReferencePrice } from './reference-price.js';
import { createReserveLedgerView } from './reserve-ledger.js';
import type { SimRng } from './rng.js';
import type { SeedMarket } from './seed-market.js';
import type { SimulatedExchange } from './simulated-exchange.js';
import type { ServerDb } from './store/connection.js';
import { LedgerStore } from './store/ledger-store.js';
import { prefillHistory } from './traffic.js';

export type { SimulatedExchange } from './simulated-exchange.js';

const DEFAULT_GENESIS_AGE_MS = 30 * 24 * 3600 * 1000;

export interface CreateExchangeOptions {
  readonly db: ServerDb;
  readonly clock: SimClock;
  readonly rng: SimRng;
  /** contract ID version of newly minted reserve contracts (default v12) */
  readonly contractIdVersion?: ContractIdVersion;
  /** the market to seed a fresh database with (ignored when the database already holds a ledger) */
  readonly seedMarket: SeedMarket;
  /** signatory of the reserve contracts (default: the seed market's operator) */
  readonly operatorParty?: string;
  /** generated pools added to the seed market at genesis (default: the market's generate.pools) */
  readonly extraPools?: number;
  /** how long before "now" the seeded pools were created (default 30 days), so history can be prefilled */
  readonly genesisAgeMs?: number;
  readonly sha256?: Sha256;
  /**
   * a party the reference template makes an observer of every reserve contract minted from now on
   * (`serve --auditor-party`, docs/decisions/server.md); none by default
   */
  readonly auditorParty?: string;
}

/** Opens (or seeds) the ledger in `db` and returns the exchange over it. */
export function createExchange(o: CreateExchangeOptions): SimulatedExchange {
  const store = new LedgerStore(o.db);
  const sha256 = o.sha256 ?? sha256Node;
  // the builder and caches of this exchange's mints (no module state in the core)
  const hashContext = new HashContext();
  const version = o.contractIdVersion ?? 'v12';
  if (version !== 'v10' && version !== 'v11' && version !== 'v12') {
    throw new ServerError(
      'SIMULATOR_OPTION_INVALID',
      `"contractIdVersion" expected v10, v11 or v12, got ${String(version)}`,
    );
  }
  if (o.auditorParty !== undefined && !isPartyId(o.auditorParty)) {
    throw new ServerError(
      'SIMULATOR_OPTION_INVALID',
      `"auditorParty" expected a Daml party id (1-255 of A-Z a-z 0-9 : _ - space), got ${JSON.stringify(String(o.auditorParty).slice(0, 300))}`,
    );
  }
  const observers = o.auditorParty === undefined ? [] : [o.auditorParty];
  const savedRng = store.getMeta('rng_state');
  if (savedRng !== null) o.rng.loadState(savedRng);

  const opened =
    store.getMeta('market') === null
      ? seedLedger({
          store,
          market: o.seedMarket,
          extraPools: o.extraPools ?? o.seedMarket.generatePools,
          operator: o.operatorParty ?? o.seedMarket.operator,
          genesisMs: Math.max(0, o.clock.nowMs() - (o.genesisAgeMs ?? DEFAULT_GENESIS_AGE_MS)),
          rng: o.rng,
          sha256,
          version,
          observers,
        })
      : loadLedger(store);
  const market = opened.market;
  const tokenList = opened.tokens;
  const tokenMap = new Map(tokenList.map((t) => [tokenKey(t), t]));
  const poolOrder = opened.pools.map((p) => p.poolId);
  const poolMap = new Map(opened.pools.map((p) => [p.poolId, p]));
  let poolList: readonly PoolState[] | null = null;
  let tradableById: Map<string, Token[]> | null = null;
  const events = new SwapEventIndex(opened.events);
  let lastMs = opened.lastLedgerMs;
  let lastMicros = opened.lastMicros;
  let eventSeq = opened.events.length === 0 ? 0 : opened.events[opened.events.length - 1]!.seq;
  let updateSeq = store.maxLedgerUpdateSeq();
  let pinnedMs: number | null = null;
  const listeners = new Set<(c: ExchangeChange) => void>();

  const ledgerTimeMs = (): number => pinnedMs ?? Math.max(o.clock.nowMs(), lastMs);

  const ctx: LedgerContext = {
    store,
    rng: o.rng,
    sha256,
    version,
    market,
    pools: () => {
      poolList ??= Object.freeze(poolOrder.map((id) => poolMap.get(id)!));
      return poolList;
    },
    pool: (poolId) => {
      const p = poolMap.get(poolId);
      if (p === undefined)
        throw new ServerError(
          'POOL_NOT_FOUND',
          `"poolId" expected a known pool, got ${JSON.stringify(poolId)}`,
        );
      return p;
    },
    tokens: () => tokenList,
    tradableTokensWithId: (id) => {
      if (tradableById === null) {
        tradableById = new Map();
        for (const p of poolMap.values()) {
          if (!p.active) continue;
          for (const t of [p.tokenA, p.tokenB]) {
            const list = tradableById.get(t.id) ?? [];
            if (!list.some((x) => tokenKey(x) === tokenKey(t))) list.push(t);
            tradableById.set(t.id, list);
          }
        }
      }
      return tradableById.get(id) ?? [];
    },
    isKnownToken: (t) =>
      typeof t?.admin === 'string' && typeof t.id === 'string' && tokenMap.has(tokenKey(t)),
    ledgerTimeMs,
    nextCreatedAtMicros: (ms) => {
      const candidate = BigInt(ms) * 1000n + BigInt(o.rng.int(1000));
      return candidate > lastMicros ? candidate : lastMicros + 1n;
    },
    nextEventSeq: () => ++eventSeq,
    beginUpdate: (kind, ms) => {
      const id = mintUpdateId(o.rng);
      store.insertLedgerUpdate(id, ++updateSeq, kind, BigInt(ms) * 1000n);
      return id;
    },
    replaceReserve: (pool, updateId, micros, r) => {
      const next = mintNextReserve({
        pool,
        reserveA: r.reserveA,
        reserveB: r.reserveB,
        totalLpSupply: r.totalLpSupply,
        operator: market.operator,
        version,
        updateId,
        createdAtMicros: micros,
        rng: o.rng,
        sha256,
        context: hashContext,
        observers,
      });
      store.archiveReserveContract(pool.reserveContract.contractId, updateId);
      store.insertReserveContract(next.row);
      store.setPoolCurrent(pool.poolId, next.row.contractId, pool.active);
      if (micros > lastMicros) lastMicros = micros;
      return next;
    },
    saveMeta: (ms) => {
      store.setMeta('ledger_time_ms', String(Math.max(ms, lastMs)));
      store.setMeta('last_micros', lastMicros.toString());
      const rngState = o.rng.saveState();
      if (rngState !== null) store.setMeta('rng_state', rngState);
    },
    commitPools: (states, ms) => {
      for (const s of states) {
        if (poolMap.get(s.poolId)?.active !== s.active) tradableById = null;
        poolMap.set(s.poolId, s);
      }
      poolList = null;
      if (ms > lastMs) lastMs = ms;
    },
    commitEvents: (evs) => {
      for (const e of evs) events.append(e);
    },
    emit: (change) => {
      for (const l of listeners) {
        try {
          l(change);
        } catch {
          // a listener's failure must not undo or block a committed ledger change
        }
      }
    },
  };

  const ledgerView = createReserveLedgerView(store);
  const exchange: SimulatedExchange = {
    ...ledgerView,
    rng: o.rng,
    nowMs: () => Math.max(o.clock.nowMs(), lastMs),
    tokens: () => tokenList,
    cc: () => tokenMap.get(tokenKey(market.cc))!,
    pools: () => ctx.pools(),
    policy: (): ExchangePolicy => market.policy,
    swapParty: () => market.swapParty,
    ccUsdPrice: (): Amount => computeReferencePrice(market.ccUsdPrice, exchange.nowMs()),
    ccUsdPriceAt: (tsMs) => computeReferencePrice(market.ccUsdPrice, tsMs),
    swapEvents: (fromMs, toMs) => events.slice(fromMs, toMs),
    countTraders: (fromMs, toMs) => events.countTraders(fromMs, toMs),
    swapEventLog: () => events,
    reserveHistory: (poolId, limit) => {
      const current = ctx.pool(poolId);
      return store.listReserveContracts(poolId, limit).map((c) => ({
        ...current,
        reserveA: c.reserveA,
        reserveB: c.reserveB,
        totalLpSupply: c.totalLpSupply,
        feeRate: c.feeRate,
        sequence: c.sequence,
        reserveContract: {
          ...current.reserveContract,
          contractId: c.contractId,
          updateId: c.updateId,
          createdAtMicros: c.createdAtMicros,
          createdEventBlob: Buffer.from(c.blob).toString('base64'),
        },
      }));
    },
    reserveContracts: (poolId, limit) => {
      ctx.pool(poolId);
      return store.listReserveContracts(poolId, limit);
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    transfer: (t: SimTransfer): SimTransferResult => executeTransfer(ctx, t),
    addLiquidity: (poolId, amountA, amountB, provider) =>
      addLiquidityTo(ctx, poolId, amountA, amountB, provider),
    retirePool: (poolId) => retirePoolIn(ctx, poolId),
    moveReserves: (poolId, reserveA, reserveB) => moveReservesIn(ctx, poolId, reserveA, reserveB),
    removeLiquidity: (poolId, lpAmount, provider) => removeLiquidityFrom(ctx, poolId, lpAmount, provider),
    contractIdVersion: () => version,
    operatorParty: () => market.operator,
    lastLedgerTimeMs: () => lastMs,
    runAt: (tsMs, fn) => {
      if (!Number.isSafeInteger(tsMs) || tsMs < lastMs) {
        throw new ServerError(
          'SIMULATOR_OPTION_INVALID',
          `"tsMs" expected an integer ≥ the last ledger time ${lastMs}, got ${tsMs}`,
        );
      }
      const before = pinnedMs;
      pinnedMs = tsMs;
      try {
        return fn();
      } finally {
        pinnedMs = before;
      }
    },
    prefillHistory: (p) => prefillHistory(exchange, p),
  };
  const clock = o.clock as SimClock & { advanceMs?: (ms: number) => void };
  if (typeof clock.advanceMs === 'function') {
    const advance = clock.advanceMs.bind(clock);
    (exchange as { advanceMs?: (ms: number) => void }).advanceMs = (ms) => advance(ms);
  }
  return exchange;
}
