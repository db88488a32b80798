/**
 * Opening a ledger (api-decisions §2, §3): `seedLedger` writes a fresh database from a seed market
 * — tokens, pools, one genesis ledger update per pool creating its first reserve contract
 * (sequence 0, no previous), the LP supply √(R_a·R_b) credited to the operator — all in ONE
 * SQLite transaction; `loadLedger` reads an existing one back (restart keeps the ledger).
 */

import { formatAmount } from '../core/amm/format.js';
import type { ExchangePolicy, PoolState, SwapEvent, Token, TokenRef } from '../core/amm/types.js';
import type { ContractIdVersion } from '../core/hash/contract-id-version.js';
import { HashContext } from '../core/hash/hash-context.js';
import type { Sha256 } from '../core/hash/sha256.js';
import { ServerError } from '../errors/server.js';
import { mintNextReserve, mintUpdateId, tokenKey, toPoolState } from './ledger-model.js';
import { computeInitialLpSupply } from './liquidity.js';
import type { SimRng } from './rng.js';
import { expandSeedMarket, type SeedMarket } from './seed-market.js';
import type { LedgerStore } from './store/ledger-store.js';

/** The market-wide settings kept in meta `market` (the ledger, not the seed file, is authoritative). */
export interface MarketMeta {
  readonly operator: string;
  readonly swapParty: string;
  readonly cc: TokenRef;
  readonly ccUsdPrice: string;
  readonly adminFeeShare: string;
  readonly policy: ExchangePolicy;
}

export interface LoadedLedger {
  readonly market: MarketMeta;
  readonly tokens: readonly Token[];
  readonly pools: readonly PoolState[];
  /** oldest first */
  readonly events: SwapEvent[];
  readonly lastLedgerMs: number;
  readonly lastMicros: bigint;
}

export interface SeedLedgerInput {
  readonly store: LedgerStore;
  readonly market: SeedMarket;
  readonly extraPools: number;
  readonly operator: string;
  readonly genesisMs: number;
  readonly rng: SimRng;
  readonly sha256: Sha256;
  readonly version: ContractIdVersion;
  /** observers of every reserve contract (`serve --auditor-party`) */
  readonly observers: readonly string[];
}

/** Seeds an empty database; returns the opened ledger. */
export function seedLedger(x: SeedLedgerInput): LoadedLedger {
  const m = expandSeedMarket(x.market, x.extraPools, x.sha256);
  const context = new HashContext();
  const meta: MarketMeta = {
    operator: x.operator,
    swapParty: m.swapParty,
    cc: m.cc,
    ccUsdPrice: m.ccUsdPrice,
    adminFeeShare: m.adminFeeShare,
    policy: m.policy,
  };
  const tokenMap = new Map(m.tokens.map((t) => [tokenKey(t), t]));
  const pools: PoolState[] = [];
  let micros = BigInt(x.genesisMs) * 1000n;
  x.store.transaction(() => {
    m.tokens.forEach((t, i) => {
      x.store.insertToken(t, i);
    });
    m.pools.forEach((p, i) => {
      const tokenA = tokenMap.get(tokenKey(p.tokenA))!;
      const tokenB = tokenMap.get(tokenKey(p.tokenB))!;
      x.store.insertPool({
        poolId: p.poolId,
        ord: i,
        tokenAAdmin: tokenA.admin,
        tokenAId: tokenA.id,
        tokenBAdmin: tokenB.admin,
        tokenBId: tokenB.id,
        feeRate: p.feeRate,
        adminFeeShare: m.adminFeeShare,
        active: true,
      });
      const updateId = mintUpdateId(x.rng);
      x.store.insertLedgerUpdate(updateId, i + 1, 'genesis', micros);
      const lp = computeInitialLpSupply(p.reserveA, p.reserveB);
      const next = mintNextReserve({
        pool: {
          poolId: p.poolId,
          tokenA,
          tokenB,
          reserveA: p.reserveA,
          reserveB: p.reserveB,
          totalLpSupply: '0',
          feeRate: p.feeRate,
          adminFeeShare: m.adminFeeShare,
          active: true,
          reserveContract: null,
          sequence: null,
        },
        reserveA: p.reserveA,
        reserveB: p.reserveB,
        totalLpSupply: lp,
        operator: x.operator,
        version: x.version,
        updateId,
        createdAtMicros: micros,
        rng: x.rng,
        sha256: x.sha256,
        context,
        observers: x.observers,
      });
      x.store.insertReserveContract(next.row);
      x.store.setPoolCurrent(p.poolId, next.row.contractId, true);
      x.store.setLpPosition(p.poolId, x.operator, formatAmount(lp));
      pools.push(next.state);
      micros += 1n;
    });
    x.store.setMeta('market', JSON.stringify(meta));
    x.store.setMeta('ledger_time_ms', String(x.genesisMs));
    x.store.setMeta('last_micros', (micros - 1n).toString());
    const rngState = x.rng.saveState();
    if (rngState !== null) x.store.setMeta('rng_state', rngState);
  });
  return {
    market: meta,
    tokens: m.tokens,
    pools,
    events: [],
    lastLedgerMs: x.genesisMs,
    lastMicros: micros - 1n,
  };
}

/** Reads an existing ledger back. Throws DB_CORRUPT when a pool lacks its current contract. */
export function loadLedger(store: LedgerStore): LoadedLedger {
  let market: MarketMeta;
  try {
    market = JSON.parse(store.getMeta('market') ?? '') as MarketMeta;
  } catch (cause) {
    throw new ServerError('DB_CORRUPT', '"meta.market" expected the market settings as JSON', { cause });
  }
  const tokens = store.listTokens();
  const tokenMap = new Map(tokens.map((t) => [tokenKey(t), t]));
  const pools = store.listPools().map((row) => {
    const c = row.currentContractId === null ? null : store.getReserveContract(row.currentContractId);
    if (c === null)
      throw new ServerError('DB_CORRUPT', `"pools.${row.poolId}" expected a current reserve contract`);
    return toPoolState(row, c, tokenMap);
  });
  const lastLedgerMs = Number(store.getMeta('ledger_time_ms') ?? '0');
  const lastMicros = BigInt(store.getMeta('last_micros') ?? '0');
  return { market, tokens, pools, events: store.listSwapEvents(), lastLedgerMs, lastMicros };
}
